"""Settings ▸ Test connection: the model settings on screen, tried before they are saved.

The check runs on the event loop (qasync in the app), so the dialog stays responsive while a
slow server is asked; the answer appears beside the button in green or red. Closing the dialog
cancels a check still running.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from ..agent.connection_check import ConnectionReport, check_connection
from ..agent.settings import AgentSettings
from .chat.sdk_loading import client_library_ready

#: colours that read on both the light and the dark theme
OK_COLOUR, FAILED_COLOUR = "#2E9D5B", "#D64545"


class ConnectionTester(QWidget):
    """A "Test connection" button and, under it, the sentence the last check ended with."""

    #: the report of a finished check (tests and the dialog listen)
    finished = Signal(object)

    def __init__(self, settings_of: Callable[[], AgentSettings | str], parent: QWidget | None = None) -> None:
        """``settings_of`` gives the settings to try, or a sentence saying why there are none."""
        super().__init__(parent)
        self._settings_of = settings_of
        self._task: asyncio.Task[None] | None = None
        self.button = QPushButton(self.tr("Test connection"), self)
        self.button.setObjectName("testConnection")
        self.button.clicked.connect(self.start)
        self.result = QLabel(self)
        self.result.setWordWrap(True)
        self.result.setObjectName("connectionResult")
        # the sentence goes under the button, full width: beside it, a long one was cut off
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.button, 0, Qt.AlignmentFlag.AlignLeft)
        column.addWidget(self.result)

    def start(self) -> asyncio.Task[None] | None:
        """Start a check with the values on screen; None when they cannot be tried as they are."""
        settings = self._settings_of()
        if isinstance(settings, str):
            self._show(ConnectionReport(False, settings, 0.0))
            return None
        self.cancel()
        self.button.setEnabled(False)
        self.result.setStyleSheet("")
        self.result.setText(self.tr("Asking {host}…").format(host=settings.host))
        self._task = asyncio.ensure_future(self._run(settings))
        return self._task

    def cancel(self) -> None:
        """Stop a check still running (the dialog is closing)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None
        self.button.setEnabled(True)

    async def _run(self, settings: AgentSettings) -> None:
        with contextlib.suppress(Exception):
            await client_library_ready()
        try:
            report = await check_connection(settings)
        except Exception as error:  # a fault of ours, not the server's: still end with a sentence
            report = ConnectionReport(False, self.tr("The check itself failed: {0}").format(error), 0.0)
        self._task = None
        self._show(report)

    def _show(self, report: ConnectionReport) -> None:
        self.button.setEnabled(True)
        self.result.setStyleSheet(f"color: {OK_COLOUR if report.ok else FAILED_COLOUR};")
        self.result.setText(report.message)
        self.finished.emit(report)
