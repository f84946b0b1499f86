"""Run properties written in the order the schema requires (ECMA-376 ``CT_RPr``).

Word rejects a ``w:rPr`` whose children are out of order, so every property is placed by
its position in the sequence below rather than appended.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from ..vocabulary import REVISION_WRAPPERS
from ..xmlutil import W

RPR_ORDER = [
    "rStyle",
    "rFonts",
    "b",
    "bCs",
    "i",
    "iCs",
    "caps",
    "smallCaps",
    "strike",
    "dstrike",
    "outline",
    "shadow",
    "emboss",
    "imprint",
    "noProof",
    "snapToGrid",
    "vanish",
    "webHidden",
    "color",
    "spacing",
    "w",
    "kern",
    "position",
    "sz",
    "szCs",
    "highlight",
    "u",
    "effect",
    "bdr",
    "shd",
    "fitText",
    "vertAlign",
    "rtl",
    "cs",
    "em",
    "lang",
    "eastAsianLayout",
    "specVanish",
    "oMath",
]
_RANK = {W + name: i for i, name in enumerate(RPR_ORDER)}
_LAST = len(RPR_ORDER)  # w:ins/w:del/... of a paragraph mark come first; rPrChange last


def _rank(el: etree._Element) -> int:
    if el.tag in REVISION_WRAPPERS:
        return -1
    return _RANK.get(el.tag, _LAST)


def set_property(rpr: etree._Element, name: str, attrs: dict[str, str] | None) -> None:
    """Set ``w:<name>`` with ``attrs`` (None removes it), keeping schema order."""
    tag = W + name
    existing = rpr.find(tag)
    if attrs is None:
        if existing is not None:
            rpr.remove(existing)
        return
    if existing is None:
        existing = etree.Element(tag)
        rank = _RANK[tag]
        position = next((i for i, child in enumerate(rpr) if _rank(child) > rank), len(rpr))
        rpr.insert(position, existing)
    existing.attrib.clear()
    existing.attrib.update({W + k: v for k, v in attrs.items()})


def _toggle(value: bool | None) -> dict[str, str] | None:
    if value is None:
        return None
    return {} if value else {"val": "0"}


def apply_formatting(rpr: etree._Element, formatting: dict[str, Any]) -> None:
    """Apply a contract ``formatting`` object (booleans, font, size, colour; ``None`` clears)."""
    for key, name in (("bold", "b"), ("italic", "i"), ("strike", "strike")):
        if key in formatting:
            set_property(rpr, name, _toggle(formatting[key]))
            if name in ("b", "i"):
                set_property(rpr, name + "Cs", _toggle(formatting[key]))
    if "underline" in formatting:
        value = formatting["underline"]
        set_property(rpr, "u", None if value is None else {"val": "single" if value else "none"})
    if "fontFamily" in formatting:
        family = formatting["fontFamily"]
        set_property(
            rpr, "rFonts", None if family is None else {"ascii": family, "hAnsi": family, "cs": family}
        )
    if "fontSizePt" in formatting:
        size = formatting["fontSizePt"]
        half_points = None if size is None else {"val": str(round(size * 2))}
        set_property(rpr, "sz", half_points)
        set_property(rpr, "szCs", half_points)
    if "color" in formatting:
        color = formatting["color"]
        set_property(rpr, "color", None if color is None else {"val": color.lstrip("#").upper()})
