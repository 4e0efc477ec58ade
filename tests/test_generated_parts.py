"""Generated parts of the bundled library (spatialcad/cad/generated_parts.py): a recipe
(family, seed) gives the same bytes in every process, the shipped listing is the current
code's, 3ViewProjection's level 1 holds at least 2,000 parts (a folder given with
--deepcad-dir only its own), a run's items take distinct ones, and a record naming a
generated part verifies (a tampered recipe does not)."""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from spatialcad.cad import disk_cache, part_families, parts
from spatialcad.cad import generated_parts as generated
from spatialcad.cad.deepcad import build
from spatialcad.cad.parts import ASSETS_DIR
from spatialcad.render.png import decode_png
from spatialcad.run.pipeline import make_item
from spatialcad.run.verification import run_verifier
from spatialcad.seeding import scene_order
from spatialcad.tasks import registry
from spatialcad.tasks.base import ItemSlot
from spatialcad.tasks.three_view import generate_parts as gp

ROOT = Path(__file__).resolve().parents[1]


def listing() -> tuple[str, tuple[generated.Listed, ...]]:
    return generated.load_listing(ASSETS_DIR / generated.LISTING)


def test_a_recipe_gives_the_same_bytes_in_a_fresh_process():
    recipes = [(family, seed) for family in part_families.FAMILIES for seed in (0, 977)]
    here = [hashlib.sha256(part_families.recipe_json(f, s)).hexdigest() for f, s in recipes]
    assert here == [hashlib.sha256(part_families.recipe_json(f, s)).hexdigest()
                    for f, s in recipes]
    assert len(set(here)) == len(recipes)
    script = ("import hashlib; from spatialcad.cad.part_families import recipe_json; "
              f"print(*(hashlib.sha256(recipe_json(f, s)).hexdigest() for f, s in {recipes}))")
    fresh = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           check=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert fresh.stdout.split() == here


def test_the_shipped_listing_is_the_current_codes():
    """The listing's digest is the code's, and listed recipes (a sample: the first of each
    family and every 97th) rebuild to their listed SHA-256 and face count."""
    digest, recipes = listing()
    assert digest == generated.code_digest(), \
        "stale listing: run python deepcad_assets/make_assets.py --screen"
    firsts = {r.family: r for r in reversed(recipes)}
    for r in [*firsts.values(), *recipes[::97]]:
        data = part_families.recipe_json(r.family, r.seed)
        assert hashlib.sha256(data).hexdigest() == r.sha256, r.name
    for r in firsts.values():  # building is slower: one a family
        shape = build(part_families.recipe_design(r.family, r.seed)[1].as_dict())
        assert len(shape.Solids) == 1 and len(shape.Faces) == r.faces, r.name
    assert len({r.sha256 for r in recipes}) == len(recipes)
    assert len({(r.family, r.seed) for r in recipes}) == len(recipes)


def test_generated_parts_keep_the_bundled_parts_proportions():
    """Listed parts of every family (its first 12) are sized as the bundled family parts
    are: their largest extent within the bundled ones' range (mm)."""
    index = json.loads((ASSETS_DIR / "index.json").read_text())
    sizes = [max(e["size"]) for e in index if not e["step"]]
    recipes = listing()[1]
    for r in [r for family in part_families.GENERATED_FAMILIES
              for r in [r for r in recipes if r.family == family][:12]]:
        shape = build(part_families.recipe_design(r.family, r.seed)[1].as_dict())
        box = shape.BoundBox
        largest = max(box.XLength, box.YLength, box.ZLength)
        assert min(sizes) - 1e-6 <= largest <= max(sizes) + 1e-6, (r.name, largest)


def test_recipe_names_are_parsed_strictly():
    assert generated.parse_recipe_name("generated/link/9") == ("link", 9)
    assert generated.recipe_name("link", 9) == "generated/link/9"
    for bad in ("generated/link/09", "generated/wheel/9", "generated/link/-1",
                "generated/link/9/1", "generated/link/", f"generated/link/{2**31}"):
        with pytest.raises(ValueError, match="names no part recipe"):
            parts.resolve(bad)
    assert not generated.is_recipe_name("generated/link/9.json")  # a folder's file


