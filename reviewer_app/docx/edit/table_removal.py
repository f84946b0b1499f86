"""Taking table structure out: tracked deletion of rows and content, direct removal of rows and tables.

Tracked, a deleted row carries ``w:trPr/w:del`` *and* its runs and paragraph marks are marked
deleted (Word reads the row record, LibreOffice 7.4 the run and mark records). Removed directly,
range markers whose partner lives outside the removed structure are kept beside it (a bookmark or
comment range must keep both ends, ooxml-rules §5.1), and two tables never end up touching.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from ..table_grid import TableGrid
from ..xmlutil import W
from .context import EditContext, Outcome
from .markup import delete_runs
from .ppr import add_mark_revision
from .table_markup import add_row_mark, ensure_props
from .table_placement import edge_block, separate
from .table_targets import Revisions, consume
from .table_xml import block_paragraphs, content_runs, row_mark

_P, _TBL, _TR = W + "p", W + "tbl", W + "tr"
_TRPR, _INS, _DEL = W + "trPr", W + "ins", W + "del"


# ------------------------------------------------------------------ tracked deletion of content
def delete_content(ctx: EditContext, container: etree._Element) -> None:
    """Mark every run and paragraph mark under ``container`` deleted (tracked), rows too.

    Paragraphs are checkpointed one by one, so a rollback restores them in place.
    """
    for tr in container.iter(_TR):
        _delete_row_mark(ctx, tr)
    for p in block_paragraphs(container):
        ctx.touch(p)
        delete_runs(content_runs(p), p, ctx.stamper, True)
        if p.find(f"{W}pPr/{W}rPr/{W}del") is None:
            add_mark_revision(p, _DEL, ctx.stamper.attributes())


def _delete_row_mark(ctx: EditContext, tr: etree._Element) -> None:
    if row_mark(tr, _DEL) is not None:
        return
    trpr = ensure_props(ctx, tr, _TRPR)
    add_row_mark(trpr, _DEL, ctx.stamper.attributes())


# ------------------------------------------------------------------ direct removal
_PAIRED = {
    W + "bookmarkStart": W + "bookmarkEnd",
    W + "commentRangeStart": W + "commentRangeEnd",
    W + "moveFromRangeStart": W + "moveFromRangeEnd",
    W + "moveToRangeStart": W + "moveToRangeEnd",
}
_PAIRED.update({end: start for start, end in list(_PAIRED.items())})


def rescue_markers(ctx: EditContext, doomed: etree._Element, target: etree._Element | None) -> None:
    """Before ``doomed`` is removed, move range markers whose partner lies outside it into the
    paragraph ``target`` (a bookmark or comment range must keep both ends, ooxml-rules §5.1)."""
    if target is None:
        return
    root = doomed.getroottree().getroot()
    inside = {id(el) for el in doomed.iter(*_PAIRED)}
    movers = []
    for el in doomed.iter(*_PAIRED):
        partner_tag, marker_id = _PAIRED[el.tag], el.get(W + "id")
        partners = [p for p in root.iter(partner_tag) if p.get(W + "id") == marker_id]
        if any(id(p) not in inside for p in partners):
            movers.append(el)
    ppr = target.find(W + "pPr")
    index = 0 if ppr is None else target.index(ppr) + 1
    for el in movers:  # recorded as a removal and a creation, so a rollback puts each one back
        ctx.removing(el)
        el.getparent().remove(el)
        target.insert(index, el)
        ctx.created(el)
        index += 1


def neighbour_paragraph(el: etree._Element) -> etree._Element | None:
    """The nearest paragraph outside ``el`` in its container: the first after it, else the last before."""
    for forward in (True, False):
        for sibling in el.itersiblings(preceding=not forward):
            paragraphs = list(block_paragraphs(sibling)) if sibling.tag != _P else [sibling]
            if paragraphs:
                return paragraphs[0] if forward else paragraphs[-1]
    return None


# ------------------------------------------------------------------ rows and tables
def remove(ctx: EditContext, el: etree._Element, rescue_to: etree._Element | None) -> None:
    """Detach ``el`` (direct mode), keeping range markers whose partner lives elsewhere."""
    rescue_markers(ctx, el, rescue_to)
    ctx.removing(el)
    el.getparent().remove(el)


def _own_insertion(ctx: EditContext, tr: etree._Element) -> bool:
    """A row this author inserted and nobody deleted: deleting it simply takes it out, as in Word."""
    mark = row_mark(tr, _INS)
    return mark is not None and mark.get(W + "author") == ctx.stamper.author and row_mark(tr, _DEL) is None


def delete_rows(ctx: EditContext, tbl: etree._Element, rows: list[etree._Element]) -> None:
    """Delete ``rows`` of ``tbl``: tracked marks, or removal (the whole table when no row is left).

    Tracked, a row this author inserted is simply taken out (as Word does with your own pending
    insertion); any other row is marked deleted, content included.
    """
    gone = rows if not ctx.tracked else [tr for tr in rows if _own_insertion(ctx, tr)]
    if gone and not [tr for tr in TableGrid(tbl).trs if tr not in gone]:
        _remove_table(ctx, tbl)
        return
    for tr in rows:
        if tr in gone:
            remove(ctx, tr, neighbour_paragraph(tr))
        else:
            delete_content(ctx, tr)


def _remove_table(ctx: EditContext, tbl: etree._Element) -> None:
    """Take the whole table out; a separator paragraph keeps the tables around it from touching."""
    parent, index = tbl.getparent(), tbl.getparent().index(tbl)
    remove(ctx, tbl, neighbour_paragraph(tbl))
    before = parent[index - 1] if index > 0 else None
    after = parent[index] if index < len(parent) else None
    if (
        after is not None
        and edge_block(before, forward=False) == _TBL
        and edge_block(after, forward=True) == _TBL
    ):
        separate(ctx, after, before=True)  # two tables must not touch: Word would join them


def delete_rows_and_report(
    ctx: EditContext, tbl: etree._Element, rows: list[etree._Element], ids: list[str], receipt: dict[str, Any]
) -> Outcome:
    """How deleteTable and deleteTableRow end: delete ``rows``, consume their blocks ``ids``, report."""
    revisions = Revisions(ctx)
    delete_rows(ctx, tbl, rows)
    consume(ctx, ids)
    return Outcome([receipt], revision_ids=revisions.ids())
