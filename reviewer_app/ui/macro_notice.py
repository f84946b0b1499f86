"""Say, without stopping anyone, that the open document carries macros.

A macro-enabled package (a .docm, or a .docx with a VBA project smuggled in) is something a
lawyer should know about before sending a copy on: Reviewer never runs the macros, but they
travel with the file until ``finalize --strip-metadata`` removes them. The notice is an
information banner above the page plus a status bar line, never a modal box; dismissed, it
stays away for that file until another document is opened.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QBoxLayout, QStatusBar, QWidget

from ..docx.edit.hidden_data import has_macros
from ..docx.reviewer import DocxReviewer
from .chat.banner import Banner

STATUS_MS = 10_000


class MacroNotice(QObject):
    """Shows the banner at the top of ``column`` when a document with macros is loaded."""

    def __init__(self, parent: QWidget, column: QBoxLayout, status_bar: QStatusBar) -> None:
        super().__init__(parent)
        self._parent = parent
        self._column = column
        self._status_bar = status_bar
        self.banner: Banner | None = None
        #: the document the notice was last given for, so a reload after saving does not repeat it
        self._noticed: DocxReviewer | str | None = None

    def document_loaded(self, reviewer: DocxReviewer | None) -> None:
        """Show the notice for a newly opened document with macros, and drop the previous one's."""
        key = (reviewer.path or reviewer) if reviewer is not None else None
        if key == self._noticed:
            return
        self._noticed = key
        self._remove_banner()
        if self._status_bar.currentMessage() == self._status_text():
            self._status_bar.clearMessage()  # it was about the document just closed
        if reviewer is None or not has_macros(reviewer.package):
            return
        text = self.tr(
            "This document contains macros (a VBA project). Reviewer never runs them, but they stay "
            "in the file when you save it; reviewer finalize --strip-metadata makes a copy without them."
        )
        self.banner = Banner(text, kind="info", parent=self._parent)
        self.banner.closed.connect(self._forget_banner)
        self._column.insertWidget(0, self.banner)
        self.banner.show()
        self._status_bar.showMessage(self._status_text(), STATUS_MS)

    def _status_text(self) -> str:
        return self.tr("This document contains macros; Reviewer does not run them.")

    def _remove_banner(self) -> None:
        banner, self.banner = self.banner, None
        if banner is not None:
            banner.dismiss()

    def _forget_banner(self) -> None:
        """The person closed it (the banner deletes itself)."""
        self.banner = None
