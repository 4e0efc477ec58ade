"""Deterministic headless rendering: orthographic z-buffer rasterizer with edge overlay,
2D line drawings, item composites with option labels, PNG I/O and grid read-back.

Pure numpy + OpenCV + shapely: imports neither FreeCAD nor other spatialcad packages.
"""

from .camera import VIEWS, Camera, camera, orbit
from .drawing import draw_polylines, draw_shapes, text_panel
from .gridread import GridReadError, read_cell_colours, read_grid
from .layout import compose
from .mesh import Mesh, empty_mesh, feature_edges, merge, solid_mesh, voxel_mesh
from .png import decode_png, encode_png
from .raster import fit_scale, projected_bounds, render

__all__ = [
    "VIEWS",
    "Camera",
    "GridReadError",
    "Mesh",
    "camera",
    "compose",
    "decode_png",
    "draw_polylines",
    "draw_shapes",
    "empty_mesh",
    "encode_png",
    "feature_edges",
    "fit_scale",
    "merge",
    "orbit",
    "projected_bounds",
    "read_cell_colours",
    "read_grid",
    "render",
    "solid_mesh",
    "text_panel",
    "voxel_mesh",
]
