"""A notice about the open document that stops no one: a banner above the page and a status line.

Some things about a file a lawyer should know as it opens (it carries macros; it is protected
for tracked changes), but none of them is worth a modal box. A :class:`DocumentNotice` shows
its banner when a document it applies to is loaded and drops it with that document; dismissed,
it stays away for that file until another document is opened, and a reload of the same file
after saving does not repeat it. Subclasses say when they apply and what they say.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QBoxLayout, QStatusBar, QWidget

from ..docx.reviewer import DocxReviewer
from ..docx.weak_links import BackReference
from .chat.banner import Banner

STATUS_MS = 10_000


class DocumentNotice(QObject):
    """Shows a banner at the top of ``column`` when a document the notice applies to is loaded."""

    _parent: BackReference[QWidget] = BackReference()

    def __init__(self, parent: QWidget, column: QBoxLayout, status_bar: QStatusBar) -> None:
        super().__init__(parent)
        self._parent = parent
        self._column = column
        self._status_bar = status_bar
        self.banner: Banner | None = None
        #: the document the notice was last given for, so a reload after saving does not repeat it
        self._noticed: DocxReviewer | str | None = None

    def applies(self, reviewer: DocxReviewer) -> bool:
        """True when the notice concerns this document."""
        raise NotImplementedError

    def banner_text(self) -> str:
        raise NotImplementedError

    def status_text(self) -> str:
        raise NotImplementedError

    def document_loaded(self, reviewer: DocxReviewer | None) -> None:
        """Show the notice for a newly opened document it applies to, and drop the previous one's."""
        key = (reviewer.path or reviewer) if reviewer is not None else None
        if key == self._noticed:
            return
        self._noticed = key
        self._remove_banner()
        if self._status_bar.currentMessage() == self.status_text():
            self._status_bar.clearMessage()  # it was about the document just closed
        if reviewer is None or not self.applies(reviewer):
            return
        self.banner = Banner(self.banner_text(), kind="info", parent=self._parent)
        self.banner.closed.connect(self._forget_banner)
        self._column.insertWidget(0, self.banner)
        self.banner.show()
        self._status_bar.showMessage(self.status_text(), STATUS_MS)

    def _remove_banner(self) -> None:
        banner, self.banner = self.banner, None
        if banner is not None:
            banner.dismiss()

    def _forget_banner(self) -> None:
        """The person closed it (the banner deletes itself)."""
        self.banner = None
