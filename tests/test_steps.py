"""Step-by-step solutions (`generate --with-steps`) and `eval --steps`.

For each task with steps: the steps chain from the reference to the answer (re-proved by
the verifier's own simulation), their number is the number of operations counted here from
the spec, every picture is its state drawn at the item's panel size, and tampered steps
fail.  End to end: determinism, `verify`, the manifest's trust rules, shards, and what
`eval --steps` sends to a (fake) model.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from conftest import tree_bytes
from eval_server import FakeEndpoint, gold_table

from spatialcad.record.benchmark import Benchmark, BenchmarkError, sha256
from spatialcad.render.png import decode_png
from spatialcad.run import pipeline, shards
from spatialcad.run.plan import Shard
from spatialcad.run.verification import check_steps
from spatialcad.steps import answer_option
from spatialcad.tasks import registry

# tasks whose step pictures are drawn at the item's panel size (the cube-net tasks' folding
# has its own size and its own tests: tests/test_steps_nets.py)
PANEL_TASKS = ["arrow_moving", "block_moving", "paper_folding", "rotation_2d", "rotation_3d",
               "mechanical_system"]
STEP_TASKS = [*PANEL_TASKS, "cube_reconstruction", "cube_unfolding"]
FAST = ["--timeout", "2", "--backoff", "0.01"]
COMMAND = ("spatialcad generate --task arrow_moving,rotation_2d,cube_counting --level 1 --n 3 "
           "--seed 0 --with-steps")


def expected_count(record: dict) -> int:
    """The number of operations from the reference to the answer, read off the spec."""
    spec, answer = record["spec"], answer_option(record)["data"]
    task = record["Task"]
    if task == "ArrowMoving":
        return len(spec["moves"])
    if task == "BlockMoving":
        return len(answer["moves"])
    if task == "PaperFolding":
        return len(spec["folds"])
    if task == "MechanicalSystem":  # one step per part set moving, and the jam; a
        # planetary train: its members by Willis's rule, then its planets
        if any(lk["kind"] == "carries" for lk in spec["links"]):
            return 2
        return len(spec["parts"]) - 1 + int(answer.get("jammed") is True)
    if task == "2DRotation":
        return {1: 1, 2: 2, 3: 1}[answer["transform"]["turns"] % 4]
    assert task == "3DRotation"
    made = int(answer.get("mirror_axis") is not None) + int(answer.get("removed") is not None)
    return made + sum(k % 4 for _, k in answer["steps"])


def pictures(item: pipeline.ItemResult) -> list[np.ndarray]:
    return [decode_png(p) for p in item.step_pngs]


@pytest.fixture(scope="module")
def items() -> dict[tuple[str, int], pipeline.ItemResult]:
    return {(t, level): pipeline.make_item(t, level, 1, 2, 0, with_steps=True)
            for t in PANEL_TASKS for level in (0, 1, 2)}


@pytest.mark.parametrize("level", [0, 1, 2])
@pytest.mark.parametrize("task", PANEL_TASKS)
def test_steps_chain_from_reference_to_answer(items, task, level):
    item = items[task, level]
    record = item.record
    steps = record["steps"]
    assert len(steps) == expected_count(record) >= 1
    assert [s["image"] for s in steps] == [
        f"{record['Category']}/{record['Task']}/Level{level}/0001-step{k}.png"
        for k in range(1, len(steps) + 1)]
    assert check_steps(record, pictures(item)) == []
    # each picture: not blank, the size of the item's panels (BlockMoving: both views)
    _, _, w, h = record["layout"]["reference"][0]
    for image in pictures(item):
        assert len(np.unique(image.reshape(-1, 3), axis=0)) > 2
        wide = 2 if task == "block_moving" else 1
        assert image.shape == (h, wide * w, 3)
    states = [json.dumps(s["state"], sort_keys=True) for s in steps]
    assert all(a != b for a, b in zip(states, states[1:], strict=False))


def test_tampered_steps_fail(items):
    for task in PANEL_TASKS:
        item = items[task, 2]
        steps = item.record["steps"]

        def fails(new_steps, images=None, record=item.record):
            return check_steps({**record, "steps": new_steps}, images)

        assert fails(steps[:-1]), task  # last step removed
        assert fails(steps[1:]), task  # first step removed
        text = copy.deepcopy(steps)
        text[0]["text"] = text[0]["text"].replace("90", "180").replace("Move", "Moved") + "!"
        assert fails(text), task
        assert fails(steps, pictures(item)[::-1] if len(steps) > 1 else
                     [pictures(item)[0][::-1]]), task  # pictures swapped or flipped
        if len(steps) > 1:
            assert fails(steps[::-1]), task
            assert fails([steps[1], steps[0], *steps[2:]]), task
        else:
            assert fails(steps * 2), task


def test_tasks_with_steps_are_documented():
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    with_steps = [t.name for t in registry.tasks().values() if t.has_steps]
    assert sorted(with_steps) == sorted(STEP_TASKS)
    for name in with_steps:
        assert f"`{name}`" in readme.split("--with-steps", 1)[1]


def _rewrite(bench: Path, records: list[dict]) -> None:
    """Replace benchmark.json and its checksum (so only the item checks can object)."""
    data = (json.dumps(records, indent=1, ensure_ascii=False) + "\n").encode()
    (bench / "benchmark.json").write_bytes(data)
    manifest = json.loads((bench / "manifest.json").read_text())
    manifest["files"]["benchmark.json"] = sha256(data)
    (bench / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")


@pytest.fixture(scope="module")
def bench(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("steps") / "b"
    pipeline.generate(["arrow_moving", "rotation_2d", "cube_counting"], 1, 3, 0, out,
                      with_steps=True, command=COMMAND)
    return out


def test_generate_with_steps_end_to_end(sc, bench, tmp_path):
    records = json.loads((bench / "benchmark.json").read_text())
    manifest = json.loads((bench / "manifest.json").read_text())
    assert manifest["parameters"]["with_steps"] is True
    for r in records:
        names = [s["image"] for s in r.get("steps", [])]
        assert ("steps" in r) == (r["Task"] != "CubeCounting")  # no steps: no key
        for name in names:
            assert manifest["files"][name] == sha256((bench / name).read_bytes())
    steps_files = sorted(p.name for p in bench.rglob("*-step*.png"))
    assert len(steps_files) == sum(len(r.get("steps", [])) for r in records) > 0
    # determinism: the same command through the CLI makes the same bytes
    again = tmp_path / "again"
    code, _, err = sc("generate", "--task", "arrow_moving,rotation_2d,cube_counting",
                      "--level", 1, "--n", 3, "--out", again, "--with-steps", "--jobs", 2)
    assert code == 0, err
    assert tree_bytes(again) == tree_bytes(bench)
    code, out, _ = sc("verify", again)
    assert code == 0 and "all 9 items verified" in out
    # without --with-steps: no step files, no steps key, the same item images
    plain = tmp_path / "plain"
    assert sc("generate", "--task", "arrow_moving,rotation_2d,cube_counting", "--level", 1,
              "--n", 3, "--out", plain)[0] == 0
    files = tree_bytes(plain)
    assert not [k for k in files if "-step" in k]
    assert all("steps" not in r for r in json.loads(files["benchmark.json"]))
    assert all(tree_bytes(again)[k] == v for k, v in files.items() if k.endswith(".png"))
    with_steps = json.loads(tree_bytes(again)["benchmark.json"])
    assert [{k: v for k, v in r.items() if k != "steps"} for r in with_steps] == json.loads(
        files["benchmark.json"])
    assert "with_steps" not in json.loads(files["manifest.json"])["parameters"]


@pytest.mark.parametrize("tamper", ["text", "drop_last", "swap", "state", "picture",
                                    "no_steps"])
def test_verify_fails_on_tampered_steps(sc, bench, tmp_path, tamper):
    out = tmp_path / "b"
    out.mkdir()
    for name, data in tree_bytes(bench).items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    records = json.loads((out / "benchmark.json").read_text())
    r = next(r for r in records if r["Task"] == "ArrowMoving")
    steps = r["steps"]
    if tamper == "text":
        steps[0]["text"] = steps[0]["text"].replace("forward", "backward").replace(
            "left", "right") + " "
    elif tamper == "drop_last":
        steps.pop()
    elif tamper == "swap":
        steps[0]["state"], steps[1]["state"] = steps[1]["state"], steps[0]["state"]
    elif tamper == "state":
        steps[-1]["state"][0]["heading"] = {"north": "south"}.get(
            steps[-1]["state"][0]["heading"], "north")
    if tamper == "no_steps":  # the steps and their files taken out, manifest updated
        manifest = json.loads((out / "manifest.json").read_text())
        for s in r.pop("steps"):
            (out / s["image"]).unlink()
            del manifest["files"][s["image"]]
        (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
        _rewrite(out, records)
    elif tamper == "picture":  # a step picture replaced by another step's, checksum updated
        a, b = steps[0]["image"], steps[1]["image"]
        (out / a).write_bytes((out / b).read_bytes())
        manifest = json.loads((out / "manifest.json").read_text())
        manifest["files"][a] = manifest["files"][b]
        (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    else:
        _rewrite(out, records)
    code, stdout, _ = sc("verify", out)
    assert code == 1, stdout
    assert "step" in stdout


def test_step_paths_are_trusted_only_as_the_manifest_lists_them(bench, tmp_path):
    out = tmp_path / "b"
    out.mkdir()
    for name, data in tree_bytes(bench).items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    good = Benchmark.checked(out)
    r = next(r for r in good.records if "steps" in r)
    assert [sha256(p) for p in good.step_pngs(r)] == [
        good.manifest["files"][s["image"]] for s in r["steps"]]
    records = json.loads((out / "benchmark.json").read_text())
    first = next(x for x in records if "steps" in x)
    first["steps"][0]["image"] = "../../../../etc/passwd"
    _rewrite(out, records)
    bench_ = Benchmark.open(out)
    assert any("does not name the image" in p for _, p in bench_.problems())
    with pytest.raises(BenchmarkError):
        Benchmark.checked(out)
    # a step file changed on disk
    first["steps"][0]["image"] = r["steps"][0]["image"]
    _rewrite(out, records)
    (out / r["steps"][0]["image"]).write_bytes(b"not a png")
    assert any("checksum" in p for _, p in Benchmark.open(out).problems())


def test_shards_with_steps_merge_into_the_unsharded_run(bench, tmp_path):
    parts = []
    for k in range(2):
        part = tmp_path / f"s{k}"
        pipeline.generate(["arrow_moving", "rotation_2d", "cube_counting"], 1, 3, 0, part,
                          with_steps=True, command=COMMAND, shard=Shard(k, 2))
        parts.append(part)
    merged = tmp_path / "merged"
    shards.merge(parts, merged)
    assert tree_bytes(merged) == tree_bytes(bench)


def _image_parts(body: dict) -> list[bytes]:
    return [base64.b64decode(p["image_url"]["url"].split(",", 1)[1])
            for p in body["messages"][0]["content"] if p["type"] == "image_url"]


def _text(body: dict) -> str:
    return next(p["text"] for p in body["messages"][0]["content"] if p["type"] == "text")


def test_eval_steps_sends_what_each_setting_shows(sc, bench, tmp_path):
    gold = gold_table(bench)
    by_digest = {d: r for d, r in gold.items()}
    runs = {}
    for mode in ("none", "text", "images", "partial"):
        run = tmp_path / mode
        with FakeEndpoint(gold=gold) as ep:
            code, _, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                              "--out", run, "--steps", mode, "--concurrency", 1, *FAST)
        assert code == 0, err
        runs[mode] = run
        assert ep.count == (9 if mode == "none" else 6)  # steps: only the items with steps
        for body in ep.requests:
            images = _image_parts(body)
            record = by_digest[hashlib.sha256(images[0]).hexdigest()]
            steps = record.get("steps", [])
            shown = {"none": 0, "text": 0, "images": len(steps),
                     "partial": len(steps) - 1}[mode]
            assert len(images) == 1 + shown
            for k, data in enumerate(images[1:], 1):
                assert data == (bench / steps[k - 1]["image"]).read_bytes()
            text = _text(body)
            listed = steps if mode in ("text", "images") else steps[:-1]
            if mode == "none":
                assert "Intermediate steps" not in text
            else:
                assert text.endswith("".join(f"{k}. {s['text']}\n"
                                             for k, s in enumerate(listed, 1)))
    meta = json.loads((runs["images"] / "run.json").read_text())
    assert meta["identity"]["steps"] == "images"
    assert "steps" not in json.loads((runs["none"] / "run.json").read_text())["identity"]
    # another --steps on the same run is refused unless --restart
    code, _, err = sc("eval", bench, "--model", "fake-vl", "--base-url", "http://127.0.0.1:9/v1",
                      "--out", runs["images"], "--steps", "text", *FAST)
    assert code == 2 and "steps" in err and err.count("\n") == 1
    # the report labels runs by their setting and compares them with the run without
    code, _, err = sc("report", runs["none"], runs["images"], runs["partial"],
                      "--out", tmp_path / "rep")
    assert code == 0, err
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "images (steps: images)" in md and "partial (steps: partial)" in md
    section = md.split("## With and without steps", 1)[1]
    rows = [x for x in section.splitlines() if x.startswith("| ArrowMoving")
            or x.startswith("| 2DRotation")]
    assert len(rows) == 4  # two tasks with steps, two runs with steps
    assert all("| 100.0 | 100.0 | +0.0 | 3 |" in x and "1.0000" in x for x in rows)
    summary = json.loads((tmp_path / "rep" / "summary.json").read_text())
    assert [c["steps"] for c in summary["columns"]] == ["none", "images", "partial"]


def test_eval_steps_refused_without_steps(sc, tmp_path):
    plain = tmp_path / "plain"
    pipeline.generate(["arrow_moving"], 0, 2, 0, plain)
    code, _, err = sc("eval", plain, "--model", "fake-vl", "--base-url",
                      "http://127.0.0.1:9/v1", "--out", tmp_path / "run", "--steps", "images")
    assert code == 2 and err.count("\n") == 1 and "--with-steps" in err
    code, _, err = sc("eval", plain, "--model", "fake-vl", "--base-url",
                      "http://127.0.0.1:9/v1", "--out", tmp_path / "run", "--steps", "partial",
                      "--text-only")
    assert code == 2 and err.count("\n") == 1 and "--text-only" in err


def test_an_interrupted_run_with_steps_resumes_to_the_same_bytes(bench, tmp_path, monkeypatch):
    out = tmp_path / "b"
    tasks = ["arrow_moving", "rotation_2d", "cube_counting"]
    real, made = pipeline.make_item, []

    def interrupted(*args):
        if len(made) == 4:
            raise KeyboardInterrupt
        made.append(args)
        return real(*args)

    monkeypatch.setattr(pipeline, "make_item", interrupted)
    with pytest.raises(KeyboardInterrupt):
        pipeline.generate(tasks, 1, 3, 0, out, with_steps=True, command=COMMAND, resume=True)
    monkeypatch.undo()
    [partial] = tmp_path.glob(".b.tmp-*")
    damaged = partial / "MentalAnimation/ArrowMoving/Level1/0002-step1.png"
    damaged.write_bytes(b"cut short")  # its item is made again
    plain = COMMAND.replace(" --with-steps", "")
    with pytest.raises(BenchmarkError, match="made by another command"):
        pipeline.generate(tasks, 1, 3, 0, out, command=plain, resume=True)
    summary = pipeline.generate(tasks, 1, 3, 0, out, with_steps=True, command=COMMAND,
                                resume=True)
    assert summary.resumed == 2
    assert tree_bytes(out) == tree_bytes(bench)