def test_a_generated_part_is_written_once_where_the_cache_says(tmp_path, monkeypatch):
    """In the disk cache (content-addressed; a damaged file is written again), or with the
    cache off in a folder of the process's own: the same bytes everywhere."""
    data = part_families.recipe_json("flange", 4)
    sha = hashlib.sha256(data).hexdigest()
    monkeypatch.setenv(disk_cache.CACHE_ENV, str(tmp_path / "cache"))
    path = parts.resolve("generated/flange/4")
    assert path == tmp_path / "cache" / generated.KIND / sha[:2] / f"{sha}.json"
    assert path.read_bytes() == data and parts.part_sha256(path) == sha
    path.write_bytes(b"damaged")
    generated._materialized.cache_clear()
    assert parts.resolve("generated/flange/4").read_bytes() == data
    monkeypatch.setenv(disk_cache.CACHE_ENV, "")
    off = parts.resolve("generated/flange/4")
    assert not off.is_relative_to(tmp_path) and off.read_bytes() == data


def test_level_one_of_the_bundled_library_holds_2000_parts_a_folder_only_its_own(tmp_path):
    """Generated parts of fewer than 7 faces are left out.  (The default part cache:
    indexing the bundled files afresh takes ~35 s, and the suite's three_view runs fill
    it.)"""
    generator = registry.task("three_view").generator()
    counts = {level: generator.scene_count(level) for level in (1, 2, 3)}
    assert counts[1] >= 2000
    usable = gp.usable_parts(ASSETS_DIR, 1, True)
    assert len({e.sha256 for e in usable}) == len(usable) == counts[1]
    made = sum(generated.is_recipe_name(e.file) for e in usable)
    assert made == sum(7 <= r.faces <= 12 for r in listing()[1])  # GENERATED_MIN_FACES
    files = gp.usable_parts(ASSETS_DIR, 1)
    assert counts[1] == len(files) + made and not any(
        generated.is_recipe_name(e.file) for e in files)
    assert counts[2] > 239 and counts[3] > 55  # the bundled files alone: 239 and 55
    # --deepcad-dir: the folder's files alone, the bundled folder's too
    bundled = registry.task("three_view").generator({"deepcad_dir": str(ASSETS_DIR)})
    assert bundled.scene_count(1) == len(files)
    folder = tmp_path / "parts"
    folder.mkdir()
    for name in ("l_bracket", "stepped_block", "v_block"):  # 8, 11 and 22 faces
        (folder / f"{name}.step").write_bytes((ASSETS_DIR / f"{name}.step").read_bytes())
    mine = registry.task("three_view").generator({"deepcad_dir": str(folder)})
    assert (mine.scene_count(1), mine.scene_count(2)) == (2, 1)


def test_the_first_300_items_of_a_level_one_run_take_300_distinct_parts(monkeypatch):
    """Item i takes the part ItemSlot names (spatialcad/run/scenes.py): the first 300
    items of a run, 300 distinct parts and scenes (the part's drawing check, which a
    failing part would leave to a spare of its round, taken as passed: it needs every
    part's projections)."""
    monkeypatch.setattr(gp, "drawing", lambda path: (1.0, 0.01, None))
    own = [gp.PartDraws(ASSETS_DIR, 1, None, ItemSlot(i, 300, 7), True).own()
           for i in range(300)]
    assert all(e is not None for e in own)
    assert len({e.sha256 for e in own if e}) == len({gp.part_scene(e) for e in own if e}) \
        == 300
    kinds = Counter(generated.is_recipe_name(e.file) for e in own if e)
    assert kinds[True] > kinds[False]  # most from generated parts


def generated_item(seed: int = 4, n: int = 40) -> tuple[dict, np.ndarray]:
    """A level-1 item of the run (seed, n) whose own part is a generated one."""
    usable = gp.usable_parts(ASSETS_DIR, 1, True)
    order = scene_order(seed, len(usable), "three_view parts", 1)
    index = next(i for i in range(n) if generated.is_recipe_name(usable[order[i]].file))
    result = make_item("three_view", 1, index, n, seed)
    return result.record, decode_png(result.png)


def test_a_generated_part_item_verifies_and_a_tampered_recipe_fails():
    record, image = generated_item()
    part = record["spec"]["part"]
    family, seed = generated.parse_recipe_name(part["file"])
    assert part["name"] == f"generated_{family}_{seed}"
    assert part["sha256"] == hashlib.sha256(part_families.recipe_json(family, seed)).hexdigest()
    assert run_verifier(record, image) == []

    def tampered(**change: str) -> list[str]:
        other = copy.deepcopy(record)
        other["spec"]["part"].update(change)
        return run_verifier(other, image)

    for failures in (tampered(file=generated.recipe_name(family, seed + 1)),
                     tampered(sha256="0" * 64)):
        assert any("SHA-256 differs" in f for f in failures), failures
    assert any("names no part recipe" in f for f in tampered(file="generated/wheel/1"))
