"""Text from runs (file names, model names) made safe for the markdown report: no HTML,
no table cell breaks."""

from __future__ import annotations

import html


def md_text(text: object) -> str:
    """``text`` for a markdown line or table cell: ``&``, ``<``, ``>`` and ``|`` escaped and
    line breaks made spaces, so a name such as ``<script>`` shows as written."""
    escaped = html.escape(" ".join(str(text).splitlines()), quote=False)
    return escaped.replace("|", "\\|")
