"""The tasks: one package each (spatialcad/tasks/<name>/), declared in its ``__init__`` and
found by spatialcad/tasks/registry.py."""
