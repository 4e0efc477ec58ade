"""3DRotation: which option can (or cannot) be obtained by rotating a cube stack?"""

from spatialcad.tasks.registry import TaskInfo, declare

TASK = declare(TaskInfo(
    name="rotation_3d",
    record_task="3DRotation",
    category="MentalRotation",
    order=2,
    package=__name__,
    practical_max_level=4,  # legible panels for bigger stacks fit no composite: many redraws
))
