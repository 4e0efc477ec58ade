"""Answer extraction on a table of realistic responses, traps included."""

from __future__ import annotations

import re
import sys

import pytest

import spatialcad.evaluate.claims as claims_module
import spatialcad.evaluate.extract as extract_module
from spatialcad.evaluate.extract import (
    extract,
    extract_choice,
    extract_choice_rule_a,
    extract_open,
    extract_yes_no,
    match_open,
)

COUNT_CHOICES = ["2", "6", "5", "All three other options are incorrect"]

# (response, expected letter or None)
CHOICE_CASES = [
    # compliant formats
    ("<think>The left view shows two red cubes.</think><answer>B</answer>", "B"),
    ("<think>reasoning</think>\n<answer>\nC\n</answer>", "C"),
    ("<answer>(D)</answer>", "D"),
    ("<answer>Option A</answer>", "A"),
    ("Let me count the columns. Each column... \\boxed{C}", "C"),
    ("Therefore the result is $\\boxed{\\text{B}}$.", "B"),
    ("\\boxed{\\mathrm{D}}", "D"),
    ("The answer is A.", "A"),
    ("The correct answer is (C).", "C"),
    ("**Final Answer:** D", "D"),
    ("Final answer: B", "B"),
    ("Answer: C", "C"),
    ("**Answer**: A", "A"),
    ("The correct option is D: none of the others.", "D"),
    ("答案是B", "B"),
    # bare answers
    ("B", "B"),
    ("(C).", "C"),
    ("**D**", "D"),
    ("A) The left view of the stack", "A"),
    ("  c  ", None),  # lowercase is not an option letter
    # reasoning that mentions other options
    ("Option A shows the right view, option B has a moved red cube, option D is mirrored. "
     "Therefore, the answer is C.", "C"),
    ("Option A is wrong. Option B is wrong. Option D is wrong. So I choose C.", "C"),
    ("A and B can be ruled out because the red cubes are misplaced. The answer is D.", "D"),
    ("<think>At first the answer is A, but the top view rules it out.</think>"
     "<answer>B</answer>", "B"),
    ("I think the answer is B. Let me double-check: C has a hole, A is mirrored. "
     "Final answer: B", "B"),
    ("Answer: C\n\nExplanation: the correct answer cannot be A because A is mirrored.", "C"),
    ("I would pick option D since it matches both views.", "D"),
    # traps: words starting with option letters
    ("All of the views look plausible to me.", None),
    ("Backward reasoning does not help here.", None),
    ("Correct. Done.", None),
    ("The answer is: All three other options are incorrect", "D"),  # matched by choice text
    ("Answer: Backward", None),
    ("The answer is Below the top row.", None),
    # several letters, hedges
    ("The answer is B or C.", None),
    ("A, B", None),
    ("Final answer: either A or D", None),
    ("Both B and C fit the front view.", None),
    # articles
    ("Final answer: A cube stack like this fits option D", "D"),
    ("The answer is A cube count of 6, which is option B.", "B"),
    ("Answer: A is the only view with the red cube on the left.", "A"),
    # choice text and numbers
    ("the answer is 6", "B"),
    ("I count the cubes carefully and the answer is 7.", None),
    # nothing usable
    ("", None),
    ("I cannot determine this from the image.", None),
    ("<answer></answer>", None),
]


@pytest.mark.parametrize(("response", "expected"), CHOICE_CASES)
def test_extract_choice(response, expected):
    assert extract_choice(response, COUNT_CHOICES).value == expected


def test_table_is_large_enough():
    assert len(CHOICE_CASES) >= 40


def test_rules_are_reported():
    assert extract_choice("B").rule == "bare"
    assert extract_choice("The answer is B.").rule == "marker"
    assert extract_choice("Option A is wrong. Option C is wrong. I choose B").rule == "choose"
    assert extract_choice("So option C").rule == "option"
    assert extract_choice("The answer is B or C.").rule == "hedged"
    assert extract_choice("Both B and C fit.").rule in ("ambiguous", "none")
    assert extract_choice("no idea").rule == "none"


