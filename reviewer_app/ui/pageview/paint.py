"""Painting one laid-out page: the body band, headers and footers, redline furniture, balloons.

The painter works in layout units with the page's top-left corner at the origin, so the view
(any zoom), the PNG renderer (any DPI) and the PDF writer share this code and only differ in the
scale they set first. The body is painted like ``QTextDocument.print``: translate the section
document up by the page's band and clip to the page, letting Qt skip every block outside it.

Over the text: a change bar in the left margin beside every changed paragraph, a second line
under or through moved text (so moves read double), paragraph borders. With the markup area
shown (All markup), a column to the right of the page holds comment balloons (author, text,
replies) joined by a dashed leader to their anchor, and "Formatted" notes for formatting changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPen,
    QTextBlock,
    QTextDocument,
)

from ...docx.format_props import Border
from .builder import RenderedBlock
from .document_band import paint_document_band, paper_palette
from .fonts import without_ligatures
from .headers import footer_top
from .page_floats import page_floats, paint_page_floats
from .qformats import LU_PER_INCH, TWIPS, font_scale

if TYPE_CHECKING:  # pragma: no cover
    from .headers import HeaderFooters
    from .layout import PagedLayout
    from .pages import Page

#: Width of the markup column beside each page (LU; 2.6 inches).
MARKUP_WIDTH = 1872.0
_BALLOON_MARGIN = 90.0
_BALLOON_FONT_LU = 80
#: Room between two balloons in the markup column (LU).
_BALLOON_GAP = 40.0
_CHANGE_BAR = QColor("#5F6368")
_SIMPLE_BAR = QColor("#D93025")
_BALLOON_FILL = QColor("#FFF8D6")
_FORMAT_FILL = QColor("#EEF2F7")


def _tr(text: str) -> str:
    return QCoreApplication.translate("PageView", text)


@dataclass(slots=True)
class PaintOptions:
    """What to draw besides the text: the markup column, and the page colour."""

    markup_area: bool = True
    page_color: QColor = field(default_factory=lambda: QColor("white"))
    #: the comment the person selected: its balloon is drawn with a heavier border
    selected_comment: str | None = None


def page_records(layout: PagedLayout, page: Page) -> list[tuple[RenderedBlock, list[tuple[float, float]]]]:
    """Rendered paragraphs with lines on ``page``, each with its lines' (top, bottom) in page LU."""
    section_doc = layout.docs[page.doc_index]
    document = section_doc.document
    doc_layout = document.documentLayout()
    top, bottom = page.top, page.top + page.height
    position = doc_layout.hitTest(QPointF(page.width / 2, top + 1), Qt.HitTestAccuracy.FuzzyHit)
    block = document.findBlock(max(0, position))
    back = 0
    while block.previous().isValid() and back < 3:  # a straddling paragraph may start above
        block = block.previous()
        back += 1
    found: dict[int, tuple[RenderedBlock, list[tuple[float, float]]]] = {}
    while block.isValid():
        rect = doc_layout.blockBoundingRect(block)
        if rect.top() > bottom + page.height:
            break
        # a block starting below the page has no line on it; the walk goes on to the cells
        # beside it, which may start higher up
        if rect.top() < bottom and (lines := _block_lines(block, rect, top, bottom)):
            record = layout.record_at(page.doc_index, block.position())
            if record is not None:
                entry = found.setdefault(id(record), (record, []))
                entry[1].extend(lines)
        block = block.next()
    return list(found.values())


def _block_lines(block: QTextBlock, rect: QRectF, top: float, bottom: float) -> list[tuple[float, float]]:
    text_layout = block.layout()
    if text_layout is None:
        return []
    base = rect.y()
    out = []
    for i in range(text_layout.lineCount()):
        line = text_layout.lineAt(i)
        y0 = base + line.y()
        middle = y0 + line.height() / 2
        if top <= middle < bottom:
            out.append((y0 - top, y0 + line.height() - top))
    return out


