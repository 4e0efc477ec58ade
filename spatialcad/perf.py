"""``make perf``: how fast generation is, where the time goes, and what it costs in memory.

Sections (``--section``, repeatable; ``make perf`` runs ``tasks``, ``bench`` and ``forms``):

- ``tasks``: each task makes ``n`` items in-process at each ``--level`` (default 0-2),
  timed (items/s; round by round across the tasks and levels), then up to 8 of them again
  under cProfile to split the time into geometry (scene building, exact answers, FreeCAD),
  rendering (rasterizer, 2D drawings, composite layout), PNG encoding/decoding and
  verification (shares from the cumulative time of the stage entry points), and the share
  of all of it spent in FreeCAD's own methods, wherever called from; then each
  task's items/s over the levels together, the three-level benchmark's mix, and the tasks
  slower than a third of the median (the 3x rule).
- ``bench``: the three-level benchmark (every task at levels 0, 1 and 2, ``--bench-n``
  items each) with one ``generate --level 0-2 --jobs J`` (its workers start once), its wall
  time and CPU time (and so how busy it kept the J cores), and the PNG-encode
  floor: the time to encode the same images on J cores; a worker's fixed start (imports,
  then the first use of each task) in CPU seconds, against the CPU that 2x the floor would
  leave; and
  whether the disk cache of engineering parts was warm (cold, three_view levels >= 1
  compute their projections: a first run on a machine takes much longer).
- ``memory``: peak memory (max RSS) of ``generate`` of cheap tasks at 1,000 and 10,000
  items; a streamed run stays flat.
- ``scale``: a training-set-sized run, ``--scale-n`` items (default 10,000, split evenly
  over the tasks) at ``--scale-level`` with ``generate --jobs J``: items/s, peak memory
  (the run's process and its largest worker), output size, and per task how many items
  repeat a scene of the run (the manifest's run-wide count) against the level's space.
- ``forms``: entries/s of ``spatialcad.create_dataset(task, form=...)[i]`` per task in each
  question form (open only where the task's items carry it), and each form's time per
  entry as a multiple of the choice form's (the judge crop reuses the composed image).
"""

from __future__ import annotations

import cProfile
import json
import pstats
import re
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import click

from spatialcad import api, forms
from spatialcad.cad import disk_cache
from spatialcad.cli import parse_levels
from spatialcad.render.png import decode_png, encode_png
from spatialcad.run.pipeline import make_item
from spatialcad.run.scenes import level_space
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
    "verification": [("spatialcad/run/verification.py", "run_verifier")],
}
CHEAP_TASKS = "cube_counting,rotation_2d,arrow_moving"
PROFILED = 8  # items per task and level run again under cProfile for the time shares


FREECAD_CALL = re.compile(r"of '(Part|TechDraw|FreeCAD|Base)\.")  # cProfile's name of a method


def freecad_seconds(stats: pstats.Stats) -> float:
    """Seconds inside FreeCAD's own methods (OpenCASCADE's booleans, sections, tessellation,
    hidden-line removal), wherever they were called from."""
    return sum(row[2] for (path, _, func), row in stats.stats.items()  # type: ignore[attr-defined]
               if path == "~" and FREECAD_CALL.search(func))


def stage_seconds(stats: pstats.Stats) -> dict[str, float]:
    seconds = dict.fromkeys(STAGES, 0.0)
    for (path, _, func), row in stats.stats.items():  # type: ignore[attr-defined]
        for stage, entries in STAGES.items():
            if any(path.endswith(suffix) and func == name for suffix, name in entries):
                seconds[stage] += row[3]  # cumulative time
    return seconds


