"""Issue 38 (part A): what a hostile or careless user met, one test each.

1. every command that writes refuses an --out that is, contains or lies inside its input;
3. the API key is redacted from what the endpoint echoes, never from what is scored;
4. a benchmark whose records have the wrong types is refused by every reader;
5. and 2. human results files are checked and scored against the benchmark itself;
6. unwritable outputs, killed runs that stay unreaped, and the Python API's arguments.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import one_line, small_benchmark, tree_bytes
from eval_server import FakeEndpoint, gold_table
from test_faults import reseal, tampered

from spatialcad.api import create_dataset
from spatialcad.evaluate import runner
from spatialcad.evaluate.redact import redact
from spatialcad.record.records import dumps, image_path
from spatialcad.run.outdir import lock_path


@pytest.fixture(scope="module")
def bench(tmp_path_factory) -> Path:
    return small_benchmark(tmp_path_factory.mktemp("trust") / "b")


def digest_tree(root: Path) -> str:
    return hashlib.sha256(repr(sorted(tree_bytes(root).items())).encode()).hexdigest()


# 1. an output never overlaps its input

def _copy(bench: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "B"
    shutil.copytree(bench, copy)
    return copy


OVERLAPS = {
    "jsonl into benchmark.json": (["export", "{B}", "--format", "jsonl", "--out",
                                   "{B}/benchmark.json", "--overwrite"], "lies inside"),
    "spatialviz over B": (["export", "{B}", "--format", "spatialviz", "--out", "{B}",
                           "--overwrite"], "is"),
    "hf over B": (["export", "{B}", "--format", "hf", "--out", "{B}", "--overwrite"], "is"),
    "vlmeval inside B": (["export", "{B}", "--format", "vlmeval", "--out",
                          "{B}/VisualPenetration", "--overwrite"], "lies inside"),
    "hf over B's parent": (["export", "{B}", "--format", "hf", "--out", "{P}",
                            "--overwrite"], "contains"),
    "quiz over B": (["quiz", "{B}", "--n", "2", "--out", "{B}", "--overwrite"], "is"),
    "gallery over the manifest": (["gallery", "{B}", "--out", "{B}/manifest.json"],
                                  "lies inside"),
    "eval into B": (["eval", "{B}", "--baseline", "random", "--out", "{B}"], "is"),
    "merge over a shard": (["merge", "{B}", "--out", "{B}", "--overwrite"], "is"),
    "generate over its parts": (["generate", "--task", "cube_counting", "--n", "1", "--out",
                                 "{B}", "--deepcad-dir", "{B}", "--overwrite"], "is"),
    "generate over its cache": (["generate", "--task", "cube_counting", "--n", "1", "--out",
                                 "{P}", "--cache-dir", "{B}/cache", "--overwrite"],
                                "contains"),
}


@pytest.mark.parametrize("case", OVERLAPS)
def test_an_output_that_overlaps_its_input_is_refused(sc, bench, tmp_path, case):
    copy = _copy(bench, tmp_path)
    link = tmp_path / "link"
    link.symlink_to(copy)  # OUT is named through a symlink: resolved all the same
    args, clash = OVERLAPS[case]
    before = digest_tree(copy)
    filled = [a.replace("{B}", str(link)).replace("{P}", str(tmp_path)) for a in args]
    if args[1] == "{B}":
        filled[1] = str(copy)  # the input by its own name
    code, _, err = sc(*filled)
    assert code == 2, err
    assert f" {clash} the input " in one_line(err)
    assert digest_tree(copy) == before


def test_report_refuses_to_write_over_its_run_but_keeps_its_default(sc, bench, tmp_path):
    run = tmp_path / "run"
    assert sc("eval", bench, "--baseline", "random", "--out", run)[0] == 0
    before = (run / "results.jsonl").read_bytes()
    code, _, err = sc("report", run, "--out", run)
    assert code == 2 and " is the input " in one_line(err)
    code, _, err = sc("report", run / "results.jsonl", "--out", run / "results.jsonl")
    assert code == 2 and " is the input " in one_line(err)
    assert (run / "results.jsonl").read_bytes() == before
    assert sc("report", run)[0] == 0 and (run / "report" / "report.md").is_file()


def test_the_gallery_keeps_its_default_page_inside_the_benchmark(sc, bench, tmp_path):
    copy = _copy(bench, tmp_path)
    assert sc("gallery", copy, "--out", copy / "gallery.html")[0] == 0
    assert sc("verify", copy)[0] == 0


# 3. the key is redacted from echoes, never from the answer

@pytest.mark.parametrize("key", ["B", "answer", "A"])
def test_a_short_key_never_rewrites_the_reply_that_is_scored(sc, bench, tmp_path, monkeypatch,
                                                             key):
    monkeypatch.setenv("SC_KEY", key)
    run = tmp_path / "run"
    with FakeEndpoint(gold=gold_table(bench), api_key=key) as ep:
        code, stdout, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                               "--api-key-env", "SC_KEY", "--out", run, "--concurrency", 1)
    assert code == 0, err
    assert "100.0% [" in stdout and "0 unparsed" in stdout, stdout
    assert "[redacted]" not in (run / "results.jsonl").read_text()


def test_a_long_key_is_redacted_as_a_whole_token_only():
    key = "sk-0123456789"
    text = f"Bearer {key}; x{key}; {key}9; '{key}'"
    assert redact(text, key) == "Bearer [redacted]; x" + key + "; " + key + "9; '[redacted]'"
    assert redact("<answer>B</answer>", "B") == "<answer>B</answer>"
    assert redact("the answer is", "answer") == "the answer is"


def test_a_key_echoed_in_a_reply_is_stored_redacted_but_scored_as_sent(sc, bench, tmp_path,
                                                                       monkeypatch):
    key = "sk-0123456789"
    monkeypatch.setenv("SC_KEY", key)
    answer = json.loads((bench / "benchmark.json").read_text())[0]["Answer"]
    reply = f"{key} says <answer>{answer}</answer>"
    run = tmp_path / "run"
    payload = {"choices": [{"message": {"content": reply}, "finish_reason": "stop"}]}
    with FakeEndpoint(gold=gold_table(bench), api_key=key, faults={1: {"payload": payload}}) as ep:
        code, _, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                          "--api-key-env", "SC_KEY", "--out", run, "--concurrency", 1,
                          "--limit", "1")
    assert code == 0, err
    first = [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()][0]
    assert first["raw"] == f"[redacted] says <answer>{answer}</answer>" and first["correct"]


def test_a_huge_reply_is_scored_whole_but_stored_capped(sc, bench, tmp_path):
    answer = json.loads((bench / "benchmark.json").read_text())[0]["Answer"]
    reply = "Let me think. " * 250_000 + f"<answer>{answer}</answer>"  # 3.5 MB
    run = tmp_path / "run"
    payload = {"choices": [{"message": {"content": reply}, "finish_reason": "stop"}]}
    with FakeEndpoint(gold=gold_table(bench), faults={1: {"payload": payload}}) as ep:
        code, _, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                          "--out", run, "--concurrency", 1, "--limit", "1")
    assert code == 0, err
    first = [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()][0]
    assert first["correct"] and first["truncated"] == {"raw": len(reply)}
    assert len(first["raw"]) < runner.MAX_STORED + 100
    assert first["raw"].endswith(f"<answer>{answer}</answer>")
    assert (run / "results.jsonl").stat().st_size < 2 * runner.MAX_STORED


# 6. unwritable outputs, unreaped runs, the Python API's arguments

def test_an_output_under_a_file_says_so(sc, tmp_path):
    code, _, err = sc("generate", "--task", "cube_counting", "--n", "1", "--out", "/dev/full/x")
    assert code == 2 and "/dev/full is not a directory" in one_line(err)
    assert "File exists" not in err
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = sc("export", "--format", "jsonl", "--out", blocker / "a" / "x.jsonl",
                      str(tmp_path))  # not a benchmark either: the first problem is named
    assert code == 2


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def _lock_free(out: Path) -> bool:
    with open(lock_path(out), "a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(f, fcntl.LOCK_UN)
        return True


def _temp_dirs(out: Path) -> list[Path]:
    return list(out.parent.glob(f".{out.name}.tmp-*"))


def test_resume_after_a_kill_whose_process_is_not_reaped_goes_on(sc, tmp_path):
    out = tmp_path / "b"
    args = ["generate", "--task", "cube_counting", "--n", "40", "--out", str(out), "--resume"]
    run = subprocess.Popen([sys.executable, "-m", "spatialcad.cli", *args],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def spooled() -> int:
            return sum(len(p.read_bytes().splitlines()) - 1
                       for d in _temp_dirs(out) for p in d.glob(".spool.jsonl"))
        end = time.monotonic() + 120
        while spooled() < 2:
            assert time.monotonic() < end and run.poll() is None, "the run made no items"
            time.sleep(0.01)
        os.kill(run.pid, signal.SIGKILL)  # as `timeout -s KILL`; nobody reaps it yet
        end = time.monotonic() + 10
        while _state(run.pid) != "Z" or not _lock_free(out):  # its other threads end too
            assert time.monotonic() < end
            time.sleep(0.02)
        code, stdout, err = sc(*args)
        assert _state(run.pid) == "Z"  # still unreaped: its PID exists
    finally:
        run.kill()
        run.wait()
    assert code == 0, err
    assert "going on after" in stdout, stdout
    assert not _temp_dirs(out)
    assert sc("verify", out)[0] == 0


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"task": None}, "takes one task name"),
    ({}, "takes one task name"),
    ({"tasks": None}, "takes one task name"),
    ({"tasks": 3}, "tasks must be a task name"),
    ({"tasks": [{"task": None}]}, "a task is given by its CLI name"),
    ({"task": "cube_counting", "seed": "0"}, "seed must be an int, got '0'"),
    ({"task": "cube_counting", "seed": 1.5}, "seed must be an int"),
    ({"task": "cube_counting", "level": True}, "level must be an int, got True"),
    ({"tasks": [{"task": "cube_counting", "level": "1"}]}, "level must be an int"),
    ({"tasks": [{"task": "cube_counting", "weight": "2"}]}, "weight must be a number"),
])
def test_create_dataset_refuses_arguments_of_the_wrong_type(kwargs, message):
    with pytest.raises(TypeError, match=message):
        create_dataset(**kwargs)


def test_create_dataset_takes_task_as_a_keyword_too():
    assert create_dataset(task="cube_counting", size=2)[1] == create_dataset(
        "cube_counting", size=2)[1]


# 4. one rule for readers: records of the documented types, or refused

WRONG_TYPES = {
    "Choices a string": ("Choices", lambda r: "ABCD"),
    "Choices 5 long": ("Choices", lambda r: [*r["Choices"], "E"]),
    "Answer an int": ("Answer", lambda r: 1),
    "Answer a word": ("Answer", lambda r: "B "),
    "Explanation a dict": ("Explanation", lambda r: {"A": "x"}),
    "seed NaN": ("seed", lambda r: float("nan")),
    "seed a float": ("seed", lambda r: 1.5),
    "layout number NaN": ("layout", lambda r: {**r["layout"], "width": float("nan")}),
    "a layout box outside": ("layout", lambda r: {**r["layout"],
                                                  "reference": [[0, 0, 99999, 10]]}),
    "captions not one per reference box": ("layout", lambda r: {**r["layout"],
                                                                "captions": []}),
    "a caption a number": ("layout", lambda r: {**r["layout"], "captions": [
        7, *r["layout"]["captions"][1:]]}),
    "a NaN deep in the spec": ("spec", lambda r: {**r["spec"], "extra": [1, float("inf")]}),
    "options not 4": ("options", lambda r: r["options"][:3]),
    "judge answer": ("judge", lambda r: [{"question": "q", "answer": 1}, *r["judge"][1:]]),
    "Question missing": ("Question", None),
}
READERS = {
    "eval": ["eval", "{B}", "--baseline", "random", "--out", "{T}/run"],
    "hf": ["export", "{B}", "--format", "hf", "--out", "{T}/hf"],
    "vlmeval": ["export", "{B}", "--format", "vlmeval", "--out", "{T}/x.tsv"],
    "jsonl": ["export", "{B}", "--format", "jsonl", "--out", "{T}/x.jsonl"],
    "spatialviz": ["export", "{B}", "--format", "spatialviz", "--out", "{T}/sv"],
    "gallery": ["gallery", "{B}", "--out", "{T}/g.html"],
    "quiz": ["quiz", "{B}", "--n", "2", "--out", "{T}/q"],
}


def _with_wrong_type(bench: Path, tmp_path: Path, case: str) -> tuple[Path, str]:
    field, value = WRONG_TYPES[case]

    def edit(records, copy):
        if value is None:
            del records[1][field]
        else:
            records[1][field] = value(records[1])
        return records
    return tampered(bench, tmp_path, edit), field


@pytest.mark.parametrize("case", WRONG_TYPES)
def test_every_reader_refuses_a_record_of_the_wrong_type(sc, bench, tmp_path, case):
    copy, field = _with_wrong_type(bench, tmp_path, case)
    item = "VisualPenetration/CubeCounting/Level0/0001"
    code, stdout, _ = sc("verify", copy)
    assert code == 1 and f"FAIL {item}: it" in stdout and field in stdout
    assert "\n1 of 6 items" in stdout  # the problem, not a second failure of the item
    for name, args in READERS.items():
        code, _, err = sc(*[a.replace("{B}", str(copy)).replace("{T}", str(tmp_path))
                            for a in args])
        line = one_line(err)
        assert code == 2 and f"{item}: " in line and field in line, (name, err)
    assert not {"run", "hf", "x.tsv", "x.jsonl", "sv", "g.html", "q"} & {
        p.name for p in tmp_path.iterdir()}


def test_merge_refuses_a_shard_with_a_record_of_the_wrong_type(sc, tmp_path):
    shards = [tmp_path / f"s{k}" for k in range(2)]
    for k, shard in enumerate(shards):
        assert sc("generate", "--task", "cube_counting", "--n", "4", "--shard", f"{k}/2",
                  "--out", shard)[0] == 0
    records = json.loads((shards[1] / "benchmark.json").read_text())
    records[0]["Choices"] = "ABCD"
    (shards[1] / "benchmark.json").write_text(json.dumps(records))
    reseal(shards[1])
    code, _, err = sc("merge", *shards, "--out", tmp_path / "m")
    assert code == 2 and "its Choices is not a list of 4 strings" in one_line(err)
    assert not (tmp_path / "m").exists()


def test_json_is_never_written_with_nan():
    with pytest.raises(ValueError):
        dumps({"x": float("nan")})


# 2. and 5. human results files: scored against the benchmark, one quiz's file or refused

def _quiz(sc, bench: Path, tmp_path: Path, n: int = 4) -> dict:
    assert sc("quiz", bench, "--n", n, "--seed", 2, "--out", tmp_path / "quiz")[0] == 0
    return json.loads((tmp_path / "quiz" / "quiz.json").read_text())


def _page_lines(bench: Path, plan: dict, answers: list[str | None], name: str = "eve"):
    """The lines the quiz page downloads (see templates/quiz.js) for these answers."""
    recs = {image_path(r): r for r in json.loads((bench / "benchmark.json").read_text())}
    return [{"id": i, "system": f"human:{name}", "category": recs[i]["Category"],
             "task": recs[i]["Task"], "level": recs[i]["Level"], "form": "choice",
             "extracted": a, "rule": "human", "latency_s": 2.5, "quiz": plan["quiz"],
             "quiz_parameters": {"n": len(plan["items"]), "seed": 2, "tasks": []},
             "benchmark_sha256": plan["benchmark_sha256"],
             "benchmark_manifest_sha256": plan["benchmark_manifest_sha256"],
             "benchmark_path": plan["benchmark"]}
            for i, a in zip(plan["items"], answers, strict=True)]


def _golds(bench: Path, ids: list[str]) -> list[str]:
    recs = {image_path(r): r for r in json.loads((bench / "benchmark.json").read_text())}
    return [recs[i]["Answer"] for i in ids]


def _write(path: Path, lines: list, tail: str = "") -> Path:
    path.write_text("".join(json.dumps(x) + "\n" for x in lines) + tail)
    return path


def _wrong(letter: str) -> str:
    return "ABCD"[("ABCD".index(letter) + 1) % 4]


def _score(sc, path: Path, tmp_path: Path, *more: str) -> tuple[int, dict | None, str]:
    code, _, err = sc("report", path, "--out", tmp_path / "rep", *more)
    summary = tmp_path / "rep" / "summary.json"
    return code, (json.loads(summary.read_text())["columns"][0] if code == 0 else None), err


def test_a_human_file_is_scored_by_the_benchmark_not_by_its_own_gold(sc, bench, tmp_path):
    plan = _quiz(sc, bench, tmp_path)
    golds = _golds(bench, plan["items"])
    answers = [g if k < 2 else _wrong(g) for k, g in enumerate(golds)]  # 2 of 4 right
    lines = _page_lines(bench, plan, answers)
    for x in lines:  # an edited key, as an old page's file would carry it
        x.update(gold=x["extracted"], correct=True)
    path = _write(tmp_path / "human-eve.jsonl", lines)
    code, col, err = _score(sc, path, tmp_path)
    assert code == 0, err
    assert col["overall"]["correct"] == 2 and col["overall"]["n"] == 4


def test_without_its_benchmark_a_human_file_is_not_scored(sc, bench, tmp_path):
    copy = _copy(bench, tmp_path)
    plan = _quiz(sc, copy, tmp_path)
    lines = _page_lines(copy, plan, _golds(copy, plan["items"]))
    path = _write(tmp_path / "human-eve.jsonl", lines)
    moved = copy.rename(tmp_path / "moved")
    code, col, err = _score(sc, path, tmp_path)
    assert code == 2 and "its benchmark" in one_line(err) and "--benchmark DIR" in err
    code, col, err = _score(sc, path, tmp_path, "--benchmark", str(moved))
    assert code == 0 and col["overall"]["correct"] == 4, err
    # a run of the same benchmark in the same report names it too
    run = tmp_path / "run"
    assert sc("eval", moved, "--baseline", "constant", "--out", run)[0] == 0
    code, _, err = sc("report", run, path, "--out", tmp_path / "rep2")
    assert code == 0, err


def _answers_changed(bench: Path, tmp_path: Path) -> Path:
    """A checked copy of ``bench`` with half its keys changed and its manifest re-hashed."""
    def edit(records, _copy):
        for r in records[::2]:
            r["Answer"] = _wrong(r["Answer"])
            for o in r["options"]:
                o["is_answer"] = o["letter"] == r["Answer"]
        return records
    return tampered(bench, tmp_path, edit)


def test_a_human_file_of_another_benchmark_is_refused_naming_both(sc, bench, tmp_path):
    copy = _answers_changed(bench, tmp_path)
    plan = _quiz(sc, copy, tmp_path)
    path = _write(tmp_path / "human-eve.jsonl",
                  _page_lines(copy, plan, _golds(copy, plan["items"])))
    code, _, err = _score(sc, path, tmp_path, "--benchmark", str(bench))
    assert code == 2, err
    message = one_line(err)
    assert plan["benchmark_manifest_sha256"][:12] in message
    assert hashlib.sha256((bench / "manifest.json").read_bytes()).hexdigest()[:12] in message
    code, col, err = _score(sc, path, tmp_path, "--benchmark", str(copy))
    assert code == 0 and col["benchmark"]["path"] == str(copy.resolve()), err


def test_every_report_names_what_it_scored_against(sc, bench, tmp_path):
    own = _copy(bench, tmp_path)
    run = tmp_path / "run"
    assert sc("eval", own, "--baseline", "constant", "--letter", "A", "--out", run)[0] == 0
    lines = [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()]
    right = sum(x["correct"] for x in lines)
    _write(run / "results.jsonl", [{**x, "gold": "A", "correct": True} for x in lines])
    digest = hashlib.sha256((own / "benchmark.json").read_bytes()).hexdigest()
    # no --benchmark: the run's own benchmark (run.json) re-scores it, and the report says so
    code, col, err = _score(sc, run, tmp_path)
    assert code == 0 and col["overall"]["correct"] == right, err
    assert col["benchmark"] == {
        "path": str(own.resolve()), "rescored": True, "benchmark_sha256": digest,
        "manifest_sha256": hashlib.sha256((own / "manifest.json").read_bytes()).hexdigest()}
    report = (tmp_path / "rep" / "report.md").read_text()
    assert f"the benchmark at {own.resolve()} (benchmark.json SHA-256 {digest}" in report
    # its benchmark gone: the stored gold, and the report says it was not re-scored
    own.rename(tmp_path / "elsewhere")
    code, col, err = _score(sc, run, tmp_path)
    assert code == 0 and col["overall"]["correct"] == len(lines), err
    assert col["benchmark"]["rescored"] is False
    assert "not re-scored" in (tmp_path / "rep" / "report.md").read_text()
    # another benchmark given: refused, naming both digests
    other = _answers_changed(bench, tmp_path)
    code, _, err = _score(sc, run, tmp_path, "--benchmark", str(other))
    other_digest = hashlib.sha256((other / "benchmark.json").read_bytes()).hexdigest()
    assert code == 2 and digest[:12] in one_line(err) and other_digest[:12] in err


def test_a_human_file_whose_first_line_is_too_long_says_so(sc, bench, tmp_path):
    plan = _quiz(sc, bench, tmp_path)
    lines = _page_lines(bench, plan, _golds(bench, plan["items"]))
    lines[0]["extracted"] = "A" * 70_000
    path = _write(tmp_path / "human-eve.jsonl", lines)
    code, _, err = _score(sc, path, tmp_path)
    assert code == 2 and "line 1 is longer than 65536 bytes" in one_line(err)


def _not_one_quizs(bench, plan, lines, tmp_path, case):
    recs = json.loads((bench / "benchmark.json").read_text())
    others = [image_path(r) for r in recs if image_path(r) not in plan["items"]]
    if case == "invented items":
        fake = {**lines[0], "task": "FakeTask", "category": "Fake"}
        return lines + [{**fake, "id": f"Fake/FakeTask/Level0/{i:04d}"} for i in range(50)]
    if case == "an item not in the quiz":
        return [*lines[:3], {**lines[3], "id": others[0]}]
    if case == "an extra benchmark item":
        return [*lines, {**lines[3], "id": others[0]}]
    if case == "the same item twice":
        return [*lines[:3], lines[0]]
    if case == "a task renamed":
        return [{**lines[0], "task": "CubeCountingX"}, *lines[1:]]
    if case == "another quiz id":
        return [{**x, "quiz": "0" * 16} for x in lines]
    if case == "an unfinished quiz":
        return lines[:3]
    raise AssertionError(case)


@pytest.mark.parametrize(("case", "message"), [
    ("invented items", "more lines than its quiz has items (4)"),
    ("an item not in the quiz", "is not one of its quiz's items"),
    ("an extra benchmark item", "more lines than its quiz has items"),
    ("the same item twice", "answers the item"),
    ("a task renamed", "another category, task or level"),
    ("another quiz id", "no quiz of"),
    ("an unfinished quiz", "answers 3 of its quiz's 4 items"),
])
def test_a_file_that_is_not_one_quizs_is_refused(sc, bench, tmp_path, case, message):
    plan = _quiz(sc, bench, tmp_path)
    lines = _page_lines(bench, plan, _golds(bench, plan["items"]))
    path = _write(tmp_path / "human-eve.jsonl", _not_one_quizs(bench, plan, lines, tmp_path, case))
    code, _, err = _score(sc, path, tmp_path)
    assert code == 2 and message in one_line(err), err
    code, _, err = sc("gallery", bench, "--run", path, "--out", tmp_path / "g.html")
    assert code == 2 and message in one_line(err), err


def test_reading_stops_once_a_file_is_bigger_than_its_quiz(sc, bench, tmp_path):
    plan = _quiz(sc, bench, tmp_path)
    lines = _page_lines(bench, plan, _golds(bench, plan["items"]))
    # line 5 is one too many; whatever follows (here 200,000 lines of junk) is never read
    path = _write(tmp_path / "human-eve.jsonl", [*lines, lines[0]], "junk\n" * 200_000)
    code, _, err = _score(sc, path, tmp_path)
    assert code == 2 and "more lines than its quiz has items" in one_line(err)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("latency_s", "3", 'its latency_s "3" is not a finite number'),
    ("latency_s", float("nan"), "its latency_s NaN is not a finite number"),
    ("latency_s", -1e308, "its latency_s -1e+308 is not a finite number of seconds >= 0"),
    ("latency_s", True, "its latency_s true is not a finite number"),
    ("id", 3, "its id 3 is not a string"),
    ("task", None, "its task null is not a string"),
    ("system", "human:<script>alert(1)</script>", "its system"),
    ("extracted", 1, "its extracted 1 is not a string or null"),
    ("quiz_parameters", None, "its quiz_parameters null is not"),
])
def test_human_lines_of_the_wrong_type_are_refused_in_one_line(sc, bench, tmp_path, field,
                                                               value, message):
    plan = _quiz(sc, bench, tmp_path)
    lines = _page_lines(bench, plan, _golds(bench, plan["items"]))
    lines[2][field] = value
    path = _write(tmp_path / "human-eve.jsonl", lines)
    code, _, err = _score(sc, path, tmp_path)
    assert code == 2 and f"human-eve.jsonl: line 3: {message}" in one_line(err), err


def test_a_truncated_last_line_is_reported(sc, bench, tmp_path):
    plan = _quiz(sc, bench, tmp_path)
    lines = _page_lines(bench, plan, _golds(bench, plan["items"]))
    text = "".join(json.dumps(x) + "\n" for x in lines)
    path = tmp_path / "human-eve.jsonl"
    path.write_text(text[:-30])
    code, _, err = _score(sc, path, tmp_path)
    assert code == 2 and "line 4 is cut short" in one_line(err)
    path.write_text(text[:-1])  # only the last newline lost: cut short all the same
    assert _score(sc, path, tmp_path)[0] == 2


def test_names_are_escaped_in_the_report(sc, bench, tmp_path):
    plan = _quiz(sc, bench, tmp_path)
    lines = _page_lines(bench, plan, _golds(bench, plan["items"]))
    path = _write(tmp_path / "human-<script>x|y.jsonl", lines)
    code, md, err = sc("report", path, "--out", tmp_path / "rep")
    assert code == 0, err
    report_md = (tmp_path / "rep" / "report.md").read_text()
    assert "<script>" not in report_md and "human-&lt;script&gt;x\\|y" in report_md


def test_report_rescores_an_eval_run_against_the_benchmark_given(sc, bench, tmp_path):
    run = tmp_path / "run"
    assert sc("eval", bench, "--baseline", "constant", "--letter", "A", "--out", run)[0] == 0
    lines = [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()]
    right = sum(x["correct"] for x in lines)
    assert 0 < right < len(lines)
    _write(run / "results.jsonl", [{**x, "gold": "A", "correct": True} for x in lines])
    code, col, err = _score(sc, run, tmp_path, "--benchmark", str(bench))
    assert code == 0 and col["overall"]["correct"] == right, err
    lines[0]["id"] = "Fake/FakeTask/Level0/0000"
    _write(run / "results.jsonl", lines)
    code, col, err = _score(sc, run, tmp_path, "--benchmark", str(bench))
    assert code == 2 and "is not an item of" in one_line(err)


def test_quiz_answers_behind_a_broken_first_line_are_not_scored_by_themselves(sc, bench,
                                                                                tmp_path):
    plan = _quiz(sc, bench, tmp_path)
    lines = _page_lines(bench, plan, ["A"] * 4)
    path = tmp_path / "human-eve.jsonl"
    path.write_text("junk\n" + "".join(json.dumps({**x, "gold": "A", "correct": True}) + "\n"
                                       for x in lines))
    code, _, err = _score(sc, path, tmp_path)
    assert code == 2 and "not a quiz page's file" in one_line(err)


def test_a_file_of_the_old_page_is_refused_not_scored_by_its_own_key(sc, bench, tmp_path):
    plan = _quiz(sc, bench, tmp_path)
    lines = _page_lines(bench, plan, ["A"] * 4)
    for x in lines:  # the old page: a key in the file, no quiz parameters
        del x["quiz_parameters"]
        x.update(gold="A", correct=True)
    code, _, err = _score(sc, _write(tmp_path / "human-eve.jsonl", lines), tmp_path)
    assert code == 2 and "made by an older quiz page" in one_line(err)
