"""``PageView``: the document as pages, in a scroll area (the window's document area).

Pages are stacked vertically with gaps and a shadow, centred; only the pages that intersect
the viewport are painted. Zoom is a painter scale from layout units to pixels and never a
re-layout, so zooming a 300-page contract is instant; "fit width" and "fit page" recompute the
scale when the window is resized. The layout is built in slices from the event loop (a zero
timer calling :meth:`PagedLayout.step`), so the first page shows at once and the window keeps
answering while the rest of a long contract is laid out.

Clicks, selection and highlights live in :mod:`.interaction`, the caret in :mod:`.caret_view`;
keys, page steps and :meth:`~.navigation.PageNavigation.refresh` (after an edit: re-render only
the touched paragraphs, or lay out again keeping the reader's place) in :mod:`.navigation`.
"""

from __future__ import annotations

import bisect
import logging

from PySide6.QtCore import QPointF, QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QRegion, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QAbstractScrollArea, QWidget

from ...docx.reviewer import DocxReviewer
from ...docx.snapshot import Snapshot
from .caret_view import CaretInteraction
from .interaction import PageInteraction
from .layout import Page, PagedLayout, normalize_mode
from .navigation import PageNavigation
from .paint import PagePainter, PaintOptions
from .qformats import LU_PER_INCH
from .records import MarkupFilter

log = logging.getLogger(__name__)

_GAP_PX = 16
_MARGIN_PX = 16
_SHADOW_PX = 4
_BACKGROUND = QColor("#E4E6EA")
_SHADOW = QColor(0, 0, 0, 48)
_MIN_ZOOM, _MAX_ZOOM = 0.1, 5.0
_STEP_BUDGET_S = 0.025