class PagePainter:
    """Paints pages of one layout (see the module docstring)."""

    def __init__(self, layout: PagedLayout, headers: HeaderFooters) -> None:
        self.layout = layout
        self.headers = headers
        self.font = without_ligatures(QFont())
        self.font.setPixelSize(_BALLOON_FONT_LU)
        self.bold = QFont(self.font)
        self.bold.setBold(True)
        #: page number -> (balloon box in page LU, root comment id), as last painted (for clicks)
        self.balloon_boxes: dict[int, list[tuple[QRectF, str]]] = {}

    def sheet_width(self, page: Page, options: PaintOptions) -> float:
        """Width of the page plus its markup column (LU)."""
        return page.width + (MARKUP_WIDTH if self.show_markup(options) else 0.0)

    def show_markup(self, options: PaintOptions) -> bool:
        return options.markup_area and self.layout.has_markup()

    def paint(self, painter: QPainter, page: Page, options: PaintOptions) -> None:
        """Paint ``page`` at the painter's origin in layout units."""
        layout = self.layout
        painter.fillRect(QRectF(0, 0, page.width, page.height), options.page_color)
        floats = page_floats(layout, self.headers, page)
        paint_page_floats(painter, layout, floats, behind=True)
        section_doc = layout.docs[page.doc_index]
        paint_document_band(painter, section_doc.document, page.top, page.width, page.height)
        layout.notes.paint(painter, page)
        layout.endnotes.paint(painter, page)
        self._header_footer(painter, page)
        paint_page_floats(painter, layout, floats, behind=False)
        records = page_records(layout, page)
        _paint_borders(painter, section_doc.document, records)
        for record, lines in records:
            if record.leader and lines:
                paint_leaders(painter, section_doc.document, record, page.top, lines)
        if layout.mode == "all":
            self._redline(painter, page, records)
            if self.show_markup(options):
                painter.fillRect(QRectF(page.width, 0, MARKUP_WIDTH, page.height), QColor("#F4F5F7"))
                self._balloons(painter, page, records, options.selected_comment)

    # ------------------------------------------------------------------ headers and footers
    def _header_footer(self, painter: QPainter, page: Page) -> None:
        section, _ = self.layout.section_of_page(page)
        props = self.layout.sections[section]
        left = (props.left + props.gutter) * TWIPS
        header = self.headers.document(page, "header")
        if header is not None:
            self._story(painter, header, QPointF(left, props.header * TWIPS))
        footer = self.headers.document(page, "footer")
        if footer is not None:
            self._story(painter, footer, QPointF(left, footer_top(page.height, props.footer, footer)))

    @staticmethod
    def _story(painter: QPainter, document: QTextDocument, at: QPointF) -> None:
        painter.save()
        painter.translate(at)
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette = paper_palette()
        document.documentLayout().draw(painter, context)
        records = getattr(document, "records", None)
        if records and any(r.borders for r in records):
            doc_layout = document.documentLayout()
            with_lines = []
            for record in records:
                block = document.findBlock(record.start)
                lines: list[tuple[float, float]] = []
                while block.isValid() and block.position() <= record.end:
                    lines.extend(_block_lines(block, doc_layout.blockBoundingRect(block), 0.0, float("inf")))
                    block = block.next()
                with_lines.append((record, lines))
            _paint_borders(painter, document, with_lines)
        painter.restore()

    # ------------------------------------------------------------------ over the text
    def _redline(
        self, painter: QPainter, page: Page, records: list[tuple[RenderedBlock, list[tuple[float, float]]]]
    ) -> None:
        props = self.layout.docs[page.doc_index].props
        bar_x = max(30.0, (props.left + props.gutter) * TWIPS - 100)
        # Simple Markup shows the changes only as this bar, so it is drawn in red, as in Word
        pen = QPen(_SIMPLE_BAR if self.layout.context.markup.simple else _CHANGE_BAR)
        pen.setWidthF(12)
        for record, lines in records:
            if record.changed and lines:
                painter.setPen(pen)
                painter.drawLine(QPointF(bar_x, lines[0][0]), QPointF(bar_x, lines[-1][1]))
            if record.moves:
                self._moves(painter, page, record)

    def _moves(self, painter: QPainter, page: Page, record: RenderedBlock) -> None:
        """Second underline (moved to) or strike line (moved from): moves read doubled."""
        document = self.layout.docs[page.doc_index].document
        doc_layout = document.documentLayout()
        colors = self.layout.factory.colors
        for start, end, role in record.abs_moves():
            block = document.findBlock(start)
            text_layout = block.layout()
            if text_layout is None:
                continue
            rect = doc_layout.blockBoundingRect(block)
            base = rect.y()
            pen = QPen(colors.color(record.change_author))
            pen.setWidthF(7)
            painter.setPen(pen)
            for i in range(text_layout.lineCount()):
                line = text_layout.lineAt(i)
                a = max(start, block.position() + line.textStart()) - block.position()
                b = min(end, block.position() + line.textStart() + line.textLength()) - block.position()
                if a >= b:
                    continue
                x0, x1 = rect.x() + line.cursorToX(a)[0], rect.x() + line.cursorToX(b)[0]
                baseline = base + line.y() + line.ascent() - page.top
                if not 0 <= baseline <= page.height:
                    continue
                # a second line under (moved to) or above the strike line (moved from)
                if role == "insert":
                    y = baseline + max(line.descent() * 0.8, 24.0)
                else:
                    y = baseline - line.ascent() * 0.33 - 18
                painter.drawLine(QPointF(x0, y), QPointF(x1, y))

    # ------------------------------------------------------------------ the markup column
    def _balloons(
        self,
        painter: QPainter,
        page: Page,
        records: list[tuple[RenderedBlock, list[tuple[float, float]]]],
        selected: str | None,
    ) -> None:
        layout = self.layout
        document = layout.docs[page.doc_index].document
        doc_layout = document.documentLayout()
        items: list[tuple[float, float, str | None, QColor, list[tuple[str, str]], str | None]] = []
        boxes = self.balloon_boxes[page.number] = []
        shown: set[str] = set()
        for record, lines in records:
            if not lines:
                continue
            if record.format_change:
                items.append((lines[0][0], -1.0, None, _FORMAT_FILL, [("", _tr("Formatted"))], None))
            for comment_id, position in record.abs_comments():
                thread = layout.thread(comment_id)
                if not thread or thread[0].id in shown:
                    continue
                shown.add(thread[0].id)
                anchor_y, anchor_x = _anchor_point(document, doc_layout, position, page)
                if anchor_y is None:
                    anchor_y, anchor_x = lines[0][0], 0.0
                entries = []
                for i, comment in enumerate(thread):
                    who = comment.author or _tr("Unknown author")
                    if comment.done:
                        who = _tr("{author} (resolved)").format(author=who)
                    entries.append(((_tr("Reply: ") if i else "") + who, comment.text))
                items.append((anchor_y, anchor_x, thread[0].author, _BALLOON_FILL, entries, thread[0].id))
        items.sort(key=lambda item: item[0])
        x = page.width + _BALLOON_MARGIN
        width = MARKUP_WIDTH - 2 * _BALLOON_MARGIN
        font, bold = self.font, self.bold
        measured = [_measure_balloon(entries, width - 60, font, bold) for *_, entries, _id in items]
        total = sum(height for _blocks, height in measured) + _BALLOON_GAP * len(measured)
        if total > page.height:
            # more than the column holds: a smaller type, so every comment is on its page
            font, bold = QFont(self.font), QFont(self.bold)
            size = max(_BALLOON_FONT_LU * 0.6, _BALLOON_FONT_LU * page.height / total)
            font.setPixelSize(round(size))
            bold.setPixelSize(round(size))
            measured = [_measure_balloon(entries, width - 60, font, bold) for *_, entries, _id in items]
        tops = balloon_tops(
            [item[0] - 40 for item in items], [height for _blocks, height in measured], page.height
        )
        for (anchor_y, anchor_x, author, fill, _entries, comment_id), (blocks, height), top in zip(
            items, measured, tops, strict=True
        ):
            box = QRectF(x, top, width, height)
            is_comment = anchor_x >= 0
            border = layout.factory.colors.color(author) if is_comment else _CHANGE_BAR
            if is_comment:
                leader = QPen(border)
                leader.setStyle(Qt.PenStyle.DashLine)
                leader.setWidthF(5)
                painter.setPen(leader)
                painter.drawLine(QPointF(anchor_x, anchor_y), QPointF(page.width, anchor_y))
                painter.drawLine(QPointF(page.width, anchor_y), QPointF(x, top + 40))
            painter.setPen(QPen(border, 18 if comment_id is not None and comment_id == selected else 6))
            painter.setBrush(fill)
            painter.drawRoundedRect(box, 30, 30)
            if comment_id is not None:
                boxes.append((box, comment_id))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QColor("#202124"))
            y = top + 20
            for who, who_height, text, text_height in blocks:
                if who:
                    painter.setFont(bold)
                    painter.drawText(QRectF(x + 30, y, width - 60, who_height), Qt.TextFlag.TextWordWrap, who)
                    y += who_height
                painter.setFont(font)
                painter.drawText(QRectF(x + 30, y, width - 60, text_height), Qt.TextFlag.TextWordWrap, text)
                y += text_height + 20


