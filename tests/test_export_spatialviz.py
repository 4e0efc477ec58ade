"""`spatialcad export --format spatialviz`, scored the way SpatialViz-Bench's own
evaluation/evaluate.py scores a prediction file.

The scorer below is written here from what upstream's ``get_answer`` is documented and seen
to do (it is not upstream's code):

- a result line is the data record plus ``FinalAnswer`` (the answer upstream's runner read
  from the reply) and/or ``Response`` (the raw reply); a line whose ``Response`` is
  ``"Failed!!!"`` is skipped;
- a line is a *number* question if it holds the key ``Answer_direct`` at all (whatever its
  value: a null one becomes the gold text ``"None"``), otherwise an *option* question with
  gold ``Answer``;
- the answer is read from ``FinalAnswer`` if present, else from ``Response``: first the
  legacy rule (the text after the last occurrence of an answer marker, up to the first
  full stop, must name one standalone letter A-D; a one-character reply is its own
  letter), then the answer patterns of the question's kind (``<answer>`` tags, "answer
  is/:", ``\\boxed{}``; exactly one distinct value), then the last letter or number of the
  last three lines;
- correct means ``gold == str(read answer).strip()``; counts are kept overall, per
  category, per task and per ``Category-Task-Level``.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from spatialcad.export.spatialviz import DATA, upstream_record
from spatialcad.run import pipeline

MARKERS = ["<answer>", "Answer:", "Final answer", "final answer", "Final Answer",
           "the answer is", "The answer is", "correct answer", "Correct answer",
           "Correct Answer", "correct path"]
LETTER = r"\b([A-D])\b"
NUMBER = r"(?<![A-Za-z])(-?\d+(?:\.\d+)?)"
OPTION_PATTERNS = [r"<answer>\s*(.*?)\s*</answer>",
                   r"(?:final|correct\s+)?answer\s*(?:is|:)\s*(?:option\s*)?([A-D])\b",
                   r"option\s+([A-D])\b", r"\\{1,2}boxed\{(?:\\text\{)?([A-D])"]
NUMBER_PATTERNS = [r"<answer>\s*(-?\d+(?:\.\d+)?)\s*</answer>",
                   r"(?:final|correct\s+)?answer\s*(?:is|:)\s*" + NUMBER + r"\b",
                   r"\\{1,2}boxed\{(?:\\text\{)?(-?\d+(?:\.\d+)?)"]


def legacy_letter(text: str) -> str | None:
    """The marker rule: one letter after the last answer marker, up to the first '.'."""
    found: list[str] = []
    if len(text) == 1:
        found = re.findall("[A-D]", text)
    else:
        for marker in MARKERS:
            if marker in text:
                found = re.findall(LETTER, text.split(marker)[-1].strip().split(".")[0])
                if found:
                    break
    return found[0] if len(set(found)) == 1 else None


def one_value(captured: str, kind: str) -> str | None:
    """The captured text's value if it holds exactly one letter (option) or number."""
    values = re.findall(LETTER if kind == "option" else NUMBER, captured.strip())
    return values[0] if len(values) == 1 else None


def by_patterns(text: str, kind: str) -> str | None:
    flags = re.IGNORECASE | re.DOTALL
    if kind == "number":  # the first pattern that yields a number decides
        for pattern in NUMBER_PATTERNS:
            hit = re.search(pattern, text, flags)
            if hit and one_value(hit.group(1), kind):
                return one_value(hit.group(1), kind)
        return None
    for pattern in OPTION_PATTERNS:  # the first pattern with any answer; it must be one
        values = {v for m in re.finditer(pattern, text, flags)
                  if (v := one_value(m.group(1), kind))}
        if values:
            return values.pop() if len(values) == 1 else None
    return None


def read_answer(text: str, kind: str) -> str | None:
    text = text.strip()
    if not text:
        return None
    found = legacy_letter(text) or by_patterns(text, kind)
    if found:
        return found
    tail = "\n".join(text.splitlines()[-3:])  # the fallback the scorer applies by default
    values = re.findall(LETTER if kind == "option" else r"-?\d+(?:\.\d+)?", tail,
                        re.IGNORECASE if kind == "option" else 0)
    return values[-1].upper() if values else None


