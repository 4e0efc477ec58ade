"""Typed specs (spatialcad/record/spec.py): ``from_json`` reads valid data through readers worked
out once per type, and invalid data again through the checking path, which names the
first bad value.  Both must agree on every input: the same value read, or the same error."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from spatialcad.record.spec import JsonSpec, SpecError, optional
from spatialcad.run.pipeline import make_item
from spatialcad.tasks import registry


@dataclass(frozen=True)
class Inner(JsonSpec):
    name: str
    size: float


@dataclass(frozen=True)
class Outer(JsonSpec):
    cells: list[list[int]]
    pair: tuple[int, int]
    mixed: tuple[str, float]
    inner: Inner
    by_name: dict[str, Inner]
    maybe: Inner | None
    rest: tuple[float, ...] = ()
    note: str | None = optional()


GOOD = {"cells": [[1, 2], [3]], "pair": [4, 5], "mixed": ["a", 2], "inner": {"name": "x",
        "size": 1.5}, "by_name": {"k": {"name": "y", "size": 2}}, "maybe": None,
        "rest": [1, 2.5]}


def test_valid_data_reads_to_the_same_values_both_ways() -> None:
    fast, checked = Outer.from_json(GOOD), Outer._read_checked(GOOD, "spec")
    assert fast == checked
    assert fast.pair == (4, 5) and fast.rest == (1, 2.5) and fast.note is None
    assert type(fast.inner.size) is float and type(fast.by_name["k"].size) is int  # as read
    assert fast.to_json() == GOOD


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["cells"][1].append("3"), r"spec\.cells\[1\]\[1\]: expected int, got '3'"),
    (lambda d: d.update(pair=[4]), r"spec\.pair: expected 2 values"),
    (lambda d: d.update(pair=[4, True]), r"spec\.pair\[1\]: expected int, got True"),
    (lambda d: d["inner"].update(size=True), r"spec\.inner\.size: expected a number"),
    (lambda d: d["by_name"]["k"].pop("name"), r"spec\.by_name\.k: missing key 'name'"),
    (lambda d: d.update(maybe={"name": 1, "size": 1}), r"spec\.maybe: expected .*Inner"),
    (lambda d: d.update(extra=1), r"spec: unknown key 'extra'"),
    (lambda d: d.update(rest="12"), r"spec\.rest: expected a list"),
    (lambda d: d.update(note=3), r"spec\.note: expected str \| None, got 3"),
])
def test_invalid_data_names_the_first_bad_value(change: Any, message: str) -> None:
    data = copy.deepcopy(GOOD)
    change(data)
    with pytest.raises(SpecError, match=message):
        Outer.from_json(data)


def _mutations(value: Any, rng: np.random.Generator) -> Any:
    """``value`` (parsed JSON) with one random leaf replaced by a value of another kind."""
    out = copy.deepcopy(value)
    holder, key = None, None
    node = out
    while isinstance(node, dict | list) and len(node):
        holder = node
        key = list(node)[int(rng.integers(len(node)))] if isinstance(node, dict) else int(
            rng.integers(len(node)))
        node = node[key]
        if rng.random() < 0.25:
            break
    if holder is not None:
        holder[key] = [None, True, 1, 2.5, "x", [], {}][int(rng.integers(7))]
    return out


@pytest.mark.parametrize("task", list(registry.tasks()))
def test_both_ways_agree_on_real_records_and_their_mutations(task: str) -> None:
    """On every task's records: the spec and option data read the same both ways, and so do
    (or fail with the same message) 40 random one-leaf mutations of each."""
    record = make_item(task, 1, 0, 1, 0, encode=False).record
    spec_module = registry.by_record_task(record["Task"]).module("spec")
    rng = np.random.default_rng(0)
    readers = [(spec_module.parse_spec, record["spec"])] + [
        (spec_module.parse_option, o["data"]) for o in record["options"]]
    for parse, data in readers:
        for trial in range(41):
            mutated = data if trial == 0 else _mutations(data, rng)
            outcomes = []
            for fast in (True, False):
                try:
                    if not fast:  # every from_json takes its checking path
                        with pytest.MonkeyPatch.context() as patch:
                            patch.setattr(JsonSpec, "_read", classmethod(_always_fails))
                            outcomes.append(("read", parse(mutated)))
                    else:
                        outcomes.append(("read", parse(mutated)))
                except SpecError as exc:
                    outcomes.append(("error", str(exc)))
            assert outcomes[0] == outcomes[1], (task, mutated)
            if trial == 0:
                assert outcomes[0][0] == "read"


def _always_fails(cls: type, data: Any) -> Any:
    raise SpecError
