"""`make perf`'s sections run and report every task asked (its numbers are not asserted:
speed goals live in `make perf`, not in timed tests)."""

from __future__ import annotations

import re
import subprocess
import sys


def test_tasks_and_forms_sections_report_each_task():
    done = subprocess.run([sys.executable, "-m", "spatialcad.perf", "--section", "tasks",
                           "--section", "forms", "--level", "1", "--n", "2", "--task",
                           "cube_counting,arrow_moving,rotation_2d"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()]
    tasks = [r for r in rows if r and r[0] in ("cube_counting", "arrow_moving", "rotation_2d")]
    assert len(tasks) == 6  # one row per task in each section
    forms = {r[0]: r for r in tasks if r[3].endswith("x")}  # the forms section's rows
    assert len(forms) == 3
    assert forms["rotation_2d"][4:6] == ["-", "-"]  # no open form
    assert forms["arrow_moving"][4] != "-"  # its end-state items have one
    assert re.search(r"slowest form: \d+\.\d\dx", done.stdout)
    assert "median" in done.stdout
