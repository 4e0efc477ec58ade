"""`spatialcad export --format hf`: a hub folder (parquet shards, dataset card, manifest)
that the installed (newest) `datasets` and the oldest one we allow (2.19, in a venv the
test builds once and keeps) both load; `--push-to-hub` and its refusals."""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
import yaml

from spatialcad.export import hf, hf_card, hub
from spatialcad.render.png import decode_png
from spatialcad.run import pipeline

OLD_DATASETS = "2.19"


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    out = tmp_path_factory.mktemp("hfbench") / "b"
    pipeline.generate(["cube_counting", "three_view"], 0, 3, 1, out)
    return out


@pytest.fixture(scope="module")
def export(bench, tmp_path_factory):
    out = tmp_path_factory.mktemp("hfexport") / "hf"
    assert hf.export_hf(bench, out) == 6
    return out


def records(bench):
    return json.loads((bench / "benchmark.json").read_text())


def pixels_sha(image: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(image).tobytes()).hexdigest()


def card(folder: Path) -> tuple[dict, str]:
    text = (folder / "README.md").read_text(encoding="utf-8")
    _, head, body = text.split("---\n", 2)
    return yaml.safe_load(head), body


def test_folder_layout_and_manifest(export):
    files = sorted(p.relative_to(export).as_posix() for p in export.rglob("*") if p.is_file())
    assert files == ["README.md", "data/test-00000-of-00001.parquet", "manifest.json"]
    manifest = json.loads((export / "manifest.json").read_text())
    assert manifest["generator"] == "spatialcad" and manifest["export"] == "hf"
    for name, digest in manifest["files"].items():
        assert hashlib.sha256((export / name).read_bytes()).hexdigest() == digest


def test_newest_datasets_loads_the_folder_and_the_parquet(export, bench):
    import datasets
    recs = records(bench)
    by_folder = datasets.load_dataset(str(export), split="test")
    by_parquet = datasets.load_dataset(
        "parquet", data_files={"test": str(export / "data" / "test-*.parquet")}, split="test")
    for ds in (by_folder, by_parquet):
        assert len(ds) == len(recs) == 6
        assert isinstance(ds.features["image"], datasets.Image)
        for row, rec in zip(ds, recs, strict=True):
            assert row["id"] == f"{rec['Category']}/{rec['Task']}/{rec['Level']}/{rec['Image_id']}"
            assert row["choices"] == rec["Choices"] and row["answer"] == rec["Answer"]
            assert row["image_id"] == rec["Image_id"] and json.loads(row["spec"]) == rec["spec"]
            assert row["answer_direct"] == rec.get("Answer_direct")
            assert np.array_equal(np.asarray(row["image"].convert("RGB")),
                                  decode_png(bench / rec["image"]))


class _Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def test_the_card_loads_without_a_warning(export, tmp_path):
    """datasets warns (and ignores the card's splits) when a split lacks num_bytes; a fresh
    cache makes it read the card rather than a prepared copy."""
    import datasets
    kept = _Kept()
    root = logging.getLogger("datasets")
    root.addHandler(kept)
    try:
        ds = datasets.load_dataset(str(export), split="test", cache_dir=str(tmp_path / "cache"))
    finally:
        root.removeHandler(kept)
    assert len(ds) == 6
    assert not [m for m in kept.messages if "dataset_info" in m], kept.messages
    [split] = card(export)[0]["dataset_info"]["splits"]
    assert split["num_bytes"] == ds.data.nbytes  # the rows' Arrow size, as datasets counts


def test_features_are_written_in_the_form_old_and_new_datasets_read(export):
    import pyarrow.parquet as pq
    meta = json.loads(pq.read_schema(export / "data/test-00000-of-00001.parquet")
                      .metadata[b"huggingface"])
    features = meta["info"]["features"]
    assert features["choices"] == {"feature": {"dtype": "string", "_type": "Value"},
                                   "_type": "Sequence"}  # never "List": 2.19 lacks it
    assert features["image"] == {"_type": "Image"} and features == hf.features()
    head, _ = card(export)
    yaml_features = {f["name"]: f for f in head["dataset_info"]["features"]}
    assert list(yaml_features) == list(hf.COLUMNS)
    assert yaml_features["choices"] == {"name": "choices", "sequence": "string"}
    assert yaml_features["image"] == {"name": "image", "dtype": "image"}


