"""The real main window offers every member its helpers' protocol names (ui/window_host.py).

The helpers are typed against :class:`WindowHost` so they need not import the window; the project
runs no static type checker, so this test is what keeps the protocol and the window in step: a
member renamed on the window, or named in the protocol but never built, fails here instead of in
the one menu command that reaches for it.
"""

from __future__ import annotations

from typing import Any

from reviewer_app.ui import window_host
from reviewer_app.ui.main_window import MainWindow
from tests.window_fixtures import shown_main_window


def _members(protocol: type) -> set[str]:
    """The attributes and methods a protocol class declares (not those of ``Protocol`` itself)."""
    declared = set(getattr(protocol, "__annotations__", {}))
    declared |= {
        name for name, value in vars(protocol).items() if callable(value) and not name.startswith("_")
    }
    return declared


def test_the_window_has_every_member_its_helpers_use(qtbot: Any) -> None:
    window: MainWindow = shown_main_window(qtbot)
    parts = {
        window_host.WindowHost: window,
        window_host.FilePicker: window.files,
        window_host.HostServices: window.services,
        window_host.RedlineDocks: window.docks,
    }
    missing = {
        protocol.__name__: sorted(name for name in _members(protocol) if not hasattr(part, name))
        for protocol, part in parts.items()
    }
    assert _members(window_host.WindowHost) >= {"controller", "page_view", "show_error", "statusBar"}
    assert missing == {name: [] for name in missing}
