"""PaperFolding: a folded, punched sheet; which hole pattern does it unfold to?"""

from spatialcad.tasks.registry import TaskInfo, declare

TASK = declare(TaskInfo(
    name="paper_folding",
    record_task="PaperFolding",
    category="MentalFolding",
    order=4,
    package=__name__,
    open_form="every item",
))