def test_dataset_card(export, bench):
    head, body = card(export)
    assert head["configs"] == [{"config_name": "default",
                                "data_files": [{"split": "test", "path": "data/test-*"}]}]
    assert head["license"] == "mit" and "visual-question-answering" in head["task_categories"]
    [split] = head["dataset_info"]["splits"]
    assert split["name"] == "test" and split["num_examples"] == 6 and split["num_bytes"] > 0
    assert head["size_categories"] == ["n<1K"]
    assert list(hf_card.FIELD_TEXT) == list(hf.COLUMNS)  # every column is described
    for text in ("CubeCounting", "3ViewProjection", "Level0", "VisualPenetration",
                 "`question_direct`", "`layout`", "2507.07610", "SpatialViz-Bench"):
        assert text in body, text
    assert json.dumps(json.loads((bench / "manifest.json").read_text())["parameters"]) in body


def test_shards_keep_the_order_and_the_hub_names(bench, tmp_path):
    import datasets
    out = tmp_path / "sharded"
    sizes = sorted((bench / r["image"]).stat().st_size for r in records(bench))
    hf.export_hf(bench, out, max_shard_bytes=sizes[-1] + sizes[0])  # 1-2 images a shard
    names = sorted(p.name for p in (out / "data").iterdir())
    count = len(names)
    assert count >= 3 and names == [f"test-{i:05d}-of-{count:05d}.parquet"
                                    for i in range(count)]
    ds = datasets.load_dataset(str(out), split="test")
    assert [r["id"] for r in ds] == [r["image"][:-4] for r in records(bench)]


def test_a_train_split_benchmark_exports_as_split_train(tmp_path):
    import datasets
    bench = tmp_path / "train"
    pipeline.generate(["cube_counting", "arrow_moving"], 1, 2, 0, bench, split="train")
    out = tmp_path / "hf"
    assert hf.export_hf(bench, out) == 4
    assert sorted(p.name for p in (out / "data").iterdir()) == [
        "train-00000-of-00001.parquet"]
    head, body = card(out)
    assert head["configs"][0]["data_files"] == [{"split": "train", "path": "data/train-*"}]
    assert [(s["name"], s["num_examples"]) for s in head["dataset_info"]["splits"]] == [
        ("train", 4)]
    assert 'split="train"' in body and "--split train" in body and "`judge`" in body
    ds = datasets.load_dataset(str(out), split="train")
    assert [r["id"] for r in ds] == [r["image"][:-4] for r in records(bench)]


def test_export_command_and_overwrite(sc, bench, tmp_path):
    out = tmp_path / "hf"
    code, stdout, err = sc("export", bench, "--format", "hf", "--out", out)
    assert code == 0 and "exported 6 items" in stdout, err
    code, _, err = sc("export", bench, "--format", "hf", "--out", out)
    assert code == 2 and "--overwrite" in err
    assert sc("export", bench, "--format", "hf", "--out", out, "--overwrite")[0] == 0


# --- the oldest datasets we allow, in a venv of its own --------------------------------

OLD_CHECK = r"""
import hashlib, json, sys
import numpy as np
import datasets
folder = sys.argv[1]
out = {"version": datasets.__version__}
for how in ("folder", "parquet"):
    if how == "folder":
        ds = datasets.load_dataset(folder, split="test")
    else:
        ds = datasets.load_dataset("parquet", data_files={"test": folder + "/data/test-*"},
                                   split="test")
    out[how] = {
        "features": {k: type(v).__name__ for k, v in ds.features.items()},
        "rows": [{"id": r["id"], "choices": r["choices"], "answer": r["answer"],
                  "image_id": r["image_id"], "answer_direct": r["answer_direct"],
                  "pixels": hashlib.sha256(np.ascontiguousarray(
                      np.asarray(r["image"].convert("RGB"))).tobytes()).hexdigest()}
                 for r in ds]}
print(json.dumps(out))
"""


def old_datasets_python() -> Path:
    """A venv with ``datasets==2.19.*``, made once per machine and Python and kept in the
    temporary directory (keyed by version) so later runs start at once."""
    version = f"py{sys.version_info.major}{sys.version_info.minor}"
    root = Path(tempfile.gettempdir()) / f"spatialcad-datasets-{OLD_DATASETS}-{version}"
    python = root / "bin" / "python"
    ready = root / ".ready"
    with open(f"{root}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one builder at a time; the others wait and reuse
        if not ready.exists():
            subprocess.run([sys.executable, "-m", "venv", "--clear", str(root)], check=True)
            subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                            f"datasets[vision]=={OLD_DATASETS}.*"],
                           check=True, capture_output=True, timeout=1200)
            ready.write_text(OLD_DATASETS)
    return python


