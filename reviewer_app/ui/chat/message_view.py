"""The conversation: user messages, streamed answers rendered as Markdown, tool lines, card groups.

A streamed answer grows by a few characters per event; re-rendering the whole conversation each
time would stall the window on a long chat. Each answer is its own label, and only the answer
being streamed is re-rendered, at most every :data:`RENDER_INTERVAL_MS` (the text gathers in
between). The view follows the newest line while the person is at the bottom, and leaves them
where they are when they scrolled up to read.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QSizeF, Qt, QTimer, Signal
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QSizePolicy, QTextBrowser, QVBoxLayout, QWidget

from . import describe
from .banner import as_sentence
from .card_state import CardState
from .colors import chat_colors
from .conversation_items import Item, ToolLineData
from .edit_card import BatchCards, PageLookup

#: the streamed answer is re-rendered at most this often (and less often when rendering is slow)
RENDER_INTERVAL_MS = 50
MAX_RENDER_INTERVAL_MS = 400


class AssistantMessage(QTextBrowser):
    """One answer, rendered as Markdown; text arriving in pieces is rendered in throttled steps.

    A text browser sized to its document, not a rich-text label: a label lays Markdown out
    several times per size request (170 ms for 2,500 characters with a table, against 1-2 ms
    for the document itself), which would stall the window at every step of a long answer.
    The interval between renders grows with what the last one cost, so a very long answer
    still leaves the loop mostly idle.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setOpenExternalLinks(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.viewport().setAutoFillBackground(False)
        self.setStyleSheet("QTextBrowser { background: transparent; }")
        self.document().setDocumentMargin(2)
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self.setFixedHeight(self.fontMetrics().lineSpacing() + 6)
        self._markdown = ""
        self._shown = ""
        self._timer = QTimer(self, singleShot=True, interval=RENDER_INTERVAL_MS)
        self._timer.timeout.connect(self.flush)

    @property
    def markdown(self) -> str:
        return self._markdown

    def text(self) -> str:
        """The answer as shown (rendered: no Markdown markers)."""
        return self.toPlainText()

    def append(self, piece: str) -> None:
        self._markdown += piece
        if not self._timer.isActive():
            self._timer.start()

    def retract(self, discarded: str) -> None:
        """Drop the text of a broken reply that will be streamed again from its start."""
        if discarded:
            at = self._markdown.rfind(discarded)
            if at >= 0:
                self._markdown = self._markdown[:at] + self._markdown[at + len(discarded) :]
        self.flush()

    def flush(self) -> None:
        self._timer.stop()
        if self._markdown == self._shown:
            return
        started = time.perf_counter()
        self.setMarkdown(self._markdown)
        self._shown = self._markdown
        cost_ms = (time.perf_counter() - started) * 1000
        self._timer.setInterval(min(MAX_RENDER_INTERVAL_MS, max(RENDER_INTERVAL_MS, int(4 * cost_ms))))

    def _fit(self, size: QSizeF) -> None:
        self.setFixedHeight(int(size.height()) + 2)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt override
        event.ignore()  # the conversation scrolls, not the answer


class ToolLine(QLabel):
    """One line per tool call: "Read section 1.2 · 5 blocks · 2 ms"; errors say what went wrong."""

    def __init__(self, line: ToolLineData, parent: QWidget | None = None):
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self.update_line(line)

    def update_line(self, line: ToolLineData) -> None:
        colors = chat_colors(self)
        self.phrase = describe.tool_phrase(line.name, line.input, line.result)
        if line.ok is None:
            self.setText(f"⋯ {self.phrase}")
            self.setStyleSheet(f"color: {colors['muted']};")
            return
        if line.ok:
            parts = [self.phrase, describe.clip(line.summary, 90), describe.duration_text(line.ms)]
            self.setText("✓ " + " · ".join(p for p in parts if p))
            self.setStyleSheet(f"color: {colors['muted']};")
            self.setToolTip(line.summary)
        else:
            error = line.error or line.summary
            self.setText(f"✗ {self.phrase}: {describe.clip(error, 200)}")
            self.setStyleSheet(f"color: {colors['error']};")
            self.setToolTip(error)


def _plain(text: str, style: str, parent: QWidget) -> QLabel:
    label = QLabel(text, parent)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setStyleSheet(style)
    return label


class ConversationView(QScrollArea):
    """The scrolling list of everything said and done in this document's conversation."""

    #: card actions, forwarded from the card groups (lists of card keys)
    apply_requested = Signal(list)
    discard_requested = Signal(list)
    accept_requested = Signal(list)
    reject_requested = Signal(list)
    show_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._body = QWidget(self)
        self._layout = QVBoxLayout(self._body)
        self._layout.setContentsMargins(8, 8, 8, 8)
        self._layout.setSpacing(8)
        self._layout.addStretch(1)
        self.setWidget(self._body)
        #: the page of a block (1-based) for the cards' "where"; set by the dock
        self.page_of_block: PageLookup | None = None
        self._answer: AssistantMessage | None = None
        self._answers: list[AssistantMessage] = []
        #: each tool call's line by the identity of its data; the data is kept with the line, or a
        #: later call's data could be given the freed one's identity and take over its line
        self._tools: dict[int, tuple[ToolLineData, ToolLine]] = {}
        self._batches: list[BatchCards] = []
        self._follow = True
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(lambda value: setattr(self, "_follow", value >= bar.maximum() - 8))
        bar.rangeChanged.connect(lambda _low, high: bar.setValue(high) if self._follow else None)

    # ------------------------------------------------------------------ building
    def _add(self, widget: QWidget) -> QWidget:
        self._layout.insertWidget(self._layout.count() - 1, widget)
        return widget

    def clear(self) -> None:
        while self._layout.count() > 1:
            item = self._layout.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()
        self._answer = None
        self._answers.clear()
        self._tools.clear()
        self._batches.clear()
        self._follow = True

    def add_user(self, text: str) -> None:
        colors = chat_colors(self)
        self._answer = None
        style = f"background: {colors['user_fill']}; border-radius: 6px; padding: 6px;"
        self._add(_plain(text, style, self._body))

    def append_answer(self, piece: str) -> None:
        """Stream text into the current answer (a new one after a tool line or card group)."""
        if self._answer is None:
            self._answer = AssistantMessage(self._body)
            self._answers.append(self._answer)
            self._add(self._answer)
        self._answer.append(piece)

    def retract_answer(self, discarded: str) -> None:
        if self._answer is not None:
            self._answer.retract(discarded)

    def end_answer(self) -> None:
        """The answer so far is complete (a tool runs, or the turn ended): render it now."""
        if self._answer is not None:
            self._answer.flush()
        self._answer = None

    def add_tool(self, line: ToolLineData) -> ToolLine:
        self.end_answer()
        widget = ToolLine(line, self._body)
        self._tools[id(line)] = (line, widget)
        self._add(widget)
        return widget

    def update_tool(self, line: ToolLineData) -> None:
        shown = self._tools.get(id(line))
        widget = shown[1] if shown is not None else self.add_tool(line)
        widget.update_line(line)

    def add_cards(self, cards: list[CardState]) -> BatchCards:
        self.end_answer()
        group = BatchCards(cards, self.page_of_block, self._body)
        group.apply_requested.connect(self.apply_requested)
        group.discard_requested.connect(self.discard_requested)
        group.accept_requested.connect(self.accept_requested)
        group.reject_requested.connect(self.reject_requested)
        group.show_requested.connect(self.show_requested)
        self._batches.append(group)
        self._add(group)
        return group

    def update_card(self, card: CardState) -> None:
        for group in self._batches:
            if group.update_card(card):
                return

    def refresh_places(self) -> None:
        """Pages moved (the layout finished or changed): the cards' "where" follows."""
        for group in self._batches:
            group.refresh_places()

    def add_error(self, text: str) -> None:
        self.end_answer()
        self._add(_plain(f"⚠ {as_sentence(text)}", f"color: {chat_colors(self)['error']};", self._body))

    def add_note(self, text: str) -> None:
        self.end_answer()
        self._add(_plain(text, f"color: {chat_colors(self)['muted']}; font-style: italic;", self._body))

    def add_stopped(self) -> None:
        self.add_note(self.tr("Stopped."))

    def show_items(self, items: list[Item]) -> None:
        """Rebuild the conversation from saved items (a reopened document)."""
        self.clear()
        for item in items:
            if item.kind == "user":
                self.add_user(item.text)
            elif item.kind == "assistant":
                self.append_answer(item.text)
                self.end_answer()
            elif item.kind == "tool" and item.tool is not None:
                self.update_tool(item.tool)
            elif item.kind == "cards":
                self.add_cards(item.cards)
            elif item.kind == "error":
                self.add_error(item.text)
            elif item.kind == "note":
                self.add_note(item.text)
            elif item.kind == "stopped":
                self.add_stopped()

    # ------------------------------------------------------------------ reading (tests, accessibility)
    def batches(self) -> list[BatchCards]:
        return list(self._batches)

    def answers(self) -> list[AssistantMessage]:
        return list(self._answers)

    def tool_lines(self) -> list[ToolLine]:
        return [widget for _line, widget in self._tools.values()]
