"""CubeAssembly: which piece completes a split cube stack?"""

from spatialcad.tasks.registry import TaskInfo, declare

TASK = declare(TaskInfo(
    name="cube_assembly",
    record_task="CubeAssembly",
    category="VisualPenetration",
    order=9,
    package=__name__,
    max_level=3,  # beyond, more pieces or a larger space: the pictures with legible cubes
    # (two views each) would not fit layout.MAX_PIXELS (render/piece_pictures.option_view)
    open_form="every item",
))
