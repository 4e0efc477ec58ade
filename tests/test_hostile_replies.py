"""Every reader of replies scores the hostile table (tests/hostile_replies.py) alike: the
API's score_answer (reasoning-gym's too), eval's line scorer and report's re-scoring, and the
quiz's open form."""

from __future__ import annotations

import hostile_replies as table
import pytest

import spatialcad
from spatialcad.evaluate import human, runner
from spatialcad.evaluate.extract import extract, is_correct

CASES = [("open", *c) for c in table.OPEN] + [("judge", *c) for c in table.JUDGE] + \
    [("choice", *c) for c in table.CHOICE]
IDS = [f"{form}-{k}" for form, rows in (("open", table.OPEN), ("judge", table.JUDGE),
                                        ("choice", table.CHOICE)) for k in range(len(rows))]


def test_each_form_has_forty_hostile_replies():
    for rows in (table.OPEN, table.JUDGE, table.CHOICE):
        assert len(rows) >= 40
        assert sum(score == 0 for _, _, score in rows) >= 25


@pytest.mark.parametrize(("form", "reply", "gold", "score"), CASES, ids=IDS)
def test_score_answer(form, reply, gold, score):
    entry = {"answer": gold, "choices": table.CHOICES, "metadata": {"form": form}}
    assert spatialcad.score_answer(reply, entry) == score


@pytest.mark.parametrize(("form", "reply", "gold", "score"), CASES, ids=IDS)
def test_eval_line_and_its_rescoring(form, reply, gold, score):
    record = {"Choices": table.CHOICES, "Answer": gold, "Answer_direct": gold,
              "judge": [{"question": "Is it so?", "answer": gold}]}
    line = runner.score(record, form, reply, 0 if form == "judge" else None)
    assert line["correct"] is bool(score)
    # report re-scores a stored line from its extracted answer alone
    assert is_correct(form, line["extracted"], gold) is bool(score)


@pytest.mark.parametrize(("reply", "gold", "score"), table.OPEN,
                         ids=[f"open-{k}" for k in range(len(table.OPEN))])
def test_quiz_open_answers(reply, gold, score):
    line = {"form": "open", "extracted": reply, "gold": gold}
    assert human.correct(line) is bool(score)


def test_a_refused_open_answer_says_why():
    record = {"Choices": table.CHOICES, "Answer": "B", "Answer_direct": "right"}
    line = runner.score(record, "open", "<answer>not right</answer>")
    assert line["refused"] == "negated" and line["correct"] is False
    assert extract("judge", "<answer>maybe yes</answer>").rule == "hedged"
    assert extract("choice", "Final answer: B is incorrect").rule == "negated"
