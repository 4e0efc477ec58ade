"""Shared fixtures and helpers: the CLI run in-process, records with another answer."""

from __future__ import annotations

import contextlib
import copy
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from spatialcad import cli
from spatialcad.cad import disk_cache, part_index
from spatialcad.render.png import decode_png
from spatialcad.run import pipeline
from spatialcad.run.pipeline import make_item
from spatialcad.run.verification import run_verifier


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, *args: str):
    """Run ``spatialcad ARGS`` in-process; return (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["spatialcad", *map(str, args)])
    try:
        cli.main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def small_benchmark(out: Path) -> Path:
    """A three-item level-0 benchmark of cube_counting and rotation_2d in ``out``."""
    pipeline.generate(["cube_counting", "rotation_2d"], 0, 3, 0, out,
                      command="spatialcad generate")
    return out


def one_line(err: str) -> str:
    """The only line of a command's error output (a failure says one line, no traceback)."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


@pytest.fixture
def spatialcad(monkeypatch, capsys):
    """Run ``spatialcad ARGS`` in-process: ``(exit code, stdout, stderr)``."""
    return lambda *args: run_cli(monkeypatch, capsys, *args)


sc = spatialcad  # the shorter name the evaluation and export tests use


@pytest.fixture
def browser(tmp_path):
    """Headless Chromium under selenium, 1280x800, downloads into tmp_path/downloads."""
    from browser import driver

    chrome = driver(tmp_path / "profile", tmp_path / "downloads")
    yield chrome
    chrome.quit()


def deepcad_samples() -> Path:
    """The real DeepCAD files in shared/deepcad-samples: $SPATIALCAD_DEEPCAD_SAMPLES, else a
    shared/ folder beside the checkout or beside any folder above it, else /work/shared."""
    if os.environ.get("SPATIALCAD_DEEPCAD_SAMPLES"):
        return Path(os.environ["SPATIALCAD_DEEPCAD_SAMPLES"])
    here = Path(__file__).resolve()
    for folder in [*here.parents, Path("/work")]:
        candidate = folder / "shared" / "deepcad-samples"
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("shared/deepcad-samples not found: set SPATIALCAD_DEEPCAD_SAMPLES")


def with_answer(record: dict[str, Any], letter: str) -> dict[str, Any]:
    """A deep copy of ``record`` in which option ``letter`` is marked as the answer."""
    bad = copy.deepcopy(record)
    bad["Answer"] = letter
    for o in bad["options"]:
        o["is_answer"] = o["letter"] == letter
    return bad


def only_the_answer_verifies(record: dict[str, Any], image: np.ndarray) -> set[str]:
    """Assert the item verifies and fails once any other option is made the answer; return
    the operators of those distractors."""
    assert run_verifier(record, image) == []
    kinds = set()
    for o in record["options"]:
        if o["is_answer"]:
            continue
        kinds.add(o["operator"])
        assert run_verifier(with_answer(record, o["letter"]), image), (
            f"{record['Task']} {record['Level']} item {record['Image_id']}: "
            f"{o['operator']} option {o['letter']} verified as the answer")
    return kinds


def generated_items(task: str, levels: tuple[int, ...], n: int,
                    seed: int = 11) -> Iterator[tuple[dict[str, Any], np.ndarray]]:
    """``(record, image)`` of items 0 .. n-1 of ``task`` at each level (``n`` per run)."""
    for level in levels:
        for i in range(n):
            result = make_item(task, level, i, n, seed)
            yield result.record, decode_png(result.png)


def check_distractors(task: str, levels: tuple[int, ...], n: int) -> set[str]:
    """:func:`only_the_answer_verifies` over :func:`generated_items`; the operators seen."""
    kinds: set[str] = set()
    for record, image in generated_items(task, levels, n):
        kinds |= only_the_answer_verifies(record, image)
    return kinds


