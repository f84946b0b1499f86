"""What the main window's helpers use of the window: :class:`WindowHost`, and nothing more.

The window builds its file, compare, markup, playbook, triage, docks and services helpers, and
each acts for that window. Typed against ``MainWindow`` they imported main_window while it
imported them: a circle, where reading one helper meant reading the whole window and a change
to the window's shape could break any of them unseen. Typed against these protocols a helper
depends only on what it uses; main_window, which satisfies them, sits above all its helpers.

The host is a ``QMainWindow``: besides the members named here, helpers parent their dialogs,
actions and docks on it. The helpers' own types (the window's file commands, services and
docks) appear only as the small protocols below, so this module imports none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Sequence

    from PySide6.QtCore import QObject, Qt, SignalInstance
    from PySide6.QtWidgets import QDockWidget, QMenu, QStatusBar

    from .autosave import LockKeeper
    from .chat import ChatDock
    from .chat.banner import Banner
    from .document_controller import DocumentController
    from .pageview import PageView
    from .redline_panel import RedlinePanel
    from .window_actions import WindowActions


class FilePicker(Protocol):
    """The file questions a helper asks through the window (its File commands)."""

    def folder(self) -> str: ...

    def ask_open_path_titled(self, title: str) -> str: ...

    def ask_save_path(self, title: str, suggestion: str, file_filter: str = ...) -> str: ...


class HostServices(Protocol):
    """The window's services a helper reaches: the locks on the files it has open."""

    locks: LockKeeper


class RedlineDocks(Protocol):
    """The Changes panel and its dock, which triage fills and brings forward."""

    redline: RedlinePanel
    redline_dock: QDockWidget


class WindowHost(Protocol):
    """One main window as its helpers see it."""

    controller: DocumentController
    page_view: PageView
    chat: ChatDock
    chat_dock: QDockWidget
    actions: WindowActions
    menus: dict[str, QMenu]
    files: FilePicker
    services: HostServices
    docks: RedlineDocks
    destroyed: SignalInstance

    # ---------------------------------------------------------------- the window's own commands
    def document_name(self) -> str: ...

    def keep_backup(self) -> bool: ...

    def open_path(self, path: str) -> bool: ...

    def show_error(self, title: str, message: str) -> None: ...

    def show_notice(self, text: str, details: str) -> Banner: ...

    def sync_theme_actions(self) -> None: ...

    # ---------------------------------------------------------------- the QMainWindow helpers call
    def tr(self, text: str) -> str: ...

    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt's name

    def show(self) -> None: ...

    def setAttribute(self, attribute: Qt.WidgetAttribute, on: bool = ...) -> None: ...  # noqa: N802 - Qt's name

    def installEventFilter(self, watcher: QObject) -> None: ...  # noqa: N802 - Qt's name

    def addDockWidget(self, area: Qt.DockWidgetArea, dock: QDockWidget) -> None: ...  # noqa: N802 - Qt's name

    def tabifyDockWidget(self, first: QDockWidget, second: QDockWidget) -> None: ...  # noqa: N802 - Qt's name

    def splitDockWidget(  # noqa: N802 - Qt's name
        self, after: QDockWidget, dock: QDockWidget, orientation: Qt.Orientation
    ) -> None: ...

    def resizeDocks(  # noqa: N802 - Qt's name
        self, docks: Sequence[QDockWidget], sizes: Sequence[int], orientation: Qt.Orientation
    ) -> None: ...
