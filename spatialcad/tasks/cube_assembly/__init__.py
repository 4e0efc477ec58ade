"""CubeAssembly: which piece completes a split cube stack?"""

from spatialcad.tasks.registry import TaskInfo, declare

TASK = declare(TaskInfo(
    name="cube_assembly",
    record_task="CubeAssembly",
    category="VisualPenetration",
    order=9,
    package=__name__,
    max_level=6,  # from level 7 on a row of legible pictures is wider than 2048 px
    open_form="every item",
))
