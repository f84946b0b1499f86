"""The main window: one open document, a File menu, and a status bar.

The document area is the paginated :class:`~reviewer_app.ui.pageview.PageView`. The window
talks to it only through :meth:`DocumentArea.show_document` and
:meth:`DocumentArea.clear_document`, so :class:`BlockListView` (one line per content block with
its list label, the earlier stand-in) can still take its place with
:meth:`MainWindow.set_document_view`.

Opening never shows a traceback: a file the engine refuses shows its plain-language reason,
and an unexpected failure shows a short apology while the details go to the log.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Protocol, runtime_checkable

from PySide6.QtCore import QStandardPaths, Signal
from PySide6.QtGui import (
    QAction,
    QFont,
    QKeySequence,
    QPalette,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QTextBrowser,
    QWidget,
)

from ..docx.blocks import Block
from ..docx.errors import DocxOpenError
from ..docx.reviewer import DocxReviewer
from ..docx.snapshot import Snapshot
from .pageview import PageView

log = logging.getLogger(__name__)

#: Shown inside a block when its text holds a manual line break, keeping one block per line.
LINE_BREAK_MARK = " \u21b5 "


@runtime_checkable
class DocumentArea(Protocol):
    """What the window needs from whatever widget shows the document."""

    def show_document(self, reviewer: DocxReviewer, snapshot: Snapshot) -> None:
        """Show ``snapshot`` of the document held by ``reviewer``."""

    def clear_document(self) -> None:
        """Show no document."""


def block_prefix(block: Block) -> str:
    """The marker shown before a block's text: heading level, list label, table cell.

    Kept separate from the widget so the format can be checked without a display.
    """
    parts: list[str] = []
    if block.table is not None:
        table = block.table
        parts.append(
            f"T{table.get('tableIndex', 0) + 1}·R{table.get('rowIndex', 0) + 1}"
            f"·C{table.get('cellIndex', 0) + 1}"
        )
    if block.heading_level:
        parts.append(f"H{block.heading_level}")
    if block.display_label:
        parts.append(f"[{block.display_label}]")
    return " ".join(parts)


def block_line(block: Block) -> str:
    """The whole line shown for ``block`` as plain text (``[1.1] The Supplier shall…``)."""
    prefix = block_prefix(block)
    text = block.text.replace("\n", LINE_BREAK_MARK)
    return f"{prefix} {text}" if prefix else text


class BlockListView(QTextBrowser):
    """Read-only stand-in for the page view: each content block on its own line, labelled."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("blockListView")
        self.setOpenLinks(False)
        self.setPlaceholderText(self.tr("Open a Word document with File > Open."))

    def show_document(self, reviewer: DocxReviewer, snapshot: Snapshot) -> None:
        """Lay out one line per content block; headings bold, labels and markers muted."""
        del reviewer  # the page view will need it (styles, sections); this view does not
        document = self.document()
        document.clear()
        cursor = QTextCursor(document)
        muted = QTextCharFormat()
        muted.setForeground(self.palette().color(QPalette.ColorRole.PlaceholderText))
        plain = QTextCharFormat()
        bold = QTextCharFormat()
        bold.setFontWeight(QFont.Weight.Bold)
        italic = QTextCharFormat()
        italic.setFontItalic(True)
        body_spacing = QTextBlockFormat()
        body_spacing.setBottomMargin(4)
        heading_spacing = QTextBlockFormat()
        heading_spacing.setTopMargin(8)
        heading_spacing.setBottomMargin(4)
        cursor.beginEditBlock()
        first = True
        for block in snapshot.content_blocks():
            spacing = heading_spacing if block.heading_level else body_spacing
            if first:
                cursor.setBlockFormat(spacing)
            else:
                cursor.insertBlock(spacing)
            first = False
            prefix = block_prefix(block)
            if prefix:
                cursor.insertText(prefix + " ", muted)
            if block.kind == "diagnostic":
                text_format = italic
            elif block.heading_level:
                text_format = bold
            else:
                text_format = plain
            cursor.insertText(block.text.replace("\n", LINE_BREAK_MARK), text_format)
        cursor.endEditBlock()
        self.moveCursor(QTextCursor.MoveOperation.Start)

    def clear_document(self) -> None:
        """Show nothing (the placeholder hint appears)."""
        self.document().clear()


