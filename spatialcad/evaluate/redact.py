"""Blanking the API key out of what an endpoint echoes back (error bodies, headers, logs).

A key is redacted only where it stands as a whole token (not inside a longer run of
letters, digits, ``-``, ``_`` or ``.``) and only if it is at least :data:`MIN_KEY`
characters long: a shorter "key" (``EMPTY``, ``B``, ``answer``, the dummies local servers
accept) is no secret, and blanking it would rewrite ordinary words.  Redaction never
touches the text an answer is extracted from: :mod:`spatialcad.evaluate.runner` scores
the reply as it came and stores the redacted copy.
"""

from __future__ import annotations

import re

MIN_KEY = 8
MARK = "[redacted]"
_TOKEN = r"A-Za-z0-9_.\-"


def redact(text: str, key: str | None) -> str:
    """``text`` with every whole-token occurrence of ``key`` replaced by ``[redacted]``."""
    if not key or len(key) < MIN_KEY:
        return text
    return re.sub(rf"(?<![{_TOKEN}]){re.escape(key)}(?![{_TOKEN}])", MARK, text)
