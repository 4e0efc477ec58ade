"""ToyCount's verifier: counts the dark blobs of the reference picture."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from spatialcad.verify.base import crop
from toy_task.spec import parse_option, parse_spec


def verify(record: dict[str, Any], image: np.ndarray) -> list[str]:
    spec = parse_spec(record["spec"])
    dark = (crop(image, record["layout"]["reference"][0]).min(axis=2) < 128).astype(np.uint8)
    blobs = cv2.connectedComponents(dark)[0] - 1
    failures = [] if blobs == len(spec.cells) else [f"the picture shows {blobs} squares"]
    right = [o["letter"] for o in record["options"] if parse_option(o["data"]).value == blobs]
    if right != [record["Answer"]]:
        failures.append(f"options showing the count: {right}, answer {record['Answer']}")
    return failures