def assembled(task: str, draft: Any, level: int, seed: int,
              letter: str = "B") -> tuple[dict[str, Any], np.ndarray]:
    """``draft`` (a generator's, of ``task``) made into a record and its composite image,
    the answer on ``letter``."""
    from spatialcad.tasks import registry

    return pipeline.assemble(registry.task(task), draft, level=level, image_id="x",
                             letter=letter, item_seed=seed)


def verifies_and_a_moved_answer_fails(record: dict[str, Any], image: np.ndarray) -> None:
    """Assert the item verifies and fails once its answer letter is moved."""
    assert run_verifier(record, image) == []
    wrong = dict(record, Answer="A" if record["Answer"] != "A" else "C")
    assert run_verifier(wrong, image) != []


def textbook_train(held: str, wheel_on: str | None = None) -> tuple[list[Any], list[Any]]:
    """The parts and links of a textbook planetary train: sun E (20 teeth), planets F
    and G (30) on carrier H (arm 25), ring J (80), member ``held`` held; with
    ``wheel_on`` (E or H), also a worm K (2 threads, right-hand) on top of a worm wheel L
    (90 teeth) behind the train, on the axle of ``wheel_on``."""
    from spatialcad.tasks.mechanical_system.spec import LinkSpec, PartSpec

    z, x = (0.0, 0.0, 1.0), (1.0, 0.0, 0.0)

    def part(name, kind, shaft, centre, radius, teeth):
        return PartSpec(name, kind, shaft, centre, z, radius, teeth, 0.0, "front",
                        True if name == held else None)

    parts = [part("E", "gear", 0, (0.0, 0.0, 0.0), 10.0, 20),
             part("F", "gear", 3, (25.0, 0.0, 0.0), 15.0, 30),
             part("G", "gear", 4, (-25.0, 0.0, 0.0), 15.0, 30),
             part("H", "carrier", 2, (0.0, 0.0, 1.0), 25.0, 2),
             part("J", "ring", 1, (0.0, 0.0, 0.0), 40.0, 80)]
    links = [LinkSpec(k, a, b) for p in ("F", "G") for k, a, b in
             (("mesh", "E", p), ("mesh", p, "J"), ("carries", "H", p))]
    if wheel_on is not None:
        parts += [PartSpec("K", "worm", 9, (0.0, 47.0, -10.0), x, 2.0, 2, 0.0, "right", None,
                           hand="right"),
                  part("L", "wheel", {"E": 0, "H": 2}[wheel_on], (0.0, 0.0, -10.0), 45.0, 90)]
        links.append(LinkSpec("worm", "K", "L"))
    return parts, links


def replays_in_the_verifier(verifier: Any, spec: Any, made: list[Any], answer: Any) -> None:
    """Assert the verifier's replay (``step_start``, ``step_next``) reaches each of the
    steps ``made`` for ``answer`` and then stops."""
    state = verifier.step_start(spec, answer)
    for k, s in enumerate(made):
        state = verifier.step_next(spec, answer, state, k)
        assert state == s.state
    assert verifier.step_next(spec, answer, state, len(made)) is None


@contextlib.contextmanager
def scene_objects(record: dict[str, Any]) -> Iterator[list[Any]]:
    """The objects of ``record``'s FreeCAD scene (the members of the macro's groups), in a
    new document closed afterwards."""
    from spatialcad import freecad_env, item_scene

    FreeCAD, _ = freecad_env.load()
    doc = FreeCAD.newDocument("item")
    try:
        item_scene.build_scene(record, doc)
        yield [o for g in doc.Objects if g.TypeId == "App::DocumentObjectGroup"
               for o in g.Group]
    finally:
        FreeCAD.closeDocument(doc.Name)


@pytest.fixture
def part_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh, empty disk cache of part solids and folder indexes for one test."""
    from spatialcad.tasks.three_view import generate_parts as gp

    monkeypatch.setenv(disk_cache.CACHE_ENV, str(tmp_path / "cache"))
    part_index.part_index.cache_clear()
    gp.usable_parts.cache_clear()
    yield tmp_path / "cache"
    part_index.part_index.cache_clear()
    gp.usable_parts.cache_clear()
