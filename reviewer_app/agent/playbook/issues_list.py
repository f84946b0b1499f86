"""The issues list: a playbook review as the table a lawyer sends the client, as .docx or CSV.

One row per position: what the contract says (the cited clauses, by their numbers, and their
text), what we propose instead and why. The proposed text is the wording the agent drafted (the
proposals linked to the finding) when there is one, else the playbook's own fallback or model
clause, marked as such so nobody mistakes a playbook position for drafted wording. Internal
notes and comments belong here, never in the contract: the notes column carries the lawyer's
note and the finding's internal comment. Positions the review did not answer are rows too
("Unanswered"), so a stopped review cannot pass for a clean one.

The inputs are plain data both callers have: the CLI and the app pass the document's
:class:`~reviewer_app.docx.snapshot.Snapshot` (which knows clause numbers and headings), and
the review-queue proposals. No Qt here.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import docx
from docx.enum.section import WD_ORIENT
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Cm, Emu, Pt
from docx.table import _Cell

from ...docx.atomic_write import write_atomically
from ...docx.blocks import Block
from ...docx.snapshot import Snapshot
from .model import SEVERITIES, STATUSES, PlaybookFinding, PlaybookReview, Position

UNANSWERED = "unanswered"
#: Row order: what needs work first; an unanswered position before the settled ones.
STATUS_ORDER: tuple[str, ...] = (*STATUSES[:2], UNANSWERED, *STATUSES[2:])
STATUS_WORDS: dict[str, str] = {
    "deviates": "Deviates",
    "missing": "Missing",
    UNANSWERED: "Unanswered",
    "meets": "Meets",
    "not_applicable": "Not applicable",
}
#: Cell shading of the status column, a muted traffic light that prints legibly in grey.
STATUS_FILL: dict[str, str] = {
    "deviates": "F4CCCC",
    "missing": "FCE5CD",
    UNANSWERED: "E7E6E6",
    "meets": "D9EAD3",
    "not_applicable": "FFFFFF",
}
DOCX_COLUMNS: tuple[str, ...] = (
    "Position",
    "Status",
    "Clause",
    "Current text",
    "Proposed text",
    "Reason",
    "Notes",
)
#: Shares of the page width each .docx column takes (the texts get the most).
DOCX_WIDTHS: tuple[float, ...] = (0.125, 0.085, 0.09, 0.21, 0.21, 0.163, 0.117)
CSV_COLUMNS: tuple[str, ...] = (
    "Position ID",
    "Position",
    "Status",
    "Severity",
    "Clause",
    "Current text",
    "Proposed text",
    "Reason",
    "Notes",
)
#: Operations whose text is wording proposed for the contract (comments are not).
_TEXT_KEYS: dict[str, str] = {
    "replaceRange": "replace",
    "replaceBlock": "text",
    "insertAfterBlock": "text",
    "insertBeforeBlock": "text",
}
_HEADING_CLIP = 60


@dataclass(frozen=True, slots=True)
class Clause:
    """A cited block as the issues list shows it: its clause number or heading, and its text."""

    label: str
    text: str


#: Where the clauses come from: the document's snapshot, block texts by id, or a lookup.
ClauseSource = Snapshot | Mapping[str, str] | Callable[[str], Clause | None]


@dataclass(frozen=True, slots=True)
class IssueRow:
    """One row of the issues list."""

    position: Position
    status: str  # one of STATUS_ORDER
    overridden: bool
    severity: str
    clause: str
    current_text: str
    proposed_text: str
    reason: str
    notes: str

    @property
    def status_words(self) -> str:
        words = STATUS_WORDS[self.status]
        return f"{words} (reviewer)" if self.overridden else words


def clauses_from_snapshot(snapshot: Snapshot) -> Callable[[str], Clause | None]:
    """A lookup naming each block the way a lawyer cites it: "7.2", "7.2(a)(i)", or its heading.

    The numbers are the ones the document shows (counted live by the block model). A lettered
    or roman item gets the numbers of the items it sits under, up to the clause number; an
    unnumbered paragraph is cited by the clause it follows, or by its heading's text when the
    headings are not numbered; text before any of them has no label.
    """

    def lookup(block_id: str) -> Clause | None:
        index = snapshot.index_of(block_id)
        if index is None:
            return None
        block = snapshot.blocks[index]
        return Clause(
            label=_clause_number(snapshot.blocks, index) or _heading_of(snapshot.blocks, index),
            text=block.text,
        )

    return lookup


def _number(block: Block) -> str:
    """The list number a block shows ("7.2.", "(a)"), without a trailing full stop ("" for a bullet)."""
    label = (block.display_label or "").rstrip(".") if block.list_reference is not None else ""
    return label if any(ch.isalnum() for ch in label) else ""


def _clause_number(blocks: list[Block], index: int) -> str:
    own = _number(blocks[index])
    if own and not own.startswith("("):
        return own
    parts = [own] if own else []
    level_of = blocks[index].list_reference if own else None
    for block in reversed(blocks[:index]):
        number = _number(block)
        if not number:
            continue
        if not number.startswith("("):
            return number + "".join(parts)
        reference = block.list_reference
        if _encloses(reference, level_of):
            parts.insert(0, number)
            level_of = reference
    return "".join(parts)


def _encloses(outer: dict[str, int] | None, inner: dict[str, int] | None) -> bool:
    """Whether a list item at ``outer`` is the parent level of one at ``inner`` (same list)."""
    if outer is None or inner is None:
        return False
    return outer["numId"] == inner["numId"] and outer["level"] < inner["level"]


def _heading_of(blocks: list[Block], index: int) -> str:
    heading = next(
        (b for b in reversed(blocks[: index + 1]) if b.heading_level is not None and b.text.strip()), None
    )
    return _clip(heading.text, _HEADING_CLIP) if heading is not None else ""


def _lookup(blocks: ClauseSource) -> Callable[[str], Clause | None]:
    if isinstance(blocks, Snapshot):
        return clauses_from_snapshot(blocks)
    if isinstance(blocks, Mapping):
        texts = blocks
        return lambda block_id: Clause("", texts[block_id]) if block_id in texts else None
    return blocks


def _clip(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def issue_rows(
    review: PlaybookReview, blocks: ClauseSource, *, proposals: Iterable[Mapping[str, Any]] = ()
) -> list[IssueRow]:
    """Every position of the playbook as a row, sorted by status, then severity, then playbook order.

    ``proposals`` are review-queue proposals (``{"id", "operation", ...}``); a finding's
    ``proposal_ids`` name them.
    """
    lookup = _lookup(blocks)
    by_id = {str(p.get("id")): p for p in proposals}
    rows = [
        _row(position, review.findings.get(position.id), lookup, by_id)
        for position in review.playbook.positions
    ]
    order = {position.id: n for n, position in enumerate(review.playbook.positions)}
    return sorted(
        rows,
        key=lambda r: (STATUS_ORDER.index(r.status), SEVERITIES.index(r.severity), order[r.position.id]),
    )


def _row(
    position: Position,
    finding: PlaybookFinding | None,
    lookup: Callable[[str], Clause | None],
    proposals: Mapping[str, Mapping[str, Any]],
) -> IssueRow:
    if finding is None:
        return IssueRow(
            position=position,
            status=UNANSWERED,
            overridden=False,
            severity=position.severity,
            clause="",
            current_text="",
            proposed_text="",
            reason="The review did not answer this position.",
            notes="",
        )
    labels: list[str] = []
    texts: list[str] = []
    for citation in finding.citations:
        clause = lookup(citation.block_id)
        label, text = (clause.label, clause.text) if clause is not None else ("", citation.quote)
        if label and label not in labels:
            labels.append(label)
        if text and text not in texts:
            texts.append(text)
    status = finding.effective_status
    severity = finding.severity if finding.severity in SEVERITIES else position.severity
    return IssueRow(
        position=position,
        status=status if status in STATUS_ORDER else finding.status,
        overridden=finding.override_status is not None and finding.override_status != finding.status,
        severity=severity,
        clause="; ".join(labels),
        current_text="\n\n".join(texts),
        proposed_text=_proposed_text(position, finding, status, lookup, proposals),
        reason=finding.explanation,
        notes=_notes(finding),
    )


def _proposed_text(
    position: Position,
    finding: PlaybookFinding,
    status: str,
    lookup: Callable[[str], Clause | None],
    proposals: Mapping[str, Mapping[str, Any]],
) -> str:
    """The linked proposals' wording; else, where the contract falls short, the playbook's."""
    drafted = [
        text
        for proposal_id in finding.proposal_ids
        if (proposal := proposals.get(proposal_id)) is not None
        and (text := proposal_wording(proposal.get("operation") or {}, lookup))
    ]
    if drafted:
        return "\n\n".join(drafted)
    if status not in ("deviates", "missing"):
        return ""
    fallback = position.fallbacks[0] if position.fallbacks else ""
    first, second = (
        (("Model clause", position.model_clause), ("Fallback", fallback))
        if status == "missing"
        else (("Fallback", fallback), ("Model clause", position.model_clause))
    )
    kind, text = first if first[1] else second
    return f"Playbook {kind.lower()}: {text}" if text else ""


def proposal_wording(operation: Mapping[str, Any], lookup: Callable[[str], Clause | None]) -> str:
    """The text an operation would put in the contract ("" for comments and layout changes).

    A phrase replaced inside a clause is shown as the whole clause after the replacement, since
    a client reads "the Recipient shall" out of context no better than a redline.
    """
    kind = operation.get("type")
    if kind == "replaceInBlock":
        find, replacement = str(operation.get("find", "")), str(operation.get("replace", ""))
        clause = lookup(str(operation.get("blockId", "")))
        if clause is not None and find and clause.text.count(find) == 1:
            return clause.text.replace(find, replacement)
        return replacement
    if kind == "deleteBlock":
        return "(Delete this clause.)"
    key = _TEXT_KEYS.get(str(kind))
    return str(operation.get(key, "")) if key else ""


def _notes(finding: PlaybookFinding) -> str:
    """The lawyer's note, the internal comment, and a comment sent to the other side, labelled."""
    parts = []
    if finding.note:
        parts.append(finding.note)
    if finding.comment:
        who = "Internal" if finding.comment_audience == "internal" else "Comment to the other side"
        parts.append(f"{who}: {finding.comment}")
    if finding.override_status is not None and finding.override_status != finding.status:
        parts.append(f"The review found: {STATUS_WORDS.get(finding.status, finding.status)}.")
    return "\n\n".join(parts)


