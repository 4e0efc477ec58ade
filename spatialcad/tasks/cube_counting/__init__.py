"""CubeCounting: how many cubes can a stack have, given two or three of its views?"""

from spatialcad.tasks.registry import TaskInfo, declare

TASK = declare(TaskInfo(
    name="cube_counting",
    record_task="CubeCounting",
    category="VisualPenetration",
    order=8,
    package=__name__,
    max_level=15,  # from level 16 on three views of legible cubes are wider than 2048 px
    open_form="every item",
))
