"""Sections: what each ``w:sectPr`` says about its pages, and which section an element is in.

A paragraph-level ``w:sectPr`` ends a section (it describes the section that ends with that
paragraph); the body's own ``w:sectPr`` describes the last one. The page view lays pages out
from these properties and the edit engine sizes a new table to the text width of the section it
lands in, so both read them here: a new table is as wide as the column the page view shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from .xmlutil import W, int_attr, is_on

_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_P, _PPR, _SECT = W + "p", W + "pPr", W + "sectPr"
#: ST_UniversalMeasure units in twips (``w:w="8.5in"`` is as valid as ``w:w="12240"``).
_UNITS = {"mm": 56.6929, "cm": 566.929, "in": 1440.0, "pt": 20.0, "pc": 240.0, "pi": 240.0}
#: The narrowest page side and text column kept: a file may state less, nothing could be laid out.
MIN_PAGE, MIN_TEXT = 1440, 720


@dataclass(slots=True)
class SectionProps:
    """One ``w:sectPr``: page geometry and columns in twips, header/footer references, page numbers."""

    width: int = 12240
    height: int = 15840
    top: int = 1440
    right: int = 1440
    bottom: int = 1440
    left: int = 1440
    header: int = 720
    footer: int = 720
    gutter: int = 0
    exact_top: bool = False
    exact_bottom: bool = False
    #: the file states the page width (otherwise ``width`` is Word's default, Letter)
    page_stated: bool = False
    columns: int = 1
    column_space: int = 720
    kind: str = "nextPage"
    title_page: bool = False
    page_start: int | None = None
    page_format: str = "decimal"
    headers: dict[str, str] = field(default_factory=dict)
    footers: dict[str, str] = field(default_factory=dict)

    @property
    def geometry(self) -> tuple[int, int, int, int, int, int]:
        """What sections laid out in one flow of pages must share: the same kind of page."""
        return (self.width, self.height, self.top, self.right, self.bottom, self.left + self.gutter)

    @property
    def column_width(self) -> float:
        """The width of one text column: the page less its margins and gutter, shared by the columns."""
        width = self.width - self.left - self.right - self.gutter
        if self.columns > 1:
            width = (width - self.column_space * (self.columns - 1)) / self.columns
        return width


def twips_measure(el: etree._Element | None, name: str) -> int | None:
    """A ``w:`` twips attribute of ``el``, a number or a universal measure (``"1in"``); junk is absent."""
    raw = el.get(W + name) if el is not None else None
    if raw is None:
        return None
    raw = raw.strip()
    factor = 1.0
    for unit, twips in _UNITS.items():
        if raw.endswith(unit):
            raw, factor = raw[: -len(unit)], twips
            break
    try:
        return int(float(raw) * factor)
    except ValueError:
        return None


def parse_section(sect: etree._Element | None) -> SectionProps:
    """Page size, margins, columns and header/footer references of one ``w:sectPr``.

    Word's defaults stand in for what is absent, and a page too small to hold text is widened to
    one that can: whatever the file says, there is a page to lay out and a column to put a table in.
    """
    props = SectionProps()
    if sect is None:
        return props
    size = sect.find(W + "pgSz")
    width = twips_measure(size, "w")
    props.page_stated = bool(width)
    props.width = width or props.width
    props.height = twips_measure(size, "h") or props.height
    margins = sect.find(W + "pgMar")
    for name in ("top", "right", "bottom", "left", "header", "footer", "gutter"):
        value = twips_measure(margins, name)
        if value is not None:
            # a negative top/bottom margin means "exactly", however tall the header is
            if value < 0 and name in ("top", "bottom"):
                setattr(props, "exact_" + name, True)
            setattr(props, name, abs(value))
    columns = sect.find(W + "cols")
    props.columns = max(1, int_attr(columns, "num") or 1)
    props.column_space = twips_measure(columns, "space") or props.column_space
    kind = sect.find(W + "type")
    if kind is not None and kind.get(W + "val"):
        props.kind = kind.get(W + "val") or "nextPage"
    props.title_page = is_on(sect.find(W + "titlePg"))
    numbering = sect.find(W + "pgNumType")
    if numbering is not None:
        props.page_start = int_attr(numbering, "start")
        props.page_format = numbering.get(W + "fmt") or "decimal"
    for tag, target in (("headerReference", props.headers), ("footerReference", props.footers)):
        for ref in sect.iterchildren(W + tag):
            rel_id = ref.get(_R_ID)
            if rel_id:
                target[ref.get(W + "type") or "default"] = rel_id
    _keep_usable(props)
    return props


def _keep_usable(props: SectionProps) -> None:
    props.width = max(props.width, MIN_PAGE)
    props.height = max(props.height, MIN_PAGE)
    if props.width - props.left - props.right - props.gutter < MIN_TEXT:
        props.left = props.right = min(props.left, MIN_TEXT)
        props.gutter = 0
    if props.height - props.top - props.bottom < MIN_TEXT:
        props.top = props.bottom = min(props.top, MIN_TEXT)


def section_elements(body: etree._Element) -> list[etree._Element | None]:
    """Every section's ``w:sectPr`` in body order: paragraph-level ones, then the body's (None if absent)."""
    found: list[etree._Element | None] = [sect for sect in body.iter(_SECT) if _is_ppr_sect(sect)]
    found.append(body.find(_SECT))
    return found


def ends_section(p: etree._Element) -> bool:
    """Whether paragraph ``p``'s mark ends a section (it holds ``w:pPr/w:sectPr``).

    Asked for every paragraph the page view writes, so the common case (``w:pPr`` first) is one
    index, not a search."""
    ppr = p[0] if len(p) and p[0].tag == _PPR else p.find(_PPR)
    return ppr is not None and ppr.find(_SECT) is not None


def _is_ppr_sect(sect: etree._Element) -> bool:
    parent = sect.getparent()
    return parent is not None and parent.tag == _PPR and parent.getparent() is not None


def section_of(body: etree._Element, el: etree._Element, after: bool = False) -> etree._Element | None:
    """The ``w:sectPr`` of the section ``el`` is in, or that a block placed ``after`` it lands in.

    A section break carried by ``el`` itself closes its section, so a block after it is in the
    next one. Outside the body's own blocks (or past the last break) it is the body's section.
    """
    top = el
    while top.getparent() is not None and top.getparent() is not body:
        top = top.getparent()
    if top.getparent() is body:
        for sibling in top.itersiblings() if after else (top, *top.itersiblings()):
            if sibling.tag == _P:
                sect = sibling.find(_PPR + "/" + _SECT)
                if sect is not None:
                    return sect
            elif sibling.tag == _SECT:
                return sibling
    return body.find(_SECT)
