"""The chat's few colours, picked for the light or dark palette in use.

Colour is never the only signal (struck and underlined text, status words, an icon on error
lines); these only make the signal quicker to read.
"""

from __future__ import annotations

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QWidget

_LIGHT = {
    "deleted": "#a4262c",
    "inserted": "#1b5e20",
    "error": "#a4262c",
    "error_fill": "#fdecea",
    "info_fill": "#e8f0fe",
    "muted": "#5f6368",
    "user_fill": "#eef3fb",
    "card_border": "#c9ced6",
    "queued": "#8a5a00",
    "done": "#1b5e20",
    "off": "#5f6368",
}
_DARK = {
    "deleted": "#ff8a80",
    "inserted": "#9ccc65",
    "error": "#ff8a80",
    "error_fill": "#4a2020",
    "info_fill": "#1f2f4a",
    "muted": "#a0a4a8",
    "user_fill": "#26303d",
    "card_border": "#4a4f57",
    "queued": "#ffcc80",
    "done": "#9ccc65",
    "off": "#a0a4a8",
}

#: card status → which colour its chip uses
STATUS_TONE = {
    "queued": "queued",
    "applied": "done",
    "accepted": "done",
    "replayed": "off",
    "skipped": "error",
    "rejected": "error",
    "failed": "error",
    "stale": "error",
    "discarded": "off",
    "declined": "off",
    "resolved": "off",
    "missing": "off",
}


def chat_colors(widget: QWidget) -> dict[str, str]:
    """The colour set for ``widget``'s palette (dark when its window colour is dark)."""
    window = widget.palette().color(QPalette.ColorRole.Window)
    return _DARK if window.lightnessF() < 0.5 else _LIGHT