def _measure_balloon(
    entries: list[tuple[str, str]], width: float, font: QFont, bold: QFont
) -> tuple[list[tuple[str, float, str, float]], float]:
    """(who, its height, text, its height) of each entry wrapped to ``width``, and the balloon's height."""
    metrics, bold_metrics = QFontMetricsF(font), QFontMetricsF(bold)
    area = QRectF(0, 0, width, 1e6)
    blocks = []
    height = 40.0
    for who, text in entries:
        who_height = bold_metrics.boundingRect(area, Qt.TextFlag.TextWordWrap, who).height() if who else 0.0
        text_height = metrics.boundingRect(area, Qt.TextFlag.TextWordWrap, text).height()
        blocks.append((who, who_height, text, text_height))
        height += who_height + text_height + 20
    return blocks, height


def balloon_tops(wanted: list[float], heights: list[float], bottom: float) -> list[float]:
    """Tops of balloons wanted at ``wanted`` (in order): none overlaps the one before, and where the
    last would run past ``bottom`` (the foot of the page) they are pushed up, so a page with many
    comments still shows every one on its page; only a column fuller than the page overlaps."""
    tops: list[float] = []
    next_top = 0.0
    for want, height in zip(wanted, heights, strict=True):
        tops.append(max(want, next_top))
        next_top = tops[-1] + height + _BALLOON_GAP
    limit = bottom
    for i in range(len(tops) - 1, -1, -1):
        if tops[i] + heights[i] <= limit:
            break
        tops[i] = max(0.0, limit - heights[i])
        limit = tops[i] - _BALLOON_GAP
    return tops


