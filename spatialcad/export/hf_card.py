"""The dataset card (``README.md``) of the Hugging Face export: a YAML header the hub and
``datasets.load_dataset`` read (configs and data files, features, task categories,
license, size) and a body that says what the dataset holds and how it was made."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from spatialcad.record.benchmark import Benchmark

LICENSE = "mit"  # the project's license (pyproject.toml)
SPLIT = "test"  # the split of a benchmark generated without --split
DATA_DIR = "data"


def split_of_benchmark(checked: Benchmark) -> str:
    """The split a benchmark holds: ``generate --split`` records it in the manifest's
    parameters (train, val or test); a benchmark made without a split is ``test``."""
    split = checked.manifest.get("parameters", {}).get("split")
    return str(split) if split else SPLIT

FIELD_TEXT = {
    "id": "the item's path in the benchmark: Category/Task/Level/Image_id",
    "image": "the composite picture (PNG): reference panels and, for picture options, "
             "the four options",
    "category": "one of SpatialViz-Bench's four abilities (VisualPenetration, "
                "MentalRotation, MentalFolding, MentalAnimation)",
    "task": "the task, in SpatialViz-Bench's names (e.g. CubeCounting)",
    "level": "the difficulty level, Level0, Level1, ...",
    "image_id": "the item's number within its task and level, zero-padded text (\"0000\")",
    "question": "the multiple-choice question",
    "choices": "the four option texts, A to D (\"Image A\" .. \"Image D\" for picture options)",
    "answer": "the letter of the one right option",
    "explanation": "why each option is right or wrong, one line per letter",
    "question_direct": "the open form of the question (null where the item has none)",
    "answer_direct": "the answer of the open form (null where there is none)",
    "seed": "the item's seed: the same seed and version give the same item",
    "generator": "JSON: the generator's name and version",
    "spec": "JSON: the scene the item was built from (task-specific)",
    "options": "JSON: per option its letter, whether it is the answer, the operator that "
               "made it and the data the verifier checks",
    "layout": "JSON: the pixel box of every panel in the image",
}
STEP_FIELD_TEXT = {  # only in a benchmark made with --with-steps
    "steps": "the step-by-step solution's texts, one line per step (empty where the task "
             "has none)",
    "step_images": "the step-by-step solution's pictures, one per step",
}

PANEL_FIELD_TEXT = {  # only in an export with --images panels
    "panels": "the composite's panels, each cut out on its own: the reference pictures, "
              "then the four options for picture options",
    "panel_captions": "the caption of each panel, in the same order (e.g. \"Front view\", "
                      "\"Image A\"): send it as text before its panel",
}

CITATION = """@misc{wang2025spatialvizbench,
  title         = {SpatialViz-Bench: A Cognitively-Grounded Benchmark for Diagnosing
                   Spatial Visualization in MLLMs},
  author        = {Wang, Siting and Pei, Minnan and Sun, Luoyang and Deng, Cheng and
                   Li, Yuchen and Shao, Kun and Tian, Zheng and Zhang, Haifeng and Wang, Jun},
  year          = {2025},
  eprint        = {2507.07610},
  archivePrefix = {arXiv},
  primaryClass  = {cs.CV}
}"""


def size_category(n: int) -> str:
    """The hub's size bucket of ``n`` rows."""
    for bound, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                        (1_000_000, "100K<n<1M")):
        if n < bound:
            return name
    return "1M<n<10M"


def yaml_feature(name: str, kind: str) -> dict[str, str]:
    """One ``dataset_info.features`` entry, in the YAML form datasets 2.19 and newer read."""
    if kind in ("strings", "images"):
        return {"name": name, "sequence": kind.removesuffix("s")}
    return {"name": name, "dtype": kind}


