"""OpenCV held to one code path on every x86-64 CPU: every spatialcad module takes ``cv2``
from here.

OpenCV chooses kernels by the CPU it runs on: SIMD variants (SSE4, AVX, AVX2, AVX-512)
and Intel IPP's per-CPU libraries.  The same call can then round differently on another
machine; ``warpAffine``'s bilinear blend did (AVX2's fused multiply-adds).  Switching the
optimised dispatch and IPP off once per process makes every call run the baseline code
compiled into the wheel, the same instructions on every x86-64 CPU, hence the same bytes.
"""

from __future__ import annotations

import cv2

cv2.setUseOptimized(False)
cv2.ipp.setUseIPP(False)

__all__ = ["cv2"]
