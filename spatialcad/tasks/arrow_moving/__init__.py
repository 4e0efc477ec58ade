"""ArrowMoving: arrows on a grid moved by egocentric rules; which moves, or which end state?"""

from spatialcad.tasks.registry import TaskInfo, declare

TASK = declare(TaskInfo(
    name="arrow_moving",
    record_task="ArrowMoving",
    category="MentalAnimation",
    order=10,
    package=__name__,
    open_form='the end-state ("state") items',
    practical_max_level=12,
))
