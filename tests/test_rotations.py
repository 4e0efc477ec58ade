"""Rotation group and canonical forms: properties on random stacks."""

from __future__ import annotations

import numpy as np

from spatialcad.geometry import rotations as R
from spatialcad.geometry.voxels import random_stack


def test_group_of_24_closed_under_composition():
    mats = R.proper_rotations()
    keys = {m.tobytes() for m in mats}
    assert len(mats) == 24 == len(keys)
    assert all((a @ b).tobytes() in keys for a in mats for b in mats)
    assert all(round(np.linalg.det(m)) == 1 for m in mats)


def test_axis_rotation_is_right_handed():
    assert (R.axis_rotation("z", 1) @ [1, 0, 0]).tolist() == [0, 1, 0]
    assert (R.axis_rotation("x", 1) @ [0, 1, 0]).tolist() == [0, 0, 1]
    assert (R.axis_rotation("y", 1) @ [0, 0, 1]).tolist() == [1, 0, 0]


def test_rotation_never_changes_canonical_form():
    rng = np.random.default_rng(0)
    for _ in range(40):
        stack = random_stack(rng, (3, 3, 3))
        m = R.proper_rotations()[int(rng.integers(24))]
        assert R.canonical(R.rotate(stack, m)) == R.canonical(stack)


def test_mirroring_changes_exactly_the_chiral_stacks():
    rng = np.random.default_rng(1)
    chiral = 0
    for _ in range(80):
        stack = random_stack(rng, (3, 3, 3))
        same = R.canonical(R.mirror(stack, int(rng.integers(3)))) == R.canonical(stack)
        assert same == (not R.is_chiral(stack))
        chiral += R.is_chiral(stack)
    assert 0 < chiral < 80


def test_l_tromino_achiral_and_tetracube_screw_chiral():
    assert not R.is_chiral([(0, 0, 0), (1, 0, 0), (0, 1, 0)])
    screw = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)]
    assert R.is_chiral(screw)
    assert R.congruent(R.mirror(screw), R.mirror(screw, 2))


def test_canonical_is_the_smallest_rotated_copy() -> None:
    """The one-pass canonical form equals its definition: the least of the 24 rotated,
    normalized copies (duplicates and negative coordinates included)."""
    rng = np.random.default_rng(11)
    for _ in range(200):
        stack = [tuple(int(c) for c in v)
                 for v in rng.integers(-3, 4, size=(int(rng.integers(1, 12)), 3))]
        assert R.canonical(stack) == min(R.rotate(stack, m) for m in R.proper_rotations())
    assert R.canonical([]) == ()
