"""``python -m spatialcad.compile_kernels`` (``make kernels``): compile every task's numba
kernels into numba's disk cache over several processes, one task per process, leaving out
the tasks compiled already for the current sources (:mod:`spatialcad.kernel_cache`)."""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import click

from spatialcad.run.pipeline import compile_missing


@click.command()
@click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True,
              help="Processes compiling at once.")
def main(jobs: int) -> None:
    """Compile every task's numba kernels into numba's disk cache (no output is written);
    tasks compiled already for the current sources are left out."""
    from spatialcad.tasks.registry import tasks

    start = time.perf_counter()
    with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:  # starts lazily
        seconds = compile_missing(pool, list(tasks()))
    if not seconds:
        click.echo("numba kernels ready (compiled before for these sources)")
        return
    made = {name: s for name, s in seconds.items() if s is not None}
    slowest = max(made, key=lambda n: made[n], default=None)
    click.echo(f"numba kernels of {len(made)} tasks ready in "
               f"{time.perf_counter() - start:.1f} s with {jobs} processes"
               + (f" (slowest: {slowest}, {made[slowest]:.1f} s)" if slowest else ""))
    if len(made) < len(seconds):
        raise click.ClickException("no level-1 item could be made of "
                                   + ", ".join(sorted(set(seconds) - set(made))))


if __name__ == "__main__":
    main()