@pytest.mark.parametrize(("response", "expected"), [
    ("The answer is All of them.", "A"),  # the false positive strict boundaries prevent
    ("Final answer: B", "B"),
    ("C", "C"),
    ("no marker at all", None),
    ("Answer: Backward", "B"),
])
def test_rule_a_is_coarse(response, expected):
    assert extract_choice_rule_a(response) == expected


@pytest.mark.parametrize(("response", "gold", "ok"), [
    ("<answer>6,8</answer>", "6,8", True),
    ("<think>top view has 4 cells</think><answer>6, 8</answer>", "6,8", True),
    ("The minimum is 6 and the maximum is 8, so \\boxed{6,8}", "6,8", True),
    ("\\boxed{\\text{6, 8}}", "6,8", True),
    ("Final answer: min = 6, max = 8", "6,8", True),
    ("Answer: 8, 6", "6,8", False),  # order matters
    ("<answer>7</answer>", "7", True),
    ("7", "7", True),
    ("The answer is 7.5 cubes.", "7", False),
    ("<answer>seven</answer>", "7", False),
    ("I am not sure.", "7", False),
    ("<answer>Red</answer>", "red", True),
    ("<answer>the red face</answer>", "red", True),
    ("<answer>red or blue</answer>", "red", False),
])
def test_fill_in(response, gold, ok):
    assert match_open(extract_open(response).value, gold) is ok


@pytest.mark.parametrize(("response", "want"), [
    ("yes", "yes"), ("No.", "no"), ("**Yes**", "yes"), ("<answer>NO</answer>", "no"),
    ("<think>yes at first, then no</think><answer>yes</answer>", "yes"),
    ("Step by step... \\boxed{\\text{no}}", "no"), ("The answer is yes.", "yes"),
    ("Final answer: no, it is mirrored.", "no"),
    ("<answer>yes or no</answer>", None), ("maybe", None), ("", None), (None, None),
    ("nobody says yesterday", None), ("It is yes.\nNo wait.\nHmm.", None),
])
def test_yes_no(response, want):
    assert extract_yes_no(response).value == want


BOARD = "blue 3,2,down; green 1,3,left; red 3,3,up"


@pytest.mark.parametrize(("response", "ok"), [
    (f"<answer>{BOARD}</answer>", True),
    ("<think>blue moves first</think><answer>Blue 3, 2, down; Green 1, 3, left; "
     "Red 3, 3, up</answer>", True),
    ("The final state: \\boxed{\\text{blue at column 3, row 2, pointing downwards; green at "
     "column 1, row 3, pointing left; red at column 3, row 3, pointing up}}", True),
    ("Final answer: blue (3,2) down; green (1,3) left; red (3,3) up", True),
    ("<answer>blue 3,2,down; green 1,3,right; red 3,3,up</answer>", False),  # a heading
    ("<answer>blue 2,3,down; green 1,3,left; red 3,3,up</answer>", False),  # column, row
    ("<answer>green 1,3,left; blue 3,2,down; red 3,3,up</answer>", False),  # asked order
    ("<answer>blue 3,2,down; green 1,3,left</answer>", False),  # an arrow missing
    ("<answer>blue 3,2,down or up; green 1,3,left; red 3,3,up</answer>", False),
    ("<answer>3,2,down; 1,3,left; 3,3,up</answer>", False),  # colours left out
])
def test_open_answer_of_answer_words_and_numbers(response, ok):
    """Golds made of answer words (colours, picture directions) and numbers: both in order,
    whatever words surround them."""
    assert match_open(extract_open(response).value, BOARD) is ok


@pytest.mark.parametrize(("response", "ok"), [
    ("<answer>counterclockwise</answer>", True),
    ("The answer is: gear F turns counter-clockwise.", True),
    ("Answer: anticlockwise", True),
    ("Answer: it turns counter clockwise", True),
    ("Answer: clockwise", False),
    ("Answer: clockwise or counterclockwise", False),
])
def test_open_answer_of_a_sense(response, ok):
    """MechanicalSystem's senses are answer words, however "counterclockwise" is spelt."""
    assert match_open(extract_open(response).value, "counterclockwise") is ok


