"""CrossSection: which image cannot be a cross-section of a stack of basic solids?"""

from spatialcad.tasks.registry import TaskInfo, declare

TASK = declare(TaskInfo(
    name="cross_section",
    record_task="CrossSection",
    category="VisualPenetration",
    order=7,
    package=__name__,
    practical_max_level=12,
    needs_freecad=True,
))