# ----------------------------------------------------------------------------- writers
def write_issues_docx(
    review: PlaybookReview,
    blocks: ClauseSource,
    path: str | Path,
    *,
    proposals: Iterable[Mapping[str, Any]] = (),
    document_name: str = "",
) -> list[IssueRow]:
    """Write the issues list as a Word table (landscape, header row repeated on every page).

    ``document_name`` (the contract's file name) goes in the subtitle. Returns the rows written.
    The file is replaced atomically: a failure leaves an earlier issues list as it was.
    """
    rows = issue_rows(review, blocks, proposals=proposals)
    document = docx.Document()
    section = document.sections[0]
    section.orientation = WD_ORIENT.LANDSCAPE
    section.page_width, section.page_height = section.page_height, section.page_width
    for side in ("left_margin", "right_margin", "top_margin", "bottom_margin"):
        setattr(section, side, Cm(2))
    document.add_heading(f"Issues list: {review.playbook.name}", level=1)
    against = f"{document_name} reviewed against" if document_name else "Reviewed against"
    document.add_paragraph(f"{against} the playbook “{review.playbook.name}” ({_summary(rows)}).")
    table = document.add_table(rows=1, cols=len(DOCX_COLUMNS))
    table.style = "Table Grid"
    header = table.rows[0]
    _repeat_as_header(header)
    for cell, title in zip(header.cells, DOCX_COLUMNS, strict=True):
        cell.paragraphs[0].add_run(title).bold = True
        _shade(cell, "D9D9D9")
    for row in rows:
        cells = table.add_row().cells
        position = f"{row.position.title}\nSeverity: {row.severity}"
        values = (
            position,
            row.status_words,
            row.clause,
            row.current_text,
            row.proposed_text,
            row.reason,
            row.notes,
        )
        for cell, value in zip(cells, values, strict=True):
            _fill(cell, value)
        _shade(cells[1], STATUS_FILL[row.status])
    table.autofit = False
    usable = section.page_width - section.left_margin - section.right_margin  # Letter or A4, as the template
    for column, share in zip(table.columns, DOCX_WIDTHS, strict=True):
        width = Emu(int(usable * share))
        column.width = width  # the grid, which LibreOffice lays out by
        for cell in column.cells:
            cell.width = width  # each cell's own width, which Word lays out by
    buffer = io.BytesIO()
    document.save(buffer)
    write_atomically(path, buffer.getvalue())
    return rows


