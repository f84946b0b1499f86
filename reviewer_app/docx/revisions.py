"""Tracked changes (contract §8): one record per revision element, folded into changes for the model.

:func:`revision_records` lists every revision element of a story in document order with what
accept/reject needs (the element, its kind, author, date, paragraph, row); :func:`change_groups`
folds records the way a reader thinks of them (one entry per revision, a tracked row or cell with
its content marks as one entry, a grid change with the column change that caused it);
:func:`list_changes` renders the groups as ``FolioAgentChange`` dicts. Both the model's
``read_changes`` and the redline panel therefore count the same changes, and accepting or
rejecting one resolves every record of its group.

The contract has no move type: a move source (``w:moveFrom``) is reported as a ``deletion`` and a
move destination (``w:moveTo``) as an ``insertion``, which is also what accepting or rejecting it
does to the text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from .document import WordDocument
from .snapshot import Snapshot
from .text import symbol_text
from .vocabulary import DELETED, INSERTED, REVISION_ELEMENTS, REVISION_RECORDS, REVISION_WRAPPERS
from .xmlutil import MC, W, is_on

#: Contract change types (§8), in the contract's order.
CHANGE_TYPES = (
    "insertion",
    "deletion",
    "formatting",
    "rowInserted",
    "rowDeleted",
    "cellInserted",
    "cellDeleted",
    "cellMerged",
    "paragraphMarkInserted",
    "paragraphMarkDeleted",
    "paragraphPropertiesChanged",
    "sectionPropertiesChanged",
    "tablePropertiesChanged",
    "rowPropertiesChanged",
    "cellPropertiesChanged",
)

#: Record kind -> contract type. Kinds name the markup exactly, so accept/reject can dispatch on
#: them: ``mark*`` live in ``w:pPr/w:rPr`` (the paragraph mark), ``row*`` in ``w:trPr``,
#: ``numberingIns`` in ``w:numPr``, ``runMark*`` in any other ``w:rPr`` (math control characters).
KIND_TYPES: dict[str, str] = {
    "ins": "insertion",
    "moveTo": "insertion",
    "runMarkIns": "insertion",
    "del": "deletion",
    "moveFrom": "deletion",
    "runMarkDel": "deletion",
    "rPrChange": "formatting",
    "markRPrChange": "formatting",
    "markIns": "paragraphMarkInserted",
    "markMoveTo": "paragraphMarkInserted",
    "markDel": "paragraphMarkDeleted",
    "markMoveFrom": "paragraphMarkDeleted",
    "pPrChange": "paragraphPropertiesChanged",
    "numberingChange": "paragraphPropertiesChanged",
    "numberingIns": "paragraphPropertiesChanged",
    "sectPrChange": "sectionPropertiesChanged",
    "tblPrChange": "tablePropertiesChanged",
    "tblGridChange": "tablePropertiesChanged",
    "tblPrExChange": "tablePropertiesChanged",
    "trPrChange": "rowPropertiesChanged",
    "tcPrChange": "cellPropertiesChanged",
    "rowIns": "rowInserted",
    "rowDel": "rowDeleted",
    "cellIns": "cellInserted",
    "cellDel": "cellDeleted",
    "cellMerge": "cellMerged",
}

_TAGS = tuple(REVISION_WRAPPERS | REVISION_RECORDS)
#: Elements holding a property set's *previous* state: revision markup inside them is history.
_HISTORY = frozenset(t for t in REVISION_RECORDS if t.endswith("Change"))
#: Subtrees whose text is not the paragraph's own (drawings, text boxes, properties, field codes).
_NO_TEXT = frozenset(
    (
        W + "rPr",
        W + "pPr",
        W + "drawing",
        W + "pict",
        W + "object",
        W + "instrText",
        W + "delInstrText",
        MC + "AlternateContent",
    )
)
_INSERTED_CONTENT = ("ins", "moveTo", "markIns", "markMoveTo")
_DELETED_CONTENT = ("del", "moveFrom", "markDel", "markMoveFrom")
#: Structure records that absorb their own content's marks of the same sense.
_ROW_FOLDS = {"rowIns": _INSERTED_CONTENT, "rowDel": _DELETED_CONTENT}
_CELL_FOLDS = {"cellIns": _INSERTED_CONTENT, "cellDel": _DELETED_CONTENT}
_FOLDABLE = frozenset(("insertion", "deletion", "formatting"))


@dataclass(slots=True, eq=False)
class RevisionRecord:
    """One revision element of a story, as accept/reject will handle it.

    ``paragraph`` is the nearest enclosing ``w:p`` (None for table- and body-level markup),
    ``row``/``cell``/``table`` the nearest enclosing table structures, ``hidden`` is True inside a
    hidden table row (its text is never shown to the model), ``fallback`` is True inside an
    ``mc:Fallback`` (a duplicate of the ``mc:Choice`` content that readers skip but accept/reject
    must still process).
    """

    kind: str
    element: etree._Element
    id: str
    author: str
    date: str | None
    paragraph: etree._Element | None
    row: etree._Element | None
    cell: etree._Element | None
    table: etree._Element | None
    hidden: bool = False
    fallback: bool = False

    @property
    def type(self) -> str:
        """The contract's change type for this record."""
        return KIND_TYPES[self.kind]

    @property
    def scope(self) -> etree._Element | None:
        """The element whose blocks locate the change: paragraph, cell, row or table (None: body)."""
        if self.kind in ("rowIns", "rowDel", "trPrChange", "tblPrExChange"):
            return self.row
        if self.kind in ("cellIns", "cellDel", "cellMerge", "tcPrChange"):
            return self.cell
        if self.kind in ("tblPrChange", "tblGridChange"):
            return self.table
        return self.paragraph


