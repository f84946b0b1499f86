"""The comments panel's rows: one immutable :class:`ThreadRow` per comment thread, in document order.

The model is updated in place, never rebuilt: after a change to the document the panel hands it
the new rows and it tells the view only what differs — ``dataChanged`` for a thread whose text,
replies, state or page changed, ``rowsRemoved``/``rowsInserted`` for threads that went or came.
An unchanged thread keeps its very :class:`ThreadRow` object, so the delegate's cached layout of
it stays valid and one reply on a 2,000-thread contract costs one row, not 2,000.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QSize, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel

from .comment_thread_widget import format_comment_date

#: the row's :class:`ThreadRow` (what the delegate lays out and paints)
THREAD_ROW_ROLE = Qt.ItemDataRole.UserRole + 1

#: a date string is formatted once, not once per refresh (2,700 QDateTime parses cost ~30 ms)
_date_text = functools.lru_cache(maxsize=8192)(format_comment_date)


@dataclass(frozen=True, slots=True)
class ReplyRow:
    """One reply as shown under its thread."""

    id: str
    author: str
    text: str
    date_text: str


@dataclass(frozen=True, slots=True)
class ThreadRow:
    """A top-level comment with its replies, as the panel shows it (texts already formatted)."""

    id: str
    author: str
    text: str
    date_text: str
    resolved: bool
    quote: str
    page: int | None
    replies: tuple[ReplyRow, ...]

    @classmethod
    def of(cls, thread: dict[str, Any], dates: dict[str, str | None], page: int | None) -> ThreadRow:
        """The row for a ``DocxReviewer.comments()`` entry, its comments' ``w:date`` and its page."""
        return cls(
            id=thread["id"],
            author=thread["author"],
            text=thread["text"],
            date_text=_date_text(dates.get(thread["id"])),
            resolved=bool(thread["resolved"]),
            quote=" ".join((thread.get("quote") or "").split()),
            page=page,
            replies=tuple(
                ReplyRow(r["id"], r["author"], r["text"], _date_text(dates.get(r["id"])))
                for r in thread["replies"]
            ),
        )


class CommentThreadModel(QStandardItemModel):
    """The threads in document order; :meth:`set_rows` applies a new state incrementally.

    Each thread is a :class:`QStandardItem` holding its row, texts and size, so the list view
    lays 2,000 rows out without calling into Python once per row (a Python ``data()`` answering
    the size role cost ~40 ms a layout, and a reply changes a row's height, which lays all rows
    out again): sizes are set here, for the rows whose layout may have changed
    (:meth:`refresh_sizes`).
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        #: the size a row is drawn at (the delegate's layout), stored for ``SizeHintRole``
        self.size_of: Callable[[ThreadRow], QSize] | None = None
        self._rows: list[ThreadRow] = []
        self._row_of: dict[str, int] = {}
        self._thread_of: dict[str, str] = {}  # comment or reply id -> its thread's id

    # ------------------------------------------------------------------ lookups
    def rows(self) -> list[ThreadRow]:
        return list(self._rows)

    def row(self, thread_id: str) -> ThreadRow | None:
        at = self._row_of.get(thread_id)
        return None if at is None else self._rows[at]

    def row_at(self, at: int) -> ThreadRow:
        return self._rows[at]

    def row_index(self, thread_id: str) -> int | None:
        return self._row_of.get(thread_id)

    def thread_of(self, comment_id: str) -> str | None:
        """The id of the thread holding ``comment_id`` (a top-level comment or a reply)."""
        return self._thread_of.get(comment_id)

    # ------------------------------------------------------------------ updates
    def set_rows(self, rows: list[ThreadRow]) -> bool:
        """Make ``rows`` the model's state, signalling only the threads that differ; True when
        every row was replaced (a first fill, or the threads that stayed changed order)."""
        new_ids = [row.id for row in rows]
        old_ids = [row.id for row in self._rows]
        # a first fill (or a wholly different list) is one removal and one insertion, not 2,000
        fresh = new_ids != old_ids and not set(old_ids) & set(new_ids)
        if fresh or (new_ids != old_ids and not self._move_rows(old_ids, new_ids, rows)):
            self.removeRows(0, self.rowCount())
            self._rows = list(rows)
            self._index()
            self.invisibleRootItem().appendRows([self._item(row) for row in rows])
            return True
        if new_ids != old_ids:  # threads went or came (_move_rows put them in place)
            self._index()
        for at, row in enumerate(rows):
            old = self._rows[at]
            if old is not row and old != row:
                self._rows[at] = row
                self.setItemData(self.index(at, 0), self._roles(row))
                for reply in old.replies:
                    self._thread_of.pop(reply.id, None)
                self._thread_of.update((reply.id, row.id) for reply in row.replies)
        return False

    def refresh_sizes(self, thread_ids: Iterable[str] | None) -> None:
        """Store the sizes of ``thread_ids`` (every row when None) as the delegate lays them out
        now; the caller lays the view out again."""
        if self.size_of is None:
            return
        if thread_ids is None:
            blocked = self.blockSignals(True)  # the caller lays every row out anyway
            try:
                for at, row in enumerate(self._rows):
                    self.setData(self.index(at, 0), self.size_of(row), Qt.ItemDataRole.SizeHintRole)
            finally:
                self.blockSignals(blocked)
            return
        for thread_id in thread_ids:
            at = self._row_of.get(thread_id)
            if at is not None:
                size = self.size_of(self._rows[at])
                index = self.index(at, 0)
                if index.data(Qt.ItemDataRole.SizeHintRole) != size:
                    self.setData(index, size, Qt.ItemDataRole.SizeHintRole)

    def _move_rows(self, old_ids: list[str], new_ids: list[str], rows: list[ThreadRow]) -> bool:
        """Remove the threads that went and insert those that came; False when the ones that stay
        changed order (a rare reshuffle the caller answers by replacing every row)."""
        new_set, old_set = set(new_ids), set(old_ids)
        if [i for i in old_ids if i in new_set] != [i for i in new_ids if i in old_set]:
            return False
        for at in reversed(range(len(old_ids))):
            if old_ids[at] not in new_set:
                # the selection may move while the row is being removed: it reads the rows as
                # they were until the removal is done
                self.removeRow(at)
                del self._rows[at]
        for at, row in enumerate(rows):
            if row.id not in old_set:
                self._rows.insert(at, row)
                self.insertRow(at, self._item(row))
        return True

    def _item(self, row: ThreadRow) -> QStandardItem:
        item = QStandardItem()
        item.setFlags(Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled)
        for role, value in self._roles(row).items():
            item.setData(value, role)
        return item

    def _roles(self, row: ThreadRow) -> dict[int, Any]:
        """What the item holds (accessibility reads the display text when it has no text of its own)."""
        roles: dict[int, Any] = {
            THREAD_ROW_ROLE: row,
            Qt.ItemDataRole.DisplayRole: f"{row.author}: {row.text}",
        }
        if row.quote:
            roles[Qt.ItemDataRole.ToolTipRole] = row.quote
        if self.size_of is not None:
            roles[Qt.ItemDataRole.SizeHintRole] = self.size_of(row)
        return roles

    def _index(self) -> None:
        self._row_of = {row.id: at for at, row in enumerate(self._rows)}
        self._thread_of = {row.id: row.id for row in self._rows}
        self._thread_of.update((reply.id, row.id) for row in self._rows for reply in row.replies)