def write_issues_csv(
    review: PlaybookReview,
    blocks: ClauseSource,
    path: str | Path,
    *,
    proposals: Iterable[Mapping[str, Any]] = (),
) -> list[IssueRow]:
    """Write the issues list as CSV (UTF-8 with a byte-order mark, so Excel reads the accents)."""
    rows = issue_rows(review, blocks, proposals=proposals)
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        writer.writerow(
            (
                row.position.id,
                row.position.title,
                row.status_words,
                row.severity,
                row.clause,
                row.current_text,
                row.proposed_text,
                row.reason,
                row.notes,
            )
        )
    write_atomically(path, out.getvalue().encode("utf-8-sig"))
    return rows


def _summary(rows: list[IssueRow]) -> str:
    counts = [(STATUS_WORDS[s], sum(1 for r in rows if r.status == s)) for s in STATUS_ORDER]
    return ", ".join(f"{words.lower()}: {n}" for words, n in counts if n)


def _fill(cell: _Cell, text: str) -> None:
    """One paragraph per line of ``text`` (a cell's first paragraph is reused), in 9 pt."""
    lines = text.split("\n") if text else [""]
    paragraphs = [cell.paragraphs[0], *(cell.add_paragraph() for _ in lines[1:])]
    for paragraph, line in zip(paragraphs, lines, strict=True):
        paragraph.paragraph_format.space_after = Pt(2)
        if line:
            paragraph.add_run(line).font.size = Pt(9)


def _shade(cell: _Cell, fill: str) -> None:
    shading = OxmlElement("w:shd")
    shading.set(qn("w:val"), "clear")
    shading.set(qn("w:color"), "auto")
    shading.set(qn("w:fill"), fill)
    cell._tc.get_or_add_tcPr().append(shading)


def _repeat_as_header(row: Any) -> None:
    """Word and LibreOffice repeat a row marked ``w:tblHeader`` at the top of every page."""
    marker = OxmlElement("w:tblHeader")
    row._tr.get_or_add_trPr().append(marker)
