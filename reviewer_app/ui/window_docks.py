"""The panels docked around the pages, and the wiring that keeps their selections in step.

Selecting a change in the redline panel shows it on the page, clicking it on the page selects
its row; the same for comments. Picking a finding in the Checks panel shows its range. Page
numbers reach the panels once the layout has placed every block. Each panel is a dock the
person can move, float or hide (View menu); Review ▸ Check Document (Ctrl+Alt+K) brings the
Checks panel forward. The navigation pane (View ▸ Navigation Pane) docks left, hidden until asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QWidget

from .checks_panel import ChecksPanel
from .comments_panel import CommentsPanel
from .navigation_pane import NavigationPane
from .playbook_command import PlaybookCommand
from .redline_panel import RedlinePanel

if TYPE_CHECKING:
    from .window_host import WindowHost


#: width the navigation pane opens at (px): a clause number and the start of its words
_NAVIGATION_WIDTH = 280


@dataclass
class Docks:
    """The window's panels and the docks holding them."""

    redline: RedlinePanel
    comments: CommentsPanel
    redline_dock: QDockWidget
    comments_dock: QDockWidget
    checks: ChecksPanel
    checks_dock: QDockWidget
    check_document: QAction
    navigation: NavigationPane
    navigation_dock: QDockWidget
    #: the open document's playbook review and its panel (Agent ▸ Review Against Playbook…)
    playbook: PlaybookCommand
    playbook_dock: QDockWidget


def _dock(
    window: WindowHost, name: str, title: str, widget: QWidget, area: Qt.DockWidgetArea, in_menu: bool = True
) -> QDockWidget:
    dock = QDockWidget(title, window)
    dock.setObjectName(name)
    dock.setWidget(widget)
    dock.setAllowedAreas(Qt.DockWidgetArea.LeftDockWidgetArea | Qt.DockWidgetArea.RightDockWidgetArea)
    window.addDockWidget(area, dock)
    if in_menu:
        window.menus["view"].addAction(dock.toggleViewAction())
    return dock


def build_docks(window: WindowHost) -> Docks:
    """Create the redline and comments panels, dock them right (tabbed), and connect them."""
    view, controller = window.page_view, window.controller

    def page_of_block(block_id: str) -> int | None:
        layout = view.paged_layout()
        return layout.index.page_of_block(block_id) if layout is not None and layout.done else None

    redline = RedlinePanel(controller, page_of_block)
    comments = CommentsPanel(controller, selection_provider=view.selection_range, page_of_block=page_of_block)
    redline_dock = _dock(
        window, "redlineDock", window.tr("Changes"), redline, Qt.DockWidgetArea.RightDockWidgetArea
    )
    comments_dock = _dock(
        window, "commentsDock", window.tr("Comments"), comments, Qt.DockWidgetArea.RightDockWidgetArea
    )
    window.tabifyDockWidget(redline_dock, comments_dock)
    checks, checks_dock, check_document = _checks(window, page_of_block)
    window.tabifyDockWidget(comments_dock, checks_dock)
    playbook = PlaybookCommand(window)
    playbook_dock = _dock(
        window, "playbookDock", window.tr("Playbook"), playbook.panel, Qt.DockWidgetArea.RightDockWidgetArea
    )
    window.tabifyDockWidget(checks_dock, playbook_dock)
    redline_dock.raise_()
    redline.change_selected.connect(view.select_change)
    view.change_clicked.connect(redline.select_change)
    view.change_clicked.connect(lambda _id: (redline_dock.show(), redline_dock.raise_()))
    comments.comment_selected.connect(view.select_comment)
    view.comment_clicked.connect(comments.select_comment)
    view.comment_clicked.connect(lambda _id: (comments_dock.show(), comments_dock.raise_()))
    view.layout_finished.connect(lambda: redline.set_page_lookup(page_of_block))
    view.layout_finished.connect(comments.refresh)
    navigation, navigation_dock = _navigation(window)
    return Docks(
        redline,
        comments,
        redline_dock,
        comments_dock,
        checks,
        checks_dock,
        check_document,
        navigation,
        navigation_dock,
        playbook,
        playbook_dock,
    )


def _navigation(window: WindowHost) -> tuple[NavigationPane, QDockWidget]:
    """The navigation pane, docked left beside the page (right of the chat) and hidden; View ▸
    Navigation Pane shows and hides it."""
    pane = NavigationPane(window.controller, window.page_view)
    dock = _dock(
        window,
        "navigationDock",
        window.tr("Navigation"),
        pane,
        Qt.DockWidgetArea.LeftDockWidgetArea,
        in_menu=False,
    )
    window.splitDockWidget(window.chat_dock, dock, Qt.Orientation.Horizontal)
    dock.visibilityChanged.connect(pane.set_active)
    dock.hide()
    action = window.actions.navigation_pane

    def show(on: bool) -> None:
        dock.setVisible(on)
        if on:
            dock.raise_()
            if dock.width() < _NAVIGATION_WIDTH:  # a new dock starts a sliver wide beside the chat
                window.resizeDocks([dock], [_NAVIGATION_WIDTH], Qt.Orientation.Horizontal)

    action.toggled.connect(show)
    # the dock's own close button and a restored window state move the menu's check mark
    dock.toggleViewAction().toggled.connect(action.setChecked)
    return pane, dock


def _checks(
    window: WindowHost, page_of_block: Callable[[str], int | None]
) -> tuple[ChecksPanel, QDockWidget, QAction]:
    """The Checks panel, its dock and Review ▸ Check Document, which shows it checked now."""
    checks = ChecksPanel(window.controller, page_of_block)
    window.page_view.layout_finished.connect(checks.refresh_pages)
    dock = _dock(window, "checksDock", window.tr("Checks"), checks, Qt.DockWidgetArea.RightDockWidgetArea)
    dock.visibilityChanged.connect(checks.set_active)
    checks.finding_shown.connect(window.page_view.show_range)
    action = QAction(window.tr("Check &Document"), window)
    action.setObjectName("check_document")
    action.setShortcut(QKeySequence("Ctrl+Alt+K"))
    action.setStatusTip(window.tr("List undefined terms, broken cross-references, numbers and blanks"))

    def show() -> None:
        dock.show()
        dock.raise_()
        checks.refresh()
        checks.list.setFocus()

    action.triggered.connect(show)
    window.menus["review"].addAction(action)
    return checks, dock, action
