"""CubeCounting: how many cubes can a stack have, given two or three of its views?"""

from spatialcad.tasks.registry import TaskInfo, declare

TASK = declare(TaskInfo(
    name="cube_counting",
    record_task="CubeCounting",
    category="VisualPenetration",
    order=8,
    package=__name__,
    open_form='every item',
    practical_max_level=20,
))