def read_with_old_datasets(script: str, folder: Path, tmp_path: Path) -> dict:
    """What ``script`` (run on ``folder`` by the oldest allowed datasets) prints last."""
    path = tmp_path / "check.py"
    path.write_text(script)
    run = subprocess.run([str(old_datasets_python()), str(path), str(folder)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_oldest_allowed_datasets_loads_the_export(export, bench, tmp_path):
    found = read_with_old_datasets(OLD_CHECK, export, tmp_path)
    assert found["version"].startswith(OLD_DATASETS + ".")
    recs = records(bench)
    for how in ("folder", "parquet"):
        assert found[how]["features"]["image"] == "Image"
        assert found[how]["features"]["choices"] == "Sequence"
        rows = found[how]["rows"]
        assert len(rows) == len(recs) == 6
        for row, rec in zip(rows, recs, strict=True):
            assert row["choices"] == rec["Choices"] and row["answer"] == rec["Answer"]
            assert row["image_id"] == rec["Image_id"]
            assert row["answer_direct"] == rec.get("Answer_direct")
            assert row["pixels"] == pixels_sha(decode_png(bench / rec["image"]))


# --- --push-to-hub ----------------------------------------------------------------------

class FakeHub:
    """Stands in for huggingface_hub.HfApi: records what would be sent."""

    calls: list[tuple] = []

    def __init__(self, token=None, **_):
        FakeHub.calls.append(("init", token))

    def create_repo(self, repo_id, **kwargs):
        FakeHub.calls.append(("create_repo", repo_id, kwargs))
        return f"https://hub.example/datasets/{repo_id}"

    def upload_folder(self, **kwargs):
        FakeHub.calls.append(("upload_folder", kwargs))


@pytest.fixture
def fake_hub(monkeypatch):
    FakeHub.calls = []
    monkeypatch.setattr(hub, "HfApi", FakeHub)
    monkeypatch.delenv("HF_TOKEN", raising=False)
    return FakeHub


def test_push_uploads_the_folder_with_the_environment_token(sc, bench, tmp_path, fake_hub,
                                                            monkeypatch):
    monkeypatch.setenv("HF_TOKEN", "hf_secretsecretsecret")
    out = tmp_path / "hf"
    code, stdout, err = sc("export", bench, "--format", "hf", "--out", out,
                           "--push-to-hub", "someone/spatial-bench")
    assert code == 0, err
    assert fake_hub.calls[0] == ("init", "hf_secretsecretsecret")
    assert fake_hub.calls[1][:2] == ("create_repo", "someone/spatial-bench")
    assert fake_hub.calls[1][2]["repo_type"] == "dataset"
    upload = fake_hub.calls[2][1]
    assert Path(upload["folder_path"]).resolve() == out.resolve()
    assert upload["repo_id"] == "someone/spatial-bench" and upload["repo_type"] == "dataset"
    assert (out / "README.md").is_file() and "hf_secret" not in stdout + err


@pytest.mark.parametrize(("repo", "env", "message"), [
    ("someone/bench", None, "HF_TOKEN"),
    ("https://huggingface.co/datasets/someone/bench", "hf_secretsecretsecret", "owner/name"),
    ("hf_abcdefghijklmnop/bench", "hf_secretsecretsecret", "HF_TOKEN only"),
    ("someone/bench:hf_abcdefghijklmnop", "hf_secretsecretsecret", "HF_TOKEN only"),
])
def test_push_refusals_write_and_send_nothing(sc, bench, tmp_path, fake_hub, monkeypatch,
                                              repo, env, message):
    if env:
        monkeypatch.setenv("HF_TOKEN", env)
    out = tmp_path / "hf"
    code, stdout, err = sc("export", bench, "--format", "hf", "--out", out,
                           "--push-to-hub", repo)
    assert code == 2 and message in err
    assert not out.exists() and fake_hub.calls == []
    assert "hf_abcdefghijklmnop" not in err and "hf_secret" not in err


def test_push_needs_the_hf_format(sc, bench, tmp_path, fake_hub, monkeypatch):
    monkeypatch.setenv("HF_TOKEN", "hf_secretsecretsecret")
    code, _, err = sc("export", bench, "--format", "jsonl", "--out", tmp_path / "x.jsonl",
                      "--push-to-hub", "someone/bench")
    assert code == 2 and "--format hf" in err and fake_hub.calls == []


def test_a_hub_failure_is_one_line_without_the_token(bench, tmp_path, monkeypatch):
    class Failing(FakeHub):
        def upload_folder(self, **kwargs):
            raise RuntimeError("401 Unauthorized for token hf_secretsecretsecret\ndetails")

    monkeypatch.setattr(hub, "HfApi", Failing)
    with pytest.raises(ValueError) as err:
        hub.push_folder(tmp_path, "someone/bench", "hf_secretsecretsecret")
    assert "hf_secret" not in str(err.value) and "\n" not in str(err.value)
    assert "401 Unauthorized" in str(err.value)


STEPS_CHECK = r"""
import hashlib, json, sys
import numpy as np
import datasets
ds = datasets.load_dataset(sys.argv[1], split="test")
print(json.dumps({"features": {k: repr(v) for k, v in ds.features.items()},
                  "steps": [r["steps"] for r in ds],
                  "pixels": [[hashlib.sha256(np.ascontiguousarray(np.asarray(
                      i.convert("RGB"))).tobytes()).hexdigest() for i in r["step_images"]]
                             for r in ds]}))
"""


def test_a_benchmark_with_steps_exports_its_step_texts_and_pictures(tmp_path):
    """Items of a task with steps carry their texts and pictures, in order; items of a task
    without have empty lists; the newest and the oldest allowed datasets read them."""
    bench = tmp_path / "b"
    pipeline.generate(["arrow_moving", "cube_counting"], 0, 2, 3, bench, with_steps=True)
    out = tmp_path / "hf"
    assert hf.export_hf(bench, out) == 4
    recs = records(bench)
    assert [bool(r.get("steps")) for r in recs] == [True, True, False, False]
    want_steps = [[s["text"] for s in r.get("steps", [])] for r in recs]
    want_pixels = [[pixels_sha(decode_png(bench / s["image"])) for s in r.get("steps", [])]
                   for r in recs]
    head, body = card(out)
    names = [f["name"] for f in head["dataset_info"]["features"]]
    assert names == [*hf.COLUMNS, "steps", "step_images"] and "`step_images`" in body
    import datasets
    ds = datasets.load_dataset(str(out), split="test")
    assert [r["steps"] for r in ds] == want_steps
    assert [[pixels_sha(np.asarray(i.convert("RGB"))) for i in r["step_images"]]
            for r in ds] == want_pixels
    found = read_with_old_datasets(STEPS_CHECK, out, tmp_path)
    assert "Image" in found["features"]["step_images"]
    assert found["steps"] == want_steps and found["pixels"] == want_pixels


def test_panels_export_adds_each_items_panels_and_captions(sc, bench, tmp_path):
    """--images panels: the composite column stays; ``panels`` holds each panel cut out of
    it (pixel for pixel the record's boxes) and ``panel_captions`` their captions; the card
    describes both columns."""
    out = tmp_path / "hf"
    code, _, err = sc("export", bench, "--format", "hf", "--images", "panels", "--out", out)
    assert code == 0, err
    head, body = card(out)
    names = [f["name"] for f in head["dataset_info"]["features"]]
    assert names == [*hf.COLUMNS, "panels", "panel_captions"]
    assert "`panels`" in body and "`panel_captions`" in body
    import datasets
    ds = datasets.load_dataset(str(out), split="test")
    recs = records(bench)
    assert {r["Task"] for r in recs} == {"CubeCounting", "3ViewProjection"}
    for row, rec in zip(ds, recs, strict=True):
        composite = decode_png(bench / rec["image"])
        layout = rec["layout"]
        pictured = ["Image A", "Image B", "Image C", "Image D"] if layout["options"] else []
        assert row["panel_captions"] == [*layout["captions"], *pictured]
        boxes = layout["reference"] + layout["options"]
        assert len(row["panels"]) == len(boxes)
        for (x, y, w, h), panel in zip(boxes, row["panels"], strict=True):
            assert np.array_equal(np.asarray(panel.convert("RGB")),
                                  composite[y : y + h, x : x + w])
        assert np.array_equal(np.asarray(row["image"].convert("RGB")), composite)
