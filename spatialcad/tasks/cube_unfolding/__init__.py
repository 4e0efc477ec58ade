"""CubeUnfolding: which net can (or cannot) fold into the cube seen from a corner?"""

from spatialcad.tasks.registry import TaskInfo, declare

TASK = declare(TaskInfo(
    name="cube_unfolding",
    record_task="CubeUnfolding",
    category="MentalFolding",
    order=5,
    package=__name__,
))
