"""Pure numpy geometry: no FreeCAD, no rendering."""
