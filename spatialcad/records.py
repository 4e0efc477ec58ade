"""Item records: assembly from a task's draft, and the on-disk benchmark layout.

``<out>/benchmark.json`` is a JSON list of records; each item's composite image is at
``<out>/<Category>/<Task>/<Level>/<Image_id>.png``; ``<out>/manifest.json`` holds the
generation parameters, counts and a SHA-256 of every other file.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from spatialcad import __version__
from spatialcad.render.layout import compose
from spatialcad.seeding import derive_seed, item_rng
from spatialcad.tasks.base import Draft, Task

LETTERS = "ABCD"
BENCHMARK = "benchmark.json"
MANIFEST = "manifest.json"


def answer_letter(seed: int, task: str, level: int, index: int) -> str:
    """Balanced answer letters: every four consecutive items use A, B, C, D once each."""
    block, pos = divmod(index, 4)
    order = item_rng(derive_seed(seed, task, level, "letters", block)).permutation(4)
    return LETTERS[int(order[pos])]


def image_id(index: int, n: int) -> str:
    return f"{index:0{max(4, len(str(n - 1)))}d}"


def image_path(record: dict[str, Any]) -> str:
    return "/".join((record["Category"], record["Task"], record["Level"], record["Image_id"]))


def assemble(
    task: Task, draft: Draft, *, level: int, image_id: str, letter: str, item_seed: int
) -> tuple[dict[str, Any], np.ndarray]:
    """Shuffle the draft's options so the answer lands on ``letter``; compose the image."""
    if len(draft.options) != 4 or sum(o.is_answer for o in draft.options) != 1:
        raise ValueError(f"{task.name}: a draft needs 4 options with exactly one answer")
    answer = next(i for i, o in enumerate(draft.options) if o.is_answer)
    others = [i for i in range(4) if i != answer]
    others = [others[i] for i in item_rng(derive_seed(item_seed, "shuffle")).permutation(3)]
    order = others[:]
    order.insert(LETTERS.index(letter), answer)
    options = [draft.options[i] for i in order]

    image_options = all(o.image is not None for o in options)
    image, layout = compose(
        [(p.image, p.caption) for p in draft.reference],
        [o.image for o in options] if image_options else None,
    )
    choices = [f"Image {LETTERS[i]}" if image_options else o.text for i, o in enumerate(options)]
    record = {
        "Category": task.category,
        "Task": task.record_task,
        "Level": f"Level{level}",
        "Image_id": image_id,
        "Question": draft.question,
        "Choices": choices,
        "Answer": letter,
        "Explanation": "\n".join(f"{LETTERS[i]}: {o.explanation}" for i, o in enumerate(options)),
        "Question_direct": draft.question_direct,
        "Answer_direct": draft.answer_direct,
        "seed": item_seed,
        "generator": {"name": f"spatialcad.tasks.{task.name}", "version": __version__},
        "spec": draft.spec,
        "options": [
            {"letter": LETTERS[i], "is_answer": o.is_answer, "operator": o.operator, "data": o.data}
            for i, o in enumerate(options)
        ],
        "layout": layout,
    }
    record["image"] = image_path(record) + ".png"
    return record, image


def dumps(obj: Any) -> bytes:
    """The one JSON encoding used for every file we write (stable bytes)."""
    return (json.dumps(obj, indent=1, ensure_ascii=False) + "\n").encode()


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_benchmark(out: Path) -> list[dict[str, Any]]:
    path = Path(out) / BENCHMARK
    try:
        records = json.loads(path.read_text())
    except FileNotFoundError as exc:
        raise ValueError(f"{out} has no {BENCHMARK}: not a spatialcad benchmark") from exc
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not valid JSON: {exc}") from exc
    if not isinstance(records, list):
        raise ValueError(f"{path} must hold a JSON list of records")
    return records


def write_manifest(out: Path, params: dict[str, Any], records: list[dict[str, Any]],
                   shard: dict[str, Any] | None = None) -> None:
    """Write manifest.json: parameters, counts per task/level, checksum of every file; a
    shard's manifest also says which shard it is (see spatialcad/shards.py)."""
    files = sorted(p for p in out.rglob("*") if p.is_file() and p.name != MANIFEST)
    counts: dict[str, int] = {}
    for r in records:
        key = f"{r['Task']}/{r['Level']}"
        counts[key] = counts.get(key, 0) + 1
    manifest = {
        "generator": "spatialcad",
        "version": __version__,
        "command": params["command"],
        "parameters": {k: v for k, v in params.items() if k != "command"},
        **({"shard": shard} if shard is not None else {}),
        "counts": counts,
        "items": len(records),
        "files": {p.relative_to(out).as_posix(): sha256(p) for p in files},
    }
    (out / MANIFEST).write_bytes(dumps(manifest))


def read_manifest(out: Path) -> dict[str, Any]:
    """The parsed manifest.json of ``out``; ``ValueError`` if missing or not a JSON object."""
    try:
        manifest = json.loads((Path(out) / MANIFEST).read_text())
    except (OSError, ValueError) as exc:
        raise ValueError(f"{out}: missing or unreadable {MANIFEST}") from exc
    if not isinstance(manifest, dict):
        raise ValueError(f"{out}: {MANIFEST} must hold a JSON object")
    return manifest


def check_manifest(out: Path) -> list[tuple[str, str]]:
    """Files whose checksum differs from the manifest, or that are missing."""
    try:
        manifest = read_manifest(out)
    except ValueError:
        return [(MANIFEST, "missing or unreadable manifest")]
    problems = []
    for name, digest in manifest.get("files", {}).items():
        path = out / name
        if not path.is_file():
            problems.append((name, "listed in the manifest but missing"))
        elif sha256(path) != digest:
            problems.append((name, "checksum differs from the manifest"))
    return problems
