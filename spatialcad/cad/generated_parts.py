"""Generated parts: engineering parts made at run time from recipes of the parametric
families (spatialcad/cad/part_families.py), named ``generated/<family>/<seed>``.

The bundled library lists the recipes 3ViewProjection may draw (``deepcad_assets/
generated_parts.tsv``: family, seed, SHA-256 of the part's DeepCAD JSON, face count),
screened once by ``python deepcad_assets/make_assets.py --screen`` (one valid solid, views
legible in size, no near-duplicate of another listed or bundled part) and stamped with
:func:`code_digest` of the code that makes a recipe's bytes.  A record names a generated
part by its recipe (:func:`recipe_name`); to be read like any part file (its SHA-256 keys
the disk cache of projections and sizes), a part is written once as a content-addressed
file (:func:`materialize`).
"""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from spatialcad.cad import deepcad, disk_cache, part_families, sketch
from spatialcad.cad.part_families import GENERATED_FAMILIES, recipe_json

PREFIX = "generated"  # a generated part's record name: generated/<family>/<seed>
KIND = "generated-parts"  # their files' folder in the disk cache
LISTING = "generated_parts.tsv"  # the screened recipes, in deepcad_assets/
LISTING_HEADER = "family\tseed\tsha256\tfaces"
MAX_SEED = 2**31  # a recipe's seed is in [0, MAX_SEED)
PART_SUFFIXES = (".json", ".step", ".stp")  # a name ending so is a file's, never a recipe's


def recipe_name(family: str, seed: int) -> str:
    """How a record names the generated part: ``generated/<family>/<seed>``."""
    return f"{PREFIX}/{family}/{seed}"


def is_recipe_name(name: str) -> bool:
    """Whether ``name`` stands for a generated part (a part file's name never does: it
    ends in a part file's suffix)."""
    return name.startswith(f"{PREFIX}/") and not name.lower().endswith(PART_SUFFIXES)


def parse_recipe_name(name: str) -> tuple[str, int]:
    """(family, seed) of a :func:`recipe_name`; ``ValueError`` for any other name."""
    head, family, seed = (name.split("/") + ["", ""])[:3]
    if (head != PREFIX or name.count("/") != 2 or family not in GENERATED_FAMILIES
            or not seed.isdigit() or str(int(seed)) != seed or int(seed) >= MAX_SEED):
        raise ValueError(f"{name!r} names no part recipe ({PREFIX}/<family>/<seed>, the family "
                         f"one of {', '.join(GENERATED_FAMILIES)}, the seed below {MAX_SEED})")
    return family, int(seed)


def materialize(family: str, seed: int) -> Path:
    """The file holding :func:`~spatialcad.cad.part_families.recipe_json` of (family,
    seed), written once (atomically) under ``<cache dir>/generated-parts/`` as
    ``<sha[:2]>/<sha>.json``; with the disk cache off or unwritable, in a folder of this
    process (removed at exit).  A file found there with other bytes is written again."""
    cache = disk_cache.cache_dir()
    if cache is not None:
        try:
            return _materialized(family, seed, str(cache / KIND))
        except OSError:
            pass
    return _materialized(family, seed, _own_folder())


@lru_cache(maxsize=8192)
def _materialized(family: str, seed: int, folder: str) -> Path:
    data = recipe_json(family, seed)
    sha = hashlib.sha256(data).hexdigest()
    path = Path(folder) / sha[:2] / f"{sha}.json"
    try:
        if path.read_bytes() == data:
            return path
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return path


@lru_cache(maxsize=1)
def _own_folder() -> str:
    folder = tempfile.mkdtemp(prefix="spatialcad-generated-parts-")
    atexit.register(shutil.rmtree, folder, True)
    return folder


def code_digest() -> str:
    """A short digest of the code that makes a recipe's bytes (the families, the sketch
    helpers, the DeepCAD writer): the listing holds the digest of the code that made it,
    and a listing of other code is stale."""
    digest = hashlib.sha256()
    for module in (part_families, sketch, deepcad):
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class Listed:
    """One screened recipe of the listing: its part's SHA-256 and face count."""

    family: str
    seed: int
    sha256: str
    faces: int

    @property
    def name(self) -> str:
        return recipe_name(self.family, self.seed)


def save_listing(path: Path, recipes: list[Listed], note: str) -> None:
    """The listing file: a comment line with ``note``, one with :func:`code_digest`, the
    column names, then one tab-separated line per recipe."""
    lines = [f"# {note}", f"# code {code_digest()}", LISTING_HEADER]
    lines += [f"{r.family}\t{r.seed}\t{r.sha256}\t{r.faces}" for r in recipes]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def load_listing(path: Path) -> tuple[str, tuple[Listed, ...]]:
    """The code digest a listing was made by, and its recipes in order."""
    digest, recipes = "", []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# code "):
            digest = line.removeprefix("# code ")
        elif line and not line.startswith("#") and line != LISTING_HEADER:
            family, seed, sha, faces = line.split("\t")
            recipes.append(Listed(family, int(seed), sha, int(faces)))
    return digest, tuple(recipes)
