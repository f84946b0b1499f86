"""Help menu dialogs: About (with every version a bug report needs), keyboard shortcuts, the log folder.

Dialogs are opened with ``open()``, never ``exec()``, so they do not start a nested event loop
under a running agent turn (design.md, "Async").
"""

from __future__ import annotations

import importlib.metadata
import platform
from collections.abc import Iterable
from pathlib import Path

import PySide6
from PySide6.QtCore import QCoreApplication, Qt, QUrl, qVersion
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMenu,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from .. import __version__
from ..private_paths import private_dir


def _tr(text: str) -> str:
    return QCoreApplication.translate("HelpDialogs", text)


def _distribution_version(name: str) -> str:
    """An installed package's version without importing it (``anthropic`` loads lazily)."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return _tr("not installed")


def component_versions() -> list[tuple[str, str]]:
    """(component, version) pairs for About and for error reports."""
    return [
        ("Reviewer", __version__),
        ("Python", platform.python_version()),
        ("Qt", qVersion()),
        ("PySide6", PySide6.__version__),
        ("lxml", _distribution_version("lxml")),
        ("anthropic", _distribution_version("anthropic")),
        (_tr("System"), f"{platform.system()} {platform.release()} ({platform.machine()})"),
    ]


def versions_text() -> str:
    """The versions as plain text lines, for the clipboard."""
    return "\n".join(f"{name}: {version}" for name, version in component_versions())


def show_about(parent: QWidget | None) -> QMessageBox:
    """Open the About box (window-modal, non-blocking) and return it."""
    rows = "".join(
        f"<tr><td>{name}</td><td>&nbsp;&nbsp;{version}</td></tr>" for name, version in component_versions()
    )
    box = QMessageBox(parent)
    box.setWindowTitle(_tr("About Reviewer"))
    box.setIcon(QMessageBox.Icon.Information)
    box.setTextFormat(Qt.TextFormat.RichText)
    purpose = _tr("Review and draft Word contracts with an AI agent.")
    tracked = _tr(
        "Every change the agent makes is a tracked change or a Word comment in your document; "
        "you accept or reject each one, and nothing is finalized without you."
    )
    box.setText(f"<h3>Reviewer {__version__}</h3><p>{purpose}</p><p>{tracked}</p><table>{rows}</table>")
    box.setStandardButtons(QMessageBox.StandardButton.Close)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box


def _without_mnemonic(text: str) -> str:
    """``&Open`` → ``Open`` and ``Terms && Conditions`` → ``Terms & Conditions``."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def _menu_title(action: QAction) -> str:
    """The title of the first menu holding ``action``, or ``""`` (toolbar-only or window actions)."""
    for holder in action.associatedObjects():
        if isinstance(holder, QMenu) and holder.title():
            return _without_mnemonic(holder.title())
    return ""


class ShortcutsDialog(QDialog):
    """A table of the given actions that have a keyboard shortcut: command, shortcut(s), menu."""

    def __init__(self, actions: Iterable[QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        rows: list[tuple[str, str, str]] = []
        seen: set[int] = set()
        for action in actions:
            shortcuts = [s for s in action.shortcuts() if not s.isEmpty()]
            if id(action) in seen or action.isSeparator() or not action.text() or not shortcuts:
                continue
            seen.add(id(action))
            keys = ", ".join(s.toString(QKeySequence.SequenceFormat.NativeText) for s in shortcuts)
            rows.append((_without_mnemonic(action.text()), keys, _menu_title(action)))
        rows.sort(key=lambda row: (row[2], row[0]))
        self.table = QTableWidget(len(rows), 3, self)
        self.table.setHorizontalHeaderLabels([self.tr("Command"), self.tr("Shortcut"), self.tr("Menu")])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        for row, cells in enumerate(rows):
            for column, text in enumerate(cells):
                self.table.setItem(row, column, QTableWidgetItem(text))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(520, 480)

    def rows(self) -> list[tuple[str, str, str]]:
        """The table's rows as text (command, shortcut, menu)."""
        return [
            tuple(self.table.item(row, column).text() for column in range(3))  # type: ignore[misc]
            for row in range(self.table.rowCount())
        ]


def show_shortcuts(actions: Iterable[QAction], parent: QWidget | None) -> ShortcutsDialog:
    """Open the shortcuts table for ``actions`` (e.g. ``window.findChildren(QAction)``) and return it."""
    dialog = ShortcutsDialog(actions, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog


def open_log_folder(folder: Path) -> bool:
    """Show ``folder`` in the file manager (created first so there is something to open)."""
    private_dir(folder)
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))