def _paint_borders(
    painter: QPainter, document: QTextDocument, records: list[tuple[RenderedBlock, list[tuple[float, float]]]]
) -> None:
    """Paragraph borders (``w:pBdr``) around the lines of each paragraph that has them.

    Consecutive paragraphs with the same borders form one box, as in Word: the top line is
    drawn above the first and the bottom line below the last.
    """
    doc_layout = document.documentLayout()
    for index, (record, lines) in enumerate(records):
        if not record.borders or not lines:
            continue
        sides = dict(record.borders)
        block = document.findBlock(record.start)
        rect = doc_layout.blockBoundingRect(block)
        fmt = block.blockFormat()
        x0 = rect.x() + fmt.leftMargin() + min(0.0, fmt.textIndent())
        x1 = rect.right() - fmt.rightMargin()
        y0, y1 = lines[0][0], lines[-1][1]
        previous = records[index - 1][0] if index else None
        following = records[index + 1][0] if index + 1 < len(records) else None
        joined_above = previous is not None and previous.borders == record.borders
        joined_below = following is not None and following.borders == record.borders
        top_y = y0 - sides["top"].space * 10 - 20 if "top" in sides else y0
        bottom_y = y1 + (sides["bottom"].space * 10 + 20 if "bottom" in sides else 0)
        if joined_above:
            top_y = y0 - 20  # the box runs on from the paragraph above
        if joined_below:
            bottom_y = y1 + 20
        left, right = sides.get("left"), sides.get("right")
        left_x = x0 - left.space * 10 - 40 if left is not None else x0
        right_x = x1 + right.space * 10 + 40 if right is not None else x1
        for side, grouped in (("top", joined_above), ("bottom", joined_below)):
            border = sides.get(side)
            if border is None or grouped:
                continue
            y = top_y if side == "top" else bottom_y
            painter.setPen(_border_pen(border))
            painter.drawLine(QPointF(left_x, y), QPointF(right_x, y))
        for border, x in ((left, left_x), (right, right_x)):
            if border is not None:
                painter.setPen(_border_pen(border))
                painter.drawLine(QPointF(x, top_y), QPointF(x, bottom_y))


