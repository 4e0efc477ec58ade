"""CubeAssembly: which piece completes a split cube stack?"""

from spatialcad.tasks.registry import TaskInfo, declare

TASK = declare(TaskInfo(
    name="cube_assembly",
    record_task="CubeAssembly",
    category="VisualPenetration",
    order=9,
    package=__name__,
    open_form='every item',
    practical_max_level=10,
))
