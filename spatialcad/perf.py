"""``make perf``: items per second per task, and where the time goes.

Each task generates ``n`` items in-process twice: once plain (items/s), once under
cProfile to split the time into geometry (scene building, exact answers, FreeCAD),
rendering (rasterizer, 2D drawings, composite layout), PNG encoding/decoding and
verification.  Shares come from the cumulative time of the stage entry points.
"""

from __future__ import annotations

import cProfile
import pstats
import time

import click

from spatialcad.pipeline import make_item
from spatialcad.tasks import registry

# stage -> (module path suffix, function name) entry points; time outside them is geometry.
STAGES: dict[str, list[tuple[str, str]]] = {
    "rendering": [
        ("render/raster.py", "render"),
        ("render/drawing.py", "draw_shapes"),
        ("render/drawing.py", "draw_polylines"),
        ("render/layout.py", "compose"),
    ],
    "png": [("render/png.py", "encode_png"), ("render/png.py", "decode_png")],
    "verification": [("verify/__init__.py", "run_verifier")],
}


def stage_seconds(stats: pstats.Stats) -> dict[str, float]:
    seconds = dict.fromkeys(STAGES, 0.0)
    for (path, _, func), row in stats.stats.items():  # type: ignore[attr-defined]
        for stage, entries in STAGES.items():
            if any(path.endswith(suffix) and func == name for suffix, name in entries):
                seconds[stage] += row[3]  # cumulative time
    return seconds


@click.command()
@click.option("--level", type=int, default=1, show_default=True)
@click.option("--n", "n", type=int, default=8, show_default=True, help="Items per task.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--task", "task_spec", default="all", show_default=True)
def main(level: int, n: int, seed: int, task_spec: str) -> None:
    """Measure generation speed per task at one level (single process)."""
    tasks = registry.tasks()
    names = list(tasks) if task_spec == "all" else task_spec.split(",")
    header = (f"{'task':<20} {'level':>5} {'items/s':>8} {'rejects/item':>12} "
              f"{'geometry':>9} {'rendering':>9} {'png':>6} {'verify':>7}")
    click.echo(header)
    for name in names:
        cls = tasks[name]
        lv = level if cls.max_level is None else min(level, cls.max_level)
        make_item(name, lv, 0, n, seed + 1)  # warm-up: imports, FreeCAD start, caches
        start = time.perf_counter()
        rejected = sum(make_item(name, lv, i, n, seed).rejected for i in range(n))
        rate = n / (time.perf_counter() - start)
        prof = cProfile.Profile()
        prof.enable()
        for i in range(n):
            make_item(name, lv, i, n, seed)
        prof.disable()
        stats = pstats.Stats(prof)
        total = stats.total_tt  # type: ignore[attr-defined]
        parts = stage_seconds(stats)
        geometry = max(0.0, total - sum(parts.values()))
        share = {k: 100 * v / total for k, v in {"geometry": geometry, **parts}.items()}
        click.echo(
            f"{name:<20} {lv:>5} {rate:>8.2f} {rejected / n:>12.2f} {share['geometry']:>8.0f}% "
            f"{share['rendering']:>8.0f}% {share['png']:>5.0f}% {share['verification']:>6.0f}%"
        )


if __name__ == "__main__":
    main()
