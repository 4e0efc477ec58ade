"""3ViewProjection: the missing orthographic view of a cube stack (level 0) or of an
engineering part (levels 1-3)."""

from spatialcad.tasks.registry import TaskInfo, declare

TASK = declare(TaskInfo(
    name="three_view",
    record_task="3ViewProjection",
    category="MentalRotation",
    order=3,
    package=__name__,
    max_level=3,
    needs_freecad=True,
))