def upstream_score(lines: list[dict]) -> dict[str, tuple[int, int]]:
    """(correct, total) overall ("total"), per category, task and Category-Task-Level."""
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for line in lines:
        if line.get("Response") == "Failed!!!":
            continue
        kind = "number" if "Answer_direct" in line else "option"
        gold = str(line["Answer_direct"]).strip() if kind == "number" else line["Answer"]
        got = read_answer(str(line["FinalAnswer"]), kind) if "FinalAnswer" in line else None
        if got is None and "Response" in line:
            got = read_answer(line["Response"], kind)
        keys = ["total", line["Category"], line["Task"],
                f"{line['Category']}-{line['Task']}-{line['Level']}"]
        for key in keys:
            total[key] += 1
            right[key] += got is not None and gold == str(got).strip()
    return {k: (right[k], total[k]) for k in total}


def reply(item: dict, right: bool, style: int) -> dict:
    """A prediction line for ``item``: its gold answer (or a wrong one) in one of the reply
    forms upstream's runner stores."""
    number = "Answer_direct" in item
    if number:
        value = item["Answer_direct"] if right else str(int(item["Answer_direct"]) + 1)
    else:
        value = item["Answer"] if right else "ABCD"[("ABCD".index(item["Answer"]) + 1) % 4]
    line = dict(item)
    if style % 3 == 0:  # the runner read the answer: FinalAnswer, no Response
        line["FinalAnswer"] = value
    elif style % 3 == 1:  # a reasoning reply in tags
        line["Response"] = f"<think>Count the stacks column by column.</think>" \
                           f"<answer>{value}</answer>"
    else:
        line["Response"] = f"Looking at the views carefully.\nThe answer is {value}."
    return line


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    out = tmp_path_factory.mktemp("svbench") / "b"
    # seed 2: CubeCounting with one-number and two-number ("9,13") fill-in answers,
    # CubeReconstruction with colour fill-in answers and without, 3ViewProjection without
    pipeline.generate(["cube_counting", "three_view", "cube_reconstruction"], 0, 6, 2, out)
    return out


@pytest.fixture(scope="module")
def export(bench, tmp_path_factory):
    out = tmp_path_factory.mktemp("svexport") / "sv"
    from spatialcad.export.spatialviz import export_spatialviz
    assert export_spatialviz(bench, out) == 18
    return out


def data(export) -> list[dict]:
    return json.loads((export / DATA).read_text(encoding="utf-8"))


def test_layout_is_upstreams(export, bench):
    records = json.loads((bench / "benchmark.json").read_text())
    items = data(export)
    assert [(i["Task"], i["Image_id"]) for i in items] == \
        [(r["Task"], r["Image_id"]) for r in records]
    for item, record in zip(items, records, strict=True):
        # where upstream's build_image_path looks: ROOT/Category/Task/Level/Image_id.png
        image = export / item["Category"] / item["Task"] / item["Level"] / \
            f"{item['Image_id']}.png"
        assert image.read_bytes() == (bench / record["image"]).read_bytes()
        assert {k: item[k] for k in ("Question", "Choices", "Answer", "Explanation")} == \
            {k: record[k] for k in ("Question", "Choices", "Answer", "Explanation")}
    manifest = json.loads((export / "manifest.json").read_text())
    assert manifest["generator"] == "spatialcad" and manifest["export"] == "spatialviz"


def test_fill_in_form_only_where_upstream_reads_a_number(export):
    items = data(export)
    numeric = [i for i in items if "Answer_direct" in i]
    assert {i["Task"] for i in numeric} == {"CubeCounting"}
    assert all(re.fullmatch(r"\d+", i["Answer_direct"]) and i["Question_direct"]
               for i in numeric)
    assert len(numeric) == 4  # the two "9,13"-style CubeCounting answers go as choices
    assert not any(v is None for i in items for v in i.values())


def test_no_record_holds_a_null_fill_in_form(bench, export):
    """A null Question_direct/Answer_direct, in the benchmark or the export, makes upstream
    score the item as a number question with the gold text "None"."""
    records = json.loads((bench / "benchmark.json").read_text())
    for r in [*records, *data(export)]:
        for key in ("Question_direct", "Answer_direct"):
            assert r.get(key, "absent") is not None, f"{r['Task']} {r['Image_id']}: {key}"
    assert sum("Answer_direct" not in r for r in records) == 10  # 3ViewProjection, 4 cube views


