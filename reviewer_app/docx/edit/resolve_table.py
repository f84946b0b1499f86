"""Accept/reject of property changes and of tracked table structure (rows and cells).

A ``*Change`` element holds the *previous* state of its property set. Accepting drops the record;
rejecting restores the previous state, but only for what the record covers: ooxml-rules §5.6 —
``w:pPrChange`` never contains the paragraph mark's ``w:rPr`` or the paragraph's ``w:sectPr``,
``w:sectPrChange`` never the header/footer references, ``w:trPrChange`` never the row's own
``w:ins``/``w:del``, ``w:tcPrChange`` never the cell's pending ``cellIns``/``cellDel``/``cellMerge``,
and a paragraph mark's ``w:rPrChange`` never its ``w:ins``/``w:del``. Those children are kept (the
same element objects, so a pending revision inside them can still be resolved afterwards), and a
naive swap of the whole container — which drops section breaks — is never done.

Row and cell removal keeps the table's ``w:tblGrid`` as it is: a row left with fewer cells than
the grid simply ends early, which is how Word lays out a row whose cells were deleted. Except when
an accepted cell deletion leaves grid columns that no row reaches any more (the last cell of a
deleted column went): those ``w:gridCol`` go, a fixed table width shrinks by their width, and a
pending ``w:tblGridChange`` forgets them too, so rejecting it later restores the grid without the
deleted column. (A rejected column *insertion* needs none of this: the insertion's
``w:tblGridChange`` is resolved with it and restores the old grid.) A table left without rows is
removed; a cell left without a paragraph gets an empty one (a cell must end with a paragraph).
Bookmark and comment range markers inside removed structure are moved out to where it was, so
their other halves never dangle.
"""

from __future__ import annotations

import copy

from lxml import etree

from ..table_grid import TableGrid
from ..vocabulary import CELL_REVISIONS, REVISION_WRAPPERS
from ..xmlutil import W
from .table_xml import remove_grid_columns, widen_fixed_table

_HDR_FTR_REFS = frozenset((W + "headerReference", W + "footerReference"))
#: Range markers that must keep their partner: moved out of removed content, never dropped alone.
RANGE_PAIRS: dict[str, str] = {
    W + "bookmarkStart": "bookmark",
    W + "bookmarkEnd": "bookmark",
    W + "commentRangeStart": "comment",
    W + "commentRangeEnd": "comment",
    W + "permStart": "perm",
    W + "permEnd": "perm",
}
#: Containers that may be removed once a resolution leaves them without children.
_REMOVABLE_WHEN_EMPTY = frozenset(W + t for t in ("rPr", "pPr", "trPr", "tblPrEx"))
#: ST_AnnotationVMerge values of ``w:cellMerge`` -> ``w:vMerge/@w:val``.
_VMERGE = {"rest": "restart", "cont": "continue"}
#: CT_TcPrBase order, for placing a restored ``w:vMerge``.
_TCPR_ORDER = ("cnfStyle", "tcW", "gridSpan", "hMerge", "vMerge")


def drop_if_empty(el: etree._Element | None) -> None:
    """Remove a property container that a resolution left with no children (tidiness only)."""
    if el is not None and el.tag in _REMOVABLE_WHEN_EMPTY and len(el) == 0:
        parent = el.getparent()
        if parent is not None:
            parent.remove(el)


def rescue_markers(removed: etree._Element, keep_runs: bool = False) -> None:
    """Move range markers whose partner lies outside ``removed`` to just before it.

    A bookmark wholly inside the removed content goes with it; a half-inside one would be left
    unpaired (invalid), so it is kept. Comment markers are always kept: removing content never
    silently deletes a reviewer's comment. ``keep_runs`` also keeps ``w:commentReference`` runs
    (only where a run may stand, i.e. inside a paragraph).
    """
    found: list[etree._Element] = []
    seen: dict[tuple[str, str], int] = {}
    for el in removed.iter(*RANGE_PAIRS):
        key = (RANGE_PAIRS[el.tag], el.get(W + "id") or "")
        seen[key] = seen.get(key, 0) + 1
        found.append(el)
    keep: list[etree._Element] = [
        el
        for el in found
        if RANGE_PAIRS[el.tag] == "comment" or seen[(RANGE_PAIRS[el.tag], el.get(W + "id") or "")] == 1
    ]
    if keep_runs:
        keep += [_reference_run(ref) for ref in list(removed.iter(W + "commentReference"))]
        wanted = set(keep)
        keep = [el for el in removed.iter() if el in wanted]  # document order
    for el in keep:
        if el is not removed:
            el.tail = None
            removed.addprevious(el)


