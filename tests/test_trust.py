"""Issue 38 (part A): what a hostile or careless user met, one test each.

1. every command that writes refuses an --out that is, contains or lies inside its input;
3. the API key is redacted from what the endpoint echoes, never from what is scored;
4. a benchmark whose records have the wrong types is refused by every reader;
5. and 2. human results files are checked and scored against the benchmark itself;
6. unwritable outputs, killed runs that stay unreaped, and the Python API's arguments.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from conftest import tree_bytes
from eval_server import FakeEndpoint, gold_table

from spatialcad import pipeline
from spatialcad.evaluate.redact import redact


@pytest.fixture(scope="module")
def bench(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("trust") / "b"
    pipeline.generate(["cube_counting", "rotation_2d"], 0, 3, 0, out,
                      command="spatialcad generate")
    return out


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


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

@pytest.mark.parametrize("key", ["B", "answer", "A", "Level0"])
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
