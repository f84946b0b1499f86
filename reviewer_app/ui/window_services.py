"""What a window needs beyond its widgets: settings, recovery copies, autosave and file locks.

They are made once per window and follow the settings store: a new user name (or agent name)
becomes the author of the next change, a new autosave interval restarts the timer, new markup colours
re-lay the pages out, a new model reaches the chat. Tests get the same objects, pointed at
the per-test folders ``tests/conftest.py`` sets up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from ..docx.weak_links import BackReference
from .app_settings import SettingsStore
from .autosave import Autosaver, LockKeeper
from .pageview.qformats import set_author_colors
from .recovery import RecoveryStore
from .theme import apply_theme

if TYPE_CHECKING:
    from .window_host import WindowHost


class WindowServices:
    """Settings, recovery store, autosaver and lock keeper of one window, kept in step."""

    window: BackReference[WindowHost] = BackReference()

    def __init__(self, window: WindowHost, settings: SettingsStore | None = None) -> None:
        self.window = window
        if settings is None:
            settings = SettingsStore(parent=window)
            settings.load()
        self.settings = settings
        s = settings.settings
        controller = window.controller
        controller.author = s.user_name
        controller.initials = s.initials()
        controller.agent_author = s.agent_name
        set_author_colors(s.markup_colours)
        self.recovery = RecoveryStore()
        self.autosaver = Autosaver(controller, self.recovery, s.autosave_interval_s)
        self.locks = LockKeeper(controller)
        settings.changed.connect(self._settings_changed)

    def _settings_changed(self, names: frozenset[str]) -> None:
        s = self.settings.settings
        window = self.window
        if "user_name" in names:
            window.controller.author = s.user_name
        if names & {"user_name", "user_initials"}:
            window.controller.initials = s.initials()
        if "agent_name" in names:
            window.controller.agent_author = s.agent_name
        if "autosave_interval_s" in names:
            self.autosaver.set_interval(s.autosave_interval_s)
        if "theme" in names:
            app = QApplication.instance()
            if isinstance(app, QApplication):
                apply_theme(app, s.theme)
            window.sync_theme_actions()
            # after Qt has delivered the new palette to the widgets the chat reads its colours from
            QTimer.singleShot(0, window.chat.chat.redraw)
        if "markup_colours" in names:
            set_author_colors(s.markup_colours)
            reviewer = window.controller.reviewer
            if reviewer is not None:
                window.page_view.refresh(reviewer, None)
        if names & {"provider", "base_url", "model", "api_style", "context_window", "tool_profile"}:
            window.chat.set_settings(s.to_agent_settings())
        if "agent_mode" in names:
            window.chat.set_mode(s.agent_mode)

    def set_theme(self, theme: str) -> None:
        """The View menu's theme choice, kept as a setting."""
        self.settings.update(theme=theme)

    def close(self) -> None:
        """The window closes after its document was saved or discarded: drop copy and locks."""
        self.autosaver.discard()
        self.locks.release_all()