class PageView(PageInteraction, CaretInteraction, PageNavigation, QAbstractScrollArea):
    """Paginated, zoomable, read-only view of a document with its redline (see module docstring)."""

    #: Pages laid out so far, emitted after every layout slice.
    layout_progress = Signal(int)
    #: The whole document is laid out (page numbers and page text are final).
    layout_finished = Signal()
    #: The effective zoom factor changed (1.0 = 100 %).
    zoom_changed = Signal(float)
    #: The person clicked text of a tracked change (its id, as ``reviewer.changes()`` names it).
    change_clicked = Signal(str)
    #: The person clicked commented text or a comment balloon (the comment id).
    comment_clicked = Signal(str)
    #: The text selection changed (read it with ``selection_range()`` / ``selection_text()``).
    selection_changed = Signal()
    #: The caret moved, appeared or went (read it with ``caret()``).
    caret_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pageView")
        self.setAccessibleName(self.tr("Document pages"))
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.viewport().setAutoFillBackground(False)
        self._reviewer: DocxReviewer | None = None
        self._layout: PagedLayout | None = None
        self._painter: PagePainter | None = None
        self._options = PaintOptions()
        self._mode = "all"
        self._markup = MarkupFilter()
        # fit the width by default: the page and its markup column side by side, no sideways scroll
        self._zoom_mode = "fit-width"
        self._zoom = 1.0
        self._scale = self._zoom * self._dpi() / LU_PER_INCH
        self._tops: list[float] = []
        self._content_width = 0.0
        self._content_height = 0.0
        #: (block id, its distance in px below the viewport top) to restore once it is laid out again
        self._pending_anchor: tuple[str, float] | None = None
        self._anchor_value: int | None = None
        self._shown_pages = 0
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._layout_slice)
        self.verticalScrollBar().setSingleStep(40)
        self.horizontalScrollBar().setSingleStep(40)
        self._init_interaction()
        self._init_caret()

    # ------------------------------------------------------------------ documents
    def show_document(self, reviewer: DocxReviewer, snapshot: Snapshot | None = None) -> None:
        """Lay out ``reviewer``'s document (first slice now, the rest from the event loop)."""
        self._reviewer = reviewer
        self._pending_anchor = None
        self._forget_targets()
        self._start_layout(snapshot)
        self.verticalScrollBar().setValue(0)

    def clear_document(self) -> None:
        """Show no document."""
        self._timer.stop()
        if self._layout is not None:
            self._layout.close()
        self._reviewer = None
        self._layout = None
        self._painter = None
        self._forget_targets()
        self._refresh_highlights()
        self._update_geometry()
        self.viewport().update()

    def _start_layout(self, snapshot: Snapshot | None = None) -> None:
        self._timer.stop()
        if self._layout is not None:
            self._layout.close()
        if self._reviewer is None:
            return
        self._layout = PagedLayout(self._reviewer, self._mode, snapshot, self._markup)
        self._painter = PagePainter(self._layout, self._layout.headers)
        self._shown_pages = 0
        self._refresh_highlights()
        self._update_geometry()
        self.viewport().update()
        if self._layout.done:
            self._after_slice()
        else:
            self._timer.start()  # the first slice runs on the next turn of the event loop

    def _layout_slice(self) -> None:
        layout = self._layout
        if layout is None:
            self._timer.stop()
            return
        layout.step(_STEP_BUDGET_S)
        self._after_slice()

    def _after_slice(self) -> None:
        layout = self._layout
        if layout is None:
            return
        count = layout.page_count()
        self._update_geometry()
        visible = self.visible_pages()
        if not visible or visible[-1] >= self._shown_pages - 1 or layout.done:
            # repaint only when the slice may have changed what is on screen
            self.viewport().update()
        self._shown_pages = count
        self._restore_anchor()
        self.layout_progress.emit(count)
        if layout.done:
            self._timer.stop()
            self._refresh_highlights()
            self.layout_finished.emit()

    def finish_layout(self) -> None:
        """Lay out the rest of the document now (for callers that need final page numbers)."""
        if self._layout is not None and not self._layout.done:
            self._layout.build_all()
            self._after_slice()

    def document_reviewer(self) -> DocxReviewer | None:
        """The document shown (the find bar searches it)."""
        return self._reviewer

    def paged_layout(self) -> PagedLayout | None:
        """The current paged layout (None without a document)."""
        return self._layout

    def is_laid_out(self) -> bool:
        """True once the whole document is laid out."""
        return self._layout is not None and self._layout.done

    # ------------------------------------------------------------------ markup and zoom
    def markup_mode(self) -> str:
        """``all``, ``none`` (as if accepted) or ``original`` (as if rejected)."""
        return self._mode

    def set_markup_mode(self, mode: str) -> None:
        """Switch how changes show; the layout is rebuilt, the first visible block stays in view."""
        self.set_markup(mode, self._markup)

    def markup_filter(self) -> MarkupFilter:
        """Whose changes and comments All Markup shows, and whether as Simple Markup."""
        return self._markup

    def set_markup(self, mode: str, markup: MarkupFilter) -> None:
        """Switch the markup mode and what All Markup shows (reviewers, Simple Markup) at once: the
        document is laid out again only when what the pages show changes, once, keeping the place.
        The filter matters in All Markup only (the other modes show no markup)."""
        mode = normalize_mode(mode)
        shown_before = (self._mode, self._markup if self._mode == "all" else None)
        self._mode, self._markup = mode, markup
        if (mode, markup if mode == "all" else None) != shown_before:
            self._relayout_in_place()

    def _relayout_in_place(self) -> None:
        """Lay the document out again (a markup choice changed) keeping the paragraph at the top in place."""
        anchor = self._anchor()
        if self._reviewer is not None:
            self._start_layout()
            self._pending_anchor = anchor
            if self._layout is not None and self._layout.done:
                self._after_slice()

    def zoom(self) -> float:
        """The effective zoom factor (1.0 = 100 %), also in the fit modes."""
        return self._scale * LU_PER_INCH / self._dpi()

    def zoom_mode(self) -> str:
        """``percent``, ``fit-width`` or ``fit-page``."""
        return self._zoom_mode

    def set_zoom(self, value: float | str) -> None:
        """Zoom to a factor (``1.5``), a percentage string (``"150%"``), ``"fit-width"`` or ``"fit-page"``."""
        if isinstance(value, str):
            key = value.strip().lower()
            if key in ("fit-width", "fit width", "width"):
                self._zoom_mode = "fit-width"
            elif key in ("fit-page", "fit page", "page", "whole page"):
                self._zoom_mode = "fit-page"
            else:
                self._zoom_mode = "percent"
                self._zoom = float(key.rstrip("%")) / 100
        else:
            self._zoom_mode = "percent"
            self._zoom = float(value)
        self._zoom = min(_MAX_ZOOM, max(_MIN_ZOOM, self._zoom))
        self._rescale()

    def _rescale(self) -> None:
        page, fraction = self._position()
        self._update_geometry()
        if self._tops and page < len(self._tops):
            height = self._pages()[page].height * self._scale
            self.verticalScrollBar().setValue(round(self._tops[page] + fraction * height))
        self.viewport().update()

    def _position(self) -> tuple[int, float]:
        """(page at the viewport's top, fraction of it scrolled past) to keep across zooms."""
        if not self._tops:
            return 0, 0.0
        y = self.verticalScrollBar().value()
        page = max(0, bisect.bisect_right(self._tops, y) - 1)
        height = self._pages()[page].height * self._scale
        return page, (y - self._tops[page]) / height if height else 0.0

    def _dpi(self) -> float:
        return float(self.logicalDpiX() or 96)

    # ------------------------------------------------------------------ geometry
    def _pages(self) -> list[Page]:
        return self._layout.pages() if self._layout is not None else []

    def _sheet_width(self, page: Page) -> float:
        assert self._painter is not None
        return self._painter.sheet_width(page, self._options)

    def _update_geometry(self) -> None:
        """Scale (in the fit modes), page positions and scroll ranges; ``zoom_changed`` when the scale
        moved (a zoom, a resize in a fit mode, or the first pages of a document arriving)."""
        before = self._scale
        pages = self._pages()
        viewport = self.viewport().size()
        # hundreds of pages come in a few sizes: measure a sheet of each (a keystroke asks again)
        sizes = {(p.width, p.height): p for p in pages}
        widest = max((self._sheet_width(p) for p in sizes.values()), default=0.0)
        if pages:
            tallest = max(height for _width, height in sizes)
            fit_width = max(1.0, viewport.width() - 2 * _MARGIN_PX) / widest
            if self._zoom_mode == "fit-width":
                self._scale = fit_width
            elif self._zoom_mode == "fit-page":
                self._scale = min(fit_width, max(1.0, viewport.height() - 2 * _MARGIN_PX) / tallest)
            else:
                self._scale = self._zoom * self._dpi() / LU_PER_INCH
        tops: list[float] = []
        y = float(_MARGIN_PX)
        for page in pages:
            tops.append(y)
            y += page.height * self._scale + _GAP_PX
        self._tops = tops
        self._content_height = y - _GAP_PX + _MARGIN_PX if pages else 0.0
        self._content_width = widest * self._scale + 2 * _MARGIN_PX if pages else 0.0
        vbar, hbar = self.verticalScrollBar(), self.horizontalScrollBar()
        vbar.setRange(0, max(0, round(self._content_height - viewport.height())))
        vbar.setPageStep(max(1, viewport.height()))
        hbar.setRange(0, max(0, round(self._content_width - viewport.width())))
        hbar.setPageStep(max(1, viewport.width()))
        if abs(before - self._scale) > 1e-12:
            self.zoom_changed.emit(self.zoom())

    def visible_pages(self) -> list[int]:
        """Numbers of the pages intersecting the viewport (the ones a paint touches)."""
        if not self._tops:
            return []
        top = self.verticalScrollBar().value()
        bottom = top + self.viewport().height()
        first = max(0, bisect.bisect_right(self._tops, top) - 1)
        pages = self._pages()
        out = []
        for number in range(first, len(self._tops)):
            y = self._tops[number]
            if y > bottom:
                break
            if y + pages[number].height * self._scale >= top:
                out.append(number)
        return out

    def current_page(self) -> int:
        """The page at the middle of the viewport (0-based)."""
        if not self._tops:
            return 0
        middle = self.verticalScrollBar().value() + self.viewport().height() / 2
        return max(0, bisect.bisect_right(self._tops, middle) - 1)

    def page_rect(self, number: int) -> QRectF:
        """Where page ``number`` is drawn in viewport pixels (the paper, without the markup column)."""
        pages = self._pages()
        page = pages[number]
        x = self._page_x(page)
        y = self._tops[number] - self.verticalScrollBar().value()
        return QRectF(x, y, page.width * self._scale, page.height * self._scale)

    def _page_x(self, page: Page) -> float:
        width = self._sheet_width(page) * self._scale
        area = max(self._content_width, float(self.viewport().width()))
        return (area - width) / 2 - self.horizontalScrollBar().value()

    # ------------------------------------------------------------------ painting
    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self.viewport())
        if self._layout is None or self._painter is None:
            painter.fillRect(event.rect(), _BACKGROUND)
            painter.setPen(QColor("#5F6368"))
            painter.drawText(
                QRectF(self.viewport().rect()),
                Qt.AlignmentFlag.AlignCenter,
                self.tr("Open a Word document with File > Open."),
            )
            painter.end()
            return
        painter.setRenderHints(
            QPainter.RenderHint.Antialiasing
            | QPainter.RenderHint.TextAntialiasing
            | QPainter.RenderHint.SmoothPixmapTransform
        )
        # one rectangle at a time: under a clip of several rectangles (a keystroke's band and the
        # margin column beside its page) Qt's raster engine shades antialiased edges a few levels
        # off, so the balloons would not be the pixels a whole repaint gives
        for rect in _paint_rects(event.region()):
            painter.setClipRect(rect)  # told to the page painter, which draws only what shows
            painter.fillRect(rect, _BACKGROUND)
            self._paint_pages(painter, rect)
        painter.end()

    def _paint_pages(self, painter: QPainter, rect: QRect) -> None:
        """Paint the visible pages that meet ``rect`` (viewport pixels, the painter's clip)."""
        pages = self._pages()
        scroll_y = self.verticalScrollBar().value()
        for number in self.visible_pages():
            page = pages[number]
            x = self._page_x(page)
            y = self._tops[number] - scroll_y
            sheet = QRectF(x, y, self._sheet_width(page) * self._scale, page.height * self._scale)
            if not sheet.adjusted(0, 0, _SHADOW_PX, _SHADOW_PX).intersects(QRectF(rect)):
                continue  # outside what needs painting (a keystroke's page, a caret blink)
            painter.fillRect(sheet.translated(_SHADOW_PX, _SHADOW_PX), _SHADOW)
            painter.save()
            painter.translate(QPointF(x, y))
            painter.scale(self._scale, self._scale)
            try:
                self._painter.paint(painter, page, self._options)
                self._paint_highlights(painter, page)
            except Exception:  # one bad page must not leave the window unpainted
                log.exception("painting page %d failed", number)
            painter.restore()

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802 - Qt override
        self.viewport().update()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._rescale()

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt override
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            steps = event.angleDelta().y() / 120
            if steps:
                self.set_zoom(self.zoom() * (1.1**steps))
            event.accept()
            return
        super().wheelEvent(event)

    # ------------------------------------------------------------------ navigation and reading
    def scroll_to_block(self, block_id: str) -> bool:
        """Scroll so the block's first line sits in the upper third; False when there is no such block."""
        layout = self._layout
        if layout is None:
            return False
        if block_id not in layout.by_id and not layout.done:
            self.finish_layout()
        y = self._block_y(block_id)
        if y is None:
            return False
        self.verticalScrollBar().setValue(round(y - self.viewport().height() / 3))
        self.viewport().update()
        return True

    def block_offset(self, block_id: str) -> float | None:
        """How far below the viewport's top the block's first line is now, in pixels (negative:
        scrolled past; None: not laid out). The navigation pane finds the clause being read with it."""
        y = self._block_y(block_id)
        return None if y is None else y - self.verticalScrollBar().value()

    def _block_y(self, block_id: str) -> float | None:
        """Where the block's first line of text is, in content pixels (None when not laid out)."""
        layout = self._layout
        found = layout.block_rect(block_id) if layout is not None else None
        if found is None:
            return None
        doc_index, rect = found
        section_doc = layout.docs[doc_index]
        index_in_doc = int(rect.y() // section_doc.page_height)
        number = min(layout.first_page_of_doc(doc_index) + index_in_doc, len(self._tops) - 1)
        if number < 0:
            return None
        return self._tops[number] + (rect.y() - index_in_doc * section_doc.page_height) * self._scale

    def page_count(self) -> int:
        """Pages laid out so far (final once :meth:`is_laid_out`)."""
        return self._layout.page_count() if self._layout is not None else 0

    def page_text(self, page: int) -> str:
        """Clean text laid out on ``page`` (0-based); finishes the layout first when needed."""
        if self._layout is None:
            return ""
        self.finish_layout()
        return self._layout.index.page_text(page)

    def rerender_block(self, block_id: str) -> bool:
        """Re-render one paragraph after an edit touched only its text or changes."""
        if self._layout is None or not self._layout.rerender_block(block_id):
            return False
        self._update_geometry()
        self.viewport().update()
        return True


def _paint_rects(region: QRegion) -> list[QRect]:
    """The rectangles to paint ``region`` by, each painted whole: the region's own, but where two
    of one width lie above and below a stretch the region covers too (the margin column on
    either side of a keystroke's band), one rectangle over both, so a page is painted twice, not
    three times. (Painting a spot twice gives the same pixels: each paint starts from the
    background.)"""
    merged: list[QRect] = []
    for rect in region:
        for i, done in enumerate(merged):
            span = done.united(rect)
            same_column = (done.left(), done.right()) == (rect.left(), rect.right())
            if same_column and QRegion(span).subtracted(region).isEmpty():
                merged[i] = span
                break
        else:
            merged.append(rect)
    return merged
