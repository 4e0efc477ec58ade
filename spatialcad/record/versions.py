"""The versions of everything that decides output bytes, as recorded in every manifest.

The code paths themselves are held CPU-independent (docs/ARCHITECTURE.md, "Same bytes on
every CPU"), but another release of numpy, OpenCV (its resampling, its bundled libpng),
zlib (the PNG streams), numba, shapely/GEOS, scipy or FreeCAD may round or compress
differently.  ``make setup`` installs the versions in constraints.txt; the manifest says
which ones made a benchmark, and ``verify`` and ``merge`` compare them.
"""

from __future__ import annotations

import platform
import sys
import zlib
from functools import cache
from importlib import metadata

PACKAGES = ("numpy", "numba", "llvmlite", "scipy", "shapely")


def _freecad() -> str:
    from spatialcad import freecad_env

    try:
        freecad, _ = freecad_env.load()
    except freecad_env.FreeCADNotFound:
        return "absent"
    return ".".join(str(v) for v in freecad.Version()[:3])


@cache
def byte_versions() -> dict[str, str]:
    """{"python": ..., "numpy": ..., ..., "opencv": ..., "zlib": ..., "freecad": ...} of
    this process (the zlib that compresses the PNGs is the one loaded here)."""
    import shapely

    from spatialcad.render.opencv import cv2

    found = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:  # a conda env without pip metadata
            found[name] = str(getattr(sys.modules.get(name), "__version__", "unknown"))
    found.update(geos=shapely.geos_version_string, opencv=cv2.__version__,
                 zlib=zlib.ZLIB_RUNTIME_VERSION, freecad=_freecad())
    return found


def differences(recorded: object) -> list[str]:
    """``name recorded -> here`` for every version that differs from this process's (a
    manifest from before versions were recorded: one line saying so)."""
    if not isinstance(recorded, dict):
        return ["the manifest records no library versions (made before they were recorded)"]
    here = byte_versions()
    return [f"{name} {recorded.get(name, '?')} -> {here[name]}" for name in here
            if str(recorded.get(name)) != here[name]]
