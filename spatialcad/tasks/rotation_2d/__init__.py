"""2DRotation: which option is the reference grid turned in its plane?"""

from spatialcad.tasks.registry import TaskInfo, declare

TASK = declare(TaskInfo(
    name="rotation_2d",
    record_task="2DRotation",
    category="MentalRotation",
    order=1,
    package=__name__,
    max_level=12,  # from level 13 on five panels of legible grids fit no composite (issue 48)
))
