"""``ChatDock``: the chat panel the main window docks beside the pages.

Type a request, press Enter (Shift+Enter for a new line) or Send; the answer streams in as
Markdown, each tool call the agent makes shows as one line, and every edit it proposes or
makes shows as a card to apply, discard, accept, reject or show. Stop ends the turn at once;
what already ran stays. The mode switch picks Review (proposals wait for you) or Direct
(tracked changes at once). Without a configured model the panel says so and offers the
settings; the rest of the app works regardless. A failed turn shows one banner with Retry and
Settings… until a later turn succeeds; a message that cannot be sent stays in the box with a line
saying why. New conversation clears the document's conversation (proposals still waiting keep
their cards).

The dock is a view of a :class:`ChatController`; the main window connects ``show_block`` to
the page view and ``settings_requested`` to its settings dialog.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...agent.settings import AgentSettings
from ...agent.transcript import TranscriptStore
from ..document_controller import DocumentController
from ..pageview import PageView
from ..plurals import count_text
from .banner import Banner, as_sentence
from .card_state import CardState
from .chat_controller import ChatController
from .colors import chat_colors
from .message_view import ConversationView

log = logging.getLogger(__name__)

#: error banners kept at once (older ones close as newer ones arrive)
MAX_ERROR_BANNERS = 3


class ChatInput(QPlainTextEdit):
    """The message box: Enter sends, Shift+Enter starts a new line."""

    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.submitted.emit()
            return
        super().keyPressEvent(event)


def page_lookup_for(view: PageView) -> Callable[[str], int | None]:
    """The 1-based page a block is laid out on in ``view`` (None while the layout is unknown)."""

    def page_of_block(block_id: str) -> int | None:
        layout = view.paged_layout()
        page = layout.index.page_of_block(block_id) if layout is not None else None
        return None if page is None else page + 1

    return page_of_block


class ChatDock(QWidget):
    """The chat panel (see the module docstring)."""

    #: the person asked to see a block (connect to the page view's show/scroll)
    show_block = Signal(str)
    #: "Open settings…" on the no-model banner
    settings_requested = Signal()
    mode_changed = Signal(str)

    def __init__(
        self,
        controller: DocumentController,
        view: PageView,
        settings: AgentSettings | None = None,
        *,
        mode: str = "review",
        page_of_block: Callable[[str], int | None] | None = None,
        store: TranscriptStore | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("chatDock")
        self.chat = ChatController(controller, view, settings, mode=mode, store=store, parent=self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)

        header = QHBoxLayout()
        self.mode_box = QComboBox(self)
        self.mode_box.addItem(self.tr("Review mode"), "review")
        self.mode_box.addItem(self.tr("Direct mode"), "direct")
        self.mode_box.setToolTip(
            self.tr(
                "Review: the agent's edits wait as proposals until you apply them.\n"
                "Direct: the agent's edits go in at once as tracked changes you accept or reject."
            )
        )
        self.mode_hint = QLabel(self)
        self.mode_hint.setWordWrap(True)  # a narrow dock wraps the hint rather than growing
        self.new_button = QPushButton(self.tr("New conversation"), self)
        self.new_button.setObjectName("newConversationButton")
        self.new_button.setToolTip(
            self.tr("Clear this document's conversation and start again (proposals still waiting stay)")
        )
        header.addWidget(self.mode_box)
        header.addWidget(self.mode_hint, 1)
        header.addWidget(self.new_button)
        layout.addLayout(header)

        self.banners = QVBoxLayout()
        self.banners.setSpacing(4)
        layout.addLayout(self.banners)
        self._config_banner: Banner | None = None
        #: the failed turn's banner (one at a time; gone when a later turn succeeds)
        self._error_banner: Banner | None = None
        self._retry_button: QPushButton | None = None

        self.conversation = ConversationView(self)
        self.conversation.page_of_block = page_of_block or page_lookup_for(view)
        layout.addWidget(self.conversation, 1)

        self.status = QLabel(self)
        self.status.setWordWrap(True)  # a sentence on why a message was not sent must not widen the dock
        self.status.setStyleSheet(f"color: {chat_colors(self)['muted']};")
        layout.addWidget(self.status)
        self.input = ChatInput(self)
        self.input.setPlaceholderText(self.tr("Ask about this contract, or ask for changes…"))
        self.input.setTabChangesFocus(True)
        self.input.setMaximumHeight(self.input.fontMetrics().lineSpacing() * 5 + 12)
        layout.addWidget(self.input)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.stop_button = QPushButton(self.tr("Stop"), self)
        self.send_button = QPushButton(self.tr("Send"), self)
        self.send_button.setDefault(True)
        buttons.addWidget(self.stop_button)
        buttons.addWidget(self.send_button)
        layout.addLayout(buttons)

        self._wire(view)
        self._show_mode(self.chat.mode)
        self._busy(False)
        if controller.reviewer is not None:
            self.chat.attach()

    def _wire(self, view: PageView) -> None:
        chat, conversation = self.chat, self.conversation
        # a no-argument slot: clicked(bool) would land its flag in send()'s ``text``
        self.input.submitted.connect(self.send_typed)
        self.send_button.clicked.connect(self.send_typed)
        self.stop_button.clicked.connect(self.stop)
        self.new_button.clicked.connect(self.ask_new_conversation)
        self.mode_box.activated.connect(lambda index: self.set_mode(self.mode_box.itemData(index)))
        chat.conversation_reset.connect(self._reset)
        chat.turn_started.connect(self._turn_started)
        chat.text_delta.connect(conversation.append_answer)
        chat.text_retracted.connect(conversation.retract_answer)
        chat.tool_started.connect(conversation.add_tool)
        chat.tool_finished.connect(conversation.update_tool)
        chat.cards_added.connect(conversation.add_cards)
        chat.card_changed.connect(conversation.update_card)
        chat.error_raised.connect(self._error)
        chat.note_raised.connect(self._note)
        chat.profile_switched.connect(self.conversation.add_note)
        chat.turn_finished.connect(self._turn_finished)
        chat.busy_changed.connect(self._busy)
        chat.not_configured.connect(self._not_configured)
        chat.mode_changed.connect(self._show_mode)
        conversation.apply_requested.connect(lambda keys: self._act(chat.apply_cards, keys))
        conversation.discard_requested.connect(lambda keys: self._act(chat.discard_cards, keys))
        conversation.accept_requested.connect(lambda keys: self._act(chat.accept_cards, keys))
        conversation.reject_requested.connect(lambda keys: self._act(chat.reject_cards, keys))
        conversation.show_requested.connect(self.show_block)
        view.layout_finished.connect(conversation.refresh_places)

    # ------------------------------------------------------------------ public API
    def mode(self) -> str:
        return self.chat.mode

    def set_mode(self, mode: str) -> None:
        """Review or Direct; takes effect after a running turn ends."""
        self.chat.set_mode(mode)
        if self.chat.busy and mode != self.chat.mode:
            self.mode_hint.setText(self.tr("switches after this turn"))

    def set_settings(self, settings: AgentSettings) -> None:
        """New model settings (from the settings dialog); clears the no-model banner when they work."""
        self.chat.set_settings(settings)
        if self.chat.configuration_problem() is None:
            self._close_config_banner()
            self.status.clear()

    def send(self, text: str | None = None) -> asyncio.Task[None] | None:
        """Send ``text`` (the input box's text when None) as the next message; the turn's Task or None."""
        message = self.input.toPlainText() if text is None else text
        task = self.chat.send(message)
        if task is None:
            self._say_why_not_sent(message)
        elif text is None:
            self.input.clear()
        return task

    def send_typed(self) -> None:
        """Send what is typed in the input box (Enter and the Send button)."""
        self.send()

    def stop(self) -> bool:
        return self.chat.stop()

    def ask_new_conversation(self) -> None:
        """New conversation: at once when there is nothing to lose, else after the person
        confirms in a window-modal question (naming the proposals that stay)."""
        if self.chat.busy:
            return
        if not self.chat.has_conversation():
            self.chat.new_conversation()
            return
        text = self.tr(
            "The conversation about this document will be cleared; the agent starts again without it."
        )
        waiting = self.chat.waiting_proposals()
        if waiting:
            text += " " + count_text(
                waiting,
                "The proposal still waiting for you stays, with its card.",
                "The {n} proposals still waiting for you stay, with their cards.",
            )
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("New conversation"), text, parent=self)
        box.setObjectName("newConversationBox")
        start = box.addButton(self.tr("Start new conversation"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(start)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.finished.connect(lambda _result: self._new_conversation_answered(box, start))
        box.open()

    def _new_conversation_answered(self, box: QMessageBox, start: QAbstractButton) -> None:
        if box.clickedButton() is start:
            self.chat.new_conversation()
        box.deleteLater()

    def _say_why_not_sent(self, message: str) -> None:
        """A message that could not go says why under the conversation; it stays in the box."""
        if not message.strip():
            return
        if self.chat.busy:
            why = self.tr("Not sent yet: the agent is still answering. Wait for it, or press Stop.")
        elif self.chat.controller.reviewer is None:
            why = self.tr("Not sent: open a document first; the agent works on the open contract.")
        elif self.chat.configuration_problem() is not None:
            why = self.tr(
                "Not sent: no model is set up yet. Your message is kept; choose a model in Settings…"
            )
        else:
            return
        self.status.setText(why)

    # ------------------------------------------------------------------ chat events
    def _reset(self, items: list) -> None:
        self.conversation.show_items(items)
        self._busy(self.chat.busy)
        for index in reversed(range(self.banners.count())):
            widget = self.banners.itemAt(index).widget()
            if isinstance(widget, Banner) and widget is not self._config_banner:
                widget.dismiss()
        self.status.clear()

    def _turn_started(self, text: str) -> None:
        self.conversation.add_user(text)
        self.status.setText(self.tr("Working…"))

    def _turn_finished(self, stop_reason: str) -> None:
        self.conversation.end_answer()
        if self.chat.last_error is None and self._error_banner is not None:
            self._error_banner.dismiss()
        if stop_reason == "cancelled":
            self.conversation.add_stopped()
            self.status.setText(self.tr("Stopped"))
        else:
            self.status.clear()
        self._show_mode(self.chat.mode)

    def _busy(self, busy: bool) -> None:
        self.send_button.setEnabled(not busy)
        self.stop_button.setEnabled(busy)
        self.new_button.setEnabled(not busy and self.chat.session is not None)
        if self._retry_button is not None:
            self._retry_button.setEnabled(not busy)

    def _show_mode(self, mode: str) -> None:
        self.mode_box.setCurrentIndex(max(0, self.mode_box.findData(mode)))
        hint = (
            self.tr("edits wait for you") if mode == "review" else self.tr("edits go in as tracked changes")
        )
        self.mode_hint.setText(hint)
        self.mode_changed.emit(mode)

    def _error(self, message: str, host: str) -> None:
        """The turn failed: one banner says why (replacing the previous failure's), with Retry
        (the same message again) and Settings… (the model settings are the usual cause)."""
        if self._error_banner is not None:
            self._error_banner.dismiss()
        detail = self.tr("Model server: {0}").format(host) if host else None
        banner = Banner(as_sentence(message), kind="error", detail=detail, parent=self)
        retry = banner.add_button(self.tr("Retry"))
        retry.setToolTip(self.tr("Send the last message again"))
        retry.setEnabled(not self.chat.busy)
        retry.clicked.connect(self.chat.retry)
        settings = banner.add_button(self.tr("Settings…"))
        settings.clicked.connect(self.settings_requested)
        banner.closed.connect(lambda: self._forget_error_banner(banner))
        self._error_banner, self._retry_button = banner, retry
        self._add_banner(banner)

    def _forget_error_banner(self, banner: Banner) -> None:
        if self._error_banner is banner:
            self._error_banner = self._retry_button = None

    def _note(self, note: str) -> None:
        self.conversation.add_note(note)
        self._add_banner(Banner(note, kind="info", parent=self))

    def _not_configured(self, message: str) -> None:
        if self._config_banner is not None:
            return
        banner = Banner(
            self.tr("No model is configured. ") + message,
            kind="info",
            action=self.tr("Open settings…"),
            parent=self,
        )
        banner.action_triggered.connect(self.settings_requested)
        banner.closed.connect(lambda: setattr(self, "_config_banner", None))
        self._config_banner = banner
        self.banners.insertWidget(0, banner)

    def _close_config_banner(self) -> None:
        if self._config_banner is not None:
            self._config_banner.dismiss()

    def _add_banner(self, banner: Banner) -> None:
        errors = [
            self.banners.itemAt(i).widget()
            for i in range(self.banners.count())
            if self.banners.itemAt(i).widget() is not self._config_banner
        ]
        for old in errors[: max(0, len(errors) - MAX_ERROR_BANNERS + 1)]:
            if isinstance(old, Banner):
                old.dismiss()
        self.banners.addWidget(banner)

    def _act(self, action: Callable[[list[str]], list[CardState]], keys: list[str]) -> None:
        """Run a card action; a failure shows a banner instead of escaping into Qt."""
        try:
            action(keys)
        except Exception as error:
            log.exception("a card action failed")
            text = self.tr("That did not work: {0}").format(as_sentence(str(error)))
            self._add_banner(Banner(text, kind="error", parent=self))

    # ------------------------------------------------------------------ reading (tests)
    @property
    def error_banner(self) -> Banner | None:
        """The failed turn's banner (Retry, Settings…), while it shows."""
        return self._error_banner

    def banner_texts(self) -> list[str]:
        return [
            widget.text
            for i in range(self.banners.count())
            if isinstance(widget := self.banners.itemAt(i).widget(), Banner) and widget.isVisibleTo(self)
        ]
