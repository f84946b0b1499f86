"""The Playbook panel: a review against a playbook, one row per position, to work through.

Each row has a traffic light, the position, its status, severity and cited clause
(:mod:`.playbook_model`). Picking a row shows the clause its finding cites on the page (the
quote's exact range when it is still in the block, else the whole block) and, below the list,
the agent's explanation, every citation and the proposals the agent made for the position:
clicking one shows that quote, or that proposal's card in the chat. The lawyer may set their own
status (the agent's answer is kept beside it, never written over) and a note; both are kept in
the :class:`PlaybookReview`, and :attr:`PlaybookPanel.review_edited` tells the owner to save it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QAction, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPlainTextEdit,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ..agent.playbook.model import STATUSES, PlaybookFinding, PlaybookReview
from ..docx.snapshot import Snapshot
from .playbook_model import (
    ROW_STATUSES,
    PlaybookModel,
    PositionRow,
    clause_namer,
    position_rows,
    status_counts,
    status_title,
    traffic_light,
)
from .plurals import count_text

#: what a row of the evidence list points at: ("citation", index) or ("proposal", proposal id)
_LINK_ROLE = Qt.ItemDataRole.UserRole
#: a proposal id → how it reads in the evidence list ("Replace text · waiting"), None when unknown
ProposalLookup = Callable[[str], "str | None"]
_QUOTE_CLIP = 90
#: the evidence list grows to this many rows, then scrolls
_EVIDENCE_ROWS = 5


def _clip(text: str, limit: int = _QUOTE_CLIP) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


class PlaybookPanel(QWidget):
    """The positions of one review, their findings, and the lawyer's verdict on each."""

    #: show this range of this block: (block id, start, end) in clean-text offsets
    citation_shown = Signal(str, int, int)
    #: show this whole block (the cited quote is no longer in it)
    block_shown = Signal(str)
    #: show this proposal's card (a proposal id)
    proposal_shown = Signal(str)
    #: the lawyer changed a status or a note: the review is to be saved
    review_edited = Signal()

    def __init__(self, snapshot: Callable[[], Snapshot | None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("playbookPanel")
        self.setAccessibleName(self.tr("Playbook review"))
        self._snapshot = snapshot
        #: how a linked proposal reads in the evidence list (the owner knows the chat's cards)
        self.describe_proposal: ProposalLookup = lambda _id: None
        self.review: PlaybookReview | None = None
        #: the document changed while the panel was hidden: refresh when it is shown
        self._stale = False
        self._build()
        self._show_detail(None)

    # ------------------------------------------------------------------ widgets
    def _build(self) -> None:
        self.heading = QLabel()
        self.heading.setObjectName("playbookHeading")
        self.heading.setWordWrap(True)
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)

        self.status_filter = QComboBox()
        self.status_filter.setObjectName("playbookFilter")
        self.status_filter.setAccessibleName(self.tr("Show positions"))
        self.status_filter.addItem(self.tr("All positions"), None)
        for status in ROW_STATUSES:
            self.status_filter.addItem(traffic_light(status), status_title(status), status)
        self.status_filter.currentIndexChanged.connect(self._filter_changed)

        self.model = PlaybookModel(self)
        self.list = QListView()
        self.list.setObjectName("playbookList")
        self.list.setAccessibleName(self.tr("Positions"))
        self.list.setModel(self.model)
        self.list.setWordWrap(True)
        self.list.setAlternatingRowColors(True)
        self.list.setSpacing(2)
        self.list.setUniformItemSizes(False)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._context_menu)
        self.list.selectionModel().currentChanged.connect(lambda current, _old: self._picked(current))
        self.list.clicked.connect(self._picked)

        self.counts = QLabel()
        self.counts.setObjectName("playbookCounts")
        self.counts.setWordWrap(True)

        self.detail = QWidget()
        self.detail.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.detail.setObjectName("playbookDetail")
        self.position_title = QLabel()
        self.position_title.setWordWrap(True)
        self.position_title.setFont(font)
        self.explanation = QLabel()
        self.explanation.setObjectName("playbookExplanation")
        self.explanation.setWordWrap(True)
        self.explanation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.evidence = QListWidget()
        self.evidence.setObjectName("playbookEvidence")
        self.evidence.setAccessibleName(self.tr("Citations and proposals"))
        # one line a row, elided (the tooltip has it whole): the list is exactly as tall as its rows
        self.evidence.setWordWrap(False)
        self.evidence.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.evidence.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.evidence.itemClicked.connect(self._evidence_clicked)
        self.status_box = QComboBox()
        self.status_box.setObjectName("playbookStatus")
        self.status_box.setAccessibleName(self.tr("Your status for this position"))
        self.status_box.activated.connect(lambda index: self._set_status(self.status_box.itemData(index)))
        self.note = QPlainTextEdit()
        self.note.setObjectName("playbookNote")
        self.note.setAccessibleName(self.tr("Your note"))
        self.note.setPlaceholderText(self.tr("Your note (kept in Reviewer and in the issues list)"))
        self.note.setTabChangesFocus(True)
        self.note.setFixedHeight(self.fontMetrics().lineSpacing() * 3 + 12)
        self.note.textChanged.connect(self._note_changed)
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(self.tr("Status:"), self.status_box)
        form.addRow(self.tr("Note:"), self.note)
        detail = QVBoxLayout(self.detail)
        detail.setContentsMargins(0, 0, 0, 0)
        detail.setSpacing(4)
        detail.addWidget(self.position_title)
        detail.addWidget(self.explanation)
        detail.addWidget(self.evidence)
        detail.addLayout(form)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(6)
        layout.addWidget(self.heading)
        layout.addWidget(self.status_filter)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.counts)
        layout.addWidget(self.detail)

    # ------------------------------------------------------------------ contents
    def set_review(self, review: PlaybookReview | None) -> None:
        """Show this review (None: no review for this document yet)."""
        self.review = review
        self.refresh()

    def refresh_when_shown(self) -> None:
        """The document changed: refresh now if the panel can be seen, else when it is shown."""
        if self.isVisible():
            self.refresh()
        else:
            self._stale = True

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def refresh(self) -> None:
        """Show the review as it is now (a finding was recorded), keeping the person's place."""
        self._stale = False
        review = self.review
        current = self.current_row()
        keep = current.position.id if current is not None else None
        rows = position_rows(review, self._snapshot()) if review is not None else []
        self.model.set_rows(rows)
        self._show_counts(rows)
        row = self.model.row_of(keep) if keep is not None else None
        if row is not None:
            self.list.selectionModel().blockSignals(True)
            self.list.setCurrentIndex(self.model.index(row))
            self.list.selectionModel().blockSignals(False)
        self._show_detail(self.current_row())

    def _show_counts(self, rows: list[PositionRow]) -> None:
        review = self.review
        if review is None:
            self.heading.setText(self.tr("No playbook review yet"))
            self.counts.setText(self.tr("Choose Agent ▸ Review Against Playbook… to check this contract."))
            return
        self.heading.setText(review.playbook.name)
        counts = status_counts(rows)
        parts = [f"{status_title(s)} {counts[s]}" for s in ROW_STATUSES if counts[s]]
        total = count_text(len(rows), "{n} position", "{n} positions")
        self.counts.setText(f"{total}: " + " · ".join(parts) if parts else total)
        for index in range(1, self.status_filter.count()):
            status = self.status_filter.itemData(index)
            self.status_filter.setItemText(index, f"{status_title(status)} ({counts[status]})")

    def rows(self) -> list[PositionRow]:
        """The rows listed now (after the filter), in the playbook's order."""
        return [r for i in range(self.model.rowCount()) if (r := self.model.row_at(i)) is not None]

    def current_row(self) -> PositionRow | None:
        index = self.list.currentIndex()
        return self.model.row_at(index.row()) if index.isValid() else None

    def _filter_changed(self, _index: int) -> None:
        self.model.set_status_filter(self.status_filter.currentData())
        self._show_detail(None)

    # ------------------------------------------------------------------ a picked position
    def _picked(self, index: QModelIndex) -> None:
        row = self.model.row_at(index.row()) if index.isValid() else None
        self._show_detail(row)
        if row is not None and row.finding is not None and row.finding.citations:
            self._show_citation(row.finding, 0)

    def _show_detail(self, row: PositionRow | None) -> None:
        self.detail.setVisible(row is not None)
        if row is None:
            return
        finding = row.finding
        self.position_title.setText(row.position.title)
        self.explanation.setText(self._explained(row))
        self._fill_evidence(finding)
        self._fill_status_box(finding)
        note = finding.note if finding is not None else ""
        if self.note.toPlainText() != note:  # a refresh while the note is typed leaves the cursor be
            self.note.blockSignals(True)
            self.note.setPlainText(note)
            self.note.blockSignals(False)
        self.note.setEnabled(finding is not None)

    def _explained(self, row: PositionRow) -> str:
        """The agent's reason and, when it left one, its comment and whom the comment is for."""
        finding = row.finding
        if finding is None:
            return self.tr("The agent has not answered this position yet.")
        lines = [finding.explanation or row.position.question]
        if finding.comment:
            template = (
                self.tr("Comment for the other side (in the document once applied): {0}")
                if finding.comment_audience == "external"
                else self.tr("Note for you (never in the document): {0}")
            )
            lines.append(template.format(finding.comment))
        return "\n".join(lines)

    def _fill_evidence(self, finding: PlaybookFinding | None) -> None:
        self.evidence.clear()
        if finding is None:
            self.evidence.hide()
            return
        name = clause_namer(self._snapshot(), or_text=False)  # the quote itself is the text
        for number, citation in enumerate(finding.citations):
            quote = f"“{_clip(citation.quote)}”"
            where = name(citation.block_id)
            item = QListWidgetItem(f"{where}: {quote}" if where else quote)
            item.setData(_LINK_ROLE, ("citation", number))
            item.setToolTip(self.tr("Show this text in the document:\n“{0}”").format(citation.quote))
            self.evidence.addItem(item)
        for proposal_id in finding.proposal_ids:
            described = self.describe_proposal(proposal_id)
            item = QListWidgetItem(self.tr("Proposal: {0}").format(described or proposal_id))
            item.setData(_LINK_ROLE, ("proposal", proposal_id))
            item.setToolTip(self.tr("Show this proposal's card in the chat"))
            self.evidence.addItem(item)
        self.evidence.setVisible(self.evidence.count() > 0)
        self._fit_evidence()

    def _fit_evidence(self) -> None:
        """As tall as its rows, up to :data:`_EVIDENCE_ROWS` of them (then it scrolls)."""
        count = min(self.evidence.count(), _EVIDENCE_ROWS)
        rows = sum(self.evidence.sizeHintForRow(i) for i in range(count))
        self.evidence.setFixedHeight(rows + 2 * self.evidence.frameWidth())

    def _fill_status_box(self, finding: PlaybookFinding | None) -> None:
        box = self.status_box
        box.clear()
        box.setEnabled(finding is not None)
        if finding is None:
            return
        for status in STATUSES:
            label = status_title(status)
            if status == finding.status:
                label = self.tr("{0} (the agent's answer)").format(label)
            box.addItem(traffic_light(status), label, status)
        box.setCurrentIndex(STATUSES.index(finding.effective_status))

    def _show_citation(self, finding: PlaybookFinding, number: int) -> None:
        """Show a cited quote on the page: its range while the block still holds it, else the block."""
        citation = finding.citations[number]
        snapshot = self._snapshot()
        block = snapshot.block(citation.block_id) if snapshot is not None else None
        start = block.text.find(citation.quote) if block is not None and citation.quote else -1
        if start >= 0:
            self.citation_shown.emit(citation.block_id, start, start + len(citation.quote))
        else:
            self.block_shown.emit(citation.block_id)

    def _evidence_clicked(self, item: QListWidgetItem) -> None:
        row = self.current_row()
        kind, value = item.data(_LINK_ROLE)
        if kind == "proposal":
            self.proposal_shown.emit(value)
        elif row is not None and row.finding is not None:
            self._show_citation(row.finding, value)

    # ------------------------------------------------------------------ the lawyer's verdict
    def _set_status(self, status: str | None, position_id: str | None = None) -> None:
        """The lawyer's status for a position (the agent's own status clears the override)."""
        review = self.review
        row = self.current_row() if position_id is None else None
        finding_id = position_id or (row.position.id if row is not None else None)
        finding = review.findings.get(finding_id) if review is not None and finding_id else None
        if review is None or finding is None:
            return
        override = None if status in (None, finding.status) else status
        review.record(finding.overridden(override))
        self.refresh()
        self.review_edited.emit()

    def _note_changed(self) -> None:
        review, row = self.review, self.current_row()
        if review is None or row is None or row.finding is None:
            return
        finding = review.findings[row.position.id].overridden(
            row.finding.override_status, self.note.toPlainText()
        )
        review.record(finding)
        self.model.replace_row(PositionRow(row.position, finding, row.clause))  # the tooltip shows it
        self.review_edited.emit()

    def _context_menu(self, point: QPoint) -> None:
        """Right-click a row: mark it with a status of the lawyer's, or go back to the agent's."""
        index = self.list.indexAt(point)
        row = self.model.row_at(index.row()) if index.isValid() else None
        if row is None or row.finding is None:
            return
        self.list.setCurrentIndex(index)
        menu = QMenu(self)
        menu.setObjectName("playbookRowMenu")
        for status in STATUSES:
            action = QAction(traffic_light(status), self.tr("Mark as {0}").format(status_title(status)), menu)
            action.setCheckable(True)
            action.setChecked(row.status == status)
            action.triggered.connect(lambda _c=False, s=status, p=row.position.id: self._set_status(s, p))
            menu.addAction(action)
        menu.addSeparator()
        back = menu.addAction(self.tr("Use the Agent's Answer"))
        back.setEnabled(row.overridden)
        back.triggered.connect(lambda _c=False, p=row.position.id: self._set_status(None, p))
        menu.popup(self.list.viewport().mapToGlobal(point))
