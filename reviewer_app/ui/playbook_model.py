"""The Playbook panel's rows: one per position of the playbook, in the playbook's order.

A row says, in two lines that fit a side dock, what a lawyer scans a review by: a traffic light
(deviates red, missing amber, meets green, not applicable grey, unanswered a hollow ring), the
position's title, then the status in words, the severity and the clause the finding cites. The
status is the lawyer's when they overrode the agent's, and the row says so: colour is never the
only signal. A status filter narrows the rows; the review itself stays whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QPointF,
    Qt,
)
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap

from ..agent.playbook.issues_list import UNANSWERED, clauses_from_snapshot
from ..agent.playbook.model import STATUSES, PlaybookFinding, PlaybookReview, Position
from ..docx.snapshot import Snapshot
from .chat.describe import HEADING_CLIP, clip

#: every status a row can show, in the order the filter lists them
ROW_STATUSES: tuple[str, ...] = (*STATUSES, UNANSWERED)
#: the position id of a row
POSITION_ROLE = Qt.ItemDataRole.UserRole
#: the status a row shows (the lawyer's override when there is one)
STATUS_ROLE = Qt.ItemDataRole.UserRole + 1

#: traffic-light colours; unanswered is drawn as a ring, not filled
STATUS_COLOURS = {
    "deviates": "#c62828",
    "missing": "#f29900",
    "meets": "#2e7d32",
    "not_applicable": "#9aa0a6",
    UNANSWERED: "#80868b",
}
_LIGHT_PX = 14


def _tr(text: str) -> str:
    return QCoreApplication.translate("PlaybookModel", text)


def status_title(status: str) -> str:
    """A status in words, as the panel, its filter and its status box show it."""
    titles = {
        "deviates": _tr("Deviates"),
        "missing": _tr("Missing"),
        "meets": _tr("Meets"),
        "not_applicable": _tr("Not applicable"),
        UNANSWERED: _tr("Unanswered"),
    }
    return titles.get(status, status)


def severity_title(severity: str) -> str:
    titles = {"high": _tr("High"), "medium": _tr("Medium"), "low": _tr("Low")}
    return titles.get(severity, severity)


_LIGHTS: dict[str, QIcon] = {}


def traffic_light(status: str) -> QIcon:
    """A round light in the status's colour (a hollow ring for an unanswered position)."""
    if status not in _LIGHTS:
        _LIGHTS[status] = _paint_light(status)
    return _LIGHTS[status]


def _paint_light(status: str) -> QIcon:
    pixmap = QPixmap(_LIGHT_PX, _LIGHT_PX)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    colour = QColor(STATUS_COLOURS.get(status, STATUS_COLOURS[UNANSWERED]))
    pen = QPen(colour)
    pen.setWidthF(1.6)
    painter.setPen(pen)
    if status == UNANSWERED:
        painter.setBrush(Qt.BrushStyle.NoBrush)
    else:
        painter.setBrush(colour)
    middle = QPointF(_LIGHT_PX / 2, _LIGHT_PX / 2)
    radius = _LIGHT_PX / 2 - 1.5
    painter.drawEllipse(middle, radius, radius)
    painter.end()
    return QIcon(pixmap)


@dataclass(frozen=True)
class PositionRow:
    """A position and what was found for it (None: unanswered), with the cited clause in words."""

    position: Position
    finding: PlaybookFinding | None
    clause: str

    @property
    def status(self) -> str:
        return self.finding.effective_status if self.finding is not None else UNANSWERED

    @property
    def overridden(self) -> bool:
        """The lawyer's status differs from the agent's (the row says so)."""
        finding = self.finding
        return finding is not None and finding.override_status not in (None, finding.status)

    @property
    def severity(self) -> str:
        return self.finding.severity if self.finding is not None else self.position.severity

    def details(self) -> str:
        """The second line: status (and whether it is the lawyer's), severity, cited clause."""
        status = status_title(self.status)
        if self.overridden:
            status = _tr("{0} (overridden)").format(status)
        parts = [status, severity_title(self.severity)]
        if self.clause:
            parts.append(self.clause)
        return " · ".join(parts)

    def tooltip(self) -> str:
        position = self.position
        lines = [position.question] if position.question else []
        if position.standard:
            lines.append(_tr("Our position: {0}").format(position.standard))
        finding = self.finding
        if finding is not None and self.overridden:
            lines.append(_tr("The agent said: {0}").format(status_title(finding.status)))
        if finding is not None and finding.note:
            lines.append(_tr("Your note: {0}").format(finding.note))
        return "\n".join(lines)


