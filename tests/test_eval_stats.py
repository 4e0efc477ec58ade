"""Wilson intervals, significance tests, report tables and the ladder protocol on fixed inputs."""

from __future__ import annotations

import json

import pytest

from spatialcad.evaluate import report, stats
from spatialcad.evaluate.ladder import climb


def test_wilson_known_values():
    assert stats.wilson(5, 10) == pytest.approx((0.236593, 0.763407), abs=1e-6)
    assert stats.wilson(0, 10) == pytest.approx((0.0, 0.277533), abs=1e-6)
    assert stats.wilson(10, 10) == pytest.approx((0.722467, 1.0), abs=1e-6)
    # the paper's Gemini-2.5-pro row: 44.66% [41.85, 47.51] on 1180 items
    lo, hi = stats.wilson(527, 1180)
    assert (round(100 * lo, 2), round(100 * hi, 2)) == (41.85, 47.51)
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_chance_interval_is_wilson_at_a_quarter():
    assert stats.chance_interval(40) == stats.wilson(10, 40)


def test_mcnemar_exact():
    assert stats.mcnemar(10, 2) == pytest.approx(158 / 4096)  # 2 * P(X <= 2 | 12, 1/2)
    assert stats.mcnemar(2, 10) == stats.mcnemar(10, 2)
    assert stats.mcnemar(0, 0) == 1.0
    assert stats.mcnemar(4, 4) == 1.0
    assert stats.mcnemar(0, 6) == pytest.approx(2 / 64)


def test_two_proportion():
    assert stats.two_proportion(50, 100, 30, 100) == pytest.approx(0.0038924, abs=1e-6)
    assert stats.two_proportion(5, 10, 5, 10) == 1.0


def test_paired_counts():
    a = {"1": True, "2": True, "3": False, "4": False, "5": True}
    b = {"1": True, "2": False, "3": True, "4": False, "6": True}
    pair = stats.paired(a, b)
    assert (pair.n, pair.first, pair.second, pair.b, pair.c) == (4, 2, 2, 1, 1)
    assert pair.delta == 0.0


def _write_run(path, system, outcomes, sha="bench-1", kind="benchmark"):
    """outcomes: list of (task, level, correct); items get ids task/level/index."""
    path.mkdir()
    (path / "run.json").write_text(json.dumps(
        {"identity": {"system": system, "benchmark_sha256": sha, "prompt": "direct",
                      "kind": kind}}))
    with open(path / "results.jsonl", "w") as f:
        for i, (task, level, ok) in enumerate(outcomes):
            f.write(json.dumps({"id": f"Cat/{task}/{level}/{i:04d}", "system": system,
                                "category": "Cat", "task": task, "level": level,
                                "form": "choice", "gold": "A", "extracted": "A" if ok else "B",
                                "correct": ok}) + "\n")
        f.write('{"id": "Cat/T1/Level0/9999", "error": "HTTP 400"}\n{"id": "cut sh')


def _outcomes(spec):
    return [(task, level, i < k) for task, level, k, n in spec for i in range(n)]


@pytest.fixture
def runs(tmp_path):
    first = _outcomes([("T1", "Level0", 8, 10), ("T1", "Level1", 3, 10), ("T2", "Level0", 5, 10)])
    second = [(t, lv, not ok) if i < 12 else (t, lv, ok) for i, (t, lv, ok) in enumerate(first)]
    _write_run(tmp_path / "m1", "m1", first)
    _write_run(tmp_path / "m2", "m2", second)
    audit = tmp_path / "audit"
    audit.mkdir()
    with open(audit / "results.jsonl", "w") as f:
        for i in range(20):
            for task, heuristic, ok in (("T1", "odd_one_out", True),
                                        ("T1", "most_typical", i < 5),
                                        ("T2", "odd_one_out", i < 9)):
                f.write(json.dumps({"id": f"Cat/{task}/Level0/{i:04d}",
                                    "system": f"audit:{heuristic}", "category": "Cat",
                                    "task": task, "level": "Level0", "form": "choice",
                                    "gold": "A", "extracted": "A", "correct": ok}) + "\n")
        for i in range(40):  # never right on 40 items: below chance
            f.write(json.dumps({"id": f"Cat/T2/Level1/{i:04d}", "system": "audit:most_typical",
                                "category": "Cat", "task": "T2", "level": "Level1",
                                "form": "choice", "gold": "A", "extracted": "B",
                                "correct": False}) + "\n")
    return tmp_path