@dataclass(slots=True, eq=False)
class ChangeGroup:
    """One change as the reader sees it: a revision, possibly spread over several elements."""

    id: str
    type: str
    author: str
    date: str | None
    records: list[RevisionRecord] = field(default_factory=list)
    text: str = ""


def _classify(el: etree._Element) -> str | None:
    """The record kind of revision element ``el`` from its tag and its parent."""
    local = etree.QName(el).localname
    if el.tag not in REVISION_WRAPPERS:
        if local == "rPrChange":
            parent = el.getparent()
            grand = parent.getparent() if parent is not None else None
            return "markRPrChange" if grand is not None and grand.tag == W + "pPr" else "rPrChange"
        return local
    parent = el.getparent()
    parent_tag = parent.tag if parent is not None else None
    if parent_tag == W + "rPr":
        grand = parent.getparent() if parent is not None else None
        if grand is not None and grand.tag == W + "pPr":
            return "mark" + local[0].upper() + local[1:]
        return "runMarkIns" if el.tag in INSERTED else "runMarkDel"
    if parent_tag == W + "trPr":
        return "rowIns" if el.tag in INSERTED else "rowDel"
    if parent_tag == W + "numPr":
        return "numberingIns" if local == "ins" else None
    return local


def revision_records(root: etree._Element) -> list[RevisionRecord]:
    """Every live revision element under ``root`` (a story: body, header, footer, notes) in order.

    Markup inside a ``*Change`` element's old properties is history, not a pending revision, and
    is left out.
    """
    records: list[RevisionRecord] = []
    for el in root.iter(*_TAGS):
        kind = _classify(el)
        if kind is None:
            continue
        paragraph = row = cell = table = None
        hidden = fallback = history = False
        for ancestor in el.iterancestors():
            tag = ancestor.tag
            if tag in _HISTORY:
                history = True
                break
            if tag == W + "p" and paragraph is None and row is None:
                paragraph = ancestor
            elif tag == W + "tc" and cell is None:
                cell = ancestor
            elif tag == W + "tr":
                if row is None:
                    row = ancestor
                trpr = ancestor.find(W + "trPr")
                hidden = hidden or (trpr is not None and is_on(trpr.find(W + "hidden")))
            elif tag == W + "tbl" and table is None:
                table = ancestor
            elif tag == MC + "Fallback":
                fallback = True
        if history:
            continue
        records.append(
            RevisionRecord(
                kind=kind,
                element=el,
                id=el.get(W + "id") or "",
                author=el.get(W + "author") or "",
                date=el.get(W + "date"),
                paragraph=paragraph,
                row=row,
                cell=cell,
                table=table,
                hidden=hidden,
                fallback=fallback,
            )
        )
    return records


