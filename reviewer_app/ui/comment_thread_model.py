"""The comments panel's rows: one immutable :class:`ThreadRow` per comment thread, in document order.

The model is updated in place, never rebuilt: after a change to the document the panel hands it
the new rows and it tells the view only what differs — ``dataChanged`` for a thread whose text,
replies, state or page changed, ``rowsRemoved``/``rowsInserted`` for threads that went or came.
An unchanged thread keeps its very :class:`ThreadRow` object, so the delegate's cached layout of
it stays valid and one reply on a 2,000-thread contract costs one row, not 2,000.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, QSize, Qt

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


class CommentThreadModel(QAbstractListModel):
    """The threads in document order; :meth:`set_rows` applies a new state incrementally."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        #: the size a row is drawn at (the delegate's layout), answered for ``SizeHintRole``
        self.size_of: Callable[[ThreadRow], QSize] | None = None
        self._rows: list[ThreadRow] = []
        self._row_of: dict[str, int] = {}
        self._thread_of: dict[str, str] = {}  # comment or reply id -> its thread's id

    # ------------------------------------------------------------------ Qt model
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == Qt.ItemDataRole.SizeHintRole:
            return None if self.size_of is None else self.size_of(row)
        if role == THREAD_ROW_ROLE:
            return row
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return f"{row.author}: {row.text}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.quote or None
        return None

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
        that took a reset (a first fill, or the threads that stayed changed order)."""
        new_ids = [row.id for row in rows]
        old_ids = [row.id for row in self._rows]
        # a first fill (or a wholly different list) is one reset, not 2,000 single insertions
        fresh = new_ids != old_ids and not set(old_ids) & set(new_ids)
        if fresh or (new_ids != old_ids and not self._move_rows(old_ids, new_ids, rows)):
            self.beginResetModel()
            self._rows = list(rows)
            self._index()
            self.endResetModel()
            return True
        for at, row in enumerate(rows):
            if self._rows[at] != row:
                self._rows[at] = row
                changed = self.index(at)
                self.dataChanged.emit(changed, changed, [THREAD_ROW_ROLE])
        self._index()
        return False

    def _move_rows(self, old_ids: list[str], new_ids: list[str], rows: list[ThreadRow]) -> bool:
        """Remove the threads that went and insert those that came; False when the ones that stay
        changed order (a rare reshuffle the caller answers with a reset)."""
        new_set, old_set = set(new_ids), set(old_ids)
        if [i for i in old_ids if i in new_set] != [i for i in new_ids if i in old_set]:
            return False
        for at in reversed(range(len(old_ids))):
            if old_ids[at] not in new_set:
                self.beginRemoveRows(QModelIndex(), at, at)
                del self._rows[at]
                self.endRemoveRows()
        for at, row in enumerate(rows):
            if row.id not in old_set:
                self.beginInsertRows(QModelIndex(), at, at)
                self._rows.insert(at, row)
                self.endInsertRows()
        return True

    def _index(self) -> None:
        self._row_of = {row.id: at for at, row in enumerate(self._rows)}
        self._thread_of = {row.id: row.id for row in self._rows}
        self._thread_of.update((reply.id, row.id) for row in self._rows for reply in row.replies)
