"""Word's formatting properties of runs and paragraphs, read one ``w:rPr``/``w:pPr`` layer at a time.

:mod:`.format_resolver` stacks these layers (defaults, styles, list level, direct formatting)
into the effective :class:`RunProps` and :class:`ParaProps` of each run and paragraph, which
the page view turns into Qt formats. Values stay in Word's units: twips, half-points, ``RRGGBB``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lxml import etree

from .blocks import direct_indentation
from .xmlutil import W, int_attr, is_on

#: ``w:highlight`` names (ST_HighlightColor) as RGB.
HIGHLIGHTS = {
    "yellow": "FFFF00",
    "green": "00FF00",
    "cyan": "00FFFF",
    "magenta": "FF00FF",
    "blue": "0000FF",
    "red": "FF0000",
    "darkBlue": "000080",
    "darkCyan": "008080",
    "darkGreen": "008000",
    "darkMagenta": "800080",
    "darkRed": "800000",
    "darkYellow": "808000",
    "darkGray": "808080",
    "lightGray": "C0C0C0",
    "black": "000000",
    "white": "FFFFFF",
}
_ALIGN = {
    "left": "left",
    "start": "left",
    "center": "center",
    "right": "right",
    "end": "right",
    "both": "justify",
    "justify": "justify",
    "distribute": "justify",
    "thaiDistribute": "justify",
    "lowKashida": "justify",
    "mediumKashida": "justify",
    "highKashida": "justify",
}
#: the largest spacing or indent Word accepts, 1584 pt in twentieths of a point
MAX_WORD_TWIPS = 31_680
#: Paragraph-level children that are not formatting (or are history of it).
PPR_SKIP = frozenset(W + t for t in ("rPr", "sectPr", "pPrChange", "numPr", "pStyle"))
#: Run-level children that are history or bookkeeping, not formatting.
RPR_SKIP = frozenset(W + t for t in ("rPrChange", "ins", "del", "moveFrom", "moveTo", "lang", "noProof"))


@dataclass(frozen=True, slots=True)
class RunProps:
    """What one run looks like; hashable so Qt formats can be cached per distinct look."""

    font: str = "Calibri"
    font_ea: str | None = None
    font_cs: str | None = None
    size_hp: int = 22
    size_cs_hp: int | None = None
    bold: bool = False
    italic: bool = False
    underline: str | None = None
    strike: bool = False
    dstrike: bool = False
    color: str | None = None
    highlight: str | None = None
    shading: str | None = None
    small_caps: bool = False
    caps: bool = False
    vert_align: str | None = None
    hidden: bool = False
    char_spacing: int = 0
    #: ``w:kern``: kern letter pairs from this size on (half-points); 0 = never, as Word does by default.
    kern_from_hp: int = 0


@dataclass(frozen=True, slots=True)
class Border:
    """One side of a paragraph or cell border: style name, width in eighths of a point, colour."""

    style: str
    size: int
    color: str | None
    space: int = 0


@dataclass(frozen=True, slots=True)
class ParaProps:
    """Paragraph layout in twips; ``ind_first`` is negative for a hanging indent."""

    align: str = "left"
    ind_left: int = 0
    ind_right: int = 0
    ind_first: int = 0
    before: int = 0
    after: int = 0
    before_auto: bool = False
    after_auto: bool = False
    line: int = 240
    line_rule: str = "auto"
    tabs: tuple[tuple[int, str, str], ...] = ()
    keep_next: bool = False
    widow_control: bool = False
    keep_lines: bool = False
    page_break_before: bool = False
    contextual: bool = False
    bidi: bool = False
    shading: str | None = None
    borders: tuple[tuple[str, Border], ...] = ()


def element_key(el: etree._Element | None, skip: frozenset[str] = frozenset()) -> tuple[Any, ...]:
    """A hashable key for what an element states (tags, attributes, children), for caches.

    Cheaper than serialising: ``etree.tostring`` of a nested element repeats every namespace
    declaration of the document root. The children are listed by a slice, which lxml builds in C
    at about half the cost of its iterator for the few children of a properties element (the
    page view keys every paragraph's and run's properties).
    """
    if el is None:
        return ()
    key = []
    for child in el[:]:
        tag = child.tag
        if tag not in skip:
            key.append((tag, tuple(child.items()), element_key(child) if len(child) else ()))
    return tuple(key)


def _color(raw: str | None) -> str | None:
    if not raw or raw == "auto" or len(raw) != 6:
        return None
    try:
        int(raw, 16)
    except ValueError:
        return None
    return raw.upper()


# ----------------------------------------------------------------- parsing one layer
def parse_rpr(rpr: etree._Element | None, themes: dict[str, str]) -> dict[str, Any]:
    """The run properties one ``w:rPr`` states (absent properties are absent from the dict)."""
    out: dict[str, Any] = {}
    if rpr is None:
        return out
    for child in rpr:
        tag = child.tag
        if not isinstance(tag, str) or not tag.startswith(W):
            continue
        name = tag[len(W) :]
        if name == "rFonts":
            ascii_font = _theme(child.get(W + "asciiTheme"), themes) or child.get(W + "ascii")
            ascii_font = ascii_font or _theme(child.get(W + "hAnsiTheme"), themes) or child.get(W + "hAnsi")
            if ascii_font:
                out["font"] = ascii_font
            ea = _theme(child.get(W + "eastAsiaTheme"), themes) or child.get(W + "eastAsia")
            if ea:
                out["font_ea"] = ea
            cs = _theme(child.get(W + "cstheme"), themes) or child.get(W + "cs")
            if cs:
                out["font_cs"] = cs
        elif name == "sz":
            size = int_attr(child, "val")
            if size and size > 0:
                out["size_hp"] = size
        elif name == "szCs":
            size = int_attr(child, "val")
            if size and size > 0:
                out["size_cs_hp"] = size
        elif name in ("b", "i", "strike", "dstrike", "caps", "smallCaps", "vanish"):
            key = {"b": "bold", "i": "italic", "smallCaps": "small_caps", "vanish": "hidden"}.get(name, name)
            out[key] = is_on(child)
        elif name == "u":
            value = child.get(W + "val") or "single"
            out["underline"] = None if value == "none" else value
        elif name == "color":
            out["color"] = _color(child.get(W + "val"))
        elif name == "highlight":
            out["highlight"] = HIGHLIGHTS.get(child.get(W + "val") or "")
        elif name == "shd":
            out["shading"] = _color(child.get(W + "fill"))
        elif name == "vertAlign":
            value = child.get(W + "val")
            out["vert_align"] = value if value in ("superscript", "subscript") else None
        elif name == "spacing":
            out["char_spacing"] = int_attr(child, "val") or 0
        elif name == "kern":
            out["kern_from_hp"] = max(0, int_attr(child, "val") or 0)
    return out


def _theme(ref: str | None, themes: dict[str, str]) -> str | None:
    if not ref:
        return None
    return themes["major"] if ref.startswith("major") else themes["minor"]


def parse_ppr(ppr: etree._Element | None) -> dict[str, Any]:
    """The paragraph properties one ``w:pPr`` states; ``tabs`` is a list of (pos, kind, leader)."""
    out: dict[str, Any] = {}
    if ppr is None:
        return out
    for child in ppr:
        tag = child.tag
        if tag in PPR_SKIP or not isinstance(tag, str):
            continue
        name = tag[len(W) :] if tag.startswith(W) else ""
        if name == "jc":
            align = _ALIGN.get(child.get(W + "val") or "")
            if align:
                out["align"] = align
        elif name == "ind":
            _parse_ind(child, out)
        elif name == "spacing":
            for key, attr in (("before", "before"), ("after", "after"), ("line", "line")):
                value = int_attr(child, attr)
                if value is not None:
                    out[key] = _word_bounded(max(0, value) if key != "line" else value)
            rule = child.get(W + "lineRule")
            if rule in ("auto", "exact", "atLeast"):
                out["line_rule"] = rule
            for key in ("beforeAutospacing", "afterAutospacing"):
                if child.get(W + key) is not None:
                    out[key.replace("Autospacing", "_auto")] = is_on(child)
        elif name == "tabs":
            out["tabs"] = [
                (int_attr(tab, "pos") or 0, tab.get(W + "val") or "left", tab.get(W + "leader") or "none")
                for tab in child.iterchildren(W + "tab")
            ]
        elif name in (
            "keepNext",
            "keepLines",
            "pageBreakBefore",
            "contextualSpacing",
            "bidi",
            "widowControl",
        ):
            key = {
                "keepNext": "keep_next",
                "keepLines": "keep_lines",
                "pageBreakBefore": "page_break_before",
                "contextualSpacing": "contextual",
                "widowControl": "widow_control",
            }.get(name, name)
            out[key] = is_on(child)
        elif name == "shd":
            out["shading"] = _color(child.get(W + "fill"))
        elif name == "pBdr":
            out["borders"] = tuple(
                (side.tag[len(W) :], border)
                for side in child
                if isinstance(side.tag, str) and (border := parse_border(side)) is not None
            )
    return out


def _parse_ind(el: etree._Element, out: dict[str, Any]) -> None:
    """Indents in the page view's keys, read by the engine's own ``w:ind`` reader."""
    ind = direct_indentation(el) or {}
    for key, name in (
        ("indentLeft", "ind_left"),
        ("indentRight", "ind_right"),
        ("indentFirstLine", "ind_first"),
    ):
        if key in ind:
            out[name] = _word_bounded(ind[key])


def _word_bounded(twips: int) -> int:
    """``twips`` within Word's own limit for spacing and indents (±1584 pt).

    A file may say ``w:after="2147483647"``; laid out as written such a paragraph is taller than
    Qt's coordinates hold, and its pages could not be indexed (an ``IndexError``), while a huge
    indent took seconds to lay out. Word never writes more than 1584 pt.
    """
    return max(-MAX_WORD_TWIPS, min(MAX_WORD_TWIPS, twips))


def parse_border(el: etree._Element) -> Border | None:
    """A ``w:top``/``w:left``... border; None for ``nil``/``none`` (no line drawn)."""
    style = el.get(W + "val") or "single"
    if style in ("nil", "none"):
        return None
    return Border(style, int_attr(el, "sz") or 4, _color(el.get(W + "color")), int_attr(el, "space") or 0)
