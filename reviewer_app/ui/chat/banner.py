"""A banner across the top of the chat: an error, a note about a cut turn, or "no model configured".

Banners say what happened in plain words and, where there is something to do about it, carry
the button that does it ("Open settings…"). They stay until closed or until the condition is
over (a configured model removes the "no model" banner), so a message is not missed because it
flashed by during a long turn.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

from .colors import chat_colors


class Banner(QFrame):
    """A message with an optional action button and a close button."""

    action_triggered = Signal()
    closed = Signal()

    def __init__(
        self,
        text: str,
        *,
        kind: str = "error",
        action: str | None = None,
        detail: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.kind = kind
        self.setObjectName("chatBanner")
        colors = chat_colors(self)
        fill = colors["error_fill"] if kind == "error" else colors["info_fill"]
        self.setStyleSheet(f"QFrame#chatBanner {{ background: {fill}; border-radius: 4px; }}")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 6, 4, 6)
        icon = QLabel("⚠" if kind == "error" else "ℹ", self)
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.label = QLabel(text, self)
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        if detail:
            self.label.setToolTip(detail)
        layout.addWidget(icon)
        layout.addWidget(self.label, 1)
        self.action_button: QPushButton | None = None
        if action:
            self.action_button = QPushButton(action, self)
            self.action_button.clicked.connect(self.action_triggered)
            layout.addWidget(self.action_button, 0, Qt.AlignmentFlag.AlignTop)
        close = QToolButton(self)
        close.setText("✕")
        close.setAutoRaise(True)
        close.setToolTip(self.tr("Dismiss"))
        close.clicked.connect(self.dismiss)
        layout.addWidget(close, 0, Qt.AlignmentFlag.AlignTop)

    @property
    def text(self) -> str:
        return self.label.text()

    def dismiss(self) -> None:
        self.hide()
        self.closed.emit()
        self.deleteLater()
