"""Drawing one band of a laid-out QTextDocument: a body page, a footnote's piece, a header.

Kept apart from :mod:`.paint` (the page painter, which reads the whole layout) so that the
footnotes, which the layout places, can draw themselves without importing the painter.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QAbstractTextDocumentLayout, QColor, QPainter, QPalette, QTextDocument

_PALETTE: QPalette | None = None


def paper_palette() -> QPalette:
    """Black text on white whatever the desktop theme: a page is paper."""
    global _PALETTE
    if _PALETTE is None:
        palette = QPalette()
        palette.setColor(QPalette.ColorRole.Text, QColor("black"))
        palette.setColor(QPalette.ColorRole.WindowText, QColor("black"))
        palette.setColor(QPalette.ColorRole.Base, QColor("white"))
        _PALETTE = palette
    return _PALETTE


def paint_document_band(
    painter: QPainter, document: QTextDocument, top: float, width: float, height: float
) -> None:
    """Draw the ``[top, top + height)`` band of ``document`` at the painter's origin, clipped.

    Only the lines inside the painter's clip are drawn (a keystroke repaints its paragraph's
    band, not the fifty lines of its page)."""
    painter.save()
    painter.setClipRect(QRectF(0, 0, width, height), Qt.ClipOperation.IntersectClip)
    # the region's own rectangles, not the clip's bounding box: a paragraph's band and the margin
    # column beside the whole page span the page, their parts on the paper only the band
    shown = QRectF(painter.clipRegion().boundingRect()).adjusted(-1, -1, 1, 1)
    painter.translate(0, -top)
    context = QAbstractTextDocumentLayout.PaintContext()
    context.clip = shown.translated(0, top)
    context.palette = paper_palette()
    document.documentLayout().draw(painter, context)
    painter.restore()
