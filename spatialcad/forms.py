"""The three question forms of an item, built from its record alone (one place for the
evaluation, the Python API and the reasoning-gym datasets).

- ``choice``: the record's ``Question`` with its four lettered ``Choices``; the answer is
  the letter.
- ``open``: the open-ended ``Question_direct``, answered by ``Answer_direct`` (only items
  whose task gives one; read from the record, whatever the task).  ``fill`` is this form's
  old name, still read from old run and human results files (:func:`canonical`).
- ``judge``: the yes/no question of one option (``judge[k]``); the answer is ``"yes"`` or
  ``"no"``.  A pictured option is judged on the reference panels plus that option's panel
  alone (:func:`judge_image`, cut from the composed image, never re-rendered); a text
  option on the whole image (its question names the candidate in text).

Balanced judging: the evaluation asks one yes and one no question of every item that has
both (:func:`balanced_options`; items without both are left out of the judge run), so
answering "yes" to everything scores exactly 50%; the API alternates the wanted answer
(yes for even entries, no for odd), taking the other answer only for an item without the
wanted one.  Among several options with the wanted
answer, the one taken is drawn from the item's seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from spatialcad.record.records import LETTERS
from spatialcad.render.layout import PAD
from spatialcad.render.png import decode_png, encode_png
from spatialcad.seeding import derive_seed, item_rng

FORMS = ("choice", "open", "judge")
ALIASES = {"fill": "open"}  # old names, read from old results files

Record = dict[str, Any]


def canonical(form: str) -> str:
    """The current name of ``form`` (``fill`` -> ``open``); ValueError for an unknown form."""
    name = ALIASES.get(form, form)
    if name not in FORMS:
        raise ValueError(f"unknown question form {form!r}; choose from {', '.join(FORMS)}")
    return name


def has_open(record: Record) -> bool:
    """True if the record carries the open form (``Question_direct`` and ``Answer_direct``)."""
    return bool(record.get("Question_direct")) and record.get("Answer_direct") is not None


def judged(record: Record) -> list[int]:
    """The options (indices) that have a judge question."""
    return [k for k, j in enumerate(record.get("judge") or []) if j is not None]


def has_form(record: Record, form: str) -> bool:
    form = canonical(form)
    if form == "open":
        return has_open(record)
    return form == "choice" or bool(judged(record))


def judge_option(record: Record, answer: str) -> int | None:
    """An option whose judge answer is ``answer`` ("yes"/"no"), drawn from the item's seed
    among all such options; None if there is none."""
    found = [k for k in judged(record) if record["judge"][k]["answer"] == answer]
    if not found:
        return None
    pick = item_rng(derive_seed(int(record["seed"]), "judge", answer)).integers(len(found))
    return found[int(pick)]


def balanced_options(record: Record) -> list[int]:
    """The judge questions the evaluation asks: one with answer yes and one with answer no,
    in option order; none if the item lacks either (e.g. its answer is "none of the
    others", which has no judge question), so every judged item is exactly balanced."""
    found = [judge_option(record, a) for a in ("yes", "no")]
    return sorted(k for k in found if k is not None) if None not in found else []


def entry_option(record: Record, i: int) -> int:
    """The option entry ``i`` of a judge dataset asks about: the yes option for even ``i``,
    a no option for odd ``i`` (the other if the item has none); ValueError if none."""
    wanted = ("yes", "no") if i % 2 == 0 else ("no", "yes")
    for answer in wanted:
        k = judge_option(record, answer)
        if k is not None:
            return k
    raise ValueError(f"{record.get('Task')} item {record.get('Image_id')} has no judge form")


def question(record: Record, form: str, option: int | None = None) -> str:
    """The question text of ``form`` (the choice form lists its lettered options)."""
    form = canonical(form)
    if form == "open":
        if not has_open(record):
            raise ValueError("this item has no open form")
        return str(record["Question_direct"])
    if form == "judge":
        return str(_judge(record, option)["question"])
    listed = "\n".join(f"{LETTERS[i]}. {c}" for i, c in enumerate(record["Choices"]))
    return f"{record['Question']}\nOptions:\n{listed}"


def gold(record: Record, form: str, option: int | None = None) -> str:
    """The answer of ``form``: a letter, the open answer, or "yes"/"no"."""
    form = canonical(form)
    if form == "open":
        return str(record["Answer_direct"])
    if form == "judge":
        return str(_judge(record, option)["answer"])
    return str(record["Answer"])


def _judge(record: Record, option: int | None) -> dict[str, str]:
    judge = record.get("judge") or []
    if option is None or not 0 <= option < len(judge) or judge[option] is None:
        raise ValueError(f"option {option} of this item has no judge question")
    entry: dict[str, str] = judge[option]
    return entry


def pictured(record: Record) -> bool:
    """True if the options are panels of the image (else they are texts)."""
    return bool(record["layout"]["options"])


def judge_image(record: Record, image: np.ndarray, option: int) -> np.ndarray:
    """The judge image of ``option``: for pictured options, everything before the options
    (above them: the reference panels, captions and rule; or, where the options sit beside
    the references, everything left of them) with that option's panel alone after it (no
    letter: centred beneath it, or beside it level with the options' top); for text
    options, the whole image."""
    if not pictured(record):
        return image
    boxes = record["layout"]["options"]
    top = min(y for _, y, _, _ in boxes)
    x, y, w, h = boxes[option]
    width = image.shape[1]
    if any(ry + rh > top for _, ry, _, rh in record["layout"]["reference"]):  # beside
        left = min(x for x, _, _, _ in boxes)
        out = np.full((image.shape[0], left + w + PAD, 3), 255, dtype=np.uint8)
        out[:, :left] = image[:, :left]
        out[top : top + h, left : left + w] = image[y : y + h, x : x + w]
        return out
    out = np.full((top + h + PAD, width, 3), 255, dtype=np.uint8)
    out[:top] = image[:top]
    left = (width - w) // 2
    out[top : top + h, left : left + w] = image[y : y + h, x : x + w]
    return out


def judge_png(record: Record, png: bytes, option: int) -> bytes:
    """PNG bytes of :func:`judge_image` from the item's PNG (the PNG itself if unchanged)."""
    if not pictured(record):
        return png
    return encode_png(judge_image(record, decode_png(png), option))


@dataclass(frozen=True)
class Entry:
    """One question of an item: its text, answer, choices (choice form) and image."""

    question: str
    answer: str
    choices: list[str] | None
    option: int | None  # the judged option (judge form)
    image: np.ndarray
    png: bytes


def entry(record: Record, image: np.ndarray, png: bytes | None, form: str,
          option: int | None = None) -> Entry:
    """The ``form`` entry of an item from its record, composed image and PNG (None: not
    encoded yet; it is encoded here only if the entry shows the whole image, so a judged
    pictured option costs one PNG encoding of its smaller cut, not two); ``option`` is the
    judged option of the judge form."""
    form = canonical(form)
    if form == "judge":
        text = question(record, form, option)  # ValueError unless option is judged
        assert option is not None
        shown = judge_image(record, image, option)
        data = png if shown is image and png is not None else encode_png(shown)
        return Entry(text, gold(record, form, option), None, option, shown, data)
    choices = list(record["Choices"]) if form == "choice" else None
    data = encode_png(image) if png is None else png
    return Entry(question(record, form), gold(record, form), choices, None, image, data)
