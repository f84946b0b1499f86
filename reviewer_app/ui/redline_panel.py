"""The redline panel: every tracked change of the open document, to go through and accept or reject.

The panel reads the document through :class:`DocumentController` and changes it only through
it (``accept_changes``, ``reject_changes``, ``accept_all``, ``reject_all``), so every act is one
Undo step. It rebuilds its list on ``document_loaded`` and ``document_changed`` and keeps the
person's place: the selected change stays selected when it survives, and when it was just
accepted or rejected the following change is selected, so a lawyer working down the list lands
on the next one.

Keyboard, while the list has focus: Enter shows the current change in the document, A accepts
and R rejects the selected changes; the Review menu uses :meth:`RedlinePanel.next_change` and
:meth:`RedlinePanel.previous_change`.

The agent's recommendations (Agent ▸ Triage Their Changes) come from :attr:`RedlinePanel.recommend`
and show on their changes; "Accept recommended" and "Reject recommended", shown while there
are recommendations, accept (reject) exactly the changes recommended so, as one Undo step each.

Selection sync with the page view: :attr:`RedlinePanel.change_selected` is emitted when the
person picks a change here; :meth:`RedlinePanel.select_change` selects one picked elsewhere
without emitting, so the two views never bounce a selection between them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QListView,
    QMenu,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from .document_controller import DocumentController
from .plurals import count_text
from .redline_delegate import ChangeDelegate
from .redline_filters import RedlineFilterBar
from .redline_model import (
    CHANGE_ID_ROLE,
    PageLookup,
    RecommendationLookup,
    RedlineModel,
    build_rows,
    merged_ranges,
    next_shown,
)

log = logging.getLogger(__name__)

#: how long typing pauses before the list is rebuilt (listing every change costs ~100 ms on a
#: 300-page contract: more than a keystroke may take)
TYPING_PAUSE_MS = 400

#: the first entry of the Accept all / Reject all menus (one and many), keyed by "accept"
_EVERYTHING = {
    True: ("Accept all {n} change in the document", "Accept all {n} changes in the document"),
    False: ("Reject all {n} change in the document", "Reject all {n} changes in the document"),
}


class RedlinePanel(QWidget):
    """Tracked changes list with filters, counts and accept/reject (see the module docstring)."""

    #: the person picked this change here (the page view shows it)
    change_selected = Signal(str)
    #: the list was rebuilt from the document (the status bar counts its rows)
    refreshed = Signal()

    def __init__(
        self,
        controller: DocumentController,
        page_of_block: PageLookup | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("redlinePanel")
        self.setAccessibleName(self.tr("Tracked changes"))
        self._controller = controller
        self._page_of_block = page_of_block
        self._pages_ready = False
        self._quiet = 0  # >0 while the panel itself moves the selection (see _quietly)
        self._announced: str | None = None  # the change the page view was last told about
        #: the agent's recommendations for the changes listed (set by the triage command)
        self.recommend: RecommendationLookup | None = None
        #: seconds the last rebuild took (the panel keeps it under ~50 ms on a 300-page contract)
        self.last_refresh_seconds = 0.0
        self.model = RedlineModel(self)
        #: a rebuild waiting for the person to stop typing (see :meth:`_document_changed`)
        self._after_typing = QTimer(self, singleShot=True, interval=TYPING_PAUSE_MS)
        self._after_typing.timeout.connect(self.refresh)
        self._build()
        controller.document_loaded.connect(self._document_loaded)
        controller.document_changed.connect(self._document_changed)
        self.refresh()

    # ------------------------------------------------------------------ widgets
    def _build(self) -> None:
        self.accept_button = QPushButton(self.tr("Accept"))
        self.accept_button.setToolTip(self.tr("Accept the selected changes (A)"))
        self.reject_button = QPushButton(self.tr("Reject"))
        self.reject_button.setToolTip(self.tr("Reject the selected changes (R)"))
        self.accept_all_button = self._all_button(self.tr("Accept all"), accept=True)
        self.reject_all_button = self._all_button(self.tr("Reject all"), accept=False)
        self.accept_button.clicked.connect(self.accept_selected)
        self.reject_button.clicked.connect(self.reject_selected)
        actions = QHBoxLayout()
        for button in (self.accept_button, self.reject_button):
            button.setAccessibleName(button.text())
            actions.addWidget(button)
        actions.addStretch(1)
        actions.addWidget(self.accept_all_button)
        actions.addWidget(self.reject_all_button)

        self.accept_recommended_button = QPushButton(objectName="acceptRecommended")
        self.accept_recommended_button.setToolTip(self.tr("Accept the changes the agent says to accept"))
        self.accept_recommended_button.clicked.connect(self.accept_recommended)
        self.reject_recommended_button = QPushButton(objectName="rejectRecommended")
        self.reject_recommended_button.setToolTip(self.tr("Reject the changes the agent says to reject"))
        self.reject_recommended_button.clicked.connect(self.reject_recommended)
        self.recommended_row = QWidget()
        recommended = QHBoxLayout(self.recommended_row)
        recommended.setContentsMargins(0, 0, 0, 0)
        recommended.addWidget(self.accept_recommended_button)
        recommended.addWidget(self.reject_recommended_button)
        recommended.addStretch(1)

        self.filters = RedlineFilterBar()
        self.filters.changed.connect(self._filters_changed)

        self.view = QListView()
        self.view.setObjectName("redlineList")
        self.view.setAccessibleName(self.tr("Tracked changes list"))
        self.view.setModel(self.model)
        self.view.setItemDelegate(ChangeDelegate(self.view))
        self.view.setUniformItemSizes(True)  # constant-time layout and scrolling over a thousand rows
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.selectionModel().currentRowChanged.connect(self._picked)
        self.view.selectionModel().selectionChanged.connect(self._picked)
        self.view.selectionModel().selectionChanged.connect(self._update_actions)
        self.view.doubleClicked.connect(lambda _index: self.show_current())
        self._shortcut(QKeySequence(Qt.Key.Key_Return), self.show_current)
        self._shortcut(QKeySequence(Qt.Key.Key_Enter), self.show_current)
        self._shortcut(QKeySequence(Qt.Key.Key_A), self.accept_selected)
        self._shortcut(QKeySequence(Qt.Key.Key_R), self.reject_selected)

        self.empty_label = QLabel()
        self.empty_label.setObjectName("redlineEmpty")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.view)
        self.stack.addWidget(self.empty_label)

        self.count_label = QLabel()
        self.count_label.setObjectName("redlineCounts")
        self.count_label.setAccessibleName(self.tr("Change counts"))

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(6)
        layout.addLayout(actions)
        layout.addWidget(self.recommended_row)
        layout.addWidget(self.filters)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.count_label)

    def _all_button(self, text: str, accept: bool) -> QPushButton:
        """A button whose menu offers the whole document and then each author's changes."""
        button = QPushButton(text)
        button.setAccessibleName(text)
        menu = QMenu(button)
        menu.aboutToShow.connect(lambda: self._fill_all_menu(menu, accept))
        button.setMenu(menu)
        return button

    def _fill_all_menu(self, menu: QMenu, accept: bool) -> None:
        self._settle()
        menu.clear()
        total = len(self.model.all_rows)
        everything = count_text(total, *_EVERYTHING[accept])
        act = self.accept_all if accept else self.reject_all
        menu.addAction(everything, lambda: act(None))
        menu.addSeparator()
        for author in self.model.authors():
            mine = sum(1 for row in self.model.all_rows if row.author == author)
            template = self.tr("Accept all by {0} ({1})") if accept else self.tr("Reject all by {0} ({1})")
            menu.addAction(template.format(author or self.tr("(unknown)"), mine), lambda a=author: act(a))

    def _shortcut(self, keys: QKeySequence, slot: Callable[[], object]) -> None:
        shortcut = QShortcut(keys, self.view)
        shortcut.setContext(Qt.ShortcutContext.WidgetShortcut)  # typing in the filter field stays typing
        shortcut.activated.connect(slot)

    # ------------------------------------------------------------------ pages
    def set_page_lookup(self, page_of_block: PageLookup | None) -> None:
        """Where pages come from, and fill them now (call it when the layout is done).

        ``page_of_block(block_id)`` answers a 0-based page or None, as the page view's
        ``PageIndex.page_of_block`` does; the panel shows it 1-based.
        """
        self._page_of_block = page_of_block
        self.refresh_pages()

    def refresh_pages(self) -> None:
        """Fill the Page column: connect to the page view's ``layout_finished``."""
        self._pages_ready = self._page_of_block is not None
        self.model.set_pages(self._page_of_block)

    # ------------------------------------------------------------------ refresh
    def _document_loaded(self) -> None:
        """A different document: no filters, no selection, pages unknown until its layout finishes."""
        self._pages_ready = False
        self._announced = None
        self.view.selectionModel().clear()
        self.filters.reset(emit=False)
        self.model.set_filter(None, None, "")
        self.refresh()

    def _document_changed(self, _touched: object = None) -> None:
        """Rebuild now, or once typing pauses: the list follows a burst of keys when the person
        stops, so no keystroke waits for every change to be listed again."""
        if self._controller.typing:
            self._after_typing.start()
        else:
            self.refresh()

    def _settle(self) -> None:
        """Rebuild now if typing left the list behind: before the person's acts and lookups."""
        if self._after_typing.isActive():
            self.refresh()

    def refresh(self, _touched: object = None) -> None:
        """Rebuild the list from the document, keeping the selection and the scroll position."""
        self._after_typing.stop()
        started = time.perf_counter()
        previous = self.model.shown_ids()
        selected = self.selected_ids()
        current = self.current_id()
        top = self._top_id()
        reviewer = self._controller.reviewer
        self.model.set_rows(build_rows(reviewer, self.recommend) if reviewer is not None else [])
        if self._pages_ready:
            self.model.set_pages(self._page_of_block)
        self._fill_filters()
        with self._quietly():
            self._restore_scroll(previous, top)
            moved_to = self._restore_selection(previous, selected, current)
        self._update_counts()
        self._update_actions()
        self.last_refresh_seconds = time.perf_counter() - started
        log.debug(
            "redline panel: %d changes in %.1f ms", len(self.model.all_rows), 1000 * self.last_refresh_seconds
        )
        self.refreshed.emit()
        if moved_to is not None:
            self._announce(moved_to)

    def _top_id(self) -> str | None:
        index = self.view.indexAt(QPoint(1, 1))
        return index.data(CHANGE_ID_ROLE) if index.isValid() else None

    def _restore_scroll(self, previous: list[str], top: str | None) -> None:
        if top is None:
            return
        keep = top if self.model.row_of(top) is not None else next_shown(previous, top, self.model.row_of)
        row = self.model.row_of(keep) if keep is not None else None
        if row is not None:
            self.view.scrollTo(self.model.index(row), QAbstractItemView.ScrollHint.PositionAtTop)

    def _restore_selection(self, previous: list[str], selected: list[str], current: str | None) -> str | None:
        """Select what survives; when nothing does, the change after the last one selected.

        Returns the id the selection moved to (so the page view follows), None when it stayed.
        """
        if self._keep(selected, current, scroll=False) or not selected:
            return None
        following = next_shown(previous, selected[-1], self.model.row_of)  # selected_ids(): list order
        if following is None:
            return None
        self._select([following], following, scroll=True)
        return following

    # ------------------------------------------------------------------ filters and counts
    def _fill_filters(self) -> None:
        if self.filters.fill(self.model.authors(), self.model.categories()):
            self._apply_filters()

    def _filters_changed(self) -> None:
        selected, current = self.selected_ids(), self.current_id()
        self._apply_filters()
        with self._quietly():
            self._keep(selected, current, scroll=True)
        self._update_counts()
        self._update_actions()

    def _apply_filters(self) -> None:
        self.model.set_filter(self.filters.author(), self.filters.category(), self.filters.text())

    def _update_counts(self) -> None:
        total = len(self.model.all_rows)
        shown = self.model.rowCount()
        authors = count_text(len(self.model.authors()), "{n} author", "{n} authors")
        if shown == total:
            changes = count_text(total, "{n} change", "{n} changes")
        else:
            changes = self.tr("Showing {0} of {1}").format(
                shown, count_text(total, "{n} change", "{n} changes")
            )
        self.count_label.setText(f"{changes} · {authors}" if total else "")
        if self._controller.reviewer is None:
            self.empty_label.setText(self.tr("No document is open"))
        elif total == 0:
            self.empty_label.setText(self.tr("No tracked changes"))
        elif shown == 0:
            self.empty_label.setText(self.tr("No changes match the filters"))
        self.stack.setCurrentWidget(self.view if shown else self.empty_label)

    def _update_actions(self) -> None:
        has_selection = bool(self.view.selectionModel().hasSelection())
        self.accept_button.setEnabled(has_selection)
        self.reject_button.setEnabled(has_selection)
        has_changes = bool(self.model.all_rows)
        self.accept_all_button.setEnabled(has_changes)
        self.reject_all_button.setEnabled(has_changes)
        to_accept, to_reject = len(self.model.recommended("accept")), len(self.model.recommended("reject"))
        self.recommended_row.setVisible(any(row.verdict for row in self.model.all_rows))
        for button, count, text in (
            (self.accept_recommended_button, to_accept, self.tr("Accept recommended ({0})")),
            (self.reject_recommended_button, to_reject, self.tr("Reject recommended ({0})")),
        ):
            button.setText(text.format(count))
            button.setAccessibleName(button.text())
            button.setEnabled(count > 0)

    # ------------------------------------------------------------------ selection
    def selected_ids(self) -> list[str]:
        """The selected changes in list order."""
        rows = sorted(index.row() for index in self.view.selectionModel().selectedRows())
        return [self.model.change_at(row).id for row in rows]

    def current_id(self) -> str | None:
        index = self.view.currentIndex()
        return self.model.change_at(index.row()).id if index.isValid() else None

    @contextmanager
    def _quietly(self) -> Iterator[None]:
        """The panel moves the selection itself: no :attr:`change_selected` for it."""
        self._quiet += 1
        try:
            yield
        finally:
            self._quiet -= 1

    def _keep(self, selected: list[str], current: str | None, scroll: bool) -> bool:
        """Select those of ``selected`` still shown (``current`` stays current); False if none is."""
        kept = [i for i in selected if self.model.row_of(i) is not None]
        if kept:
            self._select(kept, current if current in kept else kept[0], scroll)
        return bool(kept)

    def _select(self, ids: list[str], current: str, scroll: bool) -> None:
        selection = QItemSelection()
        for first, final in merged_ranges(r for i in ids if (r := self.model.row_of(i)) is not None):
            selection.select(self.model.index(first), self.model.index(final))
        flags = QItemSelectionModel.SelectionFlag
        selection_model = self.view.selectionModel()
        current_index = self.model.index(self.model.row_of(current) or 0)
        selection_model.setCurrentIndex(current_index, flags.NoUpdate)
        selection_model.select(selection, flags.ClearAndSelect)
        if scroll:
            self.view.scrollTo(current_index, QAbstractItemView.ScrollHint.EnsureVisible)

    def select_change(self, change_id: str) -> bool:
        """Select a change picked elsewhere (the page view) without emitting :attr:`change_selected`.

        A change hidden by the filters clears them: the person asked to see that change.
        Returns False when the document has no such change.
        """
        self._settle()
        if self.model.row_of(change_id) is None:
            if all(row.id != change_id for row in self.model.all_rows):
                return False
            self.filters.reset()
        with self._quietly():
            self._select([change_id], change_id, scroll=True)
        self._announced = change_id  # the page view shows it already
        return True

    def _picked(self, *_changed: object) -> None:
        """The person picked a row (click, arrows): tell the page view, once per change.

        Clicks set the current row before selecting it, and a row can become current without
        being selected (focus arriving by Tab, Ctrl+arrows): only a selected current row counts.
        """
        index = self.view.currentIndex()
        if self._quiet or not index.isValid() or not self.view.selectionModel().isSelected(index):
            return
        change_id = self.model.change_at(index.row()).id
        if change_id != self._announced:
            self._announce(change_id)

    def _announce(self, change_id: str) -> None:
        self._announced = change_id
        self.change_selected.emit(change_id)

    def show_current(self) -> None:
        """Show the current change in the document again (Enter, double-click)."""
        change_id = self.current_id()
        if change_id is not None:
            self._announce(change_id)

    def next_change(self) -> str | None:
        """Select the next change in the list and show it; None at the end of the list."""
        return self._step(+1)

    def previous_change(self) -> str | None:
        """Select the previous change in the list and show it; None at the start of the list."""
        return self._step(-1)

    def _step(self, delta: int) -> str | None:
        self._settle()
        count = self.model.rowCount()
        if count == 0:
            return None
        index = self.view.currentIndex()
        row = (0 if delta > 0 else count - 1) if not index.isValid() else index.row() + delta
        if not 0 <= row < count:
            return None
        change_id = self.model.change_at(row).id
        with self._quietly():
            self._select([change_id], change_id, scroll=True)
        self._announce(change_id)
        return change_id

    # ------------------------------------------------------------------ acts (through the controller)
    def accept_selected(self) -> int:
        """Accept the selected changes as one Undo step; returns how many were accepted."""
        self._settle()
        ids = self.selected_ids()
        return self._controller.accept_changes(ids) if ids else 0

    def reject_selected(self) -> int:
        """Reject the selected changes as one Undo step; returns how many were rejected."""
        self._settle()
        ids = self.selected_ids()
        return self._controller.reject_changes(ids) if ids else 0

    def accept_all(self, author: str | None = None) -> int:
        """Accept every change in the document (or every change by ``author``), whatever the filters."""
        self._settle()
        return self._controller.accept_all(author) if self.model.all_rows else 0

    def reject_all(self, author: str | None = None) -> int:
        """Reject every change in the document (or every change by ``author``), whatever the filters."""
        self._settle()
        return self._controller.reject_all(author) if self.model.all_rows else 0

    def accept_recommended(self) -> int:
        """Accept exactly the changes the agent recommends accepting, as one Undo step."""
        self._settle()
        ids = self.model.recommended("accept")
        return self._controller.accept_changes(ids) if ids else 0

    def reject_recommended(self) -> int:
        """Reject exactly the changes the agent recommends rejecting, as one Undo step."""
        self._settle()
        ids = self.model.recommended("reject")
        return self._controller.reject_changes(ids) if ids else 0