def task_speeds(levels: list[int], n: int, seed: int, names: list[str]) -> None:
    """Items/s of each task at each of ``levels`` and where its time goes, then each task's
    items/s over all of them (``n`` items a level: the three-level benchmark's mix), which
    the 3x rule compares.  The timed items run round by round (item i of every task and
    level, then item i + 1), so that a machine whose speed drifts during the run slows every
    task alike (their ratios are what the rule compares)."""
    tasks = registry.tasks()
    runs = []  # (task, level); a task past its last level runs at that one
    for name in names:
        top = tasks[name].max_level
        for lv in sorted({lv if top is None else min(lv, top) for lv in levels}):
            runs.append((name, lv))
            make_item(name, lv, 0, n, seed + 1)  # warm-up: imports, FreeCAD, caches
    seconds = dict.fromkeys(runs, 0.0)
    rejected = dict.fromkeys(runs, 0)
    for i in range(n):
        for run in runs:
            start = time.perf_counter()
            rejected[run] += make_item(*run, i, n, seed).rejected
            seconds[run] += time.perf_counter() - start
    click.echo(f"{'task':<20} {'level':>5} {'items/s':>8} {'rejects/item':>12} "
               f"{'geometry':>9} {'rendering':>9} {'png':>6} {'verify':>7} {'freecad':>8}")
    for run in runs:
        share = _time_shares(*run, min(n, PROFILED), seed)
        click.echo(
            f"{run[0]:<20} {run[1]:>5} {n / seconds[run]:>8.2f} {rejected[run] / n:>12.2f} "
            f"{share['geometry']:>8.0f}% {share['rendering']:>8.0f}% {share['png']:>5.0f}% "
            f"{share['verification']:>6.0f}% {share['freecad']:>7.0f}%")
    spent = dict.fromkeys(names, 0.0)  # seconds of each task's n items a level
    for (name, _), t in seconds.items():
        spent[name] += t
    rates = {name: n * sum(task == name for task, _ in runs) / spent[name] for name in names}
    median = sorted(rates.values())[len(rates) // 2]
    click.echo(f"items/s over level{'s' * (len(levels) > 1)} {', '.join(map(str, levels))} "
               f"({n} item{'s' * (n > 1)} a level): "
               + ", ".join(f"{name} {rate:.2f}" for name, rate in rates.items()))
    slowest = min(rates, key=rates.__getitem__)
    slow = [f"{name} {rate:.2f}" for name, rate in rates.items() if rate < median / 3]
    click.echo(f"median {median:.2f} items/s; slowest {slowest} ({median / rates[slowest]:.1f}x "
               f"the median's time per item); tasks slower than a third of it: "
               f"{', '.join(slow) or 'none'}")


def _time_shares(name: str, level: int, n: int, seed: int) -> dict[str, float]:
    """Percent of the time of ``n`` items in geometry, rendering, PNG and verification
    (from a cProfile run of them), and, across all of them, in FreeCAD's own methods."""
    prof = cProfile.Profile()
    prof.enable()
    for i in range(n):
        make_item(name, level, i, n, seed)
    prof.disable()
    stats = pstats.Stats(prof)
    total = stats.total_tt  # type: ignore[attr-defined]
    parts = stage_seconds(stats)
    geometry = max(0.0, total - sum(parts.values()))
    shares = {"geometry": geometry, **parts, "freecad": freecad_seconds(stats)}
    return {k: 100 * v / total for k, v in shares.items()}


def _encode_seconds(paths: list[str]) -> float:
    images = [decode_png(p) for p in paths]
    start = time.perf_counter()
    for image in images:
        encode_png(image)
    return time.perf_counter() - start


def png_floor(root: Path, jobs: int) -> tuple[int, float]:
    """(images, seconds) to encode every PNG under ``root`` again on ``jobs`` cores."""
    paths = sorted(str(p) for p in root.rglob("*.png"))
    with ProcessPoolExecutor(jobs) as pool:
        busy = list(pool.map(_encode_seconds, [paths[i::jobs] for i in range(jobs)]))
    return len(paths), max(busy)


START_PROBE = """
import time
start = time.process_time()
from spatialcad.run.pipeline import make_item
from spatialcad.run.scenes import level_space
from spatialcad.tasks import registry
imports = time.process_time() - start
def every_task() -> float:
    start = time.process_time()
    for name in registry.tasks():
        make_item(name, 1, 1, 4, 0)
    return time.process_time() - start
print(imports, every_task() - every_task())
"""


def worker_start() -> tuple[float, float]:
    """CPU seconds a fresh process spends before it makes items at full speed: (its imports,
    how much longer the first item of every task takes than the same items again: numba
    loading its cached kernels, FreeCAD starting, caches filling)."""
    done = subprocess.run([sys.executable, "-c", START_PROBE], check=True,
                          stdout=subprocess.PIPE, text=True)
    imports, first_use = (float(x) for x in done.stdout.split()[-2:])
    return imports, first_use


def _children_cpu() -> float:
    """CPU seconds (user and system) of this process's finished child processes and theirs
    (a ``generate``'s workers count once it has joined them)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cache_entries() -> int:
    """Entries in the disk cache of part solids, projections and tessellations."""
    root = disk_cache.cache_dir()
    if root is None or not root.is_dir():
        return 0
    return sum(1 for _ in root.rglob(f"*{disk_cache.SUFFIX}"))


def three_levels(n: int, seed: int, jobs: int) -> None:
    before = cache_entries()
    with tempfile.TemporaryDirectory() as tmp:
        cpu = _children_cpu()
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "spatialcad.cli", "generate", "--task", "all", "--level",
             "0-2", "--n", str(n), "--seed", str(seed), "--jobs", str(jobs), "--out",
             f"{tmp}/L{{level}}"], check=True, stdout=subprocess.PIPE, text=True)
        wall = time.perf_counter() - start
        cpu = _children_cpu() - cpu
        levels = [float(t) for t in re.findall(r" at level \d+ to .* in ([0-9.]+) s ",
                                                 done.stdout)]
        images, floor = png_floor(Path(tmp), jobs)
    click.echo(f"three-level benchmark: {images} items (levels 0-2, {n} per task) with one "
               f"`generate --level 0-2 --jobs {jobs}` in {wall:.1f} s ({images / wall:.1f} "
               f"items/s; levels 0, 1, 2: {', '.join(f'{t:.1f}' for t in levels)} s; "
               f"{cpu:.0f} s of CPU, {cpu / wall / jobs:.0%} of {jobs} cores); "
               f"PNG-encode floor {floor:.1f} s; ratio {wall / floor:.1f}x")
    imports, first_use = worker_start()
    click.echo(f"a worker's start: {imports + first_use:.1f} s of CPU (imports {imports:.1f} s, "
               f"then {first_use:.1f} s more for the first item of each task than for the same "
               f"items again); within 2x the floor, the run would have {floor * jobs:.1f} s of "
               f"CPU besides the encoding itself, {jobs * (imports + first_use):.1f} s of it "
               f"for its {jobs} workers' starts")
    made, root = cache_entries() - before, disk_cache.cache_dir()
    if root is None:
        click.echo("part cache: off (empty $SPATIALCAD_CACHE_DIR): every projection computed")
    else:
        click.echo(f"part cache ({root}): " + (
            f"cold, {made} entries made in the run (three_view's engineering parts: the "
            "next run reads them)" if made else "warm, no entry made"))


def child_generate(argv: list[str]) -> tuple[str, float, float]:
    """Run ``spatialcad generate`` (``argv`` after the command name) in a child process:
    its output and the peak RSS (MiB) of the child and of its largest worker (0 without
    workers)."""
    code = ("import resource, sys\nfrom spatialcad.cli import main\n"
            f"sys.argv = {['spatialcad', 'generate', *argv]!r}\ntry:\n    main()\n"
            "except SystemExit as exc:\n    if exc.code:\n        raise\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,"
            " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if done.returncode:
        raise click.ClickException(f"generate {' '.join(argv)} failed:\n"
                                   f"{done.stderr[-2000:]}")
    *lines, last = done.stdout.strip().splitlines()
    own, workers = (int(k) / 1024 for k in last.split())
    return "\n".join(lines), own, workers


def peak_memory(items: int, tasks: str) -> float:
    """Peak RSS (MiB) of a child ``generate`` of about ``items`` items of ``tasks``."""
    with tempfile.TemporaryDirectory() as tmp:
        _, own, _ = child_generate(["--task", tasks, "--n", str(items // len(tasks.split(","))),
                                    "--out", f"{tmp}/b"])
    return own


def memory(tasks: str) -> None:
    small, big = peak_memory(1_000, tasks), peak_memory(10_000, tasks)
    click.echo(f"peak memory of generate ({tasks}, level 0): 1,000 items {small:.0f} MiB, "
               f"10,000 items {big:.0f} MiB ({100 * (big / small - 1):+.0f}%)")


def scale(items: int, level: int, seed: int, jobs: int, names: list[str]) -> None:
    """A training-set-sized run: ``items`` items (split evenly over ``names``) at ``level``
    with ``generate --jobs J``: items/s, peak memory, output size, and per task the items
    whose scene an earlier item of the run holds (the manifest's run-wide count) against
    the scenes its level holds."""
    per_task = max(1, items // len(names))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "b"
        start = time.perf_counter()
        _, own, worker = child_generate(["--task", ",".join(names), "--level", str(level),
                                         "--n", str(per_task), "--seed", str(seed),
                                         "--jobs", str(jobs), "--out", str(out)])
        wall = time.perf_counter() - start
        size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
        repeated = json.loads((out / "manifest.json").read_text())["repeated_scenes"]
    made = per_task * len(names)
    workers = f" (its largest worker {worker:.0f} MiB)" if jobs > 1 else ""
    click.echo(f"scale: {made:,} items ({', '.join(names)}: {per_task:,} each, level {level}) "
               f"with `generate --jobs {jobs}` in {wall:.0f} s ({made / wall:.2f} items/s); "
               f"peak memory {own:.0f} MiB{workers}; output {size / 2**20:.1f} MiB "
               f"({size / made / 1024:.0f} KiB an item)")
    for name in names:
        key = f"{registry.task(name).record_task}/Level{level}"
        space = level_space(name, level)
        held = "not measured" if space is None else f"{space['scenes']:,} {space['how']}"
        click.echo(f"  {name:<20} {repeated.get(key, 0):>6,} items repeat a scene of the run "
                   f"(the level holds {held})")


FormSpeed = tuple[float, float]  # (entries/s, time per entry / the choice form's)


def form_rates(name: str, level: int, n: int, seed: int) -> dict[str, FormSpeed | None]:
    """Per form, its entries/s over entries ``0..n-1`` and its time per entry relative to
    the choice form's on the same items (None if no entry has the form: a task's open form
    may exist on some items only, and those may cost more than the others).  The forms take
    turns entry by entry, each first in turn, so a busy machine favours none of them."""
    usable = [f for f in forms.FORMS if f != "open" or registry.task(name).open_form]
    sets = {f: api.create_dataset(name, level=level, size=n, seed=seed, form=f)
            for f in usable}
    spent: dict[str, dict[int, float]] = {f: {} for f in forms.FORMS}
    for i in range(n):
        for f in [*usable[i % len(usable):], *usable[:i % len(usable)]]:
            start = time.perf_counter()
            try:
                sets[f][i]
            except ValueError:  # this item has no such form
                continue
            spent[f][i] = time.perf_counter() - start
    out: dict[str, FormSpeed | None] = {}
    for f, times in spent.items():
        choice = sum(spent["choice"][i] for i in times)
        out[f] = (len(times) / sum(times.values()), sum(times.values()) / choice) if times \
            else None
    return out


def form_speeds(level: int, n: int, seed: int, names: list[str]) -> None:
    click.echo(f"{'task':<20} {'level':>5} " + " ".join(f"{f + '/s':>9} {'x':>5}"
                                                       for f in forms.FORMS))
    tasks = registry.tasks()
    worst = 0.0
    for name in names:
        info = tasks[name]
        lv = level if info.max_level is None else min(level, info.max_level)
        make_item(name, lv, 0, n, seed + 1)  # warm-up: imports, FreeCAD start, caches
        cells = []
        for speed in form_rates(name, lv, n, seed).values():
            if speed is None:
                cells.append(f"{'-':>9} {'-':>5}")
                continue
            worst = max(worst, speed[1])
            cells.append(f"{speed[0]:>9.2f} {speed[1]:>4.2f}x")
        click.echo(f"{name:<20} {lv:>5} " + " ".join(cells))
    click.echo(f"slowest form: {worst:.2f}x the choice form's time per entry (same items)")


@click.command()
@click.option("--section", "sections", multiple=True, type=click.Choice(["tasks", "bench",
              "memory", "forms", "scale"]), help="What to measure (default: tasks and bench).")
@click.option("--level", "level_spec", default="0-2", show_default=True,
              help="Levels of `tasks`: a level (1), a list (0,1,2) or a range (0-2).")
@click.option("--forms-level", type=int, default=1, show_default=True,
              help="Level of `forms`.")
@click.option("--n", "n", type=click.IntRange(min=1), default=20, show_default=True,
              help="Items per task and level of `tasks`, per task of `forms`.")
@click.option("--bench-n", type=click.IntRange(min=1), default=40, show_default=True,
              help="Items per task and level of `bench`.")
@click.option("--scale-n", type=click.IntRange(min=1), default=10_000, show_default=True,
              help="Items of `scale` (split evenly over the tasks).")
@click.option("--scale-level", type=click.IntRange(min=0), default=1, show_default=True,
              help="Level of `scale`.")
@click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True,
              help="Processes of `bench` and `scale`.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--task", "task_spec", default="all", show_default=True)
def main(sections: tuple[str, ...], level_spec: str, forms_level: int, n: int, bench_n: int,
         scale_n: int, scale_level: int, jobs: int, seed: int, task_spec: str) -> None:
    """Measure generation speed per task, the three-level benchmark, memory, and the
    Python API's speed per question form."""
    sections = sections or ("tasks", "bench")
    names = list(registry.tasks()) if task_spec == "all" else task_spec.split(",")
    if "tasks" in sections:
        task_speeds(parse_levels(level_spec), n, seed, names)
    if "bench" in sections:
        three_levels(bench_n, seed, jobs)
    if "memory" in sections:
        memory(CHEAP_TASKS)
    if "forms" in sections:
        form_speeds(forms_level, n, seed, names)
    if "scale" in sections:
        scale(scale_n, scale_level, seed, jobs, names)


if __name__ == "__main__":
    main()