def _reference_run(ref: etree._Element) -> etree._Element:
    """The run holding comment reference ``ref`` alone, split off when it shares its run."""
    run = ref.getparent()
    if run is None or run.tag != W + "r" or all(c is ref or c.tag == W + "rPr" for c in run):
        return ref if run is None or run.tag != W + "r" else run
    alone = etree.Element(W + "r")
    rpr = run.find(W + "rPr")
    if rpr is not None:
        copied = copy.deepcopy(rpr)
        for change in copied.findall(W + "rPrChange"):  # a copied revision would repeat its id
            copied.remove(change)
        alone.append(copied)
    run.addnext(alone)
    alone.append(ref)
    return alone


# ----------------------------------------------------------------- property changes
def _replace_children(holder: etree._Element, children: list[etree._Element]) -> None:
    for child in list(holder):
        holder.remove(child)
    for child in children:
        holder.append(child)


def _old_children(change: etree._Element, drop: frozenset[str]) -> list[etree._Element]:
    """Children of the previous-state element inside ``change``, minus tags the record never covers."""
    inner = next((c for c in change if isinstance(c.tag, str)), None)
    if inner is None:
        return []
    return [c for c in inner if isinstance(c.tag, str) and c.tag not in drop and not c.tag.endswith("Change")]


def resolve_property(kind: str, el: etree._Element, accept: bool) -> None:
    """Accept (drop the record) or reject (restore the previous state) one property change."""
    holder = el.getparent()
    if holder is None:
        return
    if kind == "cellMerge":
        _resolve_cell_merge(el, holder, accept)
        return
    if kind == "numberingIns":
        holder.remove(el)
        if not accept:  # the paragraph's numbering itself was the insertion
            ppr = holder.getparent()
            if ppr is not None:
                ppr.remove(holder)
        return
    if accept or kind == "numberingChange":
        # w:numberingChange keeps only the old label text (w:original), not restorable markup
        holder.remove(el)
        drop_if_empty(holder)
        return
    if kind in ("rPrChange", "markRPrChange"):
        marks = [c for c in holder if c.tag in REVISION_WRAPPERS]
        _replace_children(holder, marks + _old_children(el, REVISION_WRAPPERS))
    elif kind == "pPrChange":
        kept = [c for c in holder if c.tag in (W + "rPr", W + "sectPr")]
        _replace_children(holder, _old_children(el, frozenset((W + "rPr", W + "sectPr"))) + kept)
    elif kind == "sectPrChange":
        refs = [c for c in holder if c.tag in _HDR_FTR_REFS]
        _replace_children(holder, refs + _old_children(el, _HDR_FTR_REFS))
    elif kind == "trPrChange":
        marks = [c for c in holder if c.tag in REVISION_WRAPPERS]
        _replace_children(holder, _old_children(el, REVISION_WRAPPERS) + marks)
    elif kind == "tcPrChange":
        markup = [c for c in holder if c.tag in CELL_REVISIONS]
        _replace_children(holder, _old_children(el, CELL_REVISIONS) + markup)
    else:  # tblPrChange, tblPrExChange, tblGridChange: the old element is the whole previous state
        _replace_children(holder, _old_children(el, frozenset()))
    drop_if_empty(holder)


def _resolve_cell_merge(el: etree._Element, tcpr: etree._Element, accept: bool) -> None:
    """``w:cellMerge``: set the cell's ``w:vMerge`` to the revised (accept) or original state."""
    value = _VMERGE.get(el.get(W + ("vMerge" if accept else "vMergeOrig")) or "")
    tcpr.remove(el)
    current = tcpr.find(W + "vMerge")
    if value is None:
        if not accept and current is not None:
            tcpr.remove(current)
        return
    if current is None:
        current = etree.Element(W + "vMerge")
        later = next(
            (i for i, c in enumerate(tcpr) if etree.QName(c).localname not in _TCPR_ORDER), len(tcpr)
        )
        tcpr.insert(later, current)
    current.set(W + "val", value)


