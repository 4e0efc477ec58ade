"""A static HTML page to browse a benchmark: image, question, options, answer, explanation.

Images are linked relative to the page (or embedded as data URLs with ``embed``), so the
page works from disk with no server.  A task/level filter hides the other items; answers
are marked only on request ("show answers") and explanations sit in collapsed <details>,
so a reader can try an item first.
"""

from __future__ import annotations

import base64
import os
from html import escape
from pathlib import Path
from typing import Any

from spatialcad.export import atomic_text, load
from spatialcad.records import image_path

LETTERS = "ABCD"

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 1320px; padding: 16px;
       background: #f4f4f4; color: #111; }
header { display: flex; gap: 24px; align-items: baseline; flex-wrap: wrap; }
.item { background: #fff; border: 1px solid #ccc; border-radius: 6px; margin: 16px 0;
        padding: 12px 16px; }
.item h2 { font-size: 15px; margin: 0 0 8px; color: #444; }
.item img { max-width: 100%; height: auto; border: 1px solid #ddd; }
.question { font-size: 16px; }
ol.choices { list-style: upper-alpha; }
body.reveal li.answer { font-weight: bold; background: #d9f2d9; }
details { margin-top: 8px; }
pre { white-space: pre-wrap; font-family: inherit; background: #fafafa; padding: 8px; }
"""

_SCRIPT = """
function toggleAnswers(box) { document.body.classList.toggle('reveal', box.checked); }
function applyFilter() {
  const task = document.getElementById('task').value;
  const level = document.getElementById('level').value;
  let shown = 0;
  for (const el of document.querySelectorAll('.item')) {
    const ok = (!task || el.dataset.task === task) && (!level || el.dataset.level === level);
    el.hidden = !ok;
    shown += ok ? 1 : 0;
  }
  document.getElementById('shown').textContent = shown;
}
"""


def _select(name: str, values: list[str]) -> str:
    options = "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)
    return (f'<label>{name} <select id="{name}" onchange="applyFilter()">'
            f'<option value="">all</option>{options}</select></label>')


def _card(r: dict[str, Any], src: str) -> str:
    choices = "".join(
        f'<li{" class=answer" if LETTERS[i] == r["Answer"] else ""}>{escape(str(c))}</li>'
        for i, c in enumerate(r["Choices"]))
    direct = ""
    if r.get("Question_direct"):
        direct = (f"<p><b>Fill-in form:</b> {escape(r['Question_direct'])}<br>"
                  f"<b>Answer:</b> {escape(str(r.get('Answer_direct')))}</p>")
    ident = image_path(r)
    return (
        f'<section class="item" id="{escape(ident)}" data-task="{escape(r["Task"])}" '
        f'data-level="{escape(r["Level"])}">'
        f"<h2>{escape(r['Category'])} · {escape(r['Task'])} · {escape(r['Level'])} · "
        f"{escape(r['Image_id'])}</h2>"
        f'<img src="{escape(src)}" loading="lazy" alt="{escape(ident)}">'
        f'<p class="question">{escape(r["Question"])}</p>'
        f'<ol class="choices">{choices}</ol>'
        f'<details><summary>Answer and explanation</summary>'
        f'<p class="gold"><b>Answer: {escape(r["Answer"])}</b></p>'
        f"<pre>{escape(r['Explanation'])}</pre>{direct}</details></section>"
    )


def write_gallery(bench: Path, out: Path, embed: bool = False) -> int:
    """Write the gallery of ``bench`` to the HTML file ``out``; return the item count."""
    checked = load(bench)
    records = checked.records
    out = Path(out)
    base = out.resolve().parent
    cards = []
    for r in records:
        if embed:
            src = "data:image/png;base64," + base64.b64encode(checked.png(r)).decode("ascii")
        else:
            src = Path(os.path.relpath((Path(bench) / r["image"]).resolve(), base)).as_posix()
        cards.append(_card(r, src))
    tasks = sorted({r["Task"] for r in records})
    levels = sorted({r["Level"] for r in records}, key=lambda v: (len(v), v))
    page = (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>spatialcad gallery: {escape(Path(bench).resolve().name)}</title>"
        f"<style>{_STYLE}</style><script>{_SCRIPT}</script></head><body>"
        f"<header><h1>{escape(Path(bench).resolve().name)}</h1>"
        f"<span><span id=\"shown\">{len(records)}</span> of {len(records)} items</span>"
        f"{_select('task', tasks)}{_select('level', levels)}"
        '<label><input type="checkbox" onchange="toggleAnswers(this)"> show answers</label>'
        "</header>"
        f"<main>{''.join(cards)}</main></body></html>\n"
    )
    with atomic_text(out, overwrite=True) as f:
        f.write(page)
    return len(records)