def clause_namer(snapshot: Snapshot | None, *, or_text: bool = True) -> Callable[[str], str]:
    """A block id → how the panel names the clause: its number or heading as the issues list
    cites it ("7.2(a)"), else (``or_text``) the start of its text; "" for a block no longer in
    the document."""
    lookup = clauses_from_snapshot(snapshot) if snapshot is not None else None

    def name(block_id: str) -> str:
        clause = lookup(block_id) if lookup is not None else None
        if clause is None or not (clause.label or or_text):
            return ""
        return clause.label or f"“{clip(clause.text, HEADING_CLIP)}”"

    return name


def position_rows(review: PlaybookReview, snapshot: Snapshot | None) -> list[PositionRow]:
    """Every position of the review's playbook, in its order, with its finding and cited clause."""
    name = clause_namer(snapshot)
    rows = []
    for position in review.playbook.positions:
        finding = review.findings.get(position.id)
        cited = finding.citations[0].block_id if finding is not None and finding.citations else None
        rows.append(PositionRow(position, finding, name(cited) if cited is not None else ""))
    return rows


def status_counts(rows: Sequence[PositionRow]) -> dict[str, int]:
    """How many rows show each status (every status present, zero or not)."""
    counts = dict.fromkeys(ROW_STATUSES, 0)
    for row in rows:
        counts[row.status] = counts.get(row.status, 0) + 1
    return counts


class PlaybookModel(QAbstractListModel):
    """The rows of one review, filtered by status (see the module docstring)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._all: list[PositionRow] = []
        self._rows: list[PositionRow] = []
        self._status: str | None = None

    # ------------------------------------------------------------------ contents
    def set_rows(self, rows: list[PositionRow]) -> None:
        """Show these rows (after a finding was recorded or a person changed one)."""
        self.beginResetModel()
        self._all = rows
        self._rows = self._filtered()
        self.endResetModel()

    def set_status_filter(self, status: str | None) -> None:
        """Only rows showing ``status`` (None: every row)."""
        self.beginResetModel()
        self._status = status
        self._rows = self._filtered()
        self.endResetModel()

    def _filtered(self) -> list[PositionRow]:
        return [r for r in self._all if self._status is None or r.status == self._status]

    def replace_row(self, changed: PositionRow) -> None:
        """The same position with a changed finding (a note typed): only its row is redrawn."""
        position_id = changed.position.id
        self._all = [changed if r.position.id == position_id else r for r in self._all]
        row = self.row_of(position_id)
        if row is not None:
            self._rows[row] = changed
            self.dataChanged.emit(self.index(row), self.index(row))

    def row_at(self, row: int) -> PositionRow | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, position_id: str) -> int | None:
        return next((i for i, r in enumerate(self._rows) if r.position.id == position_id), None)

    # ------------------------------------------------------------------ Qt model
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._rows)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        row = self.row_at(index.row()) if index.isValid() else None
        if row is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{row.position.title}\n{row.details()}"
        if role == Qt.ItemDataRole.DecorationRole:
            return traffic_light(row.status)
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.tooltip() or None
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{row.position.title}: {row.details()}"
        if role == POSITION_ROLE:
            return row.position.id
        if role == STATUS_ROLE:
            return row.status
        return None
