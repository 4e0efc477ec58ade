"""FreeCAD-backed geometry (solids, composites, tessellation, plane sections, CAD import).

Modules get FreeCAD only through :func:`spatialcad.freecad_env.load`, called inside
functions, so importing a ``cad`` module never fails on a machine without FreeCAD.
"""
