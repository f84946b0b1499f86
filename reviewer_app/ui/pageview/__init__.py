"""The paginated page view: Word documents laid out as pages, with their redline.

``formatting`` resolves Word formatting, ``builder``/``layout`` write it into one QTextDocument
per section geometry, ``page_index`` maps pages to blocks and text, ``paint`` draws a page,
``view`` is the scrolling widget and ``render`` writes PDFs and PNGs offscreen.
"""

from .layout import PagedLayout
from .render import render_pdf, render_pngs
from .view import PageView

__all__ = ["PageView", "PagedLayout", "render_pdf", "render_pngs"]
