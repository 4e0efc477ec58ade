"""The same bytes on every CPU, checked on one machine: the golden runs (every task at
levels 0-3, seed 0) made with every library's run-time CPU dispatch held to its baseline
give the digests that tests/test_golden_output.py demands of the host's own dispatch.

What is held down, each by the library's own switch (set before the process starts):
OpenCV's SIMD dispatch (OPENCV_CPU_DISABLE) and Intel IPP (OPENCV_IPP), numpy's
dispatched loops (NPY_DISABLE_CPU_FEATURES, every target this CPU has), OpenBLAS's kernels
(OPENBLAS_CORETYPE=Prescott, plain SSE3) and numba's code generation (NUMBA_CPU_NAME=generic,
its own kernel cache).  A computation whose result depends on the CPU's code path then
shows up as a changed file here, on a machine without AVX-512 too (docs/ARCHITECTURE.md,
"Same bytes on every CPU").
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
from test_golden_output import FIXTURE, key

OPENCV_FEATURES = ("SSSE3,SSE4.1,SSE4.2,POPCNT,AVX,FP16,FMA3,AVX2,AVX512F,AVX512-COMMON,"
                   "AVX512-SKX,AVX512-ICL")
# numba's kernels compiled for the generic CPU live apart from the host's (the key of
# numba's cache holds the CPU name, but a separate folder keeps the host's cache small)
CV_CPU_AVX = 10  # OpenCV's feature number (cv::CPU_AVX), which its Python module lacks
GENERIC_KERNELS = Path.home() / ".cache" / "spatialcad" / "numba-generic"


def baseline_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(OPENCV_CPU_DISABLE=OPENCV_FEATURES, OPENCV_IPP="disabled",
               OPENBLAS_CORETYPE="Prescott", NUMBA_CPU_NAME="generic",
               NUMBA_CACHE_DIR=str(GENERIC_KERNELS))
    targets = [t for t in __cpu_dispatch__ if __cpu_features__.get(t)]
    if targets:
        env["NPY_DISABLE_CPU_FEATURES"] = " ".join(targets)
    return env


def test_the_baseline_env_holds_every_switch():
    """The switches are the libraries' real ones: each child reports its dispatch held."""
    probe = ("import cv2, numpy\n"
             "from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__\n"
             "import numba.core.config as c\n"
             f"print(cv2.ipp.useIPP(), cv2.checkHardwareSupport({CV_CPU_AVX}), "
             "[t for t in __cpu_dispatch__ if __cpu_features__.get(t)], c.CPU_NAME)\n")
    out = subprocess.run([sys.executable, "-c", probe], env=baseline_env(), check=True,
                         capture_output=True, text=True).stdout.split()
    assert out == ["False", "False", "[]", "generic"]


@pytest.fixture(scope="module")
def baseline_runs(tmp_path_factory) -> Path:
    """The golden runs of seed 0, levels 0-3, made in one generate (each level's bytes are
    those of a run of that level alone) with the dispatch held to the baseline."""
    root = tmp_path_factory.mktemp("baseline")
    subprocess.run([sys.executable, "-m", "spatialcad.cli", "generate", "--task", "all",
                    "--level", "0-3", "--n", "3", "--seed", "0", "--jobs", "2",
                    "--out", str(root / "L{level}")], check=True, capture_output=True,
                   env=baseline_env())
    return root


@pytest.mark.parametrize("level", range(4))
def test_baseline_dispatch_gives_the_golden_bytes(baseline_runs, level):
    recorded = json.loads(FIXTURE.read_text())[key(level, 0)]
    out = baseline_runs / f"L{level}"
    found = {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
             for p in sorted(out.rglob("*")) if p.is_file()}
    assert sorted(found) == sorted(recorded)
    changed = [name for name in recorded if found[name] != recorded[name]]
    assert not changed, f"{len(changed)} files depend on the CPU's code path, e.g. {changed[:5]}"
