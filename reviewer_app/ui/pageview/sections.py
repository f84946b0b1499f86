"""Sections: page size, margins, header/footer references and page numbering of each ``w:sectPr``.

A paragraph-level ``w:sectPr`` ends a section (it describes the section that ends with that
paragraph); the body's own ``w:sectPr`` describes the last one. The layout stacks one
QTextDocument per run of sections sharing a page geometry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from ...docx.xmlutil import W, int_attr, is_on

_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


@dataclass(slots=True)
class SectionProps:
    """One ``w:sectPr``: page geometry in twips, header/footer references, numbering of pages."""

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
    kind: str = "nextPage"
    title_page: bool = False
    page_start: int | None = None
    page_format: str = "decimal"
    headers: dict[str, str] = field(default_factory=dict)
    footers: dict[str, str] = field(default_factory=dict)

    @property
    def geometry(self) -> tuple[int, int, int, int, int, int]:
        """What one QTextDocument can hold: sections sharing it stack on the same kind of page."""
        return (self.width, self.height, self.top, self.right, self.bottom, self.left + self.gutter)


def parse_section(sect: etree._Element | None) -> SectionProps:
    """Page size, margins and header/footer references of one ``w:sectPr`` (Word's defaults when absent)."""
    props = SectionProps()
    if sect is None:
        return props
    size = sect.find(W + "pgSz")
    if size is not None:
        props.width = int_attr(size, "w") or props.width
        props.height = int_attr(size, "h") or props.height
    margins = sect.find(W + "pgMar")
    if margins is not None:
        for name in ("top", "right", "bottom", "left", "header", "footer", "gutter"):
            value = int_attr(margins, name)
            if value is not None:
                # a negative top/bottom margin means "exactly", however tall the header is
                if value < 0 and name in ("top", "bottom"):
                    setattr(props, "exact_" + name, True)
                setattr(props, name, abs(value))
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
    # keep the page usable whatever the file says
    props.width = max(props.width, 1440)
    props.height = max(props.height, 1440)
    usable_w = props.width - props.left - props.right - props.gutter
    if usable_w < 720:
        props.left = props.right = min(props.left, 720)
        props.gutter = 0
    if props.height - props.top - props.bottom < 720:
        props.top = props.bottom = min(props.top, 720)
    return props


def section_elements(body: etree._Element) -> list[etree._Element | None]:
    """Every ``w:sectPr`` in body order: paragraph-level ones end a section, the body's is last."""
    found: list[etree._Element | None] = [
        sect for sect in body.iter(W + "sectPr") if sect.getparent() is not None and _is_ppr_sect(sect)
    ]
    final = body.find(W + "sectPr")
    found.append(final)
    return found


def _is_ppr_sect(sect: etree._Element) -> bool:
    parent = sect.getparent()
    return parent is not None and parent.tag == W + "pPr" and parent.getparent() is not None
