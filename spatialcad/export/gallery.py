"""A static HTML page to browse a benchmark: image, question, options, answer, explanation,
and optionally what a scored run answered.

Images are linked relative to the page (or embedded as data URLs with ``embed``), so the
page works from disk with no server.  Category, task and level filters hide the other
items; answers are marked only on request ("show answers") and explanations sit in
collapsed <details>, so a reader can try an item first.  With runs (``spatialcad eval``
output or a ``human-*.jsonl`` quiz file), each item shows every system's extracted
answer, right or wrong, and its raw reply (collapsed); "wrong only" keeps the items some
system got wrong.  Every item is an anchor (``#Category/Task/Level/Image_id``) and the
filters live in the URL hash (``#task=CubeCounting&level=Level1&wrong=1``), so a link
opens the page on one item or on one filtered view.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spatialcad.evaluate import report, runner
from spatialcad.export import load
from spatialcad.export.pages import document, esc, image_src, level_order, step_srcs, write_page
from spatialcad.record.benchmark import Benchmark, Record
from spatialcad.record.records import image_path

LETTERS = "ABCD"
DEFAULT_PAGE = "gallery.html"  # the page's default place: DIR/gallery.html


def _select(name: str, values: list[str]) -> str:
    options = "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in values)
    return (f'<label>{name} <select id="{name}"><option value="">all</option>{options}'
            "</select></label>")


def by_item(column: report.Column) -> dict[str, list[dict[str, Any]]]:
    """The column's lines per item id (a judge run has one line per judged option, with
    the id ``<item>#<letter>``)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for key, line in sorted(column.lines.items()):
        found.setdefault(key.split("#", 1)[0], []).append(line)
    return found


def _prediction(column: report.Column, line: dict[str, Any] | None) -> str:
    who = esc(column.label if column.label == column.system else
              f"{column.system} ({column.label})")
    if line is not None and line.get("judge_option"):
        who += esc(f", judging {line['judge_option']} (answer {line.get('gold')})")
    if line is None:
        return f'<li class="prediction missing">{who}: not answered</li>'
    right = bool(line.get("correct"))
    extracted = line.get("extracted")
    answer = "nothing read" if extracted is None else esc(extracted)
    raw = "".join(
        f"<details><summary>{title}</summary><pre>{esc(line[key])}</pre></details>"
        for key, title in (("raw", "raw reply"), ("reasoning", "reasoning")) if line.get(key))
    return (f'<li class="prediction {"right" if right else "wrong"}">{who}: '
            f'<span class="extracted">{answer}</span> '
            f'<span class="verdict">{"right" if right else "wrong"}</span>{raw}</li>')


def _steps(r: Record, srcs: list[str]) -> str:
    """The item's step-by-step solution (``generate --with-steps``), folded."""
    if not srcs:
        return ""
    steps = "".join(f'<li><img src="{esc(src)}" loading="lazy" alt="step {k}">'
                    f"<p>{esc(step.get('text', ''))}</p></li>"
                    for k, (src, step) in enumerate(zip(srcs, r["steps"], strict=True), 1))
    return (f'<details class="steps"><summary>Step-by-step solution ({len(srcs)} steps)'
            f'</summary><ol>{steps}</ol></details>')


def _card(r: Record, src: str, runs: list[tuple[report.Column, dict[str, list[dict[str, Any]]]]],
          steps: list[str]) -> str:
    choices = "".join(
        f'<li{" class=answer" if LETTERS[i] == r["Answer"] else ""}>{esc(c)}</li>'
        for i, c in enumerate(r["Choices"]))
    direct = ""
    if r.get("Question_direct"):
        direct = (f"<p><b>Open form:</b> {esc(r['Question_direct'])}<br>"
                  f"<b>Answer:</b> {esc(r.get('Answer_direct'))}</p>")
    ident = image_path(r)
    none: list[dict[str, Any] | None] = [None]  # "not answered"
    answers = [(c, line) for c, items in runs for line in items.get(ident) or none]
    wrong = any(line is not None and not line.get("correct") for _, line in answers)
    predictions = "".join(_prediction(c, line) for c, line in answers)
    return (
        f'<section class="item" id="{esc(ident)}" data-category="{esc(r["Category"])}" '
        f'data-task="{esc(r["Task"])}" data-level="{esc(r["Level"])}" '
        f'data-wrong="{int(wrong)}">'
        f"<h2>{esc(r['Category'])} · {esc(r['Task'])} · {esc(r['Level'])} · "
        f'{esc(r["Image_id"])}<a href="#{esc(ident)}" title="link to this item">#</a></h2>'
        f'<img src="{esc(src)}" loading="lazy" alt="{esc(ident)}">'
        f'<p class="question">{esc(r["Question"])}</p>'
        f'<ol class="choices">{choices}</ol>'
        + (f'<ul class="predictions">{predictions}</ul>' if runs else "")
        + f'<details><summary>Answer and explanation</summary>'
        f'<p class="gold"><b>Answer: {esc(r["Answer"])}</b></p>'
        f"<pre>{esc(r['Explanation'])}</pre>{direct}</details>{_steps(r, steps)}</section>"
    )


def load_runs(bench: Path, paths: list[Path]) -> list[report.Column]:
    """The columns of the runs at ``paths``; ValueError unless each scored ``bench``."""
    digest = runner.benchmark_digest(bench)
    manifest = runner.manifest_digest(bench)
    columns = report.load_columns(paths, [bench])
    for c in columns:
        if c.benchmark is None and c.manifest is None:
            raise ValueError(f"{c.run} names no benchmark (a ladder run?): nothing to show")
        if c.benchmark not in (None, digest) or c.manifest not in (None, manifest):
            raise ValueError(f"{c.run} scored another benchmark than {bench}")
    return columns


def write_gallery(bench: Path, out: Path, embed: bool = False,
                  runs: list[Path] | None = None) -> int:
    """Write the gallery of ``bench`` (with the answers of ``runs``) to the HTML file ``out``;
    return the item count."""
    checked: Benchmark = load(bench, out, runs or [], default_inside=DEFAULT_PAGE)
    columns = load_runs(bench, runs) if runs else []
    records = checked.records
    runs_by_item = [(c, by_item(c)) for c in columns]
    cards = [_card(r, image_src(checked, r, out, embed), runs_by_item,
                   step_srcs(checked, r, out, embed)) for r in records]
    name = Path(bench).resolve().name
    wrong = ('<label><input type="checkbox" id="wrong"> wrong only</label>' if columns else "")
    body = (
        f"<header><h1>{esc(name)}</h1>"
        f'<span><span id="shown">{len(records)}</span> of {len(records)} items</span>'
        + _select("category", sorted({r["Category"] for r in records}))
        + _select("task", sorted({r["Task"] for r in records}))
        + _select("level", sorted({r["Level"] for r in records}, key=level_order))
        + wrong
        + '<label><input type="checkbox" id="answers"> show answers</label></header>'
        f"<main>{''.join(cards)}</main>"
    )
    write_page(out, document(f"spatialcad gallery: {name}", body, style="gallery.css",
                             script="gallery.js"))
    return len(records)