class MainWindow(QMainWindow):
    """One document per window: File > Open / Quit, the document area, a block count."""

    #: Emitted with the file path after a document opened and is shown.
    document_opened = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self._reviewer: DocxReviewer | None = None
        self._snapshot: Snapshot | None = None
        self._view: QWidget = PageView(self)
        self.setCentralWidget(self._view)
        self._count_label = QLabel(self)
        self._count_label.setObjectName("blockCountLabel")
        self.statusBar().addPermanentWidget(self._count_label)
        self._build_menus()
        self._refresh_chrome()
        self.resize(1000, 760)

    # ------------------------------------------------------------------ properties
    @property
    def reviewer(self) -> DocxReviewer | None:
        """The open document (None before the first successful open)."""
        return self._reviewer

    @property
    def snapshot(self) -> Snapshot | None:
        """The snapshot currently shown."""
        return self._snapshot

    @property
    def document_view(self) -> QWidget:
        """The widget showing the document (the central widget)."""
        return self._view

    def set_document_view(self, view: QWidget) -> None:
        """Replace the document area (the page view by default; the block list for debugging)."""
        if not isinstance(view, DocumentArea):
            raise TypeError("a document view needs show_document() and clear_document()")
        self._view = view
        self.setCentralWidget(view)  # Qt deletes the previous central widget
        if self._reviewer is not None and self._snapshot is not None:
            view.show_document(self._reviewer, self._snapshot)

    # ------------------------------------------------------------------ menus
    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        self.open_action = QAction(self.tr("&Open…"), self)
        self.open_action.setObjectName("openAction")
        self.open_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Open))
        self.open_action.setStatusTip(self.tr("Open a Word document (.docx)"))
        self.open_action.triggered.connect(self.show_open_dialog)
        file_menu.addAction(self.open_action)
        file_menu.addSeparator()
        self.quit_action = QAction(self.tr("&Quit"), self)
        self.quit_action.setObjectName("quitAction")
        # Some platforms (Windows, the offscreen test platform) define no standard Quit key.
        quit_keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Quit)
        self.quit_action.setShortcuts(quit_keys or [QKeySequence("Ctrl+Q")])
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        self.quit_action.triggered.connect(self._quit)
        file_menu.addAction(self.quit_action)

    def _quit(self) -> None:
        self.close()
        app = QApplication.instance()
        if app is not None:
            app.quit()

    # ------------------------------------------------------------------ opening
    def show_open_dialog(self) -> None:
        """Ask for a .docx and open it (cancelling leaves the current document as it is)."""
        start = self._dialog_folder()
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Open Word document"),
            start,
            self.tr("Word documents (*.docx);;All files (*)"),
        )
        if path:
            self.open_path(path)

    def _dialog_folder(self) -> str:
        if self._reviewer is not None and self._reviewer.path:
            return str(Path(self._reviewer.path).parent)
        return QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)

    def open_path(self, path: str | os.PathLike[str]) -> bool:
        """Open and show ``path``; on failure explain why and keep the current document.

        Returns True when the document is now shown.
        """
        shown = str(path)
        try:
            reviewer = DocxReviewer.open(shown)
            snapshot = reviewer.snapshot()
        except DocxOpenError as exc:
            log.info("refused to open a document: %s", type(exc).__name__)
            self.show_error(self.tr("Cannot open document"), str(exc))
            return False
        except Exception:
            log.exception("unexpected failure while opening a document")
            self.show_error(
                self.tr("Cannot open document"),
                self.tr(
                    "Reviewer could not read {name} because of an internal error. "
                    "The details were written to the log."
                ).format(name=Path(shown).name),
            )
            return False
        self._reviewer = reviewer
        self._snapshot = snapshot
        view = self._view
        assert isinstance(view, DocumentArea)
        view.show_document(reviewer, snapshot)
        self._refresh_chrome()
        self.document_opened.emit(shown)
        return True

    def show_error(self, title: str, message: str) -> None:
        """A modal warning with the engine's message (tests replace ``QMessageBox.exec``)."""
        box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, self)
        box.setObjectName("openErrorBox")
        box.exec()

    # ------------------------------------------------------------------ chrome
    def _refresh_chrome(self) -> None:
        """Title and status bar follow the open document."""
        if self._reviewer is None or self._snapshot is None:
            self.setWindowTitle(self.tr("Reviewer"))
            self._count_label.setText(self.tr("No document"))
            return
        name = Path(self._reviewer.path or self.tr("Untitled.docx")).name
        self.setWindowTitle(self.tr("{name} — Reviewer").format(name=name))
        count = len(self._snapshot.content_blocks())
        self._count_label.setText(self.tr("Blocks: {count}").format(count=count))
