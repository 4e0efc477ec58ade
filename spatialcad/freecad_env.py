"""The only place that locates and imports FreeCAD.

FreeCAD is searched, in order, in ``$FREECAD_LIB``, the active conda prefix, Debian's
``freecad-python3`` package and Debian's ``freecad`` package.  Everything else in the
package gets FreeCAD through :func:`load`.
"""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path
from types import ModuleType


class FreeCADNotFound(RuntimeError):
    """FreeCAD's Python module could not be imported."""


def candidate_dirs() -> list[Path]:
    """Directories that may hold ``FreeCAD.so``, most specific first."""
    dirs: list[Path] = []
    if os.environ.get("FREECAD_LIB"):
        dirs.append(Path(os.environ["FREECAD_LIB"]))
    if os.environ.get("CONDA_PREFIX"):
        dirs.append(Path(os.environ["CONDA_PREFIX"]) / "lib")
    dirs += [Path("/usr/lib/freecad-python3/lib"), Path("/usr/lib/freecad/lib")]
    return dirs


@cache
def load() -> tuple[ModuleType, ModuleType]:
    """Import and return ``(FreeCAD, Part)``, or raise :class:`FreeCADNotFound` saying why."""
    try:
        import FreeCAD  # noqa: F401  (already importable: conda env, FreeCAD's own Python)
    except ImportError:
        for d in candidate_dirs():
            if (d / "FreeCAD.so").exists() or (d / "FreeCAD.pyd").exists():
                sys.path.append(str(d))
                break
    try:
        import FreeCAD
        import Part
    except ImportError as exc:
        searched = ", ".join(str(d) for d in candidate_dirs())
        raise FreeCADNotFound(
            "FreeCAD's Python module was not found (searched: "
            f"{searched}). Install it with `make setup` (Debian: apt-get install "
            "freecad-python3), create the conda env from environment.yml, or set "
            "FREECAD_LIB to the directory holding FreeCAD.so."
        ) from exc
    return FreeCAD, Part
