"""The table model and XML builders the table operations share (contract §5.5, ooxml-rules §5.1-5.4).

A ``w:tbl`` is read as a grid: every physical cell gets its grid column (``w:gridBefore`` and
``w:gridSpan`` counted) and its vertically merged *unit* (a ``vMerge`` restart and the continue
cells below it), so row, column, merge and split operations reason about what the reader sees,
not about element positions. The builders write table, row, cell and paragraph markup in schema
order, with the tracked marks a wholly inserted or deleted structure needs.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from lxml import etree

from ..blocks import Block
from ..xmlutil import MC, NS, W14, W, is_on
from .context import EditContext
from .markup import delete_runs, insert_runs, make_runs, template_rpr
from .ppr import add_mark_revision, inheritable_copy, set_child
from .rpr import set_property

_P, _TBL, _TR, _TC = W + "p", W + "tbl", W + "tr", W + "tc"
_TRPR, _TCPR, _GRID = W + "trPr", W + "tcPr", W + "tblGrid"
_INS, _DEL = W + "ins", W + "del"
_BLOCK_TAGS = frozenset((_P, _TBL, W + "sdt", W + "customXml"))
#: CT_TcPr children in schema order (CT_TcPrBase, the cell revision choice, then the change record).
_TCPR_WORDS = (
    "cnfStyle tcW gridSpan hMerge vMerge tcBorders shd noWrap tcMar textDirection tcFitText "
    "vAlign hideMark headers cellIns cellDel cellMerge tcPrChange"
)
TCPR_ORDER = tuple(_TCPR_WORDS.split())
#: CT_TblPr children in schema order.
_TBLPR_WORDS = (
    "tblStyle tblpPr tblOverlap bidiVisual tblStyleRowBandSize tblStyleColBandSize tblW jc "
    "tblCellSpacing tblInd tblBorders shd tblLayout tblCellMar tblLook tblCaption "
    "tblDescription tblPrChange"
)
TBLPR_ORDER = tuple(_TBLPR_WORDS.split())
#: Row properties a new row must not copy: revision records, hidden state, conditional-format cache.
_TRPR_DROP = frozenset(W + t for t in ("ins", "del", "trPrChange", "hidden", "cnfStyle"))
#: Cell properties a new cell must not copy (its span and merge state are decided by the operation).
_TCPR_DROP = frozenset(
    W + t
    for t in ("cellIns", "cellDel", "cellMerge", "tcPrChange", "vMerge", "gridSpan", "cnfStyle", "hMerge")
)
#: Elements that wrap rows in a table or cells in a row without being one.
_WRAPPERS = (W + "sdt", W + "customXml")
#: Paragraph content elements whose runs belong to the paragraph (deleted wrappers are skipped).
_RUN_CONTAINERS = frozenset(
    W + t
    for t in (
        "ins",
        "moveTo",
        "hyperlink",
        "smartTag",
        "customXml",
        "fldSimple",
        "dir",
        "bdo",
        "sdt",
        "sdtContent",
    )
)
#: Run children that are content even without text (a cell holding one is not empty).
_RUN_CONTENT = frozenset(
    W + t
    for t in (
        "delText",
        "drawing",
        "pict",
        "object",
        "sym",
        "tab",
        "instrText",
        "delInstrText",
        "footnoteReference",
        "endnoteReference",
    )
)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_UNITS = {"mm": 56.6929, "cm": 566.929, "in": 1440.0, "pt": 20.0, "pc": 240.0, "pi": 240.0}
FALLBACK_TEXT_WIDTH = 9000


# ------------------------------------------------------------------ reading the grid
def _children(parent: etree._Element, tag: str) -> list[etree._Element]:
    """``tag`` children of ``parent``, looking through ``w:sdt``/``w:customXml`` wrappers."""
    out: list[etree._Element] = []
    for child in parent:
        if child.tag == tag:
            out.append(child)
        elif child.tag == W + "sdt":
            content = child.find(W + "sdtContent")
            if content is not None:
                out.extend(_children(content, tag))
        elif child.tag == W + "customXml":
            out.extend(_children(child, tag))
    return out


def _int(el: etree._Element | None, attr: str = "val", default: int = 0) -> int:
    raw = el.get(W + attr) if el is not None else None
    try:
        return int(float(raw)) if raw is not None else default
    except ValueError:
        return default


@dataclass(slots=True, eq=False)
class Slot:
    """One physical cell: its row, first grid column, column span and ``vMerge`` state."""

    tc: etree._Element
    row: int
    col: int
    span: int
    vmerge: str | None  # "restart", "continue" or None

    @property
    def end(self) -> int:
        return self.col + self.span


class Grid:
    """The grid of one ``w:tbl`` (nested tables are separate grids)."""

    def __init__(self, tbl: etree._Element) -> None:
        self.tbl = tbl
        self.rows: list[etree._Element] = _children(tbl, _TR)
        grid = tbl.find(_GRID)
        cols = grid.findall(W + "gridCol") if grid is not None else []
        self.widths: list[int] = [_int(c, "w") for c in cols]
        self.slots: list[list[Slot]] = []
        self.before: list[int] = []
        self.hidden: list[bool] = []
        for index, tr in enumerate(self.rows):
            trpr = tr.find(_TRPR)
            column = _int(trpr.find(W + "gridBefore")) if trpr is not None else 0
            self.before.append(column)
            self.hidden.append(trpr is not None and is_on(trpr.find(W + "hidden")))
            row: list[Slot] = []
            for tc in _children(tr, _TC):
                tcpr = tc.find(_TCPR)
                span = max(1, _int(tcpr.find(W + "gridSpan"), default=1)) if tcpr is not None else 1
                vm = tcpr.find(W + "vMerge") if tcpr is not None else None
                vmerge = None if vm is None else ("restart" if vm.get(W + "val") == "restart" else "continue")
                row.append(Slot(tc, index, column, span, vmerge))
                column += span
            self.slots.append(row)

    @property
    def column_count(self) -> int:
        """Grid columns in use: the ``w:tblGrid`` or the widest row, whichever is larger."""
        widest = max((r[-1].end for r in self.slots if r), default=0)
        return max(len(self.widths), widest)

    def slot_of(self, tc: etree._Element) -> Slot:
        for row in self.slots:
            for slot in row:
                if slot.tc is tc:
                    return slot
        raise LookupError("cell not in this table")

    def at(self, row: int, col: int) -> Slot | None:
        """The cell covering grid column ``col`` of ``row`` (None: no cell there)."""
        if not 0 <= row < len(self.slots):
            return None
        return next((s for s in self.slots[row] if s.col <= col < s.end), None)

    def unit(self, slot: Slot) -> tuple[Slot, int]:
        """The top cell of ``slot``'s vertically merged unit and the unit's row count."""
        top = slot
        while top.vmerge == "continue":
            above = self.at(top.row - 1, top.col)
            if above is None or above.col != top.col or above.vmerge is None:
                break
            top = above
        rows = 1
        if top.vmerge is not None:
            while True:
                below = self.at(top.row + rows, top.col)
                if below is None or below.col != top.col or below.vmerge != "continue":
                    break
                rows += 1
        return top, rows

    def unit_slots(self, top: Slot, rows: int) -> list[Slot]:
        """The physical cells of a unit, top first."""
        out = [top]
        for r in range(top.row + 1, top.row + rows):
            below = self.at(r, top.col)
            assert below is not None
            out.append(below)
        return out

    def width(self, col: int, span: int = 1) -> int:
        """Sum of the grid widths of ``span`` columns from ``col`` (missing columns count 0)."""
        return sum(self.widths[c] for c in range(col, col + span) if c < len(self.widths))


def containing(el: etree._Element, tag: str) -> etree._Element | None:
    """The nearest ancestor of ``el`` tagged ``tag``."""
    return next(el.iterancestors(tag), None)


def outermost_table(el: etree._Element) -> etree._Element | None:
    """The outermost ``w:tbl`` holding ``el`` (None outside tables)."""
    tables = list(el.iterancestors(_TBL))
    return tables[-1] if tables else None


def block_paragraphs(container: etree._Element) -> Iterator[etree._Element]:
    """Block-level paragraphs under a cell, row or table in reading order (nested tables included,
    text-box paragraphs inside runs not: deleting the run deletes them)."""
    for child in container:
        tag = child.tag
        if tag == _P:
            yield child
        elif tag in (_TBL, _TR, _TC, W + "sdt", W + "sdtContent", W + "customXml"):
            yield from block_paragraphs(child)


def content_runs(parent: etree._Element) -> list[etree._Element]:
    """The runs of a paragraph that are live content (not already deleted), in order.

    Runs holding only a comment reference are left alone: a comment is not text and must keep
    its anchor.
    """
    out: list[etree._Element] = []
    for child in parent:
        tag = child.tag
        if tag == W + "r":
            kinds = {c.tag for c in child if c.tag != W + "rPr"}
            if kinds and kinds <= {W + "commentReference", W + "annotationRef"}:
                continue
            out.append(child)
        elif tag in _RUN_CONTAINERS:
            out.extend(content_runs(child))
    return out


def cell_is_empty(tc: etree._Element) -> bool:
    """True when a cell shows nothing and hides nothing pending: no text, objects or nested table."""
    if tc.find(".//" + _TBL) is not None:
        return False
    for run in tc.iter(W + "r"):
        for child in run:
            if child.tag in _RUN_CONTENT or (child.tag == W + "t" and child.text):
                return False
    return True


def row_mark(tr: etree._Element, tag: str) -> etree._Element | None:
    """The row's ``w:trPr/w:ins`` or ``w:del`` record."""
    trpr = tr.find(_TRPR)
    return trpr.find(tag) if trpr is not None else None