def test_counts_keep_the_number_rule():
    assert match_open("There are 12 holes.", "12")
    assert not match_open("There are 12 or 13 holes.", "12")


LOOPING = ["<answer>" * 50_000, "\\boxed{" * 50_000, "answer: " * 50_000,
           "The answer is " * 50_000, "yes no " * 50_000, "(A) " * 100_000,
           "<answer>" + "not B, " * 50_000 + "</answer>", "I would not choose B. " * 20_000,
           "Final answer: B is wrong. " * 20_000]


class _Counting:
    """A compiled pattern that adds up how many characters its calls are given to scan."""

    def __init__(self, pattern: re.Pattern[str], scanned: list[int]) -> None:
        self._pattern, self._scanned = pattern, scanned

    def _count(self, text: str, pos: int = 0, endpos: int | None = None) -> None:
        self._scanned[0] += max(0, min(len(text), len(text) if endpos is None else endpos) - pos)

    def __getattr__(self, name: str):
        method = getattr(self._pattern, name)
        if name in ("sub", "subn"):
            def call(repl, text, *args, **kwargs):
                self._count(text)
                return method(repl, text, *args, **kwargs)
        else:
            def call(text, *args, **kwargs):
                self._count(text, *args, **kwargs)
                return method(text, *args, **kwargs)
        return call


class _CountingRe:
    """The ``re`` module as the extractor calls it (``re.search(pattern, text)``, ...), each
    call counted like a compiled pattern's."""

    def __init__(self, scanned: list[int]) -> None:
        self._scanned = scanned

    def __getattr__(self, name: str):
        def call(pattern, *args, flags=0, **kwargs):
            counted = _Counting(re.compile(pattern, flags), self._scanned)
            return getattr(counted, name)(*args, **kwargs)
        return call


def _characters_scanned(text: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """Characters handed to regular expressions while every form reads ``text``: each
    pattern of the extractor and of the claim reader and each ``re.*`` call of the
    extractor, counted."""
    scanned = [0]
    for module in (extract_module, claims_module):
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern):
                monkeypatch.setattr(module, name, _Counting(value, scanned))
    monkeypatch.setattr(extract_module, "re", _CountingRe(scanned))
    for form in ("choice", "open", "judge"):
        extract(form, text, ["1", "2", "3", "4"])
    monkeypatch.undo()
    return scanned[0]


@pytest.mark.parametrize("reply", LOOPING)
def test_a_looping_reply_is_read_in_linear_time(reply, monkeypatch):
    """Replies of one marker repeated (models do loop) are read in a number of regular
    expression passes that does not grow with their length: the characters handed to the
    patterns are a bounded multiple of the reply's length, and the same reply ten times
    shorter needs a tenth of them (counted, not timed: a busy machine cannot change it)."""
    long = _characters_scanned(reply, monkeypatch)
    short = _characters_scanned(reply[: len(reply) // 10], monkeypatch)
    assert long <= 40 * len(reply)
    assert long <= 12 * short


def test_the_character_count_sees_a_quadratic_reader(monkeypatch):
    """The count is able to fail: a reader that searches every suffix is caught."""
    def quadratic(form, text, choices=None):
        for i in range(0, len(text), 8):
            extract_module._LETTER.search(text, i)
    monkeypatch.setattr(sys.modules[__name__], "extract", quadratic)
    reply = LOOPING[0][:40_000]
    assert _characters_scanned(reply, monkeypatch) > 40 * len(reply)


def test_the_last_answer_tag_counts():
    assert extract("open", "<answer>1</answer> then <ANSWER> 2 </Answer>").value == "2"
    assert extract("open", "<answer>x<answer>y</answer>").value == "y"
    assert extract("open", "<answer>3</answer> trailing </answer>").value == "3"
    assert extract("choice", "<answer>B (no closing tag)").value == "B"  # a marker still
