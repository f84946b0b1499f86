"""A banner across the top of the chat: an error, a note about a cut turn, or "no model configured".

Banners say what happened in plain words and, where there is something to do about it, carry
the buttons that do it ("Retry", "Settings…"). They stay until closed or until the condition is
over (a configured model removes the "no model" banner, a turn that succeeds removes the error
of the one before), so a message is not missed because it flashed by during a long turn.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

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
        self.label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        if detail:
            self.label.setToolTip(detail)
        layout.addWidget(icon)
        layout.addWidget(self.label, 1)
        # stacked, so a narrow dock keeps its width for the message
        self._buttons = QVBoxLayout()
        self._buttons.setSpacing(4)
        self._buttons.addStretch(1)
        layout.addLayout(self._buttons)
        self.action_button: QPushButton | None = None
        if action:
            self.action_button = self.add_button(action)
            self.action_button.clicked.connect(self.action_triggered)
        close = QToolButton(self)
        close.setText("✕")
        close.setAutoRaise(True)
        close.setToolTip(self.tr("Dismiss"))
        close.clicked.connect(self.dismiss)
        layout.addWidget(close, 0, Qt.AlignmentFlag.AlignTop)

    def add_button(self, text: str) -> QPushButton:
        """One more button before the close button; the caller connects its ``clicked``."""
        button = QPushButton(text, self)
        self._buttons.insertWidget(self._buttons.count() - 1, button)
        return button

    @property
    def text(self) -> str:
        return self.label.text()

    def dismiss(self) -> None:
        self.hide()
        self.closed.emit()
        self.deleteLater()


def as_sentence(text: str) -> str:
    """``text`` as a sentence a banner can show: a capital first letter and a full stop (the agent's
    messages are lower-case clauses, written to be embedded in other text)."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?…" else text + "."