def test_all_right_predictions_score_100(export):
    lines = [reply(item, True, i) for i, item in enumerate(data(export))]
    score = upstream_score(lines)
    assert score["total"] == (18, 18)
    assert all(right == total for right, total in score.values())
    assert score["VisualPenetration-CubeCounting-Level0"] == (6, 6)


def test_a_known_share_of_wrong_predictions_scores_exactly_that(export):
    items = data(export)
    wrong = {1, 2, 5, 8, 13, 17}  # some number questions, some option questions
    assert any("Answer_direct" in items[i] for i in wrong)
    assert any("Answer_direct" not in items[i] for i in wrong)
    lines = [reply(item, i not in wrong, i) for i, item in enumerate(items)]
    score = upstream_score(lines)
    assert score["total"] == (12, 18)
    for task in ("CubeCounting", "3ViewProjection", "CubeReconstruction"):
        expected = sum(1 for i, it in enumerate(items) if it["Task"] == task and i not in wrong)
        assert score[task] == (expected, 6)
    # a failed request is left out of the counts
    lines[0] = {**lines[0], "Response": "Failed!!!"}
    lines[0].pop("FinalAnswer", None)
    assert upstream_score(lines)["total"] == (11, 17)


def test_fill_in_items_are_scored_on_their_direct_answer(export):
    items = data(export)
    lines = []
    for item in items:
        line = dict(item)
        # the choice letter is right for every item, but a number item needs the number
        line["Response"] = f"<answer>{item['Answer']}</answer>"
        lines.append(line)
    score = upstream_score(lines)
    numeric = sum("Answer_direct" in i for i in items)
    assert score["total"] == (18 - numeric, 18)


def test_a_null_answer_direct_breaks_upstream_scoring(export):
    """What the export must never contain: with ``Answer_direct: null`` an item's gold
    becomes "None" and an all-right prediction file no longer scores 100%."""
    items = data(export)
    broken = [dict(i, Question_direct=None, Answer_direct=None) if "Answer_direct" not in i
              else i for i in items]
    lines = [reply(item, True, n) for n, item in enumerate(items)]
    for line, item in zip(lines, broken, strict=True):
        line.update({k: item[k] for k in ("Question_direct", "Answer_direct") if k in item})
    assert upstream_score(lines)["total"] == (4, 18)


def test_export_command(sc, bench, tmp_path):
    out = tmp_path / "sv"
    code, stdout, err = sc("export", bench, "--format", "spatialviz", "--out", out)
    assert code == 0 and "exported 18 items" in stdout, err
    assert len(data(out)) == 18
    assert sc("export", bench, "--format", "spatialviz", "--out", out)[0] == 2
    assert sc("export", bench, "--format", "spatialviz", "--out", out, "--overwrite")[0] == 0


def test_only_one_number_open_answers_are_exported():
    """PaperFolding's hole count and CubeAssembly's cube count go to upstream as number
    questions; ArrowMoving's final board ("blue 3,2,down; ...") stays multiple choice."""
    records = [pipeline.make_item(task, level, i, 4, 3).record
               for task, level, count in (("paper_folding", 0, 2), ("cube_assembly", 0, 1),
                                          ("arrow_moving", 1, 4))
               for i in range(count)]
    boards = [r for r in records if r["Task"] == "ArrowMoving" and "Answer_direct" in r]
    assert boards and all(re.search(r"[a-z]", r["Answer_direct"]) for r in boards)
    items = [upstream_record(r) for r in records]
    for record, item in zip(records, items, strict=True):
        numeric = re.fullmatch(r"\d+", record.get("Answer_direct", "")) is not None
        assert numeric == (record["Task"] != "ArrowMoving")
        assert ("Answer_direct" in item) == numeric
        if numeric:
            assert item["Answer_direct"] == record["Answer_direct"]
            assert item["Question_direct"] == record["Question_direct"]
    score = upstream_score([reply(item, True, n) for n, item in enumerate(items)])
    assert score["total"] == (len(items), len(items))
    score = upstream_score([reply(item, False, n) for n, item in enumerate(items)])
    assert score["total"] == (0, len(items))
