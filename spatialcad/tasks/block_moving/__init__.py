"""BlockMoving: which sequence of moves turns one state of a coloured cube stack into another?"""

from spatialcad.tasks.registry import TaskInfo, declare

TASK = declare(TaskInfo(
    name="block_moving",
    record_task="BlockMoving",
    category="MentalAnimation",
    order=11,
    package=__name__,
    max_level=12,  # from level 13 on four panels of legible cubes fit no composite (issue 48)
))
