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


def _import() -> tuple[ModuleType, ModuleType]:
    import FreeCAD
    import Part

    return FreeCAD, Part


@cache
def load() -> tuple[ModuleType, ModuleType]:
    """Import and return ``(FreeCAD, Part)``, or raise :class:`FreeCADNotFound` saying why.

    A FreeCAD already importable (a conda env, FreeCAD's own Python) is taken first, then
    the first candidate directory whose ``FreeCAD.so`` imports.  A candidate that holds a
    ``FreeCAD.so`` which fails to import (a broken ``FREECAD_LIB``) does not hide the next
    one: its error is shown on stderr as a warning, or in the exception if none works.
    """
    try:
        return _import()
    except ImportError:
        pass
    errors: list[str] = []
    for d in candidate_dirs():
        if not ((d / "FreeCAD.so").exists() or (d / "FreeCAD.pyd").exists()):
            if d == Path(os.environ.get("FREECAD_LIB") or "/nonexistent"):
                errors.append(f"FREECAD_LIB={d} holds no FreeCAD.so")
            continue
        sys.path.append(str(d))
        try:
            modules = _import()
        except ImportError as exc:
            sys.path.remove(str(d))
            errors.append(f"{d}/FreeCAD.so does not import: {exc}")
            continue
        for e in errors:
            print(f"spatialcad: warning: {e}; using FreeCAD from {d}", file=sys.stderr)
        return modules
    searched = ", ".join(str(d) for d in candidate_dirs())
    why = "; ".join(errors) or f"no FreeCAD.so in {searched}"
    raise FreeCADNotFound(
        f"FreeCAD's Python module could not be imported ({why}). Install it with `make "
        "setup` (Debian: apt-get install freecad-python3), create the conda env from "
        "environment.yml, or set FREECAD_LIB to the directory holding FreeCAD.so."
    )
