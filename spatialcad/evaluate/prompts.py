"""Prompt texts: three answering styles for two question forms.

Styles: ``cot_tags`` (reason in <think> tags, answer in <answer> tags), ``cot_boxed``
(reason step by step, answer in \\boxed{}) and ``direct`` (answer only, in <answer> tags).
Forms: ``choice`` (the record's Question and its four Choices) and ``fill`` (the
fill-in-the-blank ``Question_direct``, scored against ``Answer_direct``).
"""

from __future__ import annotations

from typing import Any

STYLES = ("cot_tags", "cot_boxed", "direct")
FORMS = ("choice", "fill")

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

_FILL = {
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

LETTERS = "ABCD"


def has_fill_form(record: dict[str, Any]) -> bool:
    return bool(record.get("Question_direct")) and record.get("Answer_direct") is not None


def build_prompt(record: dict[str, Any], style: str, form: str = "choice") -> str:
    """The user message text of ``record`` (the composite image is sent beside it)."""
    if style not in STYLES:
        raise ValueError(f"unknown prompt style {style!r}; choose from {', '.join(STYLES)}")
    if form == "fill":
        if not has_fill_form(record):
            raise ValueError("this item has no fill-in (direct) form")
        return f"{_FILL[style]}\n\nQuestion: {record['Question_direct']}\n"
    if form != "choice":
        raise ValueError(f"unknown question form {form!r}; choose from {', '.join(FORMS)}")
    options = "\n".join(f"{LETTERS[i]}. {c}" for i, c in enumerate(record["Choices"]))
    return f"{_CHOICE[style]}\n\nQuestion: {record['Question']}\nOptions:\n{options}\n"