def document_revisions(doc: WordDocument) -> list[RevisionRecord]:
    """The revision records of the main story."""
    return revision_records(doc.body)


# ----------------------------------------------------------------- text
def _run_text(run: etree._Element, out: list[str]) -> None:
    rpr = run.find(W + "rPr")
    if rpr is not None and (is_on(rpr.find(W + "vanish")) or is_on(rpr.find(W + "specVanish"))):
        return
    for child in run:
        tag = child.tag
        if tag == W + "t" or tag == W + "delText":
            out.append(child.text or "")
        elif tag in (W + "tab", W + "ptab"):
            out.append("\t")
        elif tag == W + "br":
            if child.get(W + "type") not in ("page", "column"):
                out.append("\n")
        elif tag == W + "cr":
            out.append("\n")
        elif tag == W + "noBreakHyphen":
            out.append("\u2011")
        elif tag == W + "softHyphen":
            out.append("\u00ad")
        elif tag == W + "sym":
            out.append(symbol_text(child))


def _content_text(el: etree._Element, out: list[str], skip_deleted: bool) -> None:
    """Visible text under paragraph content ``el``; ``skip_deleted`` leaves nested deletions out."""
    for child in el:
        tag = child.tag
        if not isinstance(tag, str) or tag in _NO_TEXT or (skip_deleted and tag in DELETED):
            continue
        if tag == W + "r":
            _run_text(child, out)
        else:
            _content_text(child, out, skip_deleted)


def _paragraphs(el: etree._Element) -> Iterable[etree._Element]:
    """Paragraphs of a table structure in reading order (text-box paragraphs not included)."""
    for child in el:
        if not isinstance(child.tag, str) or child.tag in _NO_TEXT:
            continue
        if child.tag == W + "p":
            yield child
        else:
            yield from _paragraphs(child)


def _structure_text(el: etree._Element) -> str:
    """All text of a row or cell, deleted text included, paragraphs joined by ``"\\n"``."""
    texts = []
    for p in _paragraphs(el):
        out: list[str] = []
        _content_text(p, out, skip_deleted=False)
        texts.append("".join(out))
    return "\n".join(texts)


def record_text(record: RevisionRecord) -> str:
    """The text a change concerns: inserted or deleted text, a reformatted run, a changed paragraph.

    Paragraph marks and table- or section-level properties have no text of their own (""); a row
    or cell change reads the row's or cell's text.
    """
    if record.hidden:
        return ""
    el = record.element
    out: list[str] = []
    kind = record.kind
    if kind in ("ins", "moveTo", "del", "moveFrom"):
        # a deletion nested in this element is its own change and reports its own text
        _content_text(el, out, skip_deleted=True)
    elif kind == "rPrChange":
        parent = el.getparent()
        run = parent.getparent() if parent is not None else None
        if run is not None and run.tag == W + "r":
            _run_text(run, out)
    elif kind in ("pPrChange", "numberingChange", "numberingIns", "sectPrChange"):
        if record.paragraph is not None:
            _content_text(record.paragraph, out, skip_deleted=True)
    elif kind in ("rowIns", "rowDel", "trPrChange") and record.row is not None:
        return _structure_text(record.row)
    elif kind in ("cellIns", "cellDel", "cellMerge", "tcPrChange") and record.cell is not None:
        return _structure_text(record.cell)
    return "".join(out)


