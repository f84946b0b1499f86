"""How one comment thread is laid out, painted and clicked in the comments panel.

A thread used to be a tree of widgets (labels, frames, three buttons and a hidden composer); a
contract with 2,000 comments built 40,000 of them and opening it took 26 s. Now a thread is a
:class:`ThreadLayout` — a list of :class:`Piece` (a text in a rectangle, with its font and colour)
and the rectangles of its Reply, Resolve/Reopen and Delete buttons — computed once per thread,
width and state. The delegate paints exactly those pieces and tells the view the height; the view
(:mod:`.comment_thread_view`) answers clicks by hit-testing the same button rectangles, so what is
drawn, what is clicked and what is tested cannot disagree.

A resolved thread is drawn collapsed and greyed (its first line, a "Resolved" marker and the
number of replies) until it is selected, as Word does, so open points stand out without hiding
what was settled. The only real widget in a thread is the reply box while it is open: the panel
places it over the space this layout leaves for it (``composer`` rectangle).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import (
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QApplication,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionButton,
    QStyleOptionViewItem,
    QWidget,
)

from .comment_thread_model import CommentThreadModel, ThreadRow
from .plurals import count_text

#: Left indent of replies under the comment they answer, in pixels.
REPLY_INDENT = 14
_GAP_X = 6  # between cards and the view's edge
_GAP_Y = 4  # half the space between two cards
_PAD_X = 10  # inside a card
_PAD_TOP = 8
_PAD_BOTTOM = 4
_LINE_GAP = 3
_BUTTON_PAD = 8

#: the buttons a thread can show, in the order they are laid out
ACTIONS = ("reply", "resolve", "delete")


def _tr(text: str) -> str:
    return QCoreApplication.translate("CommentThreadDelegate", text)


@dataclass(frozen=True, slots=True)
class Piece:
    """One text the card paints: ``kind`` names it ("author", "date", "quote", "text",
    "resolvedMarker", "page", "replyCount", "replyAuthor", "replyDate", "replyText")."""

    kind: str
    rect: QRect
    text: str
    font: str = "normal"  # "normal", "bold" or "italic"
    muted: bool = False
    wrap: bool = False
    comment_id: str = ""


@dataclass(slots=True)
class ThreadLayout:
    """Where everything of one thread goes, in the row's own coordinates (0, 0 = row's top left)."""

    height: int
    card: QRect
    pieces: list[Piece] = field(default_factory=list)
    #: action -> (button rectangle, label); a resolved thread has no "reply"
    buttons: dict[str, tuple[QRect, str]] = field(default_factory=dict)
    #: where the open reply box goes (empty when none is open)
    composer: QRect = field(default_factory=QRect)
    #: x of the rule drawn left of each reply, with its top and bottom
    reply_rules: list[tuple[int, int, int]] = field(default_factory=list)
    #: each piece's text as painted (one-line pieces elided to their width), made on first paint:
    #: eliding is most of what painting a thread costs, and a layout is painted again and again
    painted: list[str] | None = None

    def texts(self, kind: str) -> list[str]:
        return [piece.text for piece in self.pieces if piece.kind == kind]

    def action_at(self, point: QPoint) -> str | None:
        return next((name for name, (rect, _label) in self.buttons.items() if rect.contains(point)), None)


class _Fonts:
    """The three fonts of a card and their metrics, made once per base font."""

    def __init__(self, base: QFont) -> None:
        bold, italic = QFont(base), QFont(base)
        bold.setBold(True)
        italic.setItalic(True)
        self.fonts = {"normal": QFont(base), "bold": bold, "italic": italic}
        self.metrics = {name: QFontMetrics(font) for name, font in self.fonts.items()}
        self.line = max(m.height() for m in self.metrics.values())
        self._widths: dict[str, int] = {}

    def width(self, text: str) -> int:
        """Advance of a chrome label ("Reply", "p. 4"...) in the normal font, measured once."""
        if text not in self._widths:
            self._widths[text] = self.metrics["normal"].horizontalAdvance(text)
        return self._widths[text]


def lay_out_thread(
    row: ThreadRow, width: int, fonts: _Fonts, selected: bool, composer_height: int
) -> ThreadLayout:
    """The layout of ``row`` in a view ``width`` pixels wide (see the module docstring)."""
    line = fonts.line
    card = QRect(_GAP_X, _GAP_Y, max(width - 2 * _GAP_X, 80), 0)
    left, inner = card.left() + _PAD_X, card.width() - 2 * _PAD_X
    out = ThreadLayout(0, card)
    y = card.top() + _PAD_TOP
    collapsed = row.resolved and not selected

    def add(kind: str, x: int, text: str, w: int, **style: object) -> int:
        """Add a piece at (x, y), one line high or wrapped to ``w``; return its height."""
        if style.get("wrap"):
            metrics = fonts.metrics[str(style.get("font", "normal"))]
            flags = int(Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft)
            height = max(metrics.boundingRect(QRect(0, 0, max(w, 1), 1 << 20), flags, text).height(), line)
        else:
            height = line
        out.pieces.append(Piece(kind, QRect(x, y, w, height), text, **style))  # type: ignore[arg-type]
        return height

    def header(author: str, date_text: str, x: int, w: int, prefix: str, comment_id: str) -> None:
        nonlocal y
        right = x + w
        if not prefix and row.page is not None:
            page = _tr("p. {0}").format(row.page + 1)
            page_w = fonts.width(page) + 2
            right -= page_w
            out.pieces.append(Piece("page", QRect(right, y, page_w, line), page, muted=True))
            right -= _GAP_X
        if not prefix and row.resolved:
            marker = "\u2713 " + _tr("Resolved")
            marker_w = fonts.width(marker) + 2
            right -= marker_w
            out.pieces.append(Piece("resolvedMarker", QRect(right, y, marker_w, line), marker, muted=True))
            right -= _GAP_X
        name = author or _tr("Unknown author")
        kind = prefix + ("Author" if prefix else "author")
        y += add(kind, x, name, right - x, font="bold", muted=row.resolved, comment_id=comment_id)
        if date_text:
            y += add(
                prefix + ("Date" if prefix else "date"), x, date_text, w, muted=True, comment_id=comment_id
            )

    header(row.author, row.date_text, left, inner, "", row.id)
    if row.quote:
        y += add("quote", left, "\u201c" + row.quote + "\u201d", inner, font="italic", muted=True)
    y += _LINE_GAP
    if collapsed:
        y += add("text", left, " ".join(row.text.split()), inner, muted=True, comment_id=row.id)
        if row.replies:
            replies = count_text(len(row.replies), "{n} reply", "{n} replies")
            y += add("replyCount", left, replies, inner, muted=True)
    else:
        y += add("text", left, row.text, inner, muted=row.resolved, wrap=True, comment_id=row.id)
        for reply in row.replies:
            y += _LINE_GAP
            top = y
            x, w = left + REPLY_INDENT, inner - REPLY_INDENT
            header(reply.author, reply.date_text, x, w, "reply", reply.id)
            y += add("replyText", x, reply.text, w, muted=row.resolved, wrap=True, comment_id=reply.id)
            out.reply_rules.append((left + REPLY_INDENT // 3, top, y))
    y += _LINE_GAP
    button_h = line + _BUTTON_PAD
    x = left
    labels = {"reply": _tr("Reply"), "resolve": _tr("Reopen") if row.resolved else _tr("Resolve")}
    for action in ("reply", "resolve"):
        if action == "reply" and row.resolved:
            continue
        w = fonts.width(labels[action]) + 2 * _BUTTON_PAD
        out.buttons[action] = (QRect(x, y, w, button_h), labels[action])
        x += w + _GAP_X
    delete = _tr("Delete")
    w = fonts.width(delete) + 2 * _BUTTON_PAD
    out.buttons["delete"] = (QRect(left + inner - w, y, w, button_h), delete)
    y += button_h
    if composer_height:
        y += _LINE_GAP
        out.composer = QRect(left, y, inner, composer_height)
        y += composer_height
    y += _PAD_BOTTOM
    out.card.setBottom(y)
    out.height = y + _GAP_Y + 1
    return out


class CommentThreadDelegate(QStyledItemDelegate):
    """Lays out and paints threads; caches each thread's layout until it or its state changes.

    The state a layout depends on is kept here: ``width`` (the viewport's; the option's rectangle
    is not set when a list view asks for sizes), ``selected_id`` and the heights of open reply
    boxes. The model stores each row's size (a list view asks every row's size on each layout
    pass, and 2,000 Python callbacks per pass would cost more than the answer), so a change to
    that state says which rows' sizes it may change (:attr:`sizes_changed`).
    """

    #: the thread ids whose size may have changed, or None for every row
    sizes_changed = Signal(object)

    def __init__(self, model: CommentThreadModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._fonts = _Fonts(QApplication.font())
        self._cache: dict[str, tuple[ThreadRow, int, bool, int, ThreadLayout]] = {}
        self._width = 0
        self._selected_id: str | None = None
        self._composer_heights: dict[str, int] = {}  # thread id -> height of its open reply box
        #: (thread id, action) of the button under the pointer / held down, drawn raised / sunk
        self.hovered: tuple[str, str] | None = None
        self.pressed: tuple[str, str] | None = None

    @property
    def width(self) -> int:
        return self._width

    @width.setter
    def width(self, width: int) -> None:
        if width != self._width:
            self._width = width
            self.sizes_changed.emit(None)

    @property
    def selected_id(self) -> str | None:
        return self._selected_id

    @selected_id.setter
    def selected_id(self, thread_id: str | None) -> None:
        before, self._selected_id = self._selected_id, thread_id
        if before != thread_id:
            self.sizes_changed.emit({i for i in (before, thread_id) if i is not None})

    def set_composer_height(self, thread_id: str, height: int | None) -> None:
        """Leave ``height`` pixels in the thread for its reply box (None: the box closed)."""
        before = self._composer_heights.get(thread_id)
        if height is None:
            self._composer_heights.pop(thread_id, None)
        else:
            self._composer_heights[thread_id] = height
        if before != height:
            self.sizes_changed.emit({thread_id})

    def set_font(self, font: QFont) -> None:
        """Lay out with ``font`` from now on (the view's font)."""
        self._fonts = _Fonts(font)
        self._cache.clear()
        self.sizes_changed.emit(None)

    def forget(self, keep: set[str]) -> None:
        """Drop cached layouts of threads no longer listed."""
        for gone in set(self._cache) - keep:
            del self._cache[gone]

    def layout_of(self, row: ThreadRow) -> ThreadLayout:
        """``row``'s layout at the view's current width and the panel's current state."""
        selected = row.id == self._selected_id
        composer = self._composer_heights.get(row.id, 0)
        cached = self._cache.get(row.id)
        if (
            cached is not None
            and cached[0] is row
            and cached[1] == self._width
            and cached[2] == selected
            and cached[3] == composer
        ):
            return cached[4]
        layout = lay_out_thread(row, self._width, self._fonts, selected, composer)
        self._cache[row.id] = (row, self._width, selected, composer, layout)
        return layout

    # ------------------------------------------------------------------ Qt delegate
    def size_of(self, row: ThreadRow) -> QSize:
        """The row's size (the model answers ``SizeHintRole`` with it: Qt's own ``sizeHint`` then
        asks one role instead of building a style option per row, a third of the layout's time)."""
        return QSize(self._width, self.layout_of(row).height)

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        row = self._model.row_at(index.row())
        layout = self.layout_of(row)
        palette = option.palette
        painter.save()
        painter.translate(option.rect.topLeft())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        selected = row.id == self.selected_id
        border = palette.color(QPalette.ColorRole.Highlight if selected else QPalette.ColorRole.Mid)
        painter.setPen(QPen(border, 2 if selected else 1))
        painter.setBrush(palette.color(QPalette.ColorRole.Base))
        painter.drawRoundedRect(layout.card.adjusted(0, 0, -1, -1), 4, 4)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Midlight), 2))
        for x, top, bottom in layout.reply_rules:
            painter.drawLine(x, top, x, bottom)
        text_colour = palette.color(QPalette.ColorRole.Text)
        muted_colour = palette.color(QPalette.ColorRole.PlaceholderText)
        if layout.painted is None:
            layout.painted = [
                piece.text
                if piece.wrap
                else self._fonts.metrics[piece.font].elidedText(
                    piece.text, Qt.TextElideMode.ElideRight, piece.rect.width()
                )
                for piece in layout.pieces
            ]
        wrapped = int(Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        one_line = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        for piece, shown in zip(layout.pieces, layout.painted, strict=True):
            painter.setFont(self._fonts.fonts[piece.font])
            painter.setPen(muted_colour if piece.muted else text_colour)
            painter.drawText(piece.rect, wrapped if piece.wrap else one_line, shown)
        style = option.widget.style() if option.widget is not None else QApplication.style()
        for action, (rect, label) in layout.buttons.items():
            button = QStyleOptionButton()
            button.rect = rect
            button.text = label
            button.palette = palette
            button.features = QStyleOptionButton.ButtonFeature.Flat
            button.state = QStyle.StateFlag.State_Enabled
            if self.hovered == (row.id, action):
                button.state |= QStyle.StateFlag.State_MouseOver | QStyle.StateFlag.State_Raised
            if self.pressed == (row.id, action):
                button.state |= QStyle.StateFlag.State_Sunken
            style.drawControl(QStyle.ControlElement.CE_PushButton, button, painter, option.widget)
        painter.restore()
