"""`make perf`'s sections run and report every task asked (its numbers are not asserted:
speed goals live in `make perf`, not in timed tests)."""

from __future__ import annotations

import re
import subprocess
import sys


def test_tasks_and_forms_sections_report_each_task():
    done = subprocess.run([sys.executable, "-m", "spatialcad.perf", "--section", "tasks",
                           "--section", "forms", "--level", "0-1", "--n", "2", "--task",
                           "cube_counting,arrow_moving,rotation_2d"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()]
    tasks = [r for r in rows if r and r[0] in ("cube_counting", "arrow_moving", "rotation_2d")]
    assert len(tasks) == 9  # tasks: one row per task and level; forms: one per task
    assert [(r[0], r[1]) for r in tasks[:2]] == [("cube_counting", "0"), ("cube_counting", "1")]
    assert ["task", "level", "items/s", "rejects/item", "geometry", "rendering", "png", "verify",
            "freecad"] in rows
    assert all(len(r) == 9 and r[8] == "0%" for r in tasks[:6])  # no FreeCAD in these tasks
    forms = {r[0]: r for r in tasks if r[3].endswith("x")}  # the forms section's rows
    assert len(forms) == 3
    over = next(x for x in done.stdout.splitlines() if x.startswith("items/s over levels"))
    assert re.fullmatch(r"items/s over levels 0, 1 \(2 items a level\): cube_counting "
                        r"\d+\.\d\d, arrow_moving \d+\.\d\d, rotation_2d \d+\.\d\d", over)
    assert forms["rotation_2d"][4:6] == ["-", "-"]  # no open form
    assert forms["arrow_moving"][4] != "-"  # its end-state items have one
    assert re.search(r"slowest form: \d+\.\d\dx", done.stdout)
    assert re.search(r"median \d+\.\d\d items/s; slowest \w+ \(\d+\.\dx the median's time "
                     r"per item\); tasks slower than a third of it: ", done.stdout)


def test_bench_section_reports_three_levels_and_the_png_floor():
    # the default part cache: a fresh one would spend ~100 s projecting every bundled part
    done = subprocess.run([sys.executable, "-m", "spatialcad.perf", "--section", "bench",
                           "--bench-n", "1"], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("three-level benchmark"))
    assert re.search(r"\b36 items \(levels 0-2, 1 per task\)", line)  # 12 tasks x 3 levels
    assert re.search(r"levels 0, 1, 2: \d+\.\d, \d+\.\d, \d+\.\d s; \d+ s of CPU, "
                     r"\d+% of 2 cores\)", line)
    assert re.search(r"PNG-encode floor \d+\.\d s; ratio \d+\.\dx", line)
    start = next(x for x in done.stdout.splitlines() if x.startswith("a worker's start"))
    assert re.fullmatch(r"a worker's start: \d+\.\d s of CPU \(imports \d+\.\d s, then \d+\.\d s "
                        r"more .*\); within 2x the floor, the run would have \d+\.\d s of CPU "
                        r"besides the encoding itself, \d+\.\d s of it for its 2 workers' starts",
                        start)
    assert re.search(r"^part cache \(.+\): (warm, no entry made|cold, \d+ entries made)",
                     done.stdout, re.M)


def test_scale_section_reports_speed_memory_size_and_repeats_per_task():
    done = subprocess.run([sys.executable, "-m", "spatialcad.perf", "--section", "scale",
                           "--scale-n", "6", "--scale-level", "0", "--task",
                           "rotation_2d,paper_folding"], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"scale: 6 items \(rotation_2d, paper_folding: 3 each, level 0\) with "
                        r"`generate --jobs 2` in \d+ s \(\d+\.\d\d items/s\); peak memory "
                        r"\d+ MiB \(its largest worker \d+ MiB\); output \d+\.\d MiB "
                        r"\(\d+ KiB an item\)", lines[-3])
    assert re.fullmatch(r"  rotation_2d +0 items repeat a scene of the run \(the level holds "
                        r"[\d,]+ (at least|estimated)\)", lines[-2])
    assert re.fullmatch(r"  paper_folding +0 items repeat a scene of the run \(the level "
                        r"holds [\d,]+ counted\)", lines[-1])  # listed


def test_freecad_share_counts_freecads_own_methods_only():
    import cProfile
    import pstats

    from spatialcad import freecad_env
    from spatialcad.perf import freecad_seconds

    FreeCAD, Part = freecad_env.load()
    prof = cProfile.Profile()
    prof.enable()
    box = Part.makeBox(2, 2, 2)
    for _ in range(20):
        box.section(Part.Plane(FreeCAD.Vector(0, 0, 1), FreeCAD.Vector(0, 0, 1)).toShape())
    sum(i * i for i in range(200_000))  # Python time: not FreeCAD's
    prof.disable()
    stats = pstats.Stats(prof)
    sections = sum(row[2] for (_, _, func), row in stats.stats.items()
                   if func == "<method 'section' of 'Part.Shape' objects>")
    assert sections > 0
    assert sections <= freecad_seconds(stats) < stats.total_tt  # type: ignore[attr-defined]
