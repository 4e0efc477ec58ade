"""geometry/exact.py: numpy's shapes, and every entry the in-order sum of IEEE products
(checked against Python floats, which round each multiply and add on its own)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from spatialcad.geometry import exact


def reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b for 2-D operands, each entry summed left to right in Python floats."""
    out = np.empty((a.shape[0], b.shape[1]))
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            total = float(a[i, 0]) * float(b[0, j])
            for k in range(1, a.shape[1]):
                total += float(a[i, k]) * float(b[k, j])
            out[i, j] = total
    return out


@pytest.mark.parametrize(("sa", "sb"), [((5, 3), (3, 4)), ((3,), (3, 4)), ((5, 3), (3,)),
                                        ((3,), (3,)), ((2, 2), (2, 7)), ((6, 5, 3), (3, 3)),
                                        ((4, 2, 3), (4, 3, 2))])
def test_matmul_has_numpys_shapes_and_in_order_sums(sa, sb):
    rng = np.random.default_rng(7)
    a, b = rng.normal(size=sa), rng.normal(size=sb)
    got = exact.matmul(a, b)
    assert got.shape == np.shape(a @ b)
    assert np.allclose(got, a @ b)
    if len(sa) <= 2 and len(sb) <= 2:
        want = reference(np.atleast_2d(a), b if b.ndim == 2 else b[:, None])
        assert np.array_equal(got.reshape(-1), want.reshape(-1))  # to the bit


def test_the_compiled_matrix_product_neither_fuses_nor_reorders():
    """Two matrices take the compiled loop: bit for bit numpy's separate multiplies and
    in-order adds over many products of very different magnitudes (a fused multiply-add
    rounds once instead of twice and would differ in some of them)."""
    rng = np.random.default_rng(11)
    a = rng.normal(size=(20000, 3)) * 10.0 ** rng.integers(-8, 9, size=(20000, 3))
    b = rng.normal(size=(3, 4))
    broadcast = a[:, 0:1] * b[0:1, :] + a[:, 1:2] * b[1:2, :] + a[:, 2:3] * b[2:3, :]
    assert np.array_equal(exact.matmul(a, b), broadcast)
    assert np.array_equal(exact.matmul(a[::2], b), broadcast[::2])  # a strided operand
    assert exact.matmul(np.zeros((0, 3)), b).shape == (0, 4)


def test_dot_norm_unit_and_cos_sin():
    v = np.array([0.1, 0.2, 0.3])
    assert exact.dot(v, v) == 0.1 * 0.1 + 0.2 * 0.2 + 0.3 * 0.3
    assert exact.norm(v) == math.sqrt(0.1 * 0.1 + 0.2 * 0.2 + 0.3 * 0.3)
    assert np.array_equal(exact.unit([3.0, 4.0]), [0.6, 0.8])
    angles = np.radians([0.0, 30.0, 123.0])
    assert np.array_equal(exact.cos_sin(angles),
                          [[math.cos(r), math.sin(r)] for r in angles.tolist()])
    with pytest.raises(ValueError, match="inner dimensions"):
        exact.matmul(np.ones((2, 3)), np.ones((2, 3)))


def test_opencv_runs_its_baseline_code_once_spatialcad_renders():
    from spatialcad.render.opencv import cv2

    assert not cv2.useOptimized() and not cv2.ipp.useIPP()


def test_solution_solves_consistent_systems_as_lstsq_does():
    rng = np.random.default_rng(3)
    square = rng.normal(size=(4, 4))
    b = rng.normal(size=4)
    assert np.allclose(exact.solution(square, b), np.linalg.lstsq(square, b, rcond=None)[0])
    chain = np.array([[2.0, -3.0, 0.0], [0.0, 5.0, 1.0]])  # fewer equations than unknowns
    rhs = np.array([0.5, -1.0])
    assert np.allclose(exact.matmul(chain, exact.solution(chain, rhs)), rhs)
    twice = np.vstack([chain, chain[0]])  # a repeated equation is skipped
    assert np.allclose(exact.matmul(twice, exact.solution(twice, [0.5, -1.0, 0.5])),
                       [0.5, -1.0, 0.5])
