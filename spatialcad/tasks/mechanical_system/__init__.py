"""MechanicalSystem: gears, belts, racks and ropes, and planetary trains; a driven part
turns: which way do the others turn or move (a planet: turn and go round), which turns
fastest, or is the mechanism jammed?"""

from spatialcad.tasks.registry import TaskInfo, declare

TASK = declare(TaskInfo(
    name="mechanical_system",
    record_task="MechanicalSystem",
    category="MentalAnimation",
    order=12,
    package=__name__,
    open_form="every item",
    max_level=13,  # level 13 has 18 parts, all the labels allow: later levels would repeat it
))
