"""``python -m spatialcad``: the same command line as ``spatialcad`` (for an environment
whose scripts directory is not on PATH)."""

from spatialcad.cli import main

main()
