"""Where a new table goes and how wide it is: beside the anchor's top-level block, text-width wide.

A new table lands beside the body-level element holding the anchor (the outermost table when the
anchor is in one), never touching another table (Word would show the two as one), and spans the
text width of the section it lands in (contract §5.5).
"""

from __future__ import annotations

from lxml import etree

from ..blocks import Block
from ..sections import MIN_TEXT, parse_section, section_of
from ..xmlutil import W, is_on
from .context import EditContext
from .paragraph_batch import batch_state
from .table_markup import Look, declare_w14, new_paragraph
from .table_xml import outermost_table

_P, _TBL = W + "p", W + "tbl"
_BLOCK_TAGS = frozenset((_P, _TBL, W + "sdt", W + "customXml"))
FALLBACK_TEXT_WIDTH = 9000


# ------------------------------------------------------------------ section width
def text_width(body: etree._Element, el: etree._Element, after: bool = False) -> int:
    """The text width (twips) where a block beside ``el`` lands: one text column of its section;
    :data:`FALLBACK_TEXT_WIDTH` when the section states no page size."""
    props = parse_section(section_of(body, el, after))
    width = props.column_width
    return int(width) if props.page_stated and width >= MIN_TEXT else FALLBACK_TEXT_WIDTH


def split_width(total: int, count: int) -> list[int]:
    """``count`` equal widths summing to ``total`` (the last takes the remainder)."""
    each = total // count
    return [each] * (count - 1) + [total - each * (count - 1)]


# ------------------------------------------------------------------ placing a new table
def edge_block(el: etree._Element | None, forward: bool) -> str | None:
    """Tag of the first block met walking from ``el`` (None at the container's end)."""
    while el is not None:
        if el.tag in _BLOCK_TAGS:
            if el.tag in (W + "sdt", W + "customXml"):
                inner = el.find(W + "sdtContent") if el.tag == W + "sdt" else el
                children = list(inner) if inner is not None else []
                found = edge_block(children[0] if forward else children[-1], forward) if children else None
                if found is not None:
                    return found
            else:
                return el.tag
        el = el.getnext() if forward else el.getprevious()
    return None


def separate(ctx: EditContext, el: etree._Element, before: bool) -> None:
    """An empty paragraph beside ``el`` so two tables do not touch (inserted when tracked)."""
    sep = new_paragraph(ctx, "", Look())
    if before:
        el.addprevious(sep)
    else:
        el.addnext(sep)
    ctx.created(sep)


def place_table(ctx: EditContext, block: Block, tbl: etree._Element, position: str) -> None:
    """Put a new table after/before the anchor, or the outermost table holding it (§5.5).

    Decision: a table never touches another table (Word would show them as one): an empty
    separator paragraph goes between. At the end of the body no paragraph is added (Word and
    LibreOffice open a body that ends with a table); at the end of any other container (a content
    control) one is, since that container may be followed by a table.
    """
    anchor = top_level(block)
    if position == "before":
        anchor.addprevious(tbl)
    else:
        # after what this batch already inserted after the same anchor: operations land in order
        state = batch_state(ctx)
        tail = state.after_tail.get(anchor)
        (tail if tail is not None and tail.getparent() is not None else anchor).addnext(tbl)
        state.after_tail[anchor] = tbl
    ctx.created(tbl)
    if edge_block(tbl.getprevious(), forward=False) == _TBL:
        separate(ctx, tbl, before=True)
    following = edge_block(tbl.getnext(), forward=True)
    if following == _TBL or (following is None and tbl.getparent() is not ctx.doc.body):
        separate(ctx, tbl, before=False)
    declare_w14(ctx.doc.root)


def top_level(block: Block) -> etree._Element:
    """The body-level element a new table goes beside: the outermost table holding the block, or it."""
    tbl = outermost_table(block.element)
    return tbl if tbl is not None else block.element


def is_bidi(p: etree._Element) -> bool:
    ppr = p.find(W + "pPr")
    return ppr is not None and is_on(ppr.find(W + "bidi"))
