"""Compiling the numba kernels ahead of a run (spatialcad/compile_kernels.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from spatialcad.compile_kernels import HEAVIEST, compile_kernels, compile_order
from spatialcad.tasks.registry import tasks

# prints how many kernels numba compiled (cache misses) while making items of TASK at LEVELS
COUNT_COMPILES = """
import sys
from numba.core import event
class Count(event.Listener):
    n = 0
    def on_start(self, e): pass
    def on_end(self, e): Count.n += 1
event.register("numba:compile", Count())
from spatialcad.pipeline import make_item
task, levels = sys.argv[1], [int(v) for v in sys.argv[2].split(",")]
for level in levels:
    for i in range(2):
        make_item(task, level, i, 2, 7)
print(Count.n)
"""


def compiles(task: str, levels: str, cache: Path) -> int:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    out = subprocess.run([sys.executable, "-c", COUNT_COMPILES, task, levels], env=env,
                         capture_output=True, text=True, check=True)
    return int(out.stdout.split()[-1])


def test_the_heaviest_tasks_are_handed_out_first() -> None:
    names = list(tasks())
    order = compile_order(names)
    assert sorted(order) == sorted(names)
    assert order[: len(HEAVIEST)] == list(HEAVIEST)
    assert set(HEAVIEST) <= set(names)  # no stale name


def test_one_item_per_task_is_made_in_worker_processes() -> None:
    seconds = compile_kernels(["arrow_moving", "cross_section", "rotation_2d"], jobs=2)
    assert list(seconds) == ["cross_section", "arrow_moving", "rotation_2d"]
    assert all(s > 0.0 for s in seconds.values())


def test_a_level_1_item_compiles_every_kernel_later_processes_need(tmp_path: Path) -> None:
    """What the warm-up relies on: kernels compiled by one process are loaded from the disk
    cache by the next, and a level-1 item meets every kernel (and argument types) that
    items of the other levels use.  The cache starts empty, so the first run compiles."""
    assert compiles("cube_counting", "1", tmp_path) > 0
    assert compiles("cube_counting", "0,1,2,3", tmp_path) == 0
