"""The list view of comment threads: clicks on the painted buttons, and the open reply boxes.

Threads are painted by :class:`CommentThreadDelegate`; this view hit-tests a press against the
same layout's button rectangles. A press on a button belongs to the button (the row is not
selected by it, so a collapsed resolved thread does not open up under the pointer and move the
button away); the release over the same button clicks it, as a real push button does.

A reply box being typed in is a real widget (``overlays``), a child of the viewport placed over
the space the thread's layout leaves for it each time the view lays out its rows; scrolling moves
it with the rows.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QRect, Qt, Signal
from PySide6.QtGui import QMouseEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QFrame, QListView, QWidget

from .comment_thread_delegate import CommentThreadDelegate
from .comment_thread_model import THREAD_ROW_ROLE, CommentThreadModel, ThreadRow


class CommentThreadView(QListView):
    """Rows of painted threads with clickable buttons and the open reply boxes over them."""

    #: (thread id, action): the person clicked a thread's "reply", "resolve" or "delete" button
    action_clicked = Signal(str, str)

    def __init__(
        self, model: CommentThreadModel, delegate: CommentThreadDelegate, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("commentThreads")
        self._model = model
        self._delegate = delegate
        #: thread id -> the widget placed over its layout's ``composer`` rectangle
        self.overlays: dict[str, QWidget] = {}
        #: a mouse press is being handled (the selection it makes is the press's, not the keys')
        self.pressing = False
        self.setModel(model)
        self.setItemDelegate(delegate)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # a scroll bar that comes and goes changes the width and so every thread's height twice
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setMouseTracking(True)
        self.viewport().setBackgroundRole(QPalette.ColorRole.Window)
        self.verticalScrollBar().setSingleStep(24)
        delegate.width = self.viewport().width()

    def resizeEvent(self, event: QResizeEvent) -> None:
        # the rows' heights follow the width: the delegate must know it before they are laid out
        self._delegate.width = self.viewport().width()
        super().resizeEvent(event)

    # ------------------------------------------------------------------ hit testing
    def action_at(self, point: QPoint) -> tuple[str, str] | None:
        """(thread id, action) of the button at ``point`` (viewport coordinates), or None."""
        index = self.indexAt(point)
        row: ThreadRow | None = index.data(THREAD_ROW_ROLE) if index.isValid() else None
        if row is None:
            return None
        action = self._delegate.layout_of(row).action_at(point - self.visualRect(index).topLeft())
        return (row.id, action) if action else None

    def action_rect(self, thread_id: str, action: str) -> QRect | None:
        """Where ``thread_id``'s ``action`` button is drawn, in viewport coordinates (None: not shown)."""
        at = self._model.row_index(thread_id)
        row = self._model.row(thread_id)
        if at is None or row is None or self.isRowHidden(at):
            return None
        button = self._delegate.layout_of(row).buttons.get(action)
        return (
            None
            if button is None
            else button[0].translated(self.visualRect(self._model.index(at, 0)).topLeft())
        )

    def mousePressEvent(self, event: QMouseEvent) -> None:
        hit = self.action_at(event.position().toPoint())
        if hit is None or event.button() != Qt.MouseButton.LeftButton:
            self.pressing = True
            try:
                super().mousePressEvent(event)
            finally:
                self.pressing = False
            return
        self._delegate.pressed = hit
        self.viewport().update()
        event.accept()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        pressed, self._delegate.pressed = self._delegate.pressed, None
        if pressed is None:
            super().mouseReleaseEvent(event)
            return
        self.viewport().update()
        event.accept()
        if self.action_at(event.position().toPoint()) == pressed:
            self.action_clicked.emit(*pressed)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        self._set_hovered(self.action_at(event.position().toPoint()))
        if self._delegate.pressed is None:
            super().mouseMoveEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self._set_hovered(None)
        super().leaveEvent(event)

    def _set_hovered(self, hit: tuple[str, str] | None) -> None:
        if hit == self._delegate.hovered:
            return
        self._delegate.hovered = hit
        if hit is None:
            self.viewport().unsetCursor()
        else:
            self.viewport().setCursor(Qt.CursorShape.PointingHandCursor)
        self.viewport().update()

    # ------------------------------------------------------------------ reply boxes
    def updateGeometries(self) -> None:
        super().updateGeometries()
        self.place_overlays()

    def place_overlays(self) -> None:
        """Put each reply box over its thread's ``composer`` rectangle (hidden with its thread)."""
        for thread_id, widget in self.overlays.items():
            at = self._model.row_index(thread_id)
            row = self._model.row(thread_id)
            if at is None or row is None or self.isRowHidden(at):
                widget.hide()
                continue
            area = self._delegate.layout_of(row).composer
            if area.isEmpty():
                widget.hide()
                continue
            widget.setGeometry(area.translated(self.visualRect(self._model.index(at, 0)).topLeft()))
            widget.show()