def _border_pen(border: Border) -> QPen:
    pen = QPen(QColor("#" + (border.color or "000000")))
    pen.setWidthF(max(5.0, border.size * 1.25))
    return pen


def paint_leaders(
    painter: QPainter,
    document: QTextDocument,
    record: RenderedBlock,
    top: float,
    lines: list[tuple[float, float]],
) -> None:
    """Dot (or dash, or line) leaders across the gap a tab leaves, as in a table of contents.

    Qt lays tabs out but draws nothing in them; the leader is drawn in the line's own font,
    for the tabs on ``lines`` (the record's lines on this page, page-relative).
    """
    doc_layout = document.documentLayout()
    tops = {round(line_top) for line_top, _bottom in lines}
    block = document.findBlock(record.start)
    while block.isValid() and block.position() <= record.end:
        text = block.text()
        index = text.find("\t")
        text_layout = block.layout()
        if index >= 0 and text_layout is not None:
            rect = doc_layout.blockBoundingRect(block)
            base = rect.y()
            while index >= 0:
                line = text_layout.lineForTextPosition(index)
                if line.isValid() and round(base + line.y() - top) in tops:
                    x0 = rect.x() + line.cursorToX(index)[0]
                    x1 = rect.x() + line.cursorToX(index + 1)[0]
                    y = base + line.y() + line.ascent() - top
                    _leader(painter, block, index, record.leader or "dot", x0, x1, y)
                index = text.find("\t", index + 1)
        block = block.next()


def _pixel_font(font: QFont) -> QFont:
    """The same font sized in pixels, i.e. layout units: QPainter would convert a point size
    with the paint device's DPI, which differs between the screen, PNGs and the PDF writer."""
    if font.pointSizeF() > 0:
        font = QFont(font)
        font.setPixelSize(max(1, round(font.pointSizeF() * _default_dpi() / 72)))
    return font


def _default_dpi() -> float:
    return LU_PER_INCH / font_scale()


def _leader(
    painter: QPainter, block: QTextBlock, index: int, kind: str, x0: float, x1: float, y: float
) -> None:
    if x1 - x0 < 100:
        return
    it = block.begin()
    font = QFont()
    color = QColor("black")
    while not it.atEnd():
        fragment = it.fragment()
        if fragment.position() <= block.position() + index < fragment.position() + fragment.length():
            font = _pixel_font(fragment.charFormat().font())
            brush = fragment.charFormat().foreground()
            if brush.style() != Qt.BrushStyle.NoBrush:
                color = brush.color()
            break
        it += 1
    painter.setPen(color)
    if kind == "underscore":
        pen = QPen(color)
        pen.setWidthF(6)
        painter.setPen(pen)
        painter.drawLine(QPointF(x0 + 30, y + 20), QPointF(x1 - 30, y + 20))
        return
    # Word and LibreOffice set leader glyphs edge to edge ("......", not ". . ."), one glyph per
    # advance, from the end of the text before the tab: what is left over is before the text after
    glyph = {"hyphen": "-", "middleDot": "\u00b7", "heavy": "\u00b7"}.get(kind, ".")
    painter.setFont(font)
    step = max(1.0, QFontMetricsF(font).horizontalAdvance(glyph))
    count = int((x1 - x0) // step)
    if count > 0:
        painter.drawText(QPointF(x0, y), glyph * count)


def _anchor_point(
    document: QTextDocument, doc_layout: object, position: int, page: Page
) -> tuple[float | None, float]:
    block = document.findBlock(position)
    text_layout = block.layout()
    if not block.isValid() or text_layout is None or not text_layout.lineCount():
        return None, 0.0
    rect = doc_layout.blockBoundingRect(block)  # type: ignore[attr-defined]
    line = text_layout.lineForTextPosition(max(0, position - block.position()))
    if not line.isValid():
        return None, 0.0
    y = rect.y() + line.y() + line.height() - page.top
    if not 0 <= y <= page.height:
        return None, 0.0
    x = rect.x() + line.cursorToX(position - block.position())[0]
    return y, x
