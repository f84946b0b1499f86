"""The app started as a user starts it, leaving as soon as the first page of the document is painted.

``reviewer --exit-on-first-paint [FILE]`` (a hidden option) runs the real :func:`reviewer_app.app.main`
with an application-wide event filter that watches the page view's viewport. When the view
has pages and its viewport has been painted, one line (:data:`FIRST_PAINT_MARKER`) goes to
stdout and the app quits. ``bench/bench_bundle.py`` times from starting the process to that
line, which is the figure a user feels: launch until the main window shows the contract.
No hook in the app itself is needed, so what is timed is exactly what ships.
"""

from __future__ import annotations

import os
import time

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

from ..app import create_application
from ..app import main as app_main
from ..ui.pageview import PageView

#: The line printed once the first page is on screen (followed by the milliseconds since the probe started).
FIRST_PAINT_MARKER = "first-page-painted"


class _FirstPaintWatch(QObject):
    """Sees every paint event; after the first one of a page view holding pages, reports and quits."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self._app = app
        self._started = time.perf_counter()
        self._seen = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if not self._seen and event.type() == QEvent.Type.Paint:
            view = watched.parent()
            if isinstance(view, PageView) and watched is view.viewport() and view.page_count() > 0:
                self._seen = True
                QTimer.singleShot(0, self._report)  # after this paint has finished
        return False

    def _report(self) -> None:
        elapsed_ms = (time.perf_counter() - self._started) * 1000
        print(f"{FIRST_PAINT_MARKER} {elapsed_ms:.0f}", flush=True)
        for widget in self._app.topLevelWidgets():
            widget.close()
        self._app.quit()


def run_until_first_paint(path: str | os.PathLike[str] | None = None) -> int:
    """Start the app on ``path`` (the sample when None) and leave after its first page is painted."""
    app = create_application()
    app.installEventFilter(_FirstPaintWatch(app))
    return app_main(path)