def header(columns: dict[str, str], items: int, download_size: int, num_bytes: int,
           split: str = SPLIT) -> dict[str, Any]:
    """The card's YAML metadata; ``num_bytes`` is the split's size in Arrow memory, without
    which ``datasets`` warns on every load that it ignores the card's splits."""
    return {
        "license": LICENSE,
        "language": ["en"],
        "task_categories": ["visual-question-answering", "multiple-choice"],
        "tags": ["spatial-reasoning", "spatial-visualization", "synthetic", "benchmark",
                 "SpatialViz-Bench"],
        "pretty_name": "spatialcad spatial-visualization benchmark",
        "size_categories": [size_category(items)],
        "configs": [{"config_name": "default",
                     "data_files": [{"split": split, "path": f"{DATA_DIR}/{split}-*"}]}],
        "dataset_info": {
            "features": [yaml_feature(n, k) for n, k in columns.items()],
            "splits": [{"name": split, "num_bytes": num_bytes, "num_examples": items}],
            "download_size": download_size,
            "dataset_size": num_bytes,
        },
    }


def _table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def body(checked: Benchmark, columns: dict[str, str]) -> str:
    """The card's markdown: the tasks and levels held, the fields (those of ``columns``),
    loading, provenance, citation."""
    records = checked.records
    split = split_of_benchmark(checked)
    counts = Counter((r["Category"], r["Task"], r["Level"]) for r in records)
    tasks = _table(["category", "task", "level", "items"],
                   [[c, t, lv, str(k)] for (c, t, lv), k in counts.items()])
    known = FIELD_TEXT | STEP_FIELD_TEXT | PANEL_FIELD_TEXT
    described = {k: known[k] for k in columns}
    fields = _table(["field", "what it holds"], [[f"`{k}`", v] for k, v in described.items()])
    manifest = checked.manifest
    return f"""# spatialcad spatial-visualization benchmark

{len(records)} multiple-choice items (four options, one right) that test spatial
visualization, in the tasks and categories of SpatialViz-Bench (Wang et al., 2025). Every
item was generated by spatialcad and its answer proved by an independent verifier before it
was written: the right option is re-derived from the scene, and every other option is shown
to be wrong.

## Tasks and levels

{tasks}

## Fields

{fields}

## Loading

```python
from datasets import load_dataset

ds = load_dataset("path/to/this/folder/or/hub/repo", split="{split}")
ds[0]["image"]  # a PIL image
```

The split is `{split}`; the files are `{DATA_DIR}/{split}-NNNNN-of-NNNNN.parquet`.
{_split_text(split, checked)}

## Question forms

Every item can be asked in three forms: `choice` (`question` with the four `choices`,
answered by the letter `answer`), `open` (`question_direct`, answered by `answer_direct`,
where the item has them) and `judge` (per option, a yes/no question; see spatialcad's
`spatialcad eval --form judge` and `spatialcad.create_dataset(..., form="judge")`).

## How it was made

Generated by spatialcad {manifest.get("version")} with

```
{manifest.get("command")}
```

Parameters: `{json.dumps(manifest.get("parameters"))}`. The same command and version make the same
bytes. Images are rendered headless (FreeCAD as the geometry kernel, spatialcad's own
renderer); nothing was collected from people or the web.

## Citation

The tasks follow SpatialViz-Bench; please cite it:

```bibtex
{CITATION}
```
"""


def _split_text(split: str, checked: Benchmark) -> str:
    if not checked.manifest.get("parameters", {}).get("split"):
        return ("The benchmark was generated without `--split`: it is a test set, but its "
                "scenes are not held out of any training set.")
    return (f"It was generated with `--split {split}`: its scenes (up to what each question "
            "ignores) lie in that split's share of the scene-hash space, so no scene of "
            "another split appears here.")


def write_card(root: Path, checked: Benchmark, columns: dict[str, str], num_bytes: int) -> None:
    """``root/README.md`` for the parquet files already under ``root/data``, whose rows take
    ``num_bytes`` in Arrow memory."""
    download = sum(p.stat().st_size for p in (root / DATA_DIR).glob("*.parquet"))
    meta = yaml.safe_dump(header(columns, len(checked.records), download, num_bytes,
                                 split_of_benchmark(checked)), sort_keys=False)
    (root / "README.md").write_text(f"---\n{meta}---\n\n{body(checked, columns)}",
                                    encoding="utf-8")