# ------------------------------------------------------------------ ordered children
def place(parent: etree._Element, el: etree._Element, order: tuple[str, ...]) -> etree._Element:
    """Put ``el`` into ``parent`` at its schema position, replacing a child with the same tag."""
    existing = parent.find(el.tag)
    if existing is not None:
        existing.addnext(el)
        parent.remove(existing)
        return el
    rank = {W + name: i for i, name in enumerate(order)}
    mine = rank.get(el.tag, len(order))
    for index, child in enumerate(parent):
        if rank.get(child.tag, -1) > mine:
            parent.insert(index, el)
            return el
    parent.append(el)
    return el


def simple(name: str, **attrs: str) -> etree._Element:
    return etree.Element(W + name, attrib={W + k: v for k, v in attrs.items()})


def ensure_props(ctx: EditContext, owner: etree._Element, tag: str) -> etree._Element:
    """``owner``'s property element (``w:tcPr``/``w:trPr``): checkpointed, or created and recorded."""
    props = owner.find(tag)
    if props is not None:
        ctx.touch(props)
        return props
    props = etree.Element(tag)
    index = 1 if tag == _TRPR and len(owner) and owner[0].tag == W + "tblPrEx" else 0
    owner.insert(index, props)
    ctx.created(props)
    return props


def add_row_mark(trpr: etree._Element, tag: str, attrs: dict[str, str]) -> etree._Element:
    """``w:ins``/``w:del`` in ``w:trPr``: after the base properties, ins before del, before trPrChange."""
    el = etree.Element(tag, attrib=attrs)
    after_change = trpr.find(W + "trPrChange")
    existing_del = trpr.find(_DEL)
    if tag == _INS and existing_del is not None:
        existing_del.addprevious(el)
    elif after_change is not None:
        after_change.addprevious(el)
    else:
        trpr.append(el)
    return el