# ----------------------------------------------------------------- grouping
def _structure_owners(records: list[RevisionRecord]) -> dict[int, RevisionRecord]:
    """Index of a content mark -> the tracked row or cell insertion/deletion of the same sense and
    author that holds it (a row's claim comes first: a cell inside an inserted row is part of that
    row). Another author's edit inside the row or cell stays their own change, so it is listed,
    and accepted or rejected, by its author."""
    rows: dict[etree._Element, RevisionRecord] = {}
    cells: dict[etree._Element, RevisionRecord] = {}
    for r in records:
        if r.kind in _ROW_FOLDS and r.row is not None:
            rows.setdefault(r.row, r)
        elif r.kind in _CELL_FOLDS and r.cell is not None:
            cells.setdefault(r.cell, r)
    owners: dict[int, RevisionRecord] = {}
    if not rows and not cells:
        return owners
    for i, r in enumerate(records):
        row = rows.get(r.row) if r.row is not None else None
        cell = cells.get(r.cell) if r.cell is not None else None
        if row is not None and r.kind in _ROW_FOLDS[row.kind] and r.author == row.author:
            owners[i] = row
        elif cell is not None and r.kind in _CELL_FOLDS[cell.kind] and r.author == cell.author:
            owners[i] = cell
    return owners


def _number(value: str) -> int | None:
    return int(value) if value.isdigit() else None


def _grid_owner(grid: RevisionRecord, records: list[RevisionRecord]) -> RevisionRecord | None:
    """The change a table's ``w:tblGridChange`` belongs to (None: it stands alone).

    The grid record has no author or date, so its cause is found by position: when the next
    revision of the table after it (by id: one counter mints them in order) is a cell insertion or
    deletion, the grid changed with that column, whose cells share that record's author and date;
    the grid record goes with the column's last cell. Otherwise it joins the table's first
    property change (Word writes a grid change with a width change), else the table's first
    column change.
    """
    mine = [r for r in records if r.table is grid.table and r is not grid]
    cells = [r for r in mine if r.kind in _CELL_FOLDS]
    grid_id = _number(grid.id)
    later = [(n, r) for r in mine if grid_id is not None and (n := _number(r.id)) is not None and n > grid_id]
    following = min(later, key=lambda pair: pair[0])[1] if later else None
    if following is None or following.kind not in _CELL_FOLDS:
        properties = next((r for r in mine if r.kind in _TABLE_PROPERTY_KINDS), None)
        if properties is not None or not cells:
            return properties
        following = cells[0]
    batch = (following.kind, following.author, following.date)
    return [r for r in cells if (r.kind, r.author, r.date) == batch][-1]


def _wraps_deletion_only(record: RevisionRecord, text: str) -> bool:
    """An insertion or move whose whole content was deleted again: the deletion carries the text."""
    return (
        record.kind in ("ins", "moveTo", "del", "moveFrom")
        and not text
        and any(child.tag in DELETED for child in record.element)
    )


_TABLE_PROPERTY_KINDS = frozenset(("tblPrChange", "tblPrExChange", "trPrChange", "tcPrChange"))


def change_groups(records: list[RevisionRecord]) -> list[ChangeGroup]:
    """Fold records into reader-level changes, in document order.

    Consecutive records of one revision (same type, ``w:id`` and author) fold into one change;
    a tracked row or cell insertion/deletion absorbs its author's insertion/deletion marks of its
    own content (runs and paragraph marks); a table's grid change (``w:tblGridChange`` has no author)
    joins the column insertion/deletion that caused it, else the first property change of its
    table (see :func:`_grid_owner`); an insertion or move whose whole content was deleted again is
    left to that deletion; ``mc:Fallback`` duplicates are skipped. A text replacement stays two
    changes (deletion and insertion, distinct ids). Accepting or rejecting a change resolves all
    its records.
    """
    live = [r for r in records if not r.fallback]
    owners = _structure_owners(live)
    grids = {r: _grid_owner(r, live) for r in live if r.kind == "tblGridChange"}
    groups: list[ChangeGroup] = []
    group_of: dict[RevisionRecord, ChangeGroup] = {}
    waiting: list[tuple[RevisionRecord, RevisionRecord]] = []  # (grid record, its owner)
    previous: RevisionRecord | None = None
    for i, record in enumerate(live):
        owner = owners.get(i)
        if owner is not None and owner in group_of:
            group_of[owner].records.append(record)
            group_of[record] = group_of[owner]
            continue
        if grids.get(record) is not None:
            waiting.append((record, grids[record]))
            continue
        text = record_text(record)
        if _wraps_deletion_only(record, text):
            continue
        last = groups[-1] if groups else None
        if (
            last is not None
            and previous is not None
            and record.type in _FOLDABLE
            and (last.type, last.id, last.author) == (record.type, record.id, record.author)
        ):
            last.text += ("" if record.paragraph is previous.paragraph else "\n") + text
            last.records.append(record)
        else:
            last = ChangeGroup(record.id, record.type, record.author, record.date, [record], text)
            groups.append(last)
        group_of[record] = last
        previous = record
    for grid, owner in waiting:  # owners are cell or property changes: never left out of a group
        group_of[owner].records.append(grid)
    return groups


