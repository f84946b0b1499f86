"""Edit cards: one per operation the agent sent, grouped per batch with "all" buttons.

A card says what (the operation in words and a small inline redline), where (clause and page),
why (the model's comment, area and severity), and what became of it (proposed, applied, skipped
with the reason…). Its buttons depend on the mode and the status: a proposal has Apply and
Discard, a Direct-mode change still pending has Accept and Reject, and every card that points
at a block has Show. The widgets only *ask*: they emit the card keys, the chat controller acts
through the document controller, and the card is redrawn from the new :class:`CardState`.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ..plurals import count_text
from . import describe
from .card_state import CardState
from .checks_note import effect_text, merged
from .colors import STATUS_TONE, chat_colors

PageLookup = Callable[[str], "int | None"]


def _label(parent: QWidget, rich: bool = False) -> QLabel:
    label = QLabel(parent)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class EditCard(QFrame):
    """One operation: what, where, why, status, and the buttons its status allows."""

    apply_requested = Signal(str)
    discard_requested = Signal(str)
    accept_requested = Signal(str)
    reject_requested = Signal(str)
    show_requested = Signal(str)

    def __init__(self, card: CardState, page_of_block: PageLookup | None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("editCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._page_of_block = page_of_block
        colors = chat_colors(self)
        self.setStyleSheet(
            f"QFrame#editCard {{ border: 1px solid {colors['card_border']}; border-radius: 6px; }}"
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(3)
        head = QHBoxLayout()
        self.title = QLabel(self)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.status = QLabel(self)
        self.status.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        head.addWidget(self.title, 1)
        head.addWidget(self.status)
        layout.addLayout(head)
        self.redline = _label(self, rich=True)
        self.where = _label(self)
        self.why = _label(self)
        self.reason = _label(self)
        for label in (self.redline, self.where, self.why, self.reason):
            layout.addWidget(label)
        buttons = QHBoxLayout()
        self.apply_button = QPushButton(self.tr("Apply"), self)
        self.discard_button = QPushButton(self.tr("Discard"), self)
        self.accept_button = QPushButton(self.tr("Accept"), self)
        self.reject_button = QPushButton(self.tr("Reject"), self)
        self.show_button = QPushButton(self.tr("Show"), self)
        self.apply_button.setToolTip(self.tr("Put this proposal into the document as a tracked change"))
        self.discard_button.setToolTip(self.tr("Drop this proposal; the document does not change"))
        self.accept_button.setToolTip(self.tr("Accept the tracked changes this edit made"))
        self.reject_button.setToolTip(self.tr("Reject the tracked changes this edit made"))
        self.show_button.setToolTip(self.tr("Show the place in the document"))
        for button in (self.apply_button, self.discard_button, self.accept_button, self.reject_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.show_button)
        layout.addLayout(buttons)
        self.apply_button.clicked.connect(lambda: self.apply_requested.emit(self.card.key))
        self.discard_button.clicked.connect(lambda: self.discard_requested.emit(self.card.key))
        self.accept_button.clicked.connect(lambda: self.accept_requested.emit(self.card.key))
        self.reject_button.clicked.connect(lambda: self.reject_requested.emit(self.card.key))
        self.show_button.clicked.connect(self._show)
        self.card = card
        self.update_state(card)

    def update_state(self, card: CardState) -> None:
        """Redraw from ``card`` (its status changed, or it is first shown)."""
        self.card = card
        colors = chat_colors(self)
        op = card.operation
        self.title.setText(describe.operation_title(str(op.get("type") or "")))
        tone = colors[STATUS_TONE.get(card.status, "off")]
        self.status.setText(describe.status_title(card.status))
        self.status.setStyleSheet(f"color: {tone}; font-weight: 600;")
        redline = describe.redline_html(op, card.old_text, colors)
        self.redline.setText(redline)
        self.redline.setVisible(bool(redline))
        why = describe.rationale(op)
        self.why.setText(self.tr("Why: {0}").format(why) if why else "")
        self.why.setVisible(bool(why))
        self.reason.setText(card.reason or "")
        self.reason.setStyleSheet(
            f"color: {colors['error'] if card.status != 'discarded' else colors['muted']};"
        )
        self.reason.setVisible(bool(card.reason))
        self.refresh_place()
        self.apply_button.setVisible(card.can_apply)
        self.discard_button.setVisible(card.mode == "review" and card.status in ("queued", "stale", "failed"))
        self.accept_button.setVisible(card.can_decide)
        self.reject_button.setVisible(card.can_decide)
        self.show_button.setVisible(
            card.block_id is not None and card.status not in ("discarded", "rejected")
        )
        dim = card.status in ("discarded", "declined", "skipped", "rejected", "missing")
        self.title.setStyleSheet(f"color: {colors['muted']};" if dim else "")

    def refresh_place(self) -> None:
        """Where: the clause as it was when the edit was made, the page as laid out now."""
        block_id = self.card.block_id
        page = self._page_of_block(block_id) if self._page_of_block and block_id else None
        text = describe.where_text(self.card.section, page)
        self.where.setText(text)
        self.where.setVisible(bool(text))
        self.where.setStyleSheet(f"color: {chat_colors(self)['muted']};")

    def _show(self) -> None:
        if self.card.block_id:
            self.show_requested.emit(self.card.block_id)


class BatchCards(QWidget):
    """The cards of one edit batch, with Apply all / Discard all (Accept all / Reject all)."""

    #: a list of card keys
    apply_requested = Signal(list)
    discard_requested = Signal(list)
    accept_requested = Signal(list)
    reject_requested = Signal(list)
    show_requested = Signal(str)

    def __init__(
        self, cards: list[CardState], page_of_block: PageLookup | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.setSpacing(4)
        head = QHBoxLayout()
        self.heading = QLabel(self)
        self.apply_all = QPushButton(self.tr("Apply all"), self)
        self.discard_all = QPushButton(self.tr("Discard all"), self)
        self.accept_all = QPushButton(self.tr("Accept all"), self)
        self.reject_all = QPushButton(self.tr("Reject all"), self)
        head.addWidget(self.heading, 1)
        for button in (self.apply_all, self.discard_all, self.accept_all, self.reject_all):
            button.setFlat(True)
            head.addWidget(button)
        layout.addLayout(head)
        self.checks = _label(self)
        self.checks.setObjectName("batchChecks")
        layout.addWidget(self.checks)
        self.cards: dict[str, EditCard] = {}
        for card in cards:
            widget = EditCard(card, page_of_block, self)
            widget.apply_requested.connect(lambda key: self.apply_requested.emit([key]))
            widget.discard_requested.connect(lambda key: self.discard_requested.emit([key]))
            widget.accept_requested.connect(lambda key: self.accept_requested.emit([key]))
            widget.reject_requested.connect(lambda key: self.reject_requested.emit([key]))
            widget.show_requested.connect(self.show_requested)
            self.cards[card.key] = widget
            layout.addWidget(widget)
        self.apply_all.clicked.connect(lambda: self.apply_requested.emit(self._keys("can_apply")))
        self.discard_all.clicked.connect(lambda: self.discard_requested.emit(self._keys("can_apply")))
        self.accept_all.clicked.connect(lambda: self.accept_requested.emit(self._keys("can_decide")))
        self.reject_all.clicked.connect(lambda: self.reject_requested.emit(self._keys("can_decide")))
        self.refresh()

    def _keys(self, ability: str) -> list[str]:
        return [key for key, widget in self.cards.items() if getattr(widget.card, ability)]

    def update_card(self, card: CardState) -> bool:
        widget = self.cards.get(card.key)
        if widget is None:
            return False
        widget.update_state(card)
        self.refresh()
        return True

    def refresh(self) -> None:
        """The heading's counts and which "all" buttons make sense now."""
        states = [w.card for w in self.cards.values()]
        waiting = sum(c.can_apply for c in states)
        pending = sum(c.can_decide for c in states)
        if waiting:
            text = count_text(waiting, "{n} proposal waiting for you", "{n} proposals waiting for you")
        elif pending:
            text = count_text(
                pending, "{n} tracked change to accept or reject", "{n} tracked changes to accept or reject"
            )
        else:
            text = count_text(len(states), "{n} edit", "{n} edits")
        self.heading.setText(text)
        self.heading.setStyleSheet(f"color: {chat_colors(self)['muted']};")
        self.checks.setText(effect_text(merged(c.checks for c in states)))
        self.checks.setVisible(bool(self.checks.text()))
        self.apply_all.setVisible(waiting > 1)
        self.discard_all.setVisible(waiting > 1)
        self.accept_all.setVisible(pending > 1)
        self.reject_all.setVisible(pending > 1)

    def refresh_places(self) -> None:
        for widget in self.cards.values():
            widget.refresh_place()