# ------------------------------------------------------------------ section width
def _twips(raw: str | None) -> float | None:
    if raw is None:
        return None
    raw = raw.strip()
    for unit, factor in _UNITS.items():
        if raw.endswith(unit):
            try:
                return float(raw[: -len(unit)]) * factor
            except ValueError:
                return None
    try:
        return float(raw)
    except ValueError:
        return None


def _section_of(body: etree._Element, el: etree._Element, after: bool) -> etree._Element | None:
    """The ``w:sectPr`` of the section a block placed beside ``el`` lands in (``after`` it: a section
    break carried by ``el`` itself closes the section before): the next one in body order, else the
    body's."""
    top = el
    while top.getparent() is not None and top.getparent() is not body:
        top = top.getparent()
    if top.getparent() is body:
        for sibling in top.itersiblings() if after else (top, *top.itersiblings()):
            if sibling.tag == _P:
                sect = sibling.find(W + "pPr/" + W + "sectPr")
                if sect is not None:
                    return sect
            elif sibling.tag == W + "sectPr":
                return sibling
    return body.find(W + "sectPr")


def text_width(body: etree._Element, el: etree._Element, after: bool = False) -> int:
    """The text width (twips) where a block beside ``el`` lands: page width minus margins and gutter,
    one column's width when the section has several; :data:`FALLBACK_TEXT_WIDTH` when unknown."""
    sect = _section_of(body, el, after)
    size = sect.find(W + "pgSz") if sect is not None else None
    margins = sect.find(W + "pgMar") if sect is not None else None
    page = _twips(size.get(W + "w")) if size is not None else None
    if page is None:
        return FALLBACK_TEXT_WIDTH
    for side in ("left", "right", "gutter"):
        page -= (_twips(margins.get(W + side)) or 0) if margins is not None else 0
    cols = sect.find(W + "cols")
    count = _int(cols, "num", 1) if cols is not None else 1
    if count > 1:
        page = (page - (_twips(cols.get(W + "space")) or 720) * (count - 1)) / count
    return int(page) if page >= 720 else FALLBACK_TEXT_WIDTH


