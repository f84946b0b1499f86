"""Answer a modal message box the way a person does: wait for it to show, read it, click a button.

A modal box runs its own event loop, so the answer is scheduled before the code that opens it
runs; the click is a real mouse click on the box's real button (``QTest.mouseClick``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

_POLL_MS = 20


@dataclass
class ShownBox:
    """What the box said, filled in when it showed (``shown`` stays False when it never did)."""

    shown: bool = False
    title: str = ""
    text: str = ""
    buttons: list[str] = field(default_factory=list)


def _visible_box(object_name: str) -> QMessageBox | None:
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, QMessageBox) and widget.objectName() == object_name and widget.isVisible():
            return widget
    return None


def answer_message_box(qtbot: object, object_name: str, button_text: str, timeout_s: float = 15) -> ShownBox:
    """Click ``button_text`` (ampersands ignored) on the box named ``object_name`` once it shows."""
    seen = ShownBox()
    deadline = time.monotonic() + timeout_s

    def poll() -> None:
        box = _visible_box(object_name)
        if box is None:
            if time.monotonic() < deadline:
                QTimer.singleShot(_POLL_MS, poll)
            return
        labels = {button.text().replace("&", ""): button for button in box.buttons()}
        seen.shown, seen.title, seen.text, seen.buttons = True, box.windowTitle(), box.text(), list(labels)
        QTest.mouseClick(labels[button_text], Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, poll)
    return seen
