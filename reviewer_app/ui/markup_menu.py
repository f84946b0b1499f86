"""Review ▸ Show Markup ▸ by reviewer, Simple Markup and Accept All Changes Shown, as in Word.

Which markup the pages show is the page view's :class:`~.pageview.records.MarkupFilter` plus its
markup mode; this object keeps both in step with the View menu's markup choices and the Show
Markup menu, where each reviewer (an author of changes or of comments) has a check mark. A
hidden reviewer's changes read on the page as accepted and their comments go from the page;
the document itself is untouched. Accept All Changes Shown accepts the changes of the reviewers
still shown, as one undo step, and leaves the hidden reviewers' changes for later.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMenu

from ..docx.weak_links import BackReference
from .pageview.records import MarkupFilter
from .plurals import count_text
from .window_actions import connect

if TYPE_CHECKING:
    from .window_host import WindowHost

#: the View menu's markup choices: (action name, markup mode, Simple Markup)
MARKUP_VIEWS = (
    ("markup_all", "all", False),
    ("markup_simple", "all", True),
    ("markup_none", "none", False),
    ("markup_original", "original", False),
)


class ReviewerMarkup(QObject):
    """The Show Markup submenu, the markup views and Accept All Changes Shown (see the module docstring)."""

    _window: BackReference[WindowHost] = BackReference()

    def __init__(self, window: WindowHost) -> None:
        super().__init__(window)
        self._window = window
        self._view = window.page_view
        self._controller = window.controller
        self.menu = QMenu(window.tr("Show &Markup"), window)
        self.menu.setObjectName("showMarkupMenu")
        self.menu.aboutToShow.connect(self._fill)
        review = window.menus["review"]
        review.insertMenu(review.actions()[0], self.menu)
        review.insertSeparator(review.actions()[1])
        for name, mode, simple in MARKUP_VIEWS:
            connect(getattr(window.actions, name), lambda m=mode, s=simple: self.show_view(m, s))
        connect(window.actions.accept_shown, self.accept_shown)
        self._controller.document_loaded.connect(self._document_loaded)

    # ------------------------------------------------------------------ what the pages show
    def show_view(self, mode: str, simple: bool) -> None:
        """All Markup, Simple Markup, No Markup or Original; the hidden reviewers stay hidden."""
        markup = MarkupFilter(self._view.markup_filter().hidden_authors, simple)
        self._view.set_markup(mode, markup)

    def hidden_authors(self) -> frozenset[str]:
        return self._view.markup_filter().hidden_authors

    def set_shown(self, author: str, shown: bool) -> None:
        """Show or hide one reviewer's changes and comments on the page."""
        hidden = self.hidden_authors() - {author} if shown else self.hidden_authors() | {author}
        self._set_hidden(frozenset(hidden))

    def show_all(self) -> None:
        self._set_hidden(frozenset())

    def _set_hidden(self, hidden: frozenset[str]) -> None:
        markup = MarkupFilter(hidden, self._view.markup_filter().simple)
        self._view.set_markup(self._view.markup_mode(), markup)

    def _document_loaded(self) -> None:
        """Another document has other reviewers: everyone's markup shows again."""
        self._set_hidden(frozenset())

    def reviewers(self) -> list[str]:
        """Everyone with a change or a comment in the open document, in alphabetical order."""
        reviewer = self._controller.reviewer
        if reviewer is None:
            return []
        names = {c["author"] for c in reviewer.change_details()}
        names |= {c["author"] for c in reviewer.comments() if c.get("author")}
        return sorted(names, key=str.casefold)

    def _fill(self) -> None:
        self.menu.clear()
        hidden = self.hidden_authors()
        everyone = self.menu.addAction(self.tr("&All Reviewers"))
        everyone.setObjectName("showAllReviewers")
        everyone.setCheckable(True)
        everyone.setChecked(not hidden)
        everyone.triggered.connect(lambda _checked=False: self.show_all())
        self.menu.addSeparator()
        for author in self.reviewers():
            action = self.menu.addAction(author.replace("&", "&&"))
            action.setCheckable(True)
            action.setChecked(author not in hidden)
            action.triggered.connect(lambda checked, who=author: self.set_shown(who, checked))
        self.menu.setEnabled(self._controller.reviewer is not None)

    # ------------------------------------------------------------------ accepting
    def accept_shown(self) -> int:
        """Accept every change of the reviewers shown, as one undo step; says how many stayed."""
        reviewer = self._controller.reviewer
        if reviewer is None:
            return 0
        hidden = self.hidden_authors()
        changes = reviewer.change_details()
        kept = sum(c["author"] in hidden for c in changes)
        if hidden:
            ids = [c["id"] for c in changes if c["author"] not in hidden]
            count = self._controller.accept_changes(ids) if ids else 0
        else:
            count = self._controller.accept_all()
        message = count_text(count, "Accepted {n} change shown", "Accepted {n} changes shown")
        if kept:
            message += "; " + count_text(kept, "{n} hidden change kept", "{n} hidden changes kept")
        self._window.statusBar().showMessage(message, 6000)
        return count
