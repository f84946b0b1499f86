"""The questions crash safety asks a person: restore unsaved work? open a file someone holds?

:func:`offer_recovery` runs on start: when an earlier session ended without saving (a crash, a
killed process, a laptop that ran out of battery), it lists the copies the autosaver left and
lets the person restore one, discard some, or decide later. A restored document opens modified
and unsaved: the person reads it and decides to save; nothing is written over the original.

:func:`open_document` is how the window opens a file: it warns when Word has the file open and
asks before taking over a file another Reviewer window holds.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QDateTime, QLocale, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..docx.doc_lock import DocumentLockedError
from ..docx.errors import DocxOpenError
from ..docx.reviewer import DocxReviewer
from .autosave import LockKeeper
from .document_controller import DocumentController
from .recovery import RecoveryEntry, RecoveryStore, word_owner

log = logging.getLogger(__name__)


def _tr(text: str) -> str:
    """Translate a string shown outside the dialog class (message boxes of the module's functions)."""
    return QCoreApplication.translate("RecoveryDialog", text)


def local_time(entry_time: float) -> str:
    """A moment (seconds since the epoch) in local time, written the way the person's locale writes it.

    The C/POSIX locale (``LANG=C``, common on servers and in containers) has no date convention of
    its own and Qt's short form for it is ``1 12 2026 14:10``: there the month is named instead.
    """
    stamp = QDateTime.fromMSecsSinceEpoch(int(entry_time * 1000))
    locale = QLocale()
    if locale.language() == QLocale.Language.C:
        return locale.toString(stamp, "d MMM yyyy, HH:mm")
    return locale.toString(stamp, QLocale.FormatType.ShortFormat)


@dataclass
class RecoveryChoice:
    """What the person chose: at most one copy to restore (one document is open at a time) and
    the copies to throw away; every other copy waits for the next start."""

    restore: RecoveryEntry | None = None
    discard: list[RecoveryEntry] = field(default_factory=list)


class RecoveryDialog(QDialog):
    """Lists recoverable documents with Restore / Discard / Later."""

    def __init__(self, entries: list[RecoveryEntry], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Recover unsaved work"))
        self.choice = RecoveryChoice()
        self._entries = {e.key: e for e in entries}
        intro = QLabel(
            self.tr(
                "Reviewer did not close normally last time. These documents had changes that were "
                "not saved. Restore one to continue where you left off; it opens unsaved, so you "
                "decide whether to save it."
            )
        )
        intro.setWordWrap(True)
        self.list = QTreeWidget()
        self.list.setHeaderLabels([self.tr("Document"), self.tr("Location"), self.tr("Last autosaved")])
        self.list.setRootIsDecorated(False)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a folder path's end says the most
        header = self.list.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        for entry in entries:
            self._add_row(entry)
        self.list.setCurrentItem(self.list.topLevelItem(0))
        self.list.itemDoubleClicked.connect(lambda *_: self.restore_selected())
        buttons = QDialogButtonBox()
        self.restore_button = QPushButton(self.tr("&Restore"))
        self.restore_button.setDefault(True)
        self.discard_button = QPushButton(self.tr("&Discard"))
        self.later_button = QPushButton(self.tr("&Later"))
        buttons.addButton(self.restore_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.discard_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        buttons.addButton(self.later_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.restore_button.clicked.connect(self.restore_selected)
        self.discard_button.clicked.connect(self.discard_selected)
        self.later_button.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.list)
        layout.addWidget(buttons)
        self.resize(720, 300)

    def _add_row(self, entry: RecoveryEntry) -> None:
        name = entry.document_name or self.tr("Untitled document")
        where = str(Path(entry.original_path).parent) if entry.original_path else self.tr("(never saved)")
        item = QTreeWidgetItem([name, where, local_time(entry.saved_at.timestamp())])
        item.setData(0, Qt.ItemDataRole.UserRole, entry.key)
        if entry.last_act:
            item.setToolTip(0, self.tr("Last change: {0}").format(entry.last_act))
        item.setToolTip(1, entry.original_path or "")
        self.list.addTopLevelItem(item)

    def _selected(self) -> RecoveryEntry | None:
        item = self.list.currentItem()
        return self._entries.get(item.data(0, Qt.ItemDataRole.UserRole)) if item is not None else None

    def restore_selected(self) -> None:
        """Choose the selected copy and close."""
        entry = self._selected()
        if entry is not None:
            self.choice.restore = entry
            self.accept()

    def discard_selected(self) -> None:
        """Mark the selected copy for removal; the dialog closes when none are left."""
        entry = self._selected()
        if entry is None:
            return
        self.choice.discard.append(entry)
        self.list.takeTopLevelItem(self.list.indexOfTopLevelItem(self.list.currentItem()))
        if self.list.topLevelItemCount() == 0:
            self.reject()


def choose_recovery(parent: QWidget | None, entries: list[RecoveryEntry]) -> RecoveryChoice:
    """Show the dialog (modal) and return what the person chose; nothing chosen means "later"."""
    if not entries:
        return RecoveryChoice()
    dialog = RecoveryDialog(entries, parent)
    dialog.exec()
    return dialog.choice


class _Cancelled(Exception):
    """The person chose not to take over a document another window holds."""


def offer_recovery(
    parent: QWidget | None,
    store: RecoveryStore,
    controller: DocumentController,
    locks: LockKeeper | None = None,
) -> RecoveryEntry | None:
    """On start: offer the copies a crash left; restore the chosen one into ``controller``.

    Returns the restored entry (None when nothing was restored). The restored document is
    modified and unsaved. Its leftover copy is removed once the document is open (an
    :class:`~.autosave.Autosaver` on ``controller`` has written a fresh copy of it by then);
    discarded copies are deleted. With ``locks``, the original file is locked as on any open.
    """
    choice = choose_recovery(parent, store.pending())
    for entry in choice.discard:
        store.discard(entry.key)
    entry = choice.restore
    if entry is None:
        return None
    try:
        data = entry.read_bytes()
        _restore(parent, data, entry.original_path, controller, locks)
    except (OSError, DocxOpenError) as error:
        log.warning("the recovery copy %s could not be restored: %s", entry.key, error)
        QMessageBox.warning(
            parent,
            _tr("Recover unsaved work"),
            _tr("The copy of {0} could not be opened: {1}\nIt is kept for the next start.").format(
                entry.document_name or _tr("Untitled document"), error
            ),
        )
        return None
    except _Cancelled:
        return None
    store.discard(entry.key)
    return entry


def _restore(
    parent: QWidget | None,
    data: bytes,
    path: str | None,
    controller: DocumentController,
    locks: LockKeeper | None,
) -> DocxReviewer:
    if locks is None:
        return controller.open_bytes(data, path)
    try:
        return locks.open_bytes(data, path)
    except DocumentLockedError as error:
        if not ask_take_over(parent, error):
            raise _Cancelled from None
        return locks.open_bytes(data, path, take_over=True)


def ask_take_over(parent: QWidget | None, error: DocumentLockedError) -> bool:
    """Ask whether to open a document another Reviewer window holds; True = open anyway."""
    owner = error.owner
    since = local_time(owner.opened_at.timestamp()) if owner.opened_at else "?"
    box = QMessageBox(
        QMessageBox.Icon.Warning,
        _tr("Document in use"),
        _tr("{0} is open in Reviewer by {1} on {2} since {3}.").format(
            Path(error.document_path).name, owner.user or _tr("someone"), owner.host, since
        ),
        QMessageBox.StandardButton.Cancel,
        parent,
    )
    box.setInformativeText(
        _tr(
            "If you open it anyway, whichever of you saves last overwrites the other's work. "
            "Open it anyway only if that window is no longer in use."
        )
    )
    open_anyway = box.addButton(_tr("Open Anyway"), QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is open_anyway


def warn_word_has_it_open(parent: QWidget | None, path: str, user: str) -> bool:
    """Warn that Word has the file open; True = open it here anyway."""
    answer = QMessageBox.warning(
        parent,
        _tr("Open in Word"),
        (
            _tr(
                "{0} appears to be open in Microsoft Word by {1}. If both programs save it, one "
                "overwrites the other's changes. Open it anyway?"
            )
            if user
            else _tr(
                "{0} appears to be open in Microsoft Word. If both programs save it, one overwrites "
                "the other's changes. Open it anyway?"
            )
        ).format(Path(path).name, user),
        QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel,
    )
    return answer == QMessageBox.StandardButton.Open


def open_document(parent: QWidget | None, locks: LockKeeper, path: str | os.PathLike[str]) -> bool:
    """Open ``path`` through ``locks``, asking first when Word or another Reviewer window has it.

    Returns False when the person cancelled; the controller's open errors propagate (the window
    shows them as it shows any file that cannot be opened).
    """
    word_user = word_owner(path)
    if word_user is not None and not warn_word_has_it_open(parent, os.fspath(path), word_user):
        return False
    try:
        locks.open(path)
    except DocumentLockedError as error:
        if not ask_take_over(parent, error):
            return False
        locks.open(path, take_over=True)
    return True
