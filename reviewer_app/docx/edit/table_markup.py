"""XML builders for table operations: schema-ordered properties, new paragraphs, cells, rows, tables.

New structure is written in schema order (ooxml-rules §5.1-5.4) with the tracked marks a wholly
inserted structure needs: its rows carry ``w:trPr/w:ins``, its paragraphs an inserted mark and
runs in ``w:ins``, and a cell added to an existing row ``w:cellIns``. New paragraphs copy the look
(paragraph and run properties, text direction) of the cell they are modelled on.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from lxml import etree

from ..xmlutil import MC, NS, W14, W
from .context import EditContext
from .markup import insert_runs, make_runs, refuse_note_markers, template_rpr
from .ppr import add_mark_revision, inheritable_copy, set_child
from .rpr import set_property
from .table_xml import block_paragraphs, content_runs

_P, _TBL, _TR, _TC = W + "p", W + "tbl", W + "tr", W + "tc"
_TRPR, _TCPR = W + "trPr", W + "tcPr"
_INS, _DEL = W + "ins", W + "del"

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
#: Row-exception properties a new row must not copy: the change record.
_TBLPREX_DROP = frozenset((W + "tblPrExChange",))
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


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
            refuse_note_markers(segment)
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


def _copy_without(el: etree._Element, drop: frozenset[str]) -> etree._Element:
    """A deep copy of ``el`` without its children tagged in ``drop``."""
    out = copy.deepcopy(el)
    for child in [c for c in out if c.tag in drop]:
        out.remove(child)
    return out


def row_properties(tr: etree._Element | None) -> etree._Element | None:
    """A copy of ``tr``'s ``w:trPr`` fit for a new row (no revision records, never hidden)."""
    trpr = tr.find(_TRPR) if tr is not None else None
    return _copy_without(trpr, _TRPR_DROP) if trpr is not None else None


def new_row(
    ctx: EditContext, trpr: etree._Element | None, tbl_pr_ex: etree._Element | None = None
) -> etree._Element:
    """An empty ``w:tr`` with copies of the given properties, marked inserted when tracked."""
    tr = etree.Element(_TR)
    if tbl_pr_ex is not None:
        tr.append(_copy_without(tbl_pr_ex, _TBLPREX_DROP))
    props = copy.deepcopy(trpr) if trpr is not None else etree.Element(_TRPR)
    if ctx.tracked:
        add_row_mark(props, _INS, ctx.stamper.attributes())
    if len(props):
        tr.append(props)
    return tr


# ------------------------------------------------------------------ new tables
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