def split_width(total: int, count: int) -> list[int]:
    """``count`` equal widths summing to ``total`` (the last takes the remainder)."""
    each = total // count
    return [each] * (count - 1) + [total - each * (count - 1)]


# ------------------------------------------------------------------ building content
def lines_of(text: str) -> list[str]:
    """A cell text's paragraphs: every line break starts a new one, blank lines kept."""
    return _LINE_BREAK.split(text)


def _is_rtl(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


@dataclass(slots=True)
class Look:
    """How new paragraphs look: a pPr and a run rPr to copy, and whether the text runs right-to-left."""

    ppr: etree._Element | None = None
    rpr: etree._Element | None = None
    bidi: bool = False

    @classmethod
    def of_cell(cls, tc: etree._Element | None) -> Look:
        """The look of an existing cell: its first paragraph's properties and first run's formatting."""
        if tc is None:
            return cls()
        p = next(block_paragraphs(tc), None)
        if p is None:
            return cls()
        ppr = inheritable_copy(p.find(W + "pPr"))
        for child in ppr.findall(W + "cnfStyle"):
            ppr.remove(child)
        runs = content_runs(p)
        rpr = template_rpr(runs[0]) if runs else None
        for props in (ppr, rpr):
            for fonts in props.iter(W + "rFonts") if props is not None else ():
                if fonts.get(W + "hint") not in (None, "default", "eastAsia"):
                    # Word's "cs" hint is outside the ISO enumeration: copies would repeat a schema error
                    del fonts.attrib[W + "hint"]
        return cls(ppr if len(ppr) else None, rpr)


def _run_properties(look: Look, text: str, bold: bool) -> etree._Element | None:
    rpr = copy.deepcopy(look.rpr) if look.rpr is not None else None
    rtl = look.bidi and _is_rtl(text)
    if bold or rtl:
        rpr = rpr if rpr is not None else etree.Element(W + "rPr")
        if bold:
            set_property(rpr, "b", {})
            set_property(rpr, "bCs", {})
        if rtl:
            set_property(rpr, "rtl", {})
    return rpr


def new_paragraph(
    ctx: EditContext, text: str, look: Look, parts: list[tuple[str, bool]] | None = None
) -> etree._Element:
    """A new paragraph spelling ``text`` (no line breaks), or ``parts`` as (text, bold) runs;
    tracked as wholly inserted (mark and runs) when the batch is tracked."""
    p = etree.Element(_P)
    p.set(W14 + "paraId", ctx.stamper.para_id())
    ppr = copy.deepcopy(look.ppr) if look.ppr is not None else etree.Element(W + "pPr")
    if look.bidi and ppr.find(W + "bidi") is None:
        set_child(ppr, "bidi", simple("bidi"))
    if len(ppr):
        p.append(ppr)
    if ctx.tracked:
        add_mark_revision(p, _INS, ctx.stamper.attributes())
    runs: list[etree._Element] = []
    for segment, bold in parts if parts is not None else [(text, False)]:
        if segment:
            runs.extend(make_runs(segment, _run_properties(look, segment, bold)))
    if runs:
        insert_runs(runs, p, None, ctx.stamper, ctx.tracked)
    return p


def fill_cell(ctx: EditContext, tc: etree._Element, text: str, look: Look) -> None:
    """Append one paragraph per line of ``text`` to ``tc``."""
    for line in lines_of(text):
        tc.append(new_paragraph(ctx, line, look))


def new_cell(
    ctx: EditContext,
    width: int,
    text: str | None,
    look: Look,
    tcpr: etree._Element | None = None,
    *,
    span: int = 1,
    vmerge: str | None = None,
    mark: bool = False,
) -> etree._Element:
    """A cell of ``width`` twips holding ``text``; ``tcpr`` (copied) supplies borders and shading,
    ``span``/``vmerge`` its merge state, ``mark`` adds ``w:cellIns`` when tracked."""
    tc = etree.Element(_TC)
    props = etree.SubElement(tc, _TCPR)
    if tcpr is not None:
        for child in tcpr:
            if child.tag not in _TCPR_DROP and isinstance(child.tag, str):
                props.append(copy.deepcopy(child))
    place(props, simple("tcW", w=str(width), type="dxa"), TCPR_ORDER)
    if span > 1:
        place(props, simple("gridSpan", val=str(span)), TCPR_ORDER)
    if vmerge is not None:
        place(props, simple("vMerge", val="restart") if vmerge == "restart" else simple("vMerge"), TCPR_ORDER)
    if mark and ctx.tracked:
        place(props, etree.Element(W + "cellIns", attrib=ctx.stamper.attributes()), TCPR_ORDER)
    if text is not None:  # None: the caller fills the cell
        fill_cell(ctx, tc, text, look)
    return tc


def row_properties(tr: etree._Element | None) -> etree._Element | None:
    """A copy of ``tr``'s ``w:trPr`` fit for a new row (no revision records, never hidden)."""
    trpr = tr.find(_TRPR) if tr is not None else None
    if trpr is None:
        return None
    out = copy.deepcopy(trpr)
    for child in list(out):
        if child.tag in _TRPR_DROP:
            out.remove(child)
    return out


def new_row(
    ctx: EditContext, trpr: etree._Element | None, tbl_pr_ex: etree._Element | None = None
) -> etree._Element:
    """An empty ``w:tr`` with copies of the given properties, marked inserted when tracked."""
    tr = etree.Element(_TR)
    if tbl_pr_ex is not None:
        ex = copy.deepcopy(tbl_pr_ex)
        for change in ex.findall(W + "tblPrExChange"):
            ex.remove(change)
        tr.append(ex)
    props = copy.deepcopy(trpr) if trpr is not None else etree.Element(_TRPR)
    if ctx.tracked:
        add_row_mark(props, _INS, ctx.stamper.attributes())
    if len(props):
        tr.append(props)
    return tr


# ------------------------------------------------------------------ new tables
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
        anchor.addnext(tbl)
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


def build_table(
    ctx: EditContext, cells: list[list[Any]], widths: list[int], look: Look, borders: str
) -> etree._Element:
    """A new table of ``cells`` (texts, or callables filling a cell) over columns of ``widths``.

    ``borders`` is ``"grid"`` (the document's ``TableGrid`` style when it defines one, else explicit
    single lines) or ``"none"``; every row is marked inserted when tracked.
    """
    tbl = etree.Element(_TBL)
    tblpr = etree.SubElement(tbl, W + "tblPr")
    grid_style = borders == "grid" and ctx.doc.styles.style_type("TableGrid") == "table"
    if grid_style:
        place(tblpr, simple("tblStyle", val="TableGrid"), TBLPR_ORDER)
    if look.bidi:
        place(tblpr, simple("bidiVisual"), TBLPR_ORDER)
    place(tblpr, simple("tblW", w=str(sum(widths)), type="dxa"), TBLPR_ORDER)
    if not grid_style:
        edges = etree.Element(W + "tblBorders")
        for side in ("top", "left", "bottom", "right", "insideH", "insideV"):
            line = {"val": "single", "sz": "4", "space": "0", "color": "auto"} if borders == "grid" else {}
            edges.append(simple(side, **(line or {"val": "nil"})))
        place(tblpr, edges, TBLPR_ORDER)
    place(tblpr, simple("tblLook", val="04A0"), TBLPR_ORDER)
    grid = etree.SubElement(tbl, W + "tblGrid")
    for width in widths:
        grid.append(simple("gridCol", w=str(width)))
    for row in cells:
        trpr = etree.Element(_TRPR)
        if borders == "none":
            trpr.append(simple("cantSplit"))  # a signature block is never split across pages
        tr = new_row(ctx, trpr)
        for width, content in zip(widths, row, strict=True):
            tc = new_cell(ctx, width, None if callable(content) else content, look)
            if callable(content):
                content(tc)
            tr.append(tc)
        tbl.append(tr)
    return tbl


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


def declare_w14(root: etree._Element) -> None:
    """Declare ``w14`` on the part's root and list it in ``mc:Ignorable`` (ooxml-rules §5.9).

    New paragraphs carry ``w14:paraId``; a part that never used it would otherwise get a local
    declaration on every paragraph and a namespace that is not marked ignorable.
    """
    uri = NS["w14"]

    def prefix() -> str | None:
        return next((k for k, v in root.nsmap.items() if v == uri and k), None)

    if prefix() is None or NS["mc"] not in root.nsmap.values():
        probe = etree.SubElement(root, MC + "probe")  # uses mc, so cleanup declares it as "mc" on top
        keep = {k for el in root.iter() if isinstance(el.tag, str) for k in el.nsmap if k}
        etree.cleanup_namespaces(root, top_nsmap={"w14": uri, "mc": NS["mc"]}, keep_ns_prefixes=sorted(keep))
        root.remove(probe)
    name = prefix()
    tokens = (root.get(MC + "Ignorable") or "").split()
    if name is not None and name not in tokens:
        tokens.append(name)
    if tokens:
        root.set(MC + "Ignorable", " ".join(tokens))
    elif MC + "Ignorable" in root.attrib:
        del root.attrib[MC + "Ignorable"]
