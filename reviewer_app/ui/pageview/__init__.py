"""The paginated page view: Word documents laid out as pages, with their redline.

``formatting`` resolves Word formatting, ``builder``/``layout`` write it into one QTextDocument
per section geometry, ``page_index`` maps pages to blocks and text, ``paint`` draws a page,
``view`` is the scrolling widget and ``render`` writes PDFs and PNGs offscreen.

The names below are imported on first use, not with the package: ``reviewer pdf`` needs the
layout and the painter but not the widget, whose modules (caret, clipboard, the edit
operations, QtWidgets) would add a third of a second to every conversion's start.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .layout import PagedLayout
    from .render import render_pdf, render_pngs
    from .view import PageView

#: exported name -> the submodule that defines it
_HOMES = {"PageView": "view", "PagedLayout": "layout", "render_pdf": "render", "render_pngs": "render"}

__all__ = ["PageView", "PagedLayout", "render_pdf", "render_pngs"]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value
