"""CubeReconstruction: given a net, which colour is opposite a face, or which corner view
of the folded cube is possible?"""

from spatialcad.tasks.registry import TaskInfo, declare

TASK = declare(TaskInfo(
    name="cube_reconstruction",
    record_task="CubeReconstruction",
    category="MentalFolding",
    order=6,
    package=__name__,
    open_form="the opposite-colour items",
))
