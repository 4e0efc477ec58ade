"""What the browser pages (``gallery``, ``quiz``) share: escaping, images, templates, samples.

Both pages are static files that work from disk with no server and no network: their
styles and scripts are package files under ``export/templates/`` inlined into the page,
images are linked relative to the page or embedded as data URLs, and data a script reads
is embedded as JSON that cannot close its ``<script>`` element.
"""

from __future__ import annotations

import base64
import html
import json
import os
from collections.abc import Callable, Hashable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from spatialcad.export import atomic_text
from spatialcad.record.benchmark import Benchmark, Record
from spatialcad.record.records import step_images

T = TypeVar("T")


def esc(value: object) -> str:
    """``value`` as HTML text or attribute value (quotes escaped too)."""
    return html.escape(str(value), quote=True)


def template(name: str) -> str:
    """The text of ``spatialcad/export/templates/<name>`` (package data)."""
    return (resources.files("spatialcad.export") / "templates" / name).read_text("utf-8")


def data_url(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def image_src(bench: Benchmark, record: Record, page: Path, embed: bool) -> str:
    """The ``src`` of ``record``'s image on a page written to ``page``: a data URL with
    ``embed`` (checked bytes), else the image's path relative to the page's folder."""
    if embed:
        return data_url(bench.png(record))
    path = bench.image_file(record).resolve()
    return Path(os.path.relpath(path, Path(page).resolve().parent)).as_posix()


def step_srcs(bench: Benchmark, record: Record, page: Path, embed: bool) -> list[str]:
    """The ``src`` of each of ``record``'s step pictures (none without steps), as
    :func:`image_src`; every picture is checked against the manifest first."""
    pictures = bench.step_pngs(record)
    if embed:
        return [data_url(data) for data in pictures]
    folder = Path(page).resolve().parent
    return [Path(os.path.relpath((bench.root / name).resolve(), folder)).as_posix()
            for name in step_images(record)]


def script_json(obj: Any) -> str:
    """``obj`` as JSON to put inside ``<script type="application/json">``: every ``<`` is
    written ``\\u003c`` (it can only occur in strings), so no text closes the element."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def document(title: str, body: str, *, style: str, script: str, data: Any = None) -> str:
    """A complete HTML page: ``style`` and ``script`` are template names, ``data`` (if any)
    is embedded as JSON in ``<script id="page-data">`` for the script to read."""
    embedded = ("" if data is None else
                f'<script id="page-data" type="application/json">{script_json(data)}</script>')
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{template(style)}</style></head>"
        f"<body>{body}{embedded}<script>{template(script)}</script></body></html>\n"
    )


def write_page(out: Path, text: str) -> None:
    """Write ``text`` to ``out`` all or nothing (an existing page is replaced)."""
    with atomic_text(Path(out), overwrite=True) as f:
        f.write(text)


def level_order(level: str) -> tuple[int, str]:
    """Sort key of level names: Level2 before Level10."""
    return len(level), level


def spread(sizes: Sequence[int], n: int, order: Sequence[int]) -> list[int]:
    """``n`` units over groups of ``sizes`` as evenly as possible (the counts differ by at
    most one unless a group runs out); the odd units go to the groups first in ``order``."""
    if n > sum(sizes):
        raise ValueError(f"cannot take {n} of {sum(sizes)}")
    take = [0] * len(sizes)
    while n:
        open_ = [i for i in order if take[i] < sizes[i]]
        for i in open_[:n]:
            take[i] += 1
        n -= min(n, len(open_))
    return take


def balanced_sample(items: Sequence[T], n: int, rng: np.random.Generator,
                    keys: Sequence[Callable[[T], Hashable]]) -> list[T]:
    """``n`` of ``items``, as even as possible over ``keys[0]``, then within each of its
    groups over ``keys[1]``, and so on; which items (and which groups get an odd extra
    one) is drawn from ``rng``.  The sample keeps the order of ``items``."""
    if not 0 <= n <= len(items):
        raise ValueError(f"cannot take {n} of {len(items)} items")
    chosen = _sample(items, list(range(len(items))), n, rng, keys)
    return [items[i] for i in sorted(chosen)]


def _sample(items: Sequence[T], indices: list[int], n: int, rng: np.random.Generator,
            keys: Sequence[Callable[[T], Hashable]]) -> list[int]:
    if not keys:
        return [indices[int(i)] for i in rng.permutation(len(indices))[:n]]
    groups: dict[Hashable, list[int]] = {}
    for i in indices:
        groups.setdefault(keys[0](items[i]), []).append(i)
    members = list(groups.values())
    order = [int(i) for i in rng.permutation(len(members))]
    take = spread([len(m) for m in members], n, order)
    return [i for m, k in zip(members, take, strict=True)
            for i in _sample(items, m, k, rng, keys[1:])]
