"""The navigation pane: the contract's headings and numbered clauses as a tree, as in Word.

A click on a clause shows it on the page (the same highlight the Checks and Changes panels
use). While the person scrolls, the clause being read — the last one whose first line is above
the point where a shown clause lands, a third down the view — is the tree's current item, so
the pane always says where one is. After an edit the outline is read again (once the edits
pause, and only while the pane is shown): wording changes only relabel items, a new or removed
clause rebuilds the tree.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from .clause_outline import OutlineEntry, outline
from .document_controller import DocumentController
from .pageview import PageView

_ID_ROLE = Qt.ItemDataRole.UserRole
#: where a shown clause lands in the view (as PageView.show_block places it), as a share of its height
_READING_LINE = 1 / 3
#: pause after the last edit before the outline is read again (typing re-reads once, not per key)
_REREAD_MS = 200
#: pause after scrolling stops moving before the current clause is looked up
_TRACK_MS = 30


class NavigationPane(QWidget):
    """Outline tree that follows the page view (see the module docstring)."""

    def __init__(self, controller: DocumentController, view: PageView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("navigationPane")
        self.setAccessibleName(self.tr("Document outline"))
        self._controller = controller
        self._view = view
        self._entries: list[OutlineEntry] = []
        self._items: dict[str, QTreeWidgetItem] = {}
        self._active = False
        self._stale = True
        #: (block id, scroll value) after a click: that clause stays current until the view moves
        self._pinned: tuple[str, int] | None = None
        self.tree = QTreeWidget()
        self.tree.setObjectName("navigationTree")
        self.tree.setAccessibleName(self.tr("Headings and clauses"))
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.itemClicked.connect(self._chosen)
        self.tree.itemActivated.connect(self._chosen)
        self.empty_label = QLabel(self.tr("This document has no headings or numbered clauses."))
        self.empty_label.setObjectName("navigationEmpty")
        self.empty_label.setWordWrap(True)
        self.empty_label.hide()
        column = QVBoxLayout(self)
        column.setContentsMargins(6, 6, 6, 6)
        column.addWidget(self.tree, 1)
        column.addWidget(self.empty_label)
        self._reread = _timer(self, _REREAD_MS, self._reread_if_stale)
        self._track = _timer(self, _TRACK_MS, self.follow_view)
        controller.document_loaded.connect(self._document_changed)
        controller.document_changed.connect(self._document_changed)
        view.verticalScrollBar().valueChanged.connect(lambda _v: self._track.start())
        view.layout_finished.connect(self._track.start)

    # ------------------------------------------------------------------ reading the outline
    def set_active(self, visible: bool) -> None:
        """Read the outline only while the pane can be seen; connect the dock's ``visibilityChanged``."""
        self._active = visible
        if visible and self._stale:
            self.refresh()

    def _document_changed(self, _blocks: object = None) -> None:
        self._stale = True
        if self._active:
            self._reread.start()

    def _reread_if_stale(self) -> None:
        if self._active and self._stale:
            self.refresh()

    def refresh(self) -> None:
        """Read the open document's outline now and show it, keeping the tree as it is where it can."""
        reviewer = self._controller.reviewer
        entries = reviewer.snapshot().memo("clause_outline", outline) if reviewer is not None else []
        self._stale = False
        same_shape = [(e.block_id, e.depth) for e in entries] == [
            (e.block_id, e.depth) for e in self._entries
        ]
        if same_shape:
            for entry in entries:
                self._items[entry.block_id].setText(0, entry.caption)
        else:
            self._fill(entries)
        self._entries = entries
        self.empty_label.setVisible(reviewer is not None and not entries)
        self.follow_view()

    def _fill(self, entries: list[OutlineEntry]) -> None:
        self.tree.clear()
        self._items = {}
        parents: list[tuple[int, QTreeWidgetItem]] = []
        for entry in entries:
            while parents and parents[-1][0] >= entry.depth:
                parents.pop()
            item = QTreeWidgetItem([entry.caption])
            item.setData(0, _ID_ROLE, entry.block_id)
            item.setToolTip(0, entry.caption)
            if parents:
                parents[-1][1].addChild(item)
            else:
                self.tree.addTopLevelItem(item)
            self._items[entry.block_id] = item
            parents.append((entry.depth, item))
        self.tree.expandAll()

    def entries(self) -> list[OutlineEntry]:
        """The outline the tree shows, in reading order."""
        return list(self._entries)

    def item_of(self, block_id: str) -> QTreeWidgetItem | None:
        """The tree item of a clause (None when the outline does not list that block)."""
        return self._items.get(block_id)

    # ------------------------------------------------------------------ following the page
    def _chosen(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        block_id = item.data(0, _ID_ROLE)
        if block_id and self._view.show_block(block_id):
            self._pinned = (block_id, self._view.verticalScrollBar().value())
            self._mark_current(block_id)

    def current_block(self) -> str | None:
        """The clause the tree marks as being read (None: none yet, or no outline)."""
        item = self.tree.currentItem()
        return item.data(0, _ID_ROLE) if item is not None else None

    def follow_view(self) -> None:
        """Mark the clause being read at the view's current scroll position."""
        if not self._entries or self._stale:
            return
        value = self._view.verticalScrollBar().value()
        if self._pinned is not None and self._pinned[1] == value:
            self._mark_current(self._pinned[0])
            return
        self._pinned = None
        index = self._reading_index(self._view.viewport().height() * _READING_LINE + 2)
        self._mark_current(self._entries[index].block_id if index is not None else None)

    def _reading_index(self, line: float) -> int | None:
        """The last entry whose first line is at or above ``line`` (px below the view's top).

        Entries run in page order, so a binary search asks the view for a dozen positions even on
        a contract with thousands of clauses; an entry not laid out (a paragraph the markup mode
        hides) counts as lying below.
        """
        low, high = 0, len(self._entries)  # answer in [low - 1, high - 1]
        while low < high:
            middle = (low + high) // 2
            offset = self._view.block_offset(self._entries[middle].block_id)
            if offset is not None and offset <= line:
                low = middle + 1
            else:
                high = middle
        return low - 1 if low else None

    def _mark_current(self, block_id: str | None) -> None:
        item = self._items.get(block_id) if block_id is not None else None
        if item is self.tree.currentItem():
            return
        self.tree.blockSignals(True)
        if item is None:
            self.tree.setCurrentItem(None)
            self.tree.clearSelection()
        else:
            self.tree.setCurrentItem(item)
            self.tree.scrollToItem(item)
        self.tree.blockSignals(False)
        self.tree.viewport().update()


def _timer(parent: QWidget, interval_ms: int, slot: object) -> QTimer:
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(interval_ms)
    timer.timeout.connect(slot)
    return timer
