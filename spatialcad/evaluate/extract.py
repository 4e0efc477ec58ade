"""Reading the answer out of a model's response.

Multiple choice, "Rule B" (the default), in this order:

0. *bare*: the whole response is one option letter ("B", "(C).", "**D**", "A) the left view").
1. *marker*: the text after an answer marker ("<answer>", "\\boxed{", "Final answer",
   "Answer:", "the answer is", "correct answer/option/choice", "答案") is cut at the first
   sentence end, line end or closing tag and must hold exactly one *standalone* option letter
   (never the "A" of "All" or the "B" of "Backward"); the last marker wins, markers whose
   text is negated ("cannot be A") are skipped, and a capital "A" used as an article ("A
   cube ...") yields to another letter.  Several letters ("B or C") make it *ambiguous*.
2. *patterns*, in priority order: ``<answer>..</answer>`` tags, ``\\boxed{X}``, then (not
   after an ambiguous marker) "answer is X", "option X" (only if every mention names the
   same option) and "choose/select/pick X".
3. *choice text*: the marker's text equals one option's text ("the answer is 6").

"Rule A" is the coarse baseline of the paper's robustness check: the first capital A-D
after the last marker (anywhere if there is no marker), without word boundaries (it reads
"All" as A).

Open answers (``Question_direct``): the text in answer tags, ``\\boxed{}`` or
after the last marker is compared with ``Answer_direct`` by :func:`match_open`:

- a gold of *answer words* and numbers (every word of it one of :data:`ANSWER_WORDS`:
  colour names, the picture directions up, down, left, right and the senses clockwise,
  counterclockwise (also spelt anticlockwise, counter-clockwise); e.g. ArrowMoving's
  "blue 3,1,up; red 1,2,left") matches when the reply has the same numbers in the same
  order and the same answer words in the same order, whatever other words surround them
  ("blue at column 3, row 1, pointing up; ...");
- otherwise a gold holding numbers matches the same numbers in the same order ("6, 8" ==
  "6,8"; a count "7" == "7 cubes");
- otherwise the normalized texts must be equal.

Yes/no (judge) answers: the same answer text, which must hold exactly one of the words
"yes" and "no" (either case); both or neither is no answer.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from spatialcad.geometry import colours

LETTERS = "ABCD"

_MARKER = re.compile(
    r"<answer>|\\boxed\s*\{|final\s+answer|correct\s+(?:answer|option|choice|path)"
    r"|the\s+answer\s+is|answer\s*\**\s*:|答案",
    re.IGNORECASE,
)
_LETTER = re.compile(r"(?<![A-Za-z0-9_])([A-D])(?![A-Za-z0-9_])")
_ARTICLE = re.compile(r"A (?!(?:or|and|nor|is|vs|to)\b)[a-z]")
_NEGATION = re.compile(r"\bnot\b|n't\b|\bcannot\b|\bnever\b", re.IGNORECASE)
_CUT = re.compile(r"\.(?:\s|$)|\n|</")
_LEAD = " \t\r\n:*_#>=`'\"-"
MAX_SEGMENT = 500  # characters of answer text read after a marker
MAX_MARKERS = 100  # markers read, from the last

_OPEN_TAG = re.compile(r"<answer>", re.IGNORECASE)
_CLOSE_TAG = re.compile(r"</answer>", re.IGNORECASE)
_BOXED = re.compile(
    r"\\boxed\s*\{\s*(?:\\(?:text|textbf|mathrm|mathbf)\s*\{)?\s*\(?([A-D])\)?\s*\}?\s*\}"
)
_ANSWER_IS = re.compile(
    r"(?i:answer)\s*(?i:is)?\s*:?\s*(?i:option|choice)?\s*\(?([A-D])\)?(?![A-Za-z0-9_])"
)
_OPTION = re.compile(r"(?i:option|choice)\s*\(?([A-D])\)?(?![A-Za-z0-9_])")
_CHOOSE = re.compile(
    r"(?i:choose|select|pick|go\s+with)\s*(?i:option)?\s*\(?([A-D])\)?(?![A-Za-z0-9_])"
)
_BARE = re.compile(r"^[\W_]*\(?([A-D])\)?[\W_]*$")
_BARE_LEAD = re.compile(r"^[*_\s]*\(?([A-D])[.):]\s+\S[^\n]*$")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_WORD = re.compile(r"[^\W\d_]+")

DIRECTION_WORDS = ("up", "down", "left", "right")
SENSE_WORDS = ("clockwise", "counterclockwise")
ANSWER_WORDS = frozenset(
    (*DIRECTION_WORDS, *SENSE_WORDS, *colours.ARROW_COLOURS, *colours.BLOCK_COLOURS,
     *colours.FACE_COLOURS, *colours.DOT_COLOURS, *colours.GRID_CELL_COLOURS))
_SAME_WORD = {"upward": "up", "upwards": "up", "downward": "down", "downwards": "down",
              "leftward": "left", "leftwards": "left", "rightward": "right",
              "rightwards": "right", "anticlockwise": "counterclockwise"}
_COUNTER = re.compile(r"\b(?:counter|anti)[\s-]+clockwise\b")  # one sense, two words


@dataclass(frozen=True)
class Extraction:
    """What was read from a response, and which rule read it ("none" if nothing)."""

    value: str | None
    rule: str


def _segment(text: str, end: int) -> str:
    """The answer text after a marker ending at ``end``: up to the first sentence end, at
    most ``MAX_SEGMENT`` characters (so that a reply repeating a marker thousands of times
    costs linear time, not quadratic)."""
    start = end
    while start < len(text) and text[start] in _LEAD:
        start += 1
    stop = min(len(text), start + MAX_SEGMENT)
    cut = _CUT.search(text, start, stop)
    return text[start: cut.start() if cut else stop]


def _last(matches: Iterator[re.Match[str]]) -> re.Match[str] | None:
    return next(iter(deque(matches, maxlen=1)), None)


def _last_tag(text: str) -> str | None:
    """The text of the last ``<answer>...</answer>`` (the last opening tag that a closing
    tag follows, up to the first closing tag after it; any case; stripped), in linear time
    (a lazy regex from every opening tag is quadratic on a reply of unclosed tags)."""
    close = _last(_CLOSE_TAG.finditer(text))
    if close is None:
        return None
    opening = _last(_OPEN_TAG.finditer(text, 0, close.start()))
    if opening is None:
        return None
    end = _CLOSE_TAG.search(text, opening.end())
    return text[opening.end(): end.start() if end else close.start()].strip()


def _letters(segment: str) -> list[str]:
    """Standalone option letters of ``segment``, an article-like "A" dropped if others exist."""
    found = [(m.group(1), m.start()) for m in _LETTER.finditer(segment)]
    strict = [c for c, pos in found if not (c == "A" and _ARTICLE.match(segment, pos))]
    chosen = strict if strict else [c for c, _ in found]
    return list(dict.fromkeys(chosen))


def _markers(text: str) -> list[str]:
    """Segments after the answer markers, last marker first (the last ``MAX_MARKERS``: a
    reply that says "the answer is" more often than that is looping, and its end decides)."""
    ends = [m.end() for m in _MARKER.finditer(text)][-MAX_MARKERS:]
    return [_segment(text, end) for end in reversed(ends)]


def _normal(text: str) -> str:
    return re.sub(r"[\s*_`'\".]+", " ", text).strip().casefold()


def _stage1(text: str) -> tuple[str | None, bool]:
    """(letter, ambiguous) from the last non-negated marker that names any option letter."""
    for seg in _markers(text):
        letters = _letters(seg)
        if not letters:
            continue
        first = _LETTER.search(seg)
        if first and _NEGATION.search(seg[: first.start()]):
            continue
        return (letters[0], False) if len(letters) == 1 else (None, True)
    return None, False


def _stage2(text: str, ambiguous: bool) -> Extraction | None:
    tag = _last_tag(text)
    if tag is not None:
        letters = _letters(tag)
        if len(letters) == 1:
            return Extraction(letters[0], "tags")
    boxed = _BOXED.findall(text)
    if boxed:
        return Extraction(boxed[-1], "boxed")
    if ambiguous:
        return None
    answer_is = _ANSWER_IS.findall(text)
    if answer_is:
        return Extraction(answer_is[-1], "answer_is")
    options = set(_OPTION.findall(text))
    if len(options) == 1:
        return Extraction(options.pop(), "option")
    chosen = _CHOOSE.findall(text)
    if chosen:
        return Extraction(chosen[-1], "choose")
    return None


def _by_choice_text(text: str, choices: list[str]) -> str | None:
    wanted = [_normal(c) for c in choices]
    for seg in _markers(text) or [text]:
        hits = [i for i, c in enumerate(wanted) if c and _normal(seg) == c]
        if len(hits) == 1:
            return LETTERS[hits[0]]
    return None


def extract_choice(text: str | None, choices: list[str] | None = None) -> Extraction:
    """The option letter of a response by Rule B (see the module docstring)."""
    text = (text or "").strip()
    if not text:
        return Extraction(None, "none")
    bare = _BARE.match(text) or _BARE_LEAD.match(text)
    if bare:
        return Extraction(bare.group(1), "bare")
    letter, ambiguous = _stage1(text)
    if letter:
        return Extraction(letter, "marker")
    found = _stage2(text, ambiguous)
    if found:
        return found
    if choices and not ambiguous:
        letter = _by_choice_text(text, choices)
        if letter:
            return Extraction(letter, "choice_text")
    return Extraction(None, "ambiguous" if ambiguous else "none")


def extract_choice_rule_a(text: str | None) -> str | None:
    """Rule A: the first capital A-D after the last marker (or in the whole response if
    there is none), without word boundaries."""
    text = text or ""
    marks = list(_MARKER.finditer(text))
    found = re.search(r"[A-D]", _segment(text, marks[-1].end()) if marks else text)
    return found.group(0) if found else None


def _braced(text: str, start: int) -> str:
    """The text inside the braces opened just before ``start`` (nesting respected)."""
    depth = 1
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start:i]
    return text[start:]


def extract_open(text: str | None) -> Extraction:
    """The answer text of an open-form response: tags, then \\boxed{}, then the last marker."""
    text = (text or "").strip()
    tag = _last_tag(text)
    if tag is not None:
        return Extraction(tag, "tags")
    boxes = list(re.finditer(r"\\boxed\s*\{", text))
    if boxes:
        inner = _braced(text, boxes[-1].end())
        inner = re.sub(r"\\(?:text|mathrm)\s*\{([^{}]*)\}", r"\1", inner)
        return Extraction(inner.strip(), "boxed")
    for seg in _markers(text):
        if seg.strip():
            return Extraction(seg.strip(), "marker")
    if text and "\n" not in text and len(text) <= 80:
        return Extraction(text, "bare")
    return Extraction(None, "none")


_YES_NO = re.compile(r"(?<![A-Za-z0-9_])(yes|no)(?![A-Za-z0-9_])", re.IGNORECASE)


def extract_yes_no(text: str | None) -> Extraction:
    """"yes" or "no" from a judge response: the open answer text (tags, \\boxed{}, marker,
    bare) holding exactly one of the two words; ambiguous or absent -> None."""
    got = extract_open(text)
    if got.value is None:
        return got
    words = {w.casefold() for w in _YES_NO.findall(got.value)}
    if len(words) != 1:
        return Extraction(None, "ambiguous" if words else "none")
    return Extraction(words.pop(), got.rule)


def numbers(text: str) -> list[float]:
    return [float(x) for x in _NUMBER.findall(text)]


def answer_words(text: str) -> list[str]:
    """The words of ``text`` that are :data:`ANSWER_WORDS`, in order ("upwards" is "up",
    "anti-clockwise" and "counter clockwise" are "counterclockwise")."""
    folded = _COUNTER.sub("counterclockwise", text.casefold())
    found = (_SAME_WORD.get(w, w) for w in _WORD.findall(folded))
    return [w for w in found if w in ANSWER_WORDS]


def match_open(extracted: str | None, gold: str) -> bool:
    """Open-form correctness (module docstring): the same numbers and answer words in the same
    order where the gold is made of those, else the same numbers in the same order, else the
    same normalized text."""
    if extracted is None:
        return False
    words = _WORD.findall(gold.casefold())
    if words and len(answer_words(gold)) == len(words):
        return numbers(extracted) == numbers(gold) and answer_words(extracted) == words
    want = numbers(gold)
    if want:
        return numbers(extracted) == want
    return _normal(extracted) == _normal(gold)


def extract(form: str, text: str | None, choices: list[str] | None = None) -> Extraction:
    """The answer of a response to a question of ``form`` (choice, open or judge)."""
    if form == "open":
        return extract_open(text)
    if form == "judge":
        return extract_yes_no(text)
    return extract_choice(text, choices)


def is_correct(form: str, extracted: str | None, gold: str) -> bool:
    """Whether an extracted answer to a question of ``form`` is the gold answer."""
    return match_open(extracted, gold) if form == "open" else extracted == gold
