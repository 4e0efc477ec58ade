"""Reading the answer out of a model's response.

Multiple choice, "Rule B" (the default), in this order:

0. *bare*: the whole response is one option letter ("B", "(C).", "**D**", "A) the left view").
1. *marker*: the text after an answer marker ("<answer>", "\\boxed{", "Final answer",
   "Answer:", "the answer is", "correct answer/option/choice", "答案") is cut at the first
   sentence end, line end or closing tag and must hold exactly one *standalone* option letter
   (never the "A" of "All" or the "B" of "Backward"); the last marker wins, markers whose
   text denies its letters ("cannot be A", "B is wrong") are skipped, and a capital "A"
   used as an article ("A cube ...") yields to another letter.  Several letters ("B or C")
   make it *ambiguous*.
2. *patterns*, in priority order: ``<answer>..</answer>`` tags, ``\\boxed{X}``, then (not
   after an ambiguous marker) "answer is X", "option X" (only if every mention names the
   same option) and "choose/select/pick X".
3. *choice text*: the marker's text equals one option's text ("the answer is 6").

Whatever rule finds a letter, the text that names it (the marker's text, the tag's, the
sentence of a pattern) must assert it by :func:`claims.refusal`'s rules, as the open and
yes/no forms must: a hedged ("maybe B"), questioning, quoted or look-alike answer text gives
no letter, and a letter that any answer text denies ("not B", "I would not choose B", "B,
which is wrong") is not read from an earlier one either.

"Rule A" is the coarse baseline of the paper's robustness check: the first capital A-D
after the last marker (anywhere if there is no marker), without word boundaries (it reads
"All" as A).

Open answers (``Question_direct``) and yes/no (judge) answers: the *answer text* is the text
in answer tags, in ``\\boxed{}``, after the last marker, or a short one-line bare reply.
What it asserts is read by :mod:`spatialcad.evaluate.claims`: a negated, hedged, quoted or
questioning answer text, or one spelt with look-alike letters, asserts nothing and scores 0
in every form (docs/SCORING.md has the table of cases).  An open answer text that asserts
something is compared with ``Answer_direct`` by :func:`match_open`:

- a gold of *answer words* and numbers (every word of it one of
  :data:`claims.ANSWER_WORDS`: colour names, the picture directions up, down, left, right
  and the senses clockwise, counterclockwise, also spelt anticlockwise or
  counter-clockwise; e.g. ArrowMoving's "blue 3,1,up; red 1,2,left") matches when the reply
  names the same numbers in the same order and the same answer words in the same order,
  and says nothing is jammed, whatever other words surround them ("blue at column 3, row 1,
  pointing up; ...");
- "cannot move" (MechanicalSystem's jammed mechanism) matches a reply naming that ("cannot
  move", "can't move", "nothing can move", "jammed") and no motion word;
- a part label ("F") matches a reply naming that label alone among labels ("Gear F");
- otherwise a gold holding numbers matches the same numbers in the same order ("6, 8" ==
  "6,8"; a count "7" == "7 cubes");
- otherwise the normalized texts must be equal.

A yes/no answer text must assert exactly one of "yes" and "no" (either case).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from spatialcad.evaluate import claims

LETTERS = "ABCD"

_MARKER = re.compile(
    r"<answer>|\\boxed\s*\{|final\s+answer|correct\s+(?:answer|option|choice|path)"
    r"|the\s+answer\s+is|answer\s*\**\s*:|答案",
    re.IGNORECASE,
)
_LETTER = re.compile(r"(?<![A-Za-z0-9_])([A-D])(?![A-Za-z0-9_])")
_ARTICLE = re.compile(r"A (?!(?:or|and|nor|is|vs|to)\b)[a-z]")
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
_WORD = re.compile(r"[^\W\d_]+")


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
    return list(dict.fromkeys(c for c, _ in _letter_spots(segment)))


def _letter_spots(segment: str) -> list[tuple[str, int]]:
    found = [(m.group(1), m.start()) for m in _LETTER.finditer(segment)]
    strict = [(c, pos) for c, pos in found if not (c == "A" and _ARTICLE.match(segment, pos))]
    return strict if strict else found


def _markers(text: str) -> list[str]:
    """Segments after the answer markers, last marker first (the last ``MAX_MARKERS``: a
    reply that says "the answer is" more often than that is looping, and its end decides)."""
    ends = [m.end() for m in _MARKER.finditer(text)][-MAX_MARKERS:]
    return [_segment(text, end) for end in reversed(ends)]


def _normal(text: str) -> str:
    return re.sub(r"[\s*_`'\".]+", " ", text).strip().casefold()


@dataclass
class _Reading:
    """A choice reply's answer texts read so far: the letters they deny, and the first
    reason one of them asserted nothing (other than a denial)."""

    denied: set[str]
    refused: str | None = None

    def letters(self, text: str) -> list[str] | None:
        """The letters ``text`` asserts (None: it asserts none of the ones it names)."""
        text = claims.unwrapped(claims.plain(text))
        spots = _letter_spots(text)
        why = claims.refusal(text, [(pos, pos + 1) for _, pos in spots]) if spots else None
        if why == "negated":
            self.denied.update(c for c, _ in spots)
        elif why and self.refused is None:
            self.refused = why
        return None if why else list(dict.fromkeys(c for c, _ in spots))


def _sentence(text: str, m: re.Match[str]) -> str:
    """The sentence of ``text`` around match ``m`` (at most ``MAX_SEGMENT`` characters each
    way)."""
    start = max(0, m.start() - MAX_SEGMENT)
    ends = [e.end() for e in _CUT.finditer(text, start, m.start())]
    stop = min(len(text), m.end() + MAX_SEGMENT)
    cut = _CUT.search(text, m.end(), stop)
    return text[ends[-1] if ends else start: cut.start() if cut else stop]


def _stage1(text: str, reading: _Reading) -> tuple[str | None, bool]:
    """(letter, ambiguous) from the last marker whose text names option letters and does
    not deny them."""
    for seg in _markers(text):
        if not _letters(seg):
            continue
        letters = reading.letters(seg)
        if letters is None:
            if reading.refused:
                return None, False
            continue
        return (letters[0], False) if len(letters) == 1 else (None, True)
    return None, False


def _stage2(text: str, ambiguous: bool, reading: _Reading) -> Extraction | None:
    tag = _last_tag(text)
    if tag is not None:
        letters = _letters(tag)
        if len(letters) == 1:
            return Extraction(letters[0], "tags") if reading.letters(tag) else None
    boxed = _BOXED.findall(text)
    if boxed:
        return Extraction(boxed[-1], "boxed")
    if ambiguous:
        return None
    found = [(rule, m) for rule, m in (("answer_is", _last(_ANSWER_IS.finditer(text))),
                                       ("choose", _last(_CHOOSE.finditer(text))))
             if m is not None]
    options = list(_OPTION.finditer(text))
    if len({m.group(1) for m in options}) == 1:
        found.insert(1, ("option", options[-1]))
    for rule, m in found:
        return Extraction(m.group(1), rule) if reading.letters(_sentence(text, m)) else None
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
    reading = _Reading(set())
    letter, ambiguous = _stage1(text, reading)
    found = Extraction(letter, "marker") if letter else None
    if found is None and reading.refused is None:
        found = _stage2(text, ambiguous, reading)
    if found is None and choices and not ambiguous and reading.refused is None:
        letter = _by_choice_text(text, choices)
        found = Extraction(letter, "choice_text") if letter else None
    if found is not None and found.value in reading.denied:
        return Extraction(None, "negated")
    if found is not None and found.value is not None:
        return found
    why = reading.refused or ("negated" if reading.denied else None)
    return Extraction(None, why or ("ambiguous" if ambiguous else "none"))


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


def extract_yes_no(text: str | None) -> Extraction:
    """"yes" or "no" from a judge response: the open answer text (tags, \\boxed{}, marker,
    bare) asserting exactly one of the two words; else None, with the rule "ambiguous",
    "none" or why the text asserts nothing (:func:`claims.read`)."""
    got = extract_open(text)
    if got.value is None:
        return got
    said = claims.read(got.value, claims.JUDGE_KINDS)
    if said.refused:
        return Extraction(None, said.refused)
    words = set(said.values(claims.YES_NO))
    if len(words) != 1:
        return Extraction(None, "ambiguous" if words else "none")
    return Extraction(words.pop(), got.rule)


def refusal(form: str, extracted: str | None) -> str | None:
    """Why an open answer text asserts nothing ("negated", "hedged", ...), or None."""
    if form != "open" or extracted is None:
        return None
    return claims.read(extracted).refused


def _numbers(claim: claims.Claim) -> list[float]:
    return [float(v) for v in claim.values(claims.NUMBER)]


def match_open(extracted: str | None, gold: str) -> bool:
    """Open-form correctness (module docstring): the answer text asserts something, and names
    the gold's answer words and numbers in order (a gold made of those), "cannot move", the
    gold's label, the gold's numbers in order, or else the gold's normalized text."""
    if extracted is None:
        return False
    said = claims.read(extracted)
    if said.refused:
        return False
    key = claims.Claim(tuple(claims.tokens(gold)))
    kinds = {t.kind for t in key.tokens}
    if claims.JAM in kinds:
        return said.values(claims.JAM, claims.WORD) == ["cannot move"]
    if claims.JAM in {t.kind for t in said.tokens}:
        return False
    numbers_alike = _numbers(said) == _numbers(key)
    if claims.WORD in kinds and kinds <= {claims.WORD, claims.NUMBER} and \
            len(_WORD.findall(gold)) == len(key.values(claims.WORD)):
        return numbers_alike and said.values(claims.WORD) == key.values(claims.WORD)
    if kinds == {claims.LABEL} and len(key.tokens) == 1:
        return said.values(claims.LABEL) == key.values(claims.LABEL)
    if claims.NUMBER in kinds:
        return numbers_alike
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