# ----------------------------------------------------------------- contract view
class _BlockFinder:
    """Finds the block a change is shown at: the first block in its scope with visible text."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.by_element = {b.element: b for b in snapshot.blocks if b.element is not None}

    def visible(self, p: etree._Element | None) -> str | None:
        block = self.by_element.get(p) if p is not None else None
        return block.id if block is not None and block.normalized else None

    def in_scope(self, scope: etree._Element | None) -> str | None:
        if scope is None:
            return None
        if scope.tag == W + "p":
            return self.visible(scope)
        return next((found for p in scope.iter(W + "p") if (found := self.visible(p))), None)


def located_changes(doc: WordDocument, snapshot: Snapshot) -> list[tuple[ChangeGroup, str | None]]:
    """The main story's changes in document order, each with the block it is shown at.

    The block is the first block of the change with surviving visible text; None when there is
    none (a deleted paragraph, a deleted row, a hidden row, body-level section properties).
    """
    finder = _BlockFinder(snapshot)
    out: list[tuple[ChangeGroup, str | None]] = []
    for group in change_groups(document_revisions(doc)):
        # a grid change folded into a cell's change locates nothing: it spans the whole table
        located = [r for r in group.records if r.kind != "tblGridChange"] or group.records
        block_id = next(
            (found for r in located if not r.hidden and (found := finder.in_scope(r.scope))), None
        )
        out.append((group, block_id))
    return out


def list_changes(doc: WordDocument, snapshot: Snapshot) -> list[dict[str, Any]]:
    """``FolioAgentChange`` dicts (contract §8) for the main story, in document order (see
    :func:`located_changes` for ``blockId``)."""
    return [
        {"id": group.id, "type": group.type, "author": group.author, "text": group.text, "blockId": block_id}
        for group, block_id in located_changes(doc, snapshot)
    ]


# Whether a document holds pending changes, and whether accepting them would reshape its blocks:
# the checks (a reading command) and the comparison decide from these whether to resolve a copy.
_STORY_PARTS = ("header", "footer", "footnotes", "endnotes")
_CELL_CHANGES = tuple(W + t for t in ("cellDel", "cellMerge"))
_RPR, _PPR, _TRPR = W + "rPr", W + "pPr", W + "trPr"


def _story_roots(doc: WordDocument) -> list:
    """The roots of the stories a tracked change can sit in: the main one, headers, footers, notes."""
    package = doc.package
    roots = [doc.root]
    for rel in package.relationships(doc.main_part):
        story = rel.rel_type.rsplit("/", 1)[-1] in _STORY_PARTS and rel.target.endswith(".xml")
        if story and not rel.external and package.has_part(rel.target):
            roots.append(package.xml(rel.target))
    return roots


def has_pending_changes(doc: WordDocument) -> bool:
    """True when the main story or a header, footer or note part holds a tracked change."""
    return any(next(root.iter(*REVISION_ELEMENTS), None) is not None for root in _story_roots(doc))


def changes_block_structure(doc: WordDocument) -> bool:
    """True when accepting would join, drop or reshape blocks: a deleted paragraph mark, row or cell.

    Other pending changes (words inserted or deleted, formatting) are already applied in the
    snapshot's clean text, which *is* the accepted view of each block.
    """
    for root in _story_roots(doc):
        if next(root.iter(*_CELL_CHANGES), None) is not None:
            return True
        for el in root.iter(*DELETED):
            parent = el.getparent()
            if parent is not None and (parent.tag == _TRPR or (parent.tag == _RPR and _in_ppr(parent))):
                return True
    return False


def _in_ppr(rpr: Any) -> bool:
    parent = rpr.getparent()
    return parent is not None and parent.tag == _PPR
