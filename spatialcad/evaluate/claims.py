"""What an answer text asserts: the answers it names, or why it asserts none for sure.

Open and yes/no replies are scored by what their *answer text* (the text in answer tags, in
``\\boxed{}``, after the last answer marker, or a short bare reply; see
:mod:`spatialcad.evaluate.extract`) asserts, not by which words it holds.  :func:`read`
finds the answers the text names (*tokens*: answer words, numbers, part labels, "cannot
move", yes/no) and refuses the whole text, naming nothing, when

- ``too long``: it has more than :data:`MAX_ANSWER` characters (an answer is short; this
  also bounds the work on any reply);
- ``look-alike``: a word is spelt with letters that only look like Latin ones (Cyrillic
  "о" in "nоt", an accented "ríght"): what it says cannot be read for sure;
- ``question``: it asks (holds "?");
- ``quoted``: an answer stands inside quotation marks within it (a mention, not a claim);
- ``hedged``: it holds "or", "either", "maybe", "perhaps", "possibly", "probably",
  "likely", "might", "unsure", "uncertain", "unclear", "whether", "guess", "not sure", "no
  idea", "hard to say" or "cannot tell";
- ``negated``: a clause (split at , ; : ( ) [ ] . ! line ends and "but") that names an
  answer also holds a negation ("not", "n't", "never", "cannot", "no", "none", "nothing",
  "neither", "nor", "without", "wrong", "incorrect", "false", "impossible", "instead",
  "rather"; an answer's own words, as the "no" of a yes/no reply or the "cannot" of
  "cannot move", do not count), or an answer is followed by "is wrong", ", which is
  incorrect", "is not ..." and the like.

Before reading, the text is NFKC-normalized (full-width and mathematical letters become
plain ones), invisible format characters (zero-width spaces and joiners) are dropped, and
typographic quotes and apostrophes become plain ones.  Every step is linear in the text's
length, which is at most :data:`MAX_ANSWER`.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass

from spatialcad.geometry import colours

MAX_ANSWER = 1000  # characters of an answer text that is read at all

DIRECTION_WORDS = ("up", "down", "left", "right")
SENSE_WORDS = ("clockwise", "counterclockwise")
ANSWER_WORDS = frozenset(
    (*DIRECTION_WORDS, *SENSE_WORDS, *colours.ARROW_COLOURS, *colours.BLOCK_COLOURS,
     *colours.FACE_COLOURS, *colours.DOT_COLOURS, *colours.GRID_CELL_COLOURS))
SAME_WORD = {"upward": "up", "upwards": "up", "downward": "down", "downwards": "down",
             "leftward": "left", "leftwards": "left", "rightward": "right",
             "rightwards": "right", "anticlockwise": "counterclockwise"}
LABELS = frozenset("BCDEFGHJKLMNOPQRSTUVWXYZ")  # a capital standing alone ("A", "I" are words)

# token kinds
WORD, NUMBER, LABEL, JAM, YES_NO = "word", "number", "label", "jam", "yes/no"
OPEN_KINDS = frozenset((WORD, NUMBER, LABEL, JAM))
JUDGE_KINDS = frozenset((YES_NO,))

_TOKEN = re.compile(
    r"(?P<jam>\b(?:cannot|can\s*not|can't|nothing\s+can)\s+move\b|\bjammed\b)"
    r"|(?P<counter>\b(?:counter|anti)[\s-]*clockwise\b)"
    r"|(?P<number>-?\d+(?:\.\d+)?)"
    r"|(?P<word>[^\W\d_]+)",
    re.IGNORECASE)
_CUE = re.compile(
    r"\b(?:not|never|cannot|no|none|nothing|neither|nor|without|wrong|incorrect|false"
    r"|impossible|instead|rather)\b|n't\b", re.IGNORECASE)
_DENIED_AFTER = re.compile(
    r"\s*,?\s*(?:(?:which|that|this)\s*)?(?:is|was|are|were|'s|would\s+be|seems?|looks?)\s+"
    r"(?:wrong|incorrect|false|impossible|not\b|ruled\s+out)", re.IGNORECASE)
_HEDGE = re.compile(
    r"\b(?:or|either|maybe|perhaps|possibly|probably|likely|unlikely|might|unsure|uncertain"
    r"|unclear|whether|guess|not\s+(?:sure|certain)|no\s+idea|hard\s+to\s+(?:say|tell)"
    r"|(?:can't|cannot|can\s+not)\s+(?:tell|say|determine))\b", re.IGNORECASE)
_LETTERS = re.compile(r"[^\W\d_]+")
_BOUND = re.compile(r"[,;:()\[\]{}.!\n]|\bbut\b", re.IGNORECASE)
_QUOTED = re.compile(r'"[^"\n]*"|«[^»\n]*»|`[^`\n]*`|(?<![^\W_])\'[^\'\n]*\'(?![^\W_])')
_WRAP = " \t\r\n*_#>.!"
_QUOTES = "\"'`"
_PLAIN = str.maketrans({"\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u201c": '"',
                        "\u201d": '"', "\u201e": '"', "\u2033": '"'})
# letters of other scripts drawn like Latin ones (Cyrillic, Greek, Armenian, Latin IPA)
_LOOK_ALIKE = str.maketrans(dict(zip(
    "аԁеɡһіјӏоԛѕԝхуɑıɩʏαικνορτυχεոսАВСЕНІЈКМОРЅТХҮΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "adeghijloqswxyaiiyaiknoptuxenuABCEHIJKMOPSTXYABEZHIKMNOPTYX", strict=True)))


@dataclass(frozen=True)
class Token:
    kind: str
    value: str
    start: int
    end: int


@dataclass(frozen=True)
class Claim:
    """The answers an answer text names, in order; ``refused`` says why it names none."""

    tokens: tuple[Token, ...] = ()
    refused: str | None = None

    def values(self, *kinds: str) -> list[str]:
        return [t.value for t in self.tokens if t.kind in kinds]


def unwrapped(text: str) -> str:
    """``text`` without the blanks, emphasis and full stops around it, and without the
    quotation marks around it if it is one quotation ("\"right\"." is "right")."""
    text = text.strip(_WRAP)
    while len(text) > 1 and text[0] in _QUOTES and text[-1] == text[0] \
            and text.count(text[0]) == 2:
        text = text[1:-1].strip(_WRAP)
    return text


def plain(text: str) -> str:
    """NFKC, without invisible format characters, with plain quotes and apostrophes."""
    text = unicodedata.normalize("NFKC", text).translate(_PLAIN)
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def _look_alike(word: str) -> bool:
    """A word of non-ASCII letters that reads as an ASCII word once accents are dropped and
    look-alike letters replaced."""
    if word.isascii():
        return False
    bare = "".join(ch for ch in unicodedata.normalize("NFKD", word)
                   if unicodedata.category(ch) != "Mn")
    return bare.translate(_LOOK_ALIKE).isascii()


def _token(m: re.Match[str], kinds: frozenset[str], alone: bool) -> Token | None:
    text, start, end = m.group(0), m.start(), m.end()
    if m.group("jam"):
        kind, value = JAM, "cannot move"
    elif m.group("counter"):
        kind, value = WORD, "counterclockwise"
    elif m.group("number"):
        kind, value = NUMBER, text
    else:
        folded = SAME_WORD.get(text.casefold(), text.casefold())
        if folded in ("yes", "no"):
            kind, value = YES_NO, folded
        elif folded in ANSWER_WORDS:
            kind, value = WORD, folded
        elif len(text) == 1 and (text in LABELS or alone and text.upper() in LABELS):
            kind, value = LABEL, text.upper()
        else:
            return None
    return Token(kind, value, start, end) if kind in kinds else None


def _found(text: str, kinds: frozenset[str]) -> list[Token]:
    """The tokens of ``kinds`` in ``text`` (already unwrapped and plain)."""
    found = (_token(m, kinds, len(text) == 1) for m in _TOKEN.finditer(text))
    return [t for t in found if t is not None]


def tokens(text: str, kinds: frozenset[str] = OPEN_KINDS) -> list[Token]:
    """The answers ``text`` names (no refusal rules): for reading a gold answer."""
    return _found(unwrapped(plain(text)), kinds)


def _negated(text: str, spans: list[tuple[int, int]]) -> bool:
    cues = [c.start() for c in _CUE.finditer(text)
            if not any(s <= c.start() < e for s, e in spans)]
    if any(_DENIED_AFTER.match(text, e) for _, e in spans):
        return True
    if not cues:
        return False
    bounds = [b.start() for b in _BOUND.finditer(text)]
    named = {bisect.bisect(bounds, s) for s, _ in spans}
    return any(bisect.bisect(bounds, c) in named for c in cues)


def refusal(text: str, spans: list[tuple[int, int]]) -> str | None:
    """Why ``text`` (already :func:`plain`) asserts none of the answers standing at ``spans``:
    "look-alike", "question", "quoted", "hedged" or "negated" (module docstring); None if it
    asserts them."""
    if len(text) > MAX_ANSWER:
        return "too long"
    if any(_look_alike(m.group(0)) for m in _LETTERS.finditer(text)):
        return "look-alike"
    if "?" in text:
        return "question"
    for q in _QUOTED.finditer(text):
        if any(q.start() <= s < q.end() for s, _ in spans):
            return "quoted"
    if _HEDGE.search(text):
        return "hedged"
    if _negated(text, spans):
        return "negated"
    return None


def read(text: str, kinds: frozenset[str] = OPEN_KINDS) -> Claim:
    """What ``text`` asserts (module docstring): its tokens of ``kinds``, or a refusal."""
    if len(text) > MAX_ANSWER:  # checked before the work of plain() and the tokens
        return Claim(refused="too long")
    text = unwrapped(plain(text))
    found = _found(text, kinds)
    why = refusal(text, [(t.start, t.end) for t in found])
    return Claim(refused=why) if why else Claim(tuple(found))
