"""ArrowMoving's spec: the grid, the arrows' start and end, the true moves and the question
kind; an option's data: its move sequence ("path" items) or its board ("state" items).
Also the question texts and a move sequence's text (the "path" options)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spatialcad.record.spec import (
    CANDIDATE,
    YES_NO,
    JsonSpec,
    SpecError,
    Texts,
    judged_alike,
    one_of,
    optional,
    scene_text,
    spoken_list,
)

RULES_ONE = (
    "An arrow moves on a grid. A move goes forward, backward, left or right by a number of "
    "cells, relative to the way the arrow points ('forward' is the direction it points); "
    "after each move the arrow points in the direction it moved. "
)
RULES_MANY = (
    "Coloured arrows move on a grid. A move names an arrow by its colour and goes forward, "
    "backward, left or right by a number of cells, relative to the way that arrow points "
    "('forward' is the direction it points); the arrow jumps straight to the destination cell "
    "and then points in the direction it moved. If the destination holds another arrow, the "
    "two arrows swap cells: the other arrow moves the opposite way into the first arrow's old "
    "cell and then points in the direction it moved. No move leaves the grid. "
)
STATE_GIVEN = ("The first image shows the start state. The arrows make these moves in order: "
               "{moves}. ")
QUESTIONS = {
    "path_one": RULES_ONE + "The first image shows the arrow's start state and the second its "
    "end state. Which sequence of moves takes the arrow from the start state to the end "
    "state? Answer with A, B, C or D.",
    "path_many": RULES_MANY + "The first image shows the start state and the second the end "
    "state. Which sequence of moves, made in order, turns the start state into the end "
    "state? Answer with A, B, C or D.",
    "state_many": RULES_MANY + STATE_GIVEN + "Which option shows the final state? Answer with "
    "A, B, C or D.",
}
OPEN_STATE = (
    "Where is each arrow after the last move, and which way does it point? Number the grid's "
    "columns 1 to {cols} from the left and its rows 1 to {rows} from the bottom. Answer with "
    "one entry per arrow, in the order {order}, separated by semicolons, each in the form "
    "\"colour column,row,direction\", where the direction is the way the arrow points in the "
    "picture: up, down, left or right."
)
KINDS = ("path", "state")
COORDINATES = "cells (x, y): x to the right, y upwards from the bottom-left cell"
PICTURE_DIRECTION = {"north": "up", "east": "right", "south": "down", "west": "left"}


@dataclass(frozen=True)
class Arrow(JsonSpec):
    colour: str
    cell: tuple[int, int]  # (x, y), see COORDINATES
    heading: str  # "north", "east", "south" or "west"


@dataclass(frozen=True)
class Move(JsonSpec):
    colour: str  # the arrow that moves
    relative: str  # "forward", "right", "backward" or "left" of the way it points
    steps: int


@dataclass(frozen=True, kw_only=True)
class Spec(JsonSpec):
    grid: tuple[int, int]  # columns, rows
    palette: dict[str, tuple[int, int, int]]  # each arrow's colour name: its RGB
    start: list[Arrow]
    moves: list[Move]
    end: list[Arrow]
    question: str  # one of KINDS
    coordinates: str = COORDINATES
    answer_longest_text: bool | None = optional()  # "path": the answer's is the longest text
    answer_ranks: tuple[int, int] | None = optional()  # "state": the answer's similarity ranks
    scenes_drawn: int  # scenes drawn until one allowed the drawn target

    def __post_init__(self) -> None:
        one_of(self.question, KINDS, "spec.question")

    @property
    def single(self) -> bool:
        """One arrow: moves do not name it."""
        return len(self.start) == 1


@dataclass(frozen=True)
class OptionData(JsonSpec):
    """Exactly one of ``moves`` ("path" items) and ``arrows`` ("state" items)."""

    moves: list[Move] | None = optional()
    arrows: list[Arrow] | None = optional()

    def __post_init__(self) -> None:
        if (self.moves is None) == (self.arrows is None):
            raise SpecError("option: expected exactly one of 'moves' and 'arrows'")


def move_text(moves: Sequence[Move], single: bool) -> str:
    """"forward 1, left 2" for one arrow, "red forward 1, blue left 2" for several."""
    return ", ".join(("" if single else f"{m.colour} ") + f"{m.relative} {m.steps}"
                     for m in moves)


def state_text(arrows: Sequence[Arrow]) -> str:
    """A board as the open answer: "blue 3,1,up; red 1,2,left" (colours in alphabetical
    order; column and row counted from 1 at the bottom-left cell; the picture direction)."""
    return "; ".join(f"{a.colour} {a.cell[0] + 1},{a.cell[1] + 1},{PICTURE_DIRECTION[a.heading]}"
                     for a in sorted(arrows, key=lambda a: a.colour))


def parse_spec(data: Any) -> Spec:
    return Spec.from_json(data)


def parse_option(data: Any) -> OptionData:
    return OptionData.from_json(data, "option")


def texts(spec: Spec, options: Sequence[OptionData]) -> Texts:
    """A "path" item's options are move sequences (an option without one has no text) and it
    has no open form (many move sequences may join two boards); a "state" item names the
    moves in its question and shows boards, and its open form asks for the final board
    (:func:`state_text`)."""
    if spec.question == "path":
        rules = RULES_ONE if spec.single else RULES_MANY
        said = [move_text(o.moves or [], spec.single) for o in options]
        judge: list[str | None] = [
            f"{rules}The first image shows the start state and the second the end state. Does "
            f"this sequence of moves, made in order, turn the start state into the end state: "
            f"{text}?{YES_NO}" for text in said]
        return Texts(QUESTIONS["path_one" if spec.single else "path_many"], choices=said,
                     judge=judge)
    given = RULES_MANY + STATE_GIVEN.format(moves=move_text(spec.moves, False))
    open_form = OPEN_STATE.format(cols=spec.grid[0], rows=spec.grid[1],
                                  order=spoken_list(sorted(a.colour for a in spec.start)))
    return Texts(QUESTIONS["state_many"].format(moves=move_text(spec.moves, False)),
                 given + open_form, state_text(spec.end),
                 judge=judged_alike(f"{given}Does {CANDIDATE} show the final state?"))


def scene_key(spec: Spec) -> str:
    """The start state, the moves and what is asked."""
    return scene_text([spec.question, list(spec.grid), [a.to_json() for a in spec.start],
                       [m.to_json() for m in spec.moves]])
