"""ToyCount: how many black squares does the picture show?  A task small enough to read in
a minute, living outside the package: tests/test_registry.py declares it and runs it through
the command line, the pipeline, the verifier dispatch and the FreeCAD scene."""

from spatialcad.tasks.registry import TaskInfo

INFO = TaskInfo(
    name="toy_count",
    record_task="ToyCount",
    category="VisualPenetration",
    order=100,
    package=__name__,
    max_level=2,
)
