"""The lmms-eval task (integrations/lmms_eval/spatialcad) run on an exported dataset, the
way lmms-eval runs it, and the VLMEvalKit snippet checked against our TSV."""

from __future__ import annotations

import csv
import importlib.util
import json
import re
from pathlib import Path

import pytest
import yaml
from loguru import logger
from PIL import Image

from spatialcad.export.hf import export_hf
from spatialcad.export.vlmeval import export_tsv
from spatialcad.run import pipeline

ROOT = Path(__file__).resolve().parents[1]
LMMS = ROOT / "integrations" / "lmms_eval" / "spatialcad"
VLMEVALKIT = ROOT / "integrations" / "vlmevalkit" / "README.md"


class TaskLoader(yaml.SafeLoader):
    """YAML with lmms-eval's ``!function module.name`` tag, kept as the dotted name."""


TaskLoader.add_constructor("!function", lambda loader, node: ("function", node.value))


def utils_module():
    """integrations/lmms_eval/spatialcad/utils.py, loaded by path (as lmms-eval loads a
    task's utils; the folder's name must not shadow the spatialcad package)."""
    spec = importlib.util.spec_from_file_location("lmms_spatialcad_utils", LMMS / "utils.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def task_config(name: str = "spatialcad.yaml") -> dict:
    """The task's config as lmms-eval reads it: an ``include``d file first, this file's keys
    over it, every ``!function`` resolved."""
    config = yaml.load((LMMS / name).read_text(), Loader=TaskLoader)
    if "include" in config:
        config = {**yaml.load((LMMS / config.pop("include")).read_text(), Loader=TaskLoader),
                  **config}
    utils = utils_module()
    for key, value in list(config.items()):
        if isinstance(value, tuple) and value[0] == "function":
            config[key] = getattr(utils, value[1].removeprefix("utils."))
    for metric in config["metric_list"]:
        _, name = metric["aggregation"]
        metric["aggregation"] = getattr(utils, name.removeprefix("utils."))
    return config


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    out = tmp_path_factory.mktemp("intbench") / "b"
    pipeline.generate(["cube_counting", "three_view"], 0, 4, 3, out)
    return out


@pytest.fixture(scope="module")
def docs(bench, tmp_path_factory):
    """The test split as lmms-eval loads it: datasets.load_dataset(dataset_path)."""
    import datasets
    folder = tmp_path_factory.mktemp("inthf") / "hf"
    export_hf(bench, folder)
    config = task_config()
    return list(datasets.load_dataset(str(folder), split=config["test_split"]))


def test_task_yaml_is_lmms_evals_form():
    config = task_config()
    assert config["task"] == "spatialcad" and config["output_type"] == "generate_until"
    assert config["doc_to_target"] == "answer" and config["test_split"] == "test"
    for key in ("doc_to_visual", "doc_to_text", "process_results"):
        assert callable(config[key]), key
    [metric] = config["metric_list"]
    assert metric["metric"] == utils_module().METRIC and callable(metric["aggregation"])
    assert config["lmms_eval_specific_kwargs"]["default"]["prompt_style"] == "cot_tags"


def test_doc_to_visual_and_text(docs, bench):
    config = task_config()
    records = json.loads((bench / "benchmark.json").read_text())
    assert len(docs) == len(records) == 8
    for doc, rec in zip(docs, records, strict=True):
        [image] = config["doc_to_visual"](doc)
        assert isinstance(image, Image.Image) and image.mode == "RGB"
        assert image.size == Image.open(bench / rec["image"]).size
        text = config["doc_to_text"](doc, config["lmms_eval_specific_kwargs"]["default"])
        assert rec["Question"] in text and "<answer>" in text
        for letter, choice in zip("ABCD", rec["Choices"], strict=True):
            assert f"{letter}. {choice}" in text
    boxed = config["doc_to_text"](docs[0], {"prompt_style": "cot_boxed"})
    assert "\\boxed{}" in boxed and config["doc_to_text"](docs[0]) != boxed


def test_process_results_and_aggregation(docs):
    config = task_config()
    utils = utils_module()
    wrong = {0, 5, 6}  # one CubeCounting item, two 3ViewProjection items
    replies = []
    for i, doc in enumerate(docs):
        letter = doc["answer"] if i not in wrong else "ABCD"[("ABCD".index(doc["answer"]) + 1) % 4]
        replies.append(f"<think>Looking at the views.</think><answer>{letter}</answer>"
                       if i % 2 else f"The answer is ({letter}).")
    items = [config["process_results"](doc, [reply])[utils.METRIC]
             for doc, reply in zip(docs, replies, strict=True)]
    assert [x["correct"] for x in items] == [i not in wrong for i in range(len(docs))]
    assert {x["rule"] for x in items} == {"marker"}
    shown: list[str] = []  # what lmms-eval shows: its loguru logger at --verbosity INFO
    sink = logger.add(shown.append, level="INFO", format="{message}")
    try:
        accuracy = config["metric_list"][0]["aggregation"](items)
    finally:
        logger.remove(sink)
    assert accuracy == pytest.approx(5 / 8)
    log = "".join(shown)
    for line in (r"task\s+CubeCounting\s+75.0% of 4", r"task\s+3ViewProjection\s+50.0% of 4",
                 r"level\s+Level0\s+62.5% of 8", r"task/level\s+CubeCounting/Level0\s+75.0%",
                 r"category\s+VisualPenetration\s+75.0% of 4"):
        assert re.search(line, log), (line, log)
    table = utils.accuracy_table(items)
    assert table["task"]["CubeCounting"] == {"n": 4, "correct": 3, "accuracy": 0.75}
    assert table["task"]["3ViewProjection"]["correct"] == 2
    assert table["level"]["Level0"]["n"] == 8
    assert table["task/level"]["CubeCounting/Level0"]["accuracy"] == 0.75
    assert table["category/level"]["VisualPenetration/Level0"]["n"] == 4
    # an answer the extraction cannot read is wrong, not an error
    unread = config["process_results"](docs[1], ["I am not sure."])[utils.METRIC]
    assert unread["extracted"] is None and unread["correct"] is False


def test_the_panels_task_sends_each_panel_and_names_them_in_the_question(bench, tmp_path):
    import datasets
    folder = tmp_path / "hf"
    export_hf(bench, folder, images="panels")
    docs = list(datasets.load_dataset(str(folder), split="test"))
    config = task_config("spatialcad_panels.yaml")
    assert config["task"] == "spatialcad_panels" and config["doc_to_target"] == "answer"
    assert config["process_results"].__name__ == "spatialcad_process_results"
    kwargs = config["lmms_eval_specific_kwargs"]["default"]
    assert kwargs == {"prompt_style": "cot_tags", "images": "panels"}
    records = json.loads((bench / "benchmark.json").read_text())
    for doc, rec in zip(docs, records, strict=True):
        visuals = config["doc_to_visual"](doc)
        boxes = rec["layout"]["reference"] + rec["layout"]["options"]
        assert [v.size for v in visuals] == [(w, h) for _, _, w, h in boxes]
        assert all(v.mode == "RGB" for v in visuals)
        text = config["doc_to_text"](doc, kwargs)
        names = "; ".join(f"{k}. {c}" for k, c in enumerate(doc["panel_captions"], 1))
        assert f"Question: Images, in order: {names}.\n{rec['Question']}" in text
    pictured = {d["task"]: "Image D" in d["panel_captions"] for d in docs}
    assert pictured == {"CubeCounting": False, "3ViewProjection": True}


def test_vlmevalkit_snippet_matches_the_tsv(bench, tmp_path):
    text = VLMEVALKIT.read_text()
    config = json.loads(re.search(r"```json\n(.*?)```", text, re.DOTALL).group(1))
    [(name, data)] = config["data"].items()
    assert data == {"class": "CustomMCQDataset", "dataset": name}
    tsv = re.search(r"--format vlmeval --out (\S+)", text).group(1)
    assert tsv == f"~/LMUData/{name}.tsv"  # where CustomMCQDataset looks for it
    out = tmp_path / f"{name}.tsv"
    export_tsv(bench, out)
    with open(out, newline="") as f:
        header = next(csv.reader(f, delimiter="\t"))
    # what VLMEvalKit's multiple-choice datasets read
    assert {"index", "image", "question", "A", "B", "C", "D", "answer", "category",
            "l2-category"} <= set(header)