# ----------------------------------------------------------------- rows and cells
def resolve_structure(kind: str, el: etree._Element, accept: bool, tables: set[etree._Element]) -> None:
    """A tracked row/cell insertion or deletion: drop the record, or remove the row/cell."""
    holder = el.getparent()  # w:trPr or w:tcPr
    target = holder.getparent() if holder is not None else None  # w:tr or w:tc
    if holder is None or target is None:
        return
    inserted = kind in ("rowIns", "cellIns")
    if inserted == accept:  # accepted insertion, rejected deletion: the structure stays
        holder.remove(el)
        drop_if_empty(holder)
        return
    table = next((a for a in target.iterancestors(W + "tbl")), None)
    if table is not None:
        tables.add(table)
    row = target if target.tag == W + "tr" else target.getparent()
    before = TableGrid(table) if table is not None and kind == "cellDel" else None
    rescue_markers(target)
    target.getparent().remove(target)
    if target.tag == W + "tc" and row is not None and not _owns(row, W + "tc"):
        parent = row.getparent()
        if parent is not None:
            rescue_markers(row)
            parent.remove(row)
    if before is not None:
        _drop_emptied_columns(before, target)


def _row_widths(grid: TableGrid) -> list[int]:
    """How many grid columns each row reaches: before its cells, its cells, and after them."""
    return [(row.cells[-1].end if row.cells else row.before) + row.after for row in grid.rows]


def _drop_emptied_columns(before: TableGrid, removed: etree._Element) -> None:
    """After cell ``removed`` of ``before``'s table was deleted for good: drop the grid columns it
    occupied that no row reaches any more (the widest row got narrower), with their width.

    Measured on the widest row, so it holds however the column's cells are accepted: all at once,
    or one at a time (a row whose cell went earlier simply ends early until the last one goes).
    """
    table = before.tbl
    slot = next((s for s in before.cells() if s.tc is removed), None)
    if slot is None:
        return
    now = TableGrid(table)
    reach = max(_row_widths(now), default=0)
    count = min(max(_row_widths(before), default=0) - reach, len(now.widths) - reach, slot.span)
    if count <= 0:
        return
    first, end = slot.end - count, slot.end
    widen_fixed_table(table, -remove_grid_columns(table, first, end))
    _forget_in_grid_change(table, now, first, end)


def _forget_in_grid_change(table: etree._Element, now: TableGrid, first: int, end: int) -> None:
    """Remove grid columns ``first``..``end`` (as numbered before they went) from the old grid of a
    pending ``w:tblGridChange`` too, when the old grid's columns can be matched to the current ones:
    the same columns, less those that pending cell insertions added (columns every row of which
    holds an inserted cell)."""
    old = table.find(f"{W}tblGrid/{W}tblGridChange/{W}tblGrid")
    if old is None:
        return
    added = [  # numbered as before the columns went (``now`` has the cells without the deleted one)
        c if c < first else c + end - first
        for c in range(len(now.widths) - (end - first))
        if (cells := [s for s in now.cells() if s.col <= c < s.end])
        and all(s.span == 1 and s.tc.find(f"{W}tcPr/{W}cellIns") is not None for s in cells)
    ]
    if len(old.findall(W + "gridCol")) != len(now.widths) - len(added):
        return
    shift = sum(1 for c in added if c < first)
    remove_grid_columns(old.getparent(), first - shift, end - shift)


def _owns(container: etree._Element, tag: str) -> bool:
    """True when ``container`` (a row or table) still has a ``tag`` child of its own.

    Cells and rows may sit inside a cell- or row-level ``w:sdt``/``w:customXml``; a nested
    table's rows and cells belong to that table, not to ``container``.
    """
    owner = container.tag
    return any(next(d.iterancestors(owner)) is container for d in container.iter(tag))


def prune_tables(tables: set[etree._Element]) -> None:
    """Remove tables left without rows; give a cell left without a paragraph an empty one."""
    for table in tables:
        parent = table.getparent()
        if parent is None or _owns(table, W + "tr"):
            continue
        rescue_markers(table)
        parent.remove(table)
        if parent.tag == W + "tc" and parent.find(W + "p") is None:
            etree.SubElement(parent, W + "p")
