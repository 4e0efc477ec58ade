"""Prompt texts: three answering styles for the three question forms.

Styles: ``cot_tags`` (reason in <think> tags, answer in <answer> tags), ``cot_boxed``
(reason step by step, answer in \\boxed{}) and ``direct`` (answer only, in <answer> tags).
Forms (spatialcad/forms.py): ``choice`` (the record's Question and its four Choices),
``open`` (``Question_direct``, scored against ``Answer_direct``) and ``judge`` (one
option's yes/no question).
"""

from __future__ import annotations

from typing import Any

from spatialcad import forms

STYLES = ("cot_tags", "cot_boxed", "direct")
FORMS = forms.FORMS

_CHOICE = {
    "cot_tags": (
        "Think the problem through before you answer. Put your reasoning inside <think> and "
        "</think>, then put the letter of the one option you choose (A, B, C or D) inside "
        "<answer> and </answer>. Format: <think>your reasoning</think><answer>X</answer>"
    ),
    "cot_boxed": (
        "Solve the problem step by step. End with the letter of the one option you choose "
        "(A, B, C or D) written inside \\boxed{}, for example \\boxed{X}."
    ),
    "direct": (
        "Give only the letter of the one option you choose (A, B, C or D) inside <answer> and "
        "</answer>, for example <answer>X</answer>. Write nothing else: no reasoning, no "
        "explanation."
    ),
}

_OPEN = {
    "cot_tags": (
        "Think the problem through before you answer. Put your reasoning inside <think> and "
        "</think>, then put your final answer inside <answer> and </answer>, in the form the "
        "question asks for."
    ),
    "cot_boxed": (
        "Solve the problem step by step. End with your final answer written inside \\boxed{}, "
        "in the form the question asks for."
    ),
    "direct": (
        "Give only your final answer inside <answer> and </answer>, in the form the question "
        "asks for. Write nothing else: no reasoning, no explanation."
    ),
}

_JUDGE = {
    "cot_tags": (
        "Think the problem through before you answer. Put your reasoning inside <think> and "
        "</think>, then put yes or no inside <answer> and </answer>. Format: "
        "<think>your reasoning</think><answer>yes or no</answer>"
    ),
    "cot_boxed": (
        "Solve the problem step by step. End with yes or no written inside \\boxed{}, for "
        "example \\boxed{yes}."
    ),
    "direct": (
        "Give only yes or no inside <answer> and </answer>, for example <answer>no</answer>. "
        "Write nothing else: no reasoning, no explanation."
    ),
}

_INSTRUCTIONS = {"choice": _CHOICE, "open": _OPEN, "judge": _JUDGE}


def build_prompt(record: dict[str, Any], style: str, form: str = "choice",
                 option: int | None = None) -> str:
    """The user message text of ``record`` in ``form`` (``option``: the judged option);
    the item's image (for judge, :func:`spatialcad.forms.judge_png`) is sent beside it."""
    if style not in STYLES:
        raise ValueError(f"unknown prompt style {style!r}; choose from {', '.join(STYLES)}")
    form = forms.canonical(form)
    return f"{_INSTRUCTIONS[form][style]}\n\nQuestion: {forms.question(record, form, option)}\n"
