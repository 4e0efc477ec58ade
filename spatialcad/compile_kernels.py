"""Compile the numba kernels into numba's disk cache, the work spread over processes.

numba compiles a kernel on its first call in a process (about 40 s of CPU for all of
ours) and keeps the result on disk for every later process.  A run that starts on an empty
cache makes each of its workers compile every kernel it meets, the same ones at the same
time.  Here each process instead makes one level-1 item of a different task (that meets
every kernel the task uses at any level), so the kernels are compiled once, in parallel,
and the three tasks with the most kernels of their own are started first.

``make`` runs this whenever the package's sources change (numba itself recompiles a kernel
whose source file changed); on a cluster, run ``python -m spatialcad.compile_kernels`` once
with ``NUMBA_CACHE_DIR`` on a shared filesystem.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import click

# tasks whose kernels take longest to compile (seconds of CPU on a cold cache, one process,
# in this order: 17, 14, 12; every other task then needs less than 1 s of its own)
HEAVIEST = ("cross_section", "rotation_3d", "three_view")


def compile_order(names: list[str]) -> list[str]:
    """``names`` with the heaviest compilers first (the pool hands out work in order)."""
    return sorted(names, key=lambda n: HEAVIEST.index(n) if n in HEAVIEST else len(HEAVIEST))


def _first_item(task: str) -> float:
    """Make (and drop) one level-1 item of ``task``; returns the seconds it took."""
    from spatialcad.pipeline import make_item

    start = time.perf_counter()
    make_item(task, 1, 0, 1, 0)
    return time.perf_counter() - start


def compile_kernels(names: list[str], jobs: int) -> dict[str, float]:
    """Seconds each task's first item took, made over ``jobs`` processes."""
    order = compile_order(names)
    with ProcessPoolExecutor(max(1, jobs), mp_context=get_context("spawn")) as pool:
        return dict(zip(order, pool.map(_first_item, order), strict=True))


@click.command()
@click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True,
              help="Processes compiling at once.")
def main(jobs: int) -> None:
    """Compile every task's numba kernels into numba's disk cache (no output is written)."""
    from spatialcad.tasks.registry import tasks

    start = time.perf_counter()
    seconds = compile_kernels(list(tasks()), jobs)
    slowest = max(seconds, key=lambda n: seconds[n])
    click.echo(f"numba kernels ready in {time.perf_counter() - start:.1f} s with {jobs} "
               f"processes (slowest: {slowest}, {seconds[slowest]:.1f} s)")


if __name__ == "__main__":
    main()
