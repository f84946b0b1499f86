"""How one tracked change is drawn in the redline panel: two lines that fit a narrow dock.

A table with six columns needs 700 pixels before its excerpt column shows more than a word; a
side dock has half that. Each change is therefore drawn as two lines, the way Word's Reviewing
Pane lists them:

    Deleted  thirty (30)                                        p. 4
    5.3 Payment. · Priya Shah (Harbour Bank…)      14 Mar 2025, 09:11

The excerpt carries the redline's own cue (deleted text struck through, inserted text
underlined) so the kind of change reads at a glance; the section comes first on the second line
because it is what a reviewer navigates by. A change the agent gave a recommendation for
(Agent ▸ Triage Their Changes) carries a badge on its first line, "Accept", "Reject" or
"Counter", before the page; the reason is in the row's tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from .chat.colors import chat_colors
from .redline_model import CHANGE_ROW_ROLE, ChangeRow, verdict_label

_PAD_X = 8
_PAD_Y = 5
_LINE_GAP = 2
_BADGE_PAD = 5
#: a recommendation's badge colour: the chat's tone for done, deleted and waiting
_VERDICT_TONE = {"accept": "done", "reject": "deleted", "counter": "queued"}


def _tr(text: str) -> str:
    return QCoreApplication.translate("RedlineDelegate", text)


class ChangeDelegate(QStyledItemDelegate):
    """Paints a :class:`ChangeRow` as two lines (see the module docstring)."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        height = option.fontMetrics.height()
        return QSize(max(option.rect.width(), 200), 2 * height + _LINE_GAP + 2 * _PAD_Y)

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        row: ChangeRow | None = index.data(CHANGE_ROW_ROLE)
        if row is None:
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""  # the style draws background, selection and focus; the text is drawn below
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)

        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        text_colour = opt.palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        )
        muted = text_colour if selected else opt.palette.color(QPalette.ColorRole.PlaceholderText)
        metrics = opt.fontMetrics
        area = opt.rect.adjusted(_PAD_X, _PAD_Y, -_PAD_X, -_PAD_Y)
        first = QRect(area.left(), area.top(), area.width(), metrics.height())
        second = first.translated(0, metrics.height() + _LINE_GAP)
        middle = Qt.AlignmentFlag.AlignVCenter

        painter.save()
        page = _tr("p. {0}").format(row.page) if row.page is not None else ""
        page_width = metrics.horizontalAdvance(page) + _PAD_X if page else 0
        painter.setPen(muted)
        painter.drawText(first, middle | Qt.AlignmentFlag.AlignRight, page)
        if row.verdict is not None and opt.widget is not None:
            tone = text_colour if selected else QColor(chat_colors(opt.widget)[_VERDICT_TONE[row.verdict]])
            room = first.adjusted(0, 0, -page_width, 0)
            page_width += _badge(painter, room, verdict_label(row.verdict), tone)

        bold = QFont(opt.font)
        bold.setBold(True)
        type_width = QFontMetrics(bold).horizontalAdvance(row.type_text) + _PAD_X
        painter.setFont(bold)
        painter.setPen(text_colour)
        painter.drawText(
            first.adjusted(0, 0, -page_width, 0), middle | Qt.AlignmentFlag.AlignLeft, row.type_text
        )

        excerpt_font = QFont(opt.font)
        excerpt = row.excerpt
        if not excerpt:
            excerpt = _tr("(no text)")
            excerpt_font.setItalic(True)
            painter.setPen(muted)
        else:
            excerpt_font.setStrikeOut(row.text_effect == "deleted")
            excerpt_font.setUnderline(row.text_effect == "inserted")
        excerpt_box = first.adjusted(type_width, 0, -page_width, 0)
        painter.setFont(excerpt_font)
        elided = QFontMetrics(excerpt_font).elidedText(
            excerpt, Qt.TextElideMode.ElideRight, excerpt_box.width()
        )
        painter.drawText(excerpt_box, middle | Qt.AlignmentFlag.AlignLeft, elided)

        painter.setFont(opt.font)
        painter.setPen(muted)
        painter.drawText(second, middle | Qt.AlignmentFlag.AlignRight, row.date_text)
        date_width = metrics.horizontalAdvance(row.date_text) + _PAD_X if row.date_text else 0
        where = second.adjusted(0, 0, -date_width, 0)
        # the section may take at most 60 % of the line when an author follows it
        section = metrics.elidedText(row.section, Qt.TextElideMode.ElideRight, int(where.width() * 0.6))
        details = " · ".join(part for part in (section, row.author) if part)
        elided = metrics.elidedText(details, Qt.TextElideMode.ElideRight, where.width())
        painter.drawText(where, middle | Qt.AlignmentFlag.AlignLeft, elided)
        painter.restore()


def _badge(painter: QPainter, line: QRect, text: str, tone: QColor) -> int:
    """Draw ``text`` as an outlined badge at the right end of ``line``; the width it took."""
    font = QFont(painter.font())
    font.setBold(True)
    font.setPointSizeF(max(font.pointSizeF() * 0.85, 6.0))
    width = QFontMetrics(font).horizontalAdvance(text) + 2 * _BADGE_PAD
    box = QRect(line.right() - width, line.top(), width, line.height())
    painter.save()
    painter.setFont(font)
    painter.setPen(tone)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRoundedRect(box.adjusted(0, 1, -1, -1), 4, 4)
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
    painter.restore()
    return width + _PAD_X
