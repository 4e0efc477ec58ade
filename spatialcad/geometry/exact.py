"""Products and lengths of float arrays that give the same bits on every CPU.

numpy hands ``a @ b``, ``np.dot`` and ``np.linalg.norm`` of a vector to BLAS, whose kernels
are chosen by the CPU (OpenBLAS's Haswell, SkylakeX, ... kernels block, vectorise and fuse
multiply-adds differently), so the last bit of a projected coordinate could differ from
one machine to the next, and with it a rounded pixel.  These functions multiply and add
elementwise, in a fixed order, with separate IEEE multiplies and adds: the result is the
same on every machine.  Use them for every float product whose result reaches an output
byte or a decision (integer arrays may use ``@``: numpy never sends integers to BLAS).
"""

from __future__ import annotations

import math

import numba
import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]


def matmul(a: npt.ArrayLike, b: npt.ArrayLike) -> Floats:
    """``a @ b`` (numpy's shapes and broadcasting, 1-D operands included), each entry the
    sum over the inner index taken in order."""
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    row, col = x.ndim == 1, y.ndim == 1
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError("matmul: operands must have at least one dimension")
    if row:
        x = x[None, :]
    if col:
        y = y[:, None]
    k = x.shape[-1]
    if y.shape[-2] != k:
        raise ValueError(f"matmul: inner dimensions differ: {x.shape} and {y.shape}")
    if x.ndim == 2 and y.ndim == 2 and k:
        out: Floats = _matmul_2d(np.ascontiguousarray(x), np.ascontiguousarray(y))
    else:
        out = x[..., :, 0:1] * y[..., 0:1, :]
        for i in range(1, k):
            out = out + x[..., :, i : i + 1] * y[..., i : i + 1, :]
    if col:
        out = out[..., 0]
    if row:
        out = out[..., 0] if col else out[..., 0, :]
    return out


@numba.njit(cache=True, nogil=True)
def _matmul_2d(x: Floats, y: Floats) -> Floats:  # pragma: no cover - compiled
    """``matmul`` of two matrices (inner size >= 1) in one compiled loop, a fifth of the
    time of the broadcast form on the small arrays projected most: the same separate
    multiplies and in-order adds (numba, without ``fastmath``, neither fuses nor
    reorders them; tests/test_exact.py compares the two forms bit for bit)."""
    n, k = x.shape
    m = y.shape[1]
    out = np.empty((n, m))
    for i in range(n):
        for j in range(m):
            total = x[i, 0] * y[0, j]
            for t in range(1, k):
                total = total + x[i, t] * y[t, j]
            out[i, j] = total
    return out


def dot(a: npt.ArrayLike, b: npt.ArrayLike) -> float:
    """The dot product of two vectors, summed in order."""
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.ndim != 1 or x.shape != y.shape:
        raise ValueError(f"dot: expected two vectors of one length, got {x.shape}, {y.shape}")
    total = 0.0
    for p, q in zip(x.tolist(), y.tolist(), strict=True):
        total += p * q
    return total


def norm(v: npt.ArrayLike) -> float:
    """The Euclidean length of a vector (``sqrt`` of its squares summed in order)."""
    return math.sqrt(dot(v, v))


def unit(v: npt.ArrayLike) -> Floats:
    """``v`` divided by its length (``norm``)."""
    x = np.asarray(v, dtype=np.float64)
    out: Floats = x / norm(x)
    return out


def cos_sin(radians: npt.ArrayLike) -> Floats:
    """(N, 2) rows of (cos, sin) of angles in radians, from the C library's scalar functions
    (numpy's array versions take a CPU-dependent SIMD path on some machines)."""
    rad = np.ravel(np.asarray(radians, dtype=np.float64)).tolist()
    return np.array([[math.cos(r), math.sin(r)] for r in rad], dtype=np.float64).reshape(-1, 2)


def solution(a: npt.ArrayLike, b: npt.ArrayLike, tol: float = 1e-12) -> Floats:
    """One solution x of ``a x = b`` (free unknowns 0) by Gauss-Jordan elimination with
    partial pivoting, in a fixed order in Python floats: what ``np.linalg.lstsq`` gives a
    consistent system, without LAPACK's CPU-chosen kernels.  Equations that are
    combinations of others are skipped (a pivot below ``tol`` counts as zero); the caller
    checks whether x satisfies them."""
    rows = [list(map(float, r)) + [float(v)] for r, v in
            zip(np.asarray(a, dtype=np.float64).tolist(), np.ravel(b).tolist(), strict=True)]
    n = len(rows[0]) - 1 if rows else 0
    pivots: list[int] = []
    r = 0
    for c in range(n):
        best = max(range(r, len(rows)), key=lambda i: abs(rows[i][c]), default=None)
        if best is None or abs(rows[best][c]) <= tol:
            continue
        rows[r], rows[best] = rows[best], rows[r]
        p = rows[r][c]
        rows[r] = [v / p for v in rows[r]]
        for i in range(len(rows)):
            if i != r and rows[i][c] != 0.0:
                f = rows[i][c]
                rows[i] = [v - f * w for v, w in zip(rows[i], rows[r], strict=True)]
        pivots.append(c)
        r += 1
    x = np.zeros(n)
    for i, c in enumerate(pivots):
        x[c] = rows[i][n]
    return x
