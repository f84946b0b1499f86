"""Start the desktop app: the QApplication, the main window, the event loop.

Only the CLI imports this module, and only when the app is started, so the reading commands
never load Qt. The document is opened once the event loop runs: a file that cannot be opened
then shows its message over a visible window, inside the main loop, where a quit request
(``--quit-after``, the window closing) ends everything cleanly.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import weakref

import shiboken6
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication

from . import __version__
from .docx.atomic_write import write_atomically
from .private_paths import data_root, make_app_folders_private, private_dir
from .resources import sample_contract_path
from .ui.app_settings import SettingsStore
from .ui.excepthook import install_excepthook
from .ui.logging_setup import configure_logging
from .ui.main_window import MainWindow
from .ui.pageview.fonts import register_bundled_fonts
from .ui.platform_check import xcb_problem
from .ui.theme import apply_theme

log = logging.getLogger(__name__)

APPLICATION_NAME = "Reviewer"
ORGANIZATION_NAME = "Reviewer"


def create_application() -> QApplication:
    """The process's QApplication, named so QSettings and platformdirs agree on folders."""
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName(APPLICATION_NAME)
    app.setOrganizationName(ORGANIZATION_NAME)
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("reviewer")  # Wayland and the Linux desktop match the window to reviewer.desktop
    register_bundled_fonts()  # pages lay out in the same fonts on every machine
    return app


class FileOpenHandler(QObject):
    """Opens the documents macOS hands over with "Open With" / a double-click in Finder.

    macOS does not put such a file on the command line: it arrives as a ``QFileOpenEvent``,
    before or after the window exists.
    """

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window
        self.opened: list[str] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.FileOpen and isinstance(event, QFileOpenEvent):
            path = event.file()
            if path:
                self.opened.append(path)
                QTimer.singleShot(0, lambda: self._window.open_path(path))
                return True
        return super().eventFilter(watched, event)


def default_document() -> str | None:
    """The person's own copy of the bundled sample contract, or None (with a log line) without one.

    The app never opens the bundled file itself: saving would write into the installation (or a
    developer's checkout), and the lock and ``.bak`` files would land there too. The copy lives in
    the user data folder and is made once, so work done on it is still there next time.
    """
    try:
        bundled = sample_contract_path()
    except FileNotFoundError as exc:
        log.warning("no sample contract to open: %s", exc)
        return None
    copy = data_root() / "samples" / bundled.name
    try:
        if not copy.exists():
            private_dir(copy.parent)
            write_atomically(copy, bundled.read_bytes())
    except OSError as exc:
        log.warning("cannot copy the sample contract to %s: %s", copy.parent, exc)
        return None
    return str(copy)


def _quit_everything(app: QApplication) -> None:
    """Close modal dialogs and windows, then leave the loop (used by ``--quit-after``)."""
    for widget in app.topLevelWidgets():
        widget.close()
    app.quit()


def main(path: str | os.PathLike[str] | None = None, quit_after_ms: int | None = None) -> int:
    """Show the main window on ``path`` (the sample contract when None) and run the event loop.

    ``quit_after_ms`` makes the app leave by itself that long after the loop started, so smoke
    tests and packaging checks can start the real thing and still finish.
    """
    problem = xcb_problem()
    if problem is not None:  # Qt itself would abort the process with a core dump
        print(problem, file=sys.stderr)
        return 1
    import qasync

    make_app_folders_private()  # an older version made them 0755 and the log 0644
    configure_logging()
    app = create_application()
    # asyncio runs on Qt's own event loop: the chat's streamed turns and the window share one thread
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    closing = asyncio.Event()
    app.aboutToQuit.connect(closing.set)
    settings = SettingsStore()
    settings.load()
    apply_theme(app, settings.settings.theme)
    window = MainWindow(settings=settings)
    file_open = FileOpenHandler(window)
    app.installEventFilter(file_open)
    hook = install_excepthook(weakref.ref(window))  # the hook outlives main(): it must not keep the window
    loop.set_exception_handler(hook.asyncio_handler)

    def start() -> None:
        # a crash leftover comes first: restoring it is what the person was doing
        if window.offer_recovery():
            return
        if file_open.opened:  # macOS: Finder's file arrived while starting
            return
        target = os.fspath(path) if path is not None else default_document()
        if target is not None:
            window.open_path(target)

    # after the first-run question (who you are), which the window asks once it is shown
    window.ready.connect(start)
    window.show()
    if quit_after_ms is not None:
        QTimer.singleShot(max(quit_after_ms, 0), lambda: _quit_everything(app))
    with loop:
        loop.run_until_complete(closing.wait())
        loop.run_until_complete(asyncio.sleep(0.05))  # let the chat close its HTTP client
    # destroyed here, its Python side freed as main() returns: not during the interpreter's shutdown,
    # when the finalizers of its parts (the undo history, a layout) no longer find their modules
    shiboken6.delete(window)
    return 0
