"""Compiling the numba kernels ahead of a run (spatialcad/kernel_cache.py, pipeline.compile_in)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from spatialcad import kernel_cache
from spatialcad.cad.parts import ASSETS_DIR
from spatialcad.kernel_cache import HEAVIEST, compile_order
from spatialcad.run.pipeline import compile_in
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
from spatialcad.run.pipeline import make_item
task, levels = sys.argv[1], [int(v) for v in sys.argv[2].split(",")]
for level in levels:
    for i in range(2):
        make_item(task, level, i, 2, 7)
print(Count.n)
"""


def compiles(task: str, levels: str, cache: Path) -> int:
    out = subprocess.run([sys.executable, "-c", COUNT_COMPILES, task, levels],
                         env=_with_cache(cache), capture_output=True, text=True, check=True)
    return int(out.stdout.split()[-1])


def _with_cache(cache: Path) -> dict[str, str]:
    return {**os.environ, "NUMBA_CACHE_DIR": str(cache)}


def stamped(cache: Path) -> set[str]:
    """The tasks stamped as compiled in numba cache directory ``cache``."""
    return {p.name.split(".")[1] for p in cache.rglob(f"{kernel_cache.STAMP_PREFIX}.*")}


def test_the_heaviest_tasks_are_handed_out_first() -> None:
    names = list(tasks())
    order = compile_order(names)
    assert sorted(order) == sorted(names)
    assert order[: len(HEAVIEST)] == list(HEAVIEST)
    assert set(HEAVIEST) <= set(names)  # no stale name


def test_one_item_per_task_is_made_in_worker_processes() -> None:
    with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
        seconds = list(compile_in(pool, ["arrow_moving", "cross_section", "rotation_2d"]))
    assert [task for task, _ in seconds] == ["cross_section", "arrow_moving", "rotation_2d"]
    assert all(s > 0.0 for _, s in seconds)
    assert kernel_cache.missing(["arrow_moving", "cross_section", "rotation_2d"]) == []


def test_stamps_follow_the_sources_per_cpu_type(tmp_path: Path, monkeypatch) -> None:
    """A new stamp replaces the task's stamp for other sources on the same CPU type, not
    those of other CPU types (nodes of several types can share one cache)."""
    monkeypatch.setattr(kernel_cache, "_stamp_dir", lambda: tmp_path)
    for target, sources in (("cpuA", "v1"), ("cpuB", "v1"), ("cpuA", "v2")):
        monkeypatch.setattr(kernel_cache, "_target_key", lambda t=target: t)
        monkeypatch.setattr(kernel_cache, "_sources_key", lambda s=sources: s)
        assert kernel_cache.missing(["rotation_2d"]) == ["rotation_2d"]
        kernel_cache.mark_compiled("rotation_2d")
        assert kernel_cache.missing(["rotation_2d", "cube_counting"]) == ["cube_counting"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"{kernel_cache.STAMP_PREFIX}.rotation_2d.cpuA.v2",
        f"{kernel_cache.STAMP_PREFIX}.rotation_2d.cpuB.v1"]


def test_a_task_without_a_level_1_item_is_left_unstamped(tmp_path: Path, monkeypatch) -> None:
    """Parts only of level 2's face band: a level-2 run can use them, the level-1 item that
    would compile three_view's kernels cannot be made, and that does not fail the run."""
    shutil.copy(ASSETS_DIR / "angle_slotted.step", tmp_path / "angle_slotted.step")  # 24 faces
    stamped_now: list[str] = []
    monkeypatch.setattr(kernel_cache, "mark_compiled", stamped_now.append)
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        made = list(compile_in(pool, ["three_view", "cube_counting"],
                               {"deepcad_dir": str(tmp_path)}))
    assert made[0] == ("three_view", None) and made[1][1] is not None
    assert stamped_now == ["cube_counting"]


def test_generate_compiles_the_kernels_of_its_tasks_first_on_a_cold_cache(
        tmp_path: Path) -> None:
    """A run with workers on an empty cache compiles (and stamps) its tasks' kernels before
    its items, a level-1 item each, so a later run of any level compiles none; its items are
    those of a run in one process.  ``verify --jobs 2`` compiles what it lacks too."""
    cache = tmp_path / "numba"
    cli = [sys.executable, "-m", "spatialcad.cli", "generate", "--task", "cube_counting",
           "--level", "0", "--n", "2", "--seed", "3"]
    subprocess.run([*cli, "--jobs", "2", "--out", str(tmp_path / "pool")],
                   env=_with_cache(cache), check=True, capture_output=True)
    assert stamped(cache) == {"cube_counting"}
    assert compiles("cube_counting", "0,2", cache) == 0
    subprocess.run([*cli, "--out", str(tmp_path / "one")], check=True, capture_output=True)
    for name in ("benchmark.json", "manifest.json"):
        assert (tmp_path / "pool" / name).read_bytes() == (tmp_path / "one" / name).read_bytes()
    # verify with workers does the same for the tasks of the benchmark it checks
    for stamp in cache.rglob(f"{kernel_cache.STAMP_PREFIX}.*"):
        stamp.unlink()
    subprocess.run([sys.executable, "-m", "spatialcad.cli", "verify", str(tmp_path / "pool"),
                    "--jobs", "2"], env=_with_cache(cache), check=True, capture_output=True)
    assert stamped(cache) == {"cube_counting"}


def test_a_level_1_item_compiles_every_kernel_later_processes_need(tmp_path: Path) -> None:
    """What the warm-up relies on: kernels compiled by one process are loaded from the disk
    cache by the next, and a level-1 item meets every kernel (and argument types) that
    items of the other levels use.  The cache starts empty, so the first run compiles."""
    assert compiles("cube_counting", "1", tmp_path) > 0
    assert compiles("cube_counting", "0,1,2,3", tmp_path) == 0
