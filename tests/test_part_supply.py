"""Parts for 3ViewProjection from a folder of real DeepCAD files: the folder's index (built
once into the cache and reused), usable parts per level, distinct parts per run, and parts
that cannot make an item skipped and counted, never ending the run."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from conftest import deepcad_samples

from spatialcad.cad import disk_cache, part_index
from spatialcad.cad.parts import ASSETS_DIR, part_sha256
from spatialcad.render import legibility
from spatialcad.tasks.base import OWN_ATTEMPTS, ItemSlot
from spatialcad.tasks.three_view import generate_parts as gp

SAMPLES = deepcad_samples()
CASES = SAMPLES.parent / "deepcad-cases"
GOOD = ("l_bracket", "counterbored_plate", "stepped_block")  # bundled level-1 parts


def cases() -> Path:
    if not CASES.is_dir():
        pytest.fail(f"DeepCAD cases folder missing: {CASES} (the tests need it)")
    return CASES


@pytest.fixture(scope="module")
def bundled_cache() -> Iterator[Path | None]:
    """The default part cache for the tests that read the bundled library's index (376
    files: indexing them cold takes ~35 s; every run that makes a three_view item indexes
    them, so the suite's earlier runs have usually filled it; its keys hold the reader's
    code), with the in-process memos cleared around the tests."""
    part_index.part_index.cache_clear()
    gp.usable_parts.cache_clear()
    yield disk_cache.cache_dir()
    part_index.part_index.cache_clear()
    gp.usable_parts.cache_clear()


def test_index_of_the_cases(part_cache):
    entries = {e.file: e for e in part_index.part_index(cases())}
    assert sorted(entries) == ["00011581.json", "00013630.json", "00015442.json",
                               "00017383.json", "00018099.json"]
    assert "no extrude" in entries["00015442.json"].error
    for e in entries.values():
        assert e.sha256 == part_sha256(cases() / e.file)
    cylinder = entries["00018099.json"]
    assert cylinder.valid and cylinder.faces == 3
    assert cylinder.bbox == pytest.approx((-12.5, -12.5, 0, 12.5, 12.5, 250), abs=1e-6)
    # the 16 m x 3 m x 10 mm plate: its edge-on views would be 0.3 px high
    assert not gp.legible_size(entries["00011581.json"])
    # the cylinder (10:1) is drawn larger than PART_PX, so that its end view is legible
    assert gp.legible_size(cylinder)
    assert min(cylinder.extents) * gp.part_scale(cylinder.extents) >= legibility.MIN_VIEW_PX
    usable = [e.file for e in gp.usable_parts(cases(), 1)]
    assert usable == ["00013630.json", "00017383.json", "00018099.json"]


def test_index_is_stored_once_and_reused(part_cache, tmp_path, monkeypatch):
    folder = tmp_path / "parts"
    folder.mkdir()
    for name in ("00010414.json", "00010560.json", "00014060.json"):
        shutil.copy(SAMPLES / name, folder / name)
    first = part_index.part_index(folder.resolve())
    (store,) = (part_cache / part_index.KIND).glob("*.json")
    assert [e["file"] for e in json.loads(store.read_text())] == [e.file for e in first]
    part_index.part_index.cache_clear()
    read: list[Path] = []
    real = part_index._entry

    def counting(root: Path, path: Path, sha: str) -> part_index.IndexEntry:
        read.append(path)
        return real(root, path, sha)

    monkeypatch.setattr(part_index, "_entry", counting)
    assert part_index.part_index(folder.resolve()) == first and not read  # reused
    shutil.copy(SAMPLES / "00010008.json", folder / "00010560.json")  # content changed
    part_index.part_index.cache_clear()
    again = part_index.part_index(folder.resolve())
    assert read == [folder.resolve() / "00010560.json"]
    assert again[1].sha256 == part_sha256(SAMPLES / "00010008.json") != first[1].sha256


def test_items_of_a_run_take_every_part_once_before_one_comes_back(bundled_cache,
                                                                   monkeypatch):
    """Item i takes the (i mod S)-th part of an order drawn from the run's seed (S usable
    parts), for its first OWN_ATTEMPTS attempts; then (the run fills the round: no spare
    part) parts are drawn at random.  A part whose drawing is not legible is passed over
    for the next spare.  (Drawings stubbed: working out the 80 parts' projections on a
    cold cache took 228 s of CI, and the order is what is tested here.)"""
    usable = gp.usable_parts(ASSETS_DIR, 1)
    illegible: set[str] = set()
    monkeypatch.setattr(gp, "drawing", lambda path: (
        1.0, 0.01, ("dashes", "stub") if path.name in illegible else None))
    count = len(usable)

    def own(index: int, seed: int = 5) -> str:
        part = gp.PartDraws(ASSETS_DIR, 1, None, ItemSlot(index, 2 * count, seed)).own()
        assert part is not None
        return part.sha256

    cycle = [own(i) for i in range(count)]
    assert sorted(cycle) == sorted(e.sha256 for e in usable)  # every part once
    assert [own(count + i) for i in (0, 7, count - 1)] == [cycle[0], cycle[7], cycle[-1]]
    assert [own(i, seed=6) for i in range(count)] != cycle  # another run seed, another order
    draws = gp.PartDraws(ASSETS_DIR, 1, None, ItemSlot(3, 2 * count, 5))
    assert [draws.own() for _ in range(OWN_ATTEMPTS)] == [usable_by(cycle[3])] * \
        OWN_ATTEMPTS
    assert draws.own() is None  # its attempts are used up: random draws from now on
    assert draws.next(np.random.default_rng(0)) in usable
    illegible.add(usable_by(cycle[0]).file)  # item 0's part, of a run of one item
    passed = gp.PartDraws(ASSETS_DIR, 1, None, ItemSlot(0, 1, 5)).own()
    assert passed is not None and passed.sha256 in cycle[1:]  # a spare of its round


def usable_by(sha: str) -> gp.IndexEntry:
    return next(e for e in gp.usable_parts(ASSETS_DIR, 1) if e.sha256 == sha)


def test_parts_whose_scene_the_run_holds_are_passed_over(bundled_cache):
    """When the pipeline looks for a new scene (spatialcad/run/scenes.py), a part already in
    the run is never drawn again, and with every part held the item is rejected at once
    (no part built: the search over a spent level stays cheap)."""
    usable = gp.usable_parts(ASSETS_DIR, 1)
    held = frozenset(gp.part_scene(e) for e in usable[: len(usable) - 2])
    draws = gp.PartDraws(ASSETS_DIR, 1, None, ItemSlot(0, 3, 5, held))
    rng = np.random.default_rng(0)
    got = {draws.next(rng).sha256 for _ in range(20)}
    assert got == {e.sha256 for e in usable[-2:]}
    every = frozenset(gp.part_scene(e) for e in usable)
    with pytest.raises(gp.Reject, match="already in the run"):
        gp.PartDraws(ASSETS_DIR, 1, None, ItemSlot(0, 3, 5, every)).next(rng)


def test_unusable_parts_are_skipped_counted_and_the_run_goes_on(part_cache, tmp_path, spatialcad):
    """The cases hold a plain cylinder (one circle in a view), a plate whose side views are
    a line, a file of sketches only, a part whose hidden stub is too short to draw even at
    the largest scale (00013630), and two hostile files (JSON nested 100000 deep, a FIFO):
    a run of 5 items from them and three bundled parts (5 workable) ends with its items
    made (exit 0), from distinct parts, and counts what it skipped: the files no part can
    come from, by reason (named with --verbose), and the parts that made no item."""
    folder = tmp_path / "parts"
    shutil.copytree(cases(), folder, ignore=shutil.ignore_patterns("*.md"))
    for name in GOOD:
        shutil.copy(ASSETS_DIR / f"{name}.step", folder / f"{name}.step")
    (folder / "deep.json").write_text("[" * 100000 + "]" * 100000)
    os.mkfifo(folder / "pipe.json")
    out = tmp_path / "bench"
    code, stdout, err = spatialcad("generate", "--task", "three_view", "--level", 1, "--n", 5,
                                   "--seed", 4, "--out", out, "--deepcad-dir", folder,
                                   "--verbose")
    assert code == 0, err
    files = ("passed over 3 files: 1 no extrude, 1 not a regular file, 1 too deeply nested")
    assert stdout.splitlines()[:5] == [
        f"parts in {folder.resolve()}: 7 of 10 files build a valid solid; usable (one "
        "solid, face band, views at least 40 px): level 1 6", files,
        "  00015442.json: model: no extrude (the model holds only sketches)",
        "  deep.json: too deeply nested (100000 levels; at most 64 are read)",
        "  pipe.json: not a regular file (a FIFO)"]
    records = json.loads((out / "benchmark.json").read_text())
    assert len({r["spec"]["part"]["sha256"] for r in records}) == 4  # 00018099 makes none
    assert spatialcad("verify", out)[0] == 0
    # which unworkable parts are tried depends on the run's order of parts (items take
    # them in turn); what is tried and fails is counted by its reason
    skips = r"^skipped \d+ inputs that could not make an item: [a-z ]+ \d+"
    assert re.search(skips, stdout, re.M), stdout
    assert "1 items repeat the scene of an earlier item" in stdout
    # run as shards, the merged run's summary adds up what its shards skipped
    code, stdout, err = spatialcad("generate", "--task", "three_view", "--level", 1, "--n", 5,
                                   "--seed", 4, "--out", tmp_path / "sharded", "--deepcad-dir",
                                   folder, "--executor", "local", "--shards", 2)
    assert code == 0, err
    assert "wrote 5 items in 2 shards" in stdout
    assert re.search(skips, stdout, re.M), stdout
    assert files in stdout.splitlines() and "pipe.json" not in stdout  # not --verbose


def test_a_part_that_cannot_make_the_item_is_skipped_with_its_reason(part_cache):
    """00013630 has a hidden line 0.5 mm long (a stub that reads as solid even at the
    largest scale): skipped, the next part drawn makes the item, and the draft says what
    was skipped."""
    entries = {e.file: e for e in gp.usable_parts(cases(), 1)}
    queue = [entries["00013630.json"], entries["00017383.json"]]
    draws = gp.PartDraws(cases(), 1, None, None)
    draws.next = lambda rng: queue.pop(0)  # type: ignore[method-assign]
    draft = gp.build_part_item(1, np.random.default_rng(0), draws)
    assert draft.spec["part"]["name"] == "00017383"
    assert draft.skipped == {f"hidden line under {legibility.MIN_HIDDEN_PX:g} px": 1}


def test_a_run_asking_for_more_parts_than_the_folder_holds_says_so(part_cache, tmp_path,
                                                                   spatialcad):
    """Three usable parts, four items: one item repeats a part (a scene), and the summary
    gives the folder's usable parts as the level's scene space, not the bundled parts'."""
    folder = tmp_path / "parts"
    folder.mkdir()
    for name in GOOD:
        shutil.copy(ASSETS_DIR / f"{name}.step", folder / f"{name}.step")
    code, stdout, err = spatialcad("generate", "--task", "three_view", "--level", 1, "--n", 4,
                                   "--seed", 4, "--out", tmp_path / "b", "--deepcad-dir", folder)
    assert code == 0, err
    assert ("1 items repeat the scene of an earlier item of the run (three_view 1; the level "
            "holds three_view: 3 counted, taken in turn)") in stdout


def test_a_part_of_separate_pieces_is_indexed_but_not_used(part_cache, tmp_path):
    """DeepCAD holds files of several separate solids (e.g. six loose pucks): they build, but
    are no part to draw three views of."""
    import FreeCAD  # noqa: PLC0415 - FreeCAD's modules import once it is loaded
    import Part  # noqa: PLC0415

    from spatialcad.cad import step_io

    folder = tmp_path / "parts"
    folder.mkdir()
    shutil.copy(ASSETS_DIR / "l_bracket.step", folder / "l_bracket.step")
    two = Part.makeCompound([Part.makeBox(30, 20, 10),
                             Part.makeBox(30, 20, 10, FreeCAD.Vector(50, 0, 0))])
    step_io.write_step(two, folder / "pucks.step")
    entries = {e.file: e for e in part_index.part_index(folder)}
    assert entries["pucks.step"].valid and entries["pucks.step"].solids == 2
    assert entries["l_bracket.step"].solids == 1
    assert [e.file for e in gp.usable_parts(folder, 1)] == ["l_bracket.step"]
