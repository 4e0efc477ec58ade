"""spatialcad: headless generator of spatial-visualization benchmark items with proved answers."""

__version__ = "0.1.0"
