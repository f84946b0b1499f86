"""The last line of defence: an unexpected error is logged and shown, and the app keeps running.

Without a hook, an exception in a Qt slot prints to a console nobody sees (or, on some builds,
aborts). Here it goes to the log file with its traceback and to a non-blocking message box that
says the document is still open, with a "Copy details" button for a bug report. The box never
exits the app. Errors in worker threads are handed to the GUI thread through a queued signal,
because widgets may only be made there. An error raised while the box is being shown is only
logged, so a broken dialog cannot recurse; while a box is open, later errors are added to its
details instead of stacking new boxes.
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from collections.abc import Callable
from types import TracebackType
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton, QWidget

from .help_dialogs import versions_text

log = logging.getLogger(__name__)

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None]


class ExceptionHook(QObject):
    """Installed as ``sys.excepthook`` and ``threading.excepthook``; see the module docstring."""

    #: an error from another thread, delivered to the GUI thread (queued)
    _from_thread = Signal(object)

    def __init__(self, parent_getter: Callable[[], QWidget | None]) -> None:
        super().__init__()
        self._parent_getter = parent_getter
        self._previous_sys_hook = sys.excepthook
        self._previous_thread_hook = threading.excepthook
        self._showing = False
        self._details: list[str] = []
        #: the open error box, if any (later errors join its details)
        self.dialog: QMessageBox | None = None
        self._from_thread.connect(self._report, Qt.ConnectionType.QueuedConnection)

    # ------------------------------------------------------------------ hooks
    def install(self) -> None:
        sys.excepthook = self.handle
        threading.excepthook = self._handle_thread

    def uninstall(self) -> None:
        """Put back the hooks that were there before :meth:`install`."""
        if sys.excepthook == self.handle:
            sys.excepthook = self._previous_sys_hook
        if threading.excepthook == self._handle_thread:
            threading.excepthook = self._previous_thread_hook

    def handle(
        self, exc_type: type[BaseException], exc_value: BaseException, exc_tb: TracebackType | None
    ) -> None:
        """``sys.excepthook``: Ctrl+C goes to the previous hook, everything else is logged and shown."""
        if issubclass(exc_type, KeyboardInterrupt):
            self._previous_sys_hook(exc_type, exc_value, exc_tb)
            return
        if threading.current_thread() is not threading.main_thread():
            self._from_thread.emit((exc_type, exc_value, exc_tb))
            return
        self._report((exc_type, exc_value, exc_tb))

    def _handle_thread(self, args: threading.ExceptHookArgs) -> None:
        if args.exc_value is None or issubclass(args.exc_type, SystemExit):
            self._previous_thread_hook(args)  # a thread ending with SystemExit is not an error
            return
        self.handle(args.exc_type, args.exc_value, args.exc_traceback)

    def asyncio_handler(self, loop: Any, context: dict[str, Any]) -> None:
        """For ``loop.set_exception_handler``: a failed task nobody awaited is reported like any error."""
        error = context.get("exception")
        if isinstance(error, Exception):
            self.handle(type(error), error, error.__traceback__)
        else:
            loop.default_exception_handler(context)

    # ------------------------------------------------------------------ reporting
    def _report(self, exc_info: ExcInfo) -> None:
        log.error("Unexpected error", exc_info=exc_info)
        details = "".join(traceback.format_exception(*exc_info))
        if self._showing:
            return  # the error came from showing the box: logged above, nothing more
        self._showing = True
        try:
            self._show(details, exc_info[1])
        except Exception:
            log.exception("could not show the error dialog")
        finally:
            self._showing = False

    def _show(self, details: str, error: BaseException) -> None:
        if QApplication.instance() is None:
            return  # before the app exists there is nothing to show; the log has it
        self._details.append(details)
        if self.dialog is not None:
            self.dialog.setDetailedText(self.details_text())
            self.dialog.setInformativeText(
                self.tr("{0} errors so far. The last one: {1}").format(len(self._details), _summary(error))
            )
            return
        box = QMessageBox(self._parent_getter())
        box.setIcon(QMessageBox.Icon.Critical)
        box.setWindowTitle(self.tr("Something went wrong"))
        box.setText(
            self.tr(
                "Something went wrong inside Reviewer. Your document is still open and unchanged by "
                "this error; you can keep working and save as usual."
            )
        )
        box.setInformativeText(_summary(error))
        box.setDetailedText(self.details_text())
        copy = box.addButton(self.tr("Copy details"), QMessageBox.ButtonRole.ActionRole)
        # a message box closes on any button; this one copies and stays open
        copy.clicked.disconnect()
        copy.clicked.connect(lambda: self._copy_details(copy))
        box.addButton(QMessageBox.StandardButton.Close)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(self._closed)
        box.destroyed.connect(self._closed)
        self.dialog = box
        box.open()

    def details_text(self) -> str:
        """Every traceback shown in the open box, then the versions: what "Copy details" copies."""
        return "\n".join(self._details) + "\n" + versions_text()

    def _copy_details(self, button: QPushButton) -> None:
        QGuiApplication.clipboard().setText(self.details_text())
        button.setText(self.tr("Copied"))

    def _closed(self) -> None:
        self.dialog = None
        self._details = []


def _summary(error: BaseException) -> str:
    """One line naming the error, for people (the traceback is in the details)."""
    message = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def install_excepthook(parent_getter: Callable[[], QWidget | None]) -> ExceptionHook:
    """Create and install the hook; ``parent_getter`` returns the window to centre the box on.

    Keep the returned object alive (it is a QObject without a parent) and call ``uninstall()``
    to restore the previous hooks.
    """
    hook = ExceptionHook(parent_getter)
    hook.install()
    return hook