def test_report_tables(runs, tmp_path):
    path, md = report.write([runs / "m1", runs / "m2", runs / "audit"], tmp_path / "rep")
    summary = json.loads((tmp_path / "rep" / "summary.json").read_text())
    m1 = summary["columns"][0]
    assert m1["overall"]["correct"] == 16 and m1["overall"]["n"] == 30
    assert m1["by_task_level"]["T1/Level0"]["ci95"] == pytest.approx(list(stats.wilson(8, 10)))
    assert "80.0 [49.0, 94.3] n=10" in md  # T1 Level0
    assert "53.3 [36.1, 69.8] n=30" in md  # overall 16/30
    # the error line and the cut-short line are ignored
    assert "n=31" not in md
    # m2 flips the first 12 items: T1 Level0 (8 right) and the first two of T1 Level1
    m2 = summary["columns"][1]
    assert m2["by_task_level"]["T1/Level0"]["correct"] == 2
    assert m2["by_task_level"]["T1/Level1"]["correct"] == 1
    # discordant pairs: 8 + 2 items only m1 got right, 2 only m2 got right
    assert f"paired n=30, b=10, c=2 | {stats.mcnemar(10, 2):.4f}*" in md
    # shortcut audit: T1 odd_one_out 20/20 is flagged; 5/20 and 9/20 are not; 0/20 is below
    assert summary["shortcuts"] == {"T1": ["odd_one_out"]}
    assert summary["below_chance"] == {"T2": ["most_typical"]}
    assert "Below chance (their pick can be ruled out, a weaker leak): T2 most_typical." in md
    assert "T1 (shortcut!)" in md and "Tasks with a shortcut: T1." in md
    for png in ("accuracy_by_task.png", "accuracy_by_level.png"):
        assert (tmp_path / "rep" / png).read_bytes()[:4] == b"\x89PNG"


def test_report_unpaired_when_benchmarks_differ(runs, tmp_path):
    _write_run(tmp_path / "other", "m3", _outcomes([("T1", "Level0", 2, 10)]), sha="bench-2")
    _, md = report.write([runs / "m1", tmp_path / "other"], tmp_path / "rep")
    p = stats.two_proportion(16, 30, 2, 10)
    assert f"unpaired n=30/10 | {p:.4f}" in md


def _scripted(correct_at):
    played = []

    def play(level, visit):
        played.append((level, visit))
        return correct_at(level, visit)

    return play, played


def test_ladder_climbs_to_the_top():
    play, played = _scripted(lambda level, visit: 5)
    result = climb(play, top=4)
    assert result.final_level == 4 and "top level 4" in result.stop
    assert played == [(1, 0), (2, 0), (3, 0), (4, 0)]


def test_ladder_stops_after_two_failures_at_a_level():
    play, played = _scripted(lambda level, visit: 3 if level <= 3 else 2)
    result = climb(play)
    assert played == [(1, 0), (2, 0), (3, 0), (4, 0), (3, 1), (4, 1)]
    assert result.final_level == 3 and result.stop == "failed level 4 2 times"


def test_ladder_falls_to_zero():
    play, played = _scripted(lambda level, visit: 0)
    assert climb(play).final_level == 0 and played == [(1, 0)]
    play, played = _scripted(lambda level, visit: 4 if (level, visit) == (1, 0) else 1)
    result = climb(play)
    assert played == [(1, 0), (2, 0), (1, 1)] and result.final_level == 0


def test_ladder_failures_are_counted_per_level():
    # fail 3 once, recover, pass 3, fail 4 twice: the single failure at 3 never ends it
    outcomes = {(1, 0): 5, (2, 0): 5, (3, 0): 1, (2, 1): 5, (3, 1): 5, (4, 0): 0,
                (3, 2): 5, (4, 1): 2}
    play, played = _scripted(lambda level, visit: outcomes[(level, visit)])
    result = climb(play)
    assert played == list(outcomes)
    assert result.final_level == 3


def test_error_bars_are_never_negative_at_zero_or_full_accuracy():
    """Wilson bounds can land a rounding error past 0% or 100%; the plots must not fail."""
    from spatialcad.evaluate.report import Acc, _error_bars

    bars = _error_bars([Acc(0, 49), Acc(49, 49), Acc(7, 49)])
    assert min(min(b) for b in bars) >= 0 and bars[1][2] > 0
