"""Paragraph properties of the revised version, stated in the base package's terms.

Two uses in the redline: a paragraph the redline *inserts* states the revised paragraph's style,
numbering, alignment, spacing, indentation and outline level, so it does not take its anchor's;
and a *paired* paragraph whose properties differ gets a ``setBlockParagraphProperties`` with the
revised values, which the engine records as ``w:pPrChange`` (rejecting restores the base's set).

Properties are compared as the contract's vocabulary reads them (``Block.style_id``,
``stated_numbering``, ``direct_*``): what the engine can write is exactly what is compared, so a
difference it cannot express (tabs, borders) is not reported as one it would half-write. A
paragraph with no style of its own reads as its package's default style; the two packages'
defaults are compared as "no style". Styles go through :class:`~.style_import.StyleImport` (the
revised style's id in the base, copied there when the base lacks it), numbering through
:class:`~.numbering_import.NumberingImport`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..blocks import Block
from ..styles import StyleIndex
from ..xmlutil import W
from .notes import without_markers
from .numbering_import import NumberingImport
from .style_import import StyleImport

_INHERIT: dict[str, Any] = {"kind": "inherit"}


def _spacing(value: dict[str, Any] | None) -> dict[str, Any] | None:
    """Spacing as the contract takes it (negative space before/after is not expressible)."""
    if not value:
        return None
    out = {k: v for k, v in value.items() if not (k in ("spaceBefore", "spaceAfter") and v < 0)}
    return out or None


class RevisedProperties:
    """Reads revised paragraphs' properties as the base package can state them."""

    def __init__(self, styles: StyleImport, revised_styles: StyleIndex, numbering: NumberingImport) -> None:
        self.styles = styles
        self.revised_default = revised_styles.default_paragraph_style_id
        self.numbering = numbering
        #: revised styles that could not be carried into the base, with how many paragraphs wanted them
        self.missing_styles: Counter[str] = Counter()

    # ------------------------------------------------------------------ styles
    def _style_of(self, block: Block) -> tuple[bool, str | None]:
        """(carried, the base's style id) for the revised ``block``; the revised default is the base's."""
        if block.style_id is None or block.style_id == self.revised_default:
            return True, self.styles.base.styles.default_paragraph_style_id
        found = self.styles.base_style_id(block.style_id)
        return found is not None, found

    # ------------------------------------------------------------------ numbering
    def numbering_of(self, block: Block) -> dict[str, Any] | None:
        """The revised block's numbering state with its list mapped into the base (None: cannot)."""
        stated = dict(block.stated_numbering or _INHERIT)
        kind = stated.get("kind")
        if kind == "reference":
            num_id = self.numbering.base_num_id(stated["numId"])
            if num_id is None:
                return None
            out: dict[str, Any] = {"kind": "reference", "numId": num_id}
            if stated.get("ilvl") is not None and 0 <= stated["ilvl"] <= 8:
                out["ilvl"] = stated["ilvl"]
            return out
        if kind == "levelOnly" and not 0 <= (stated.get("ilvl") or 0) <= 8:
            return None
        return stated

    # ------------------------------------------------------------------ insertions
    def insert_fields(self, block: Block, anchor: Block | None) -> dict[str, Any]:
        """Fields of an insertion of ``block``'s text, stating its properties, not its anchor's."""
        fields: dict[str, Any] = {"text": without_markers(block.text)}
        if "\n" in block.text or "\r" in block.text:
            fields["lineBreakMode"] = "inline"
        carried, style_id = self._style_of(block)
        if style_id is not None:
            fields["styleId"] = style_id
        elif not carried:
            self.missing_styles[block.style_id or ""] += 1
        if block.direct_alignment:
            fields["alignment"] = block.direct_alignment
        anchor_el = anchor.element if anchor is not None else None
        anchor_ppr = anchor_el.find(W + "pPr") if anchor_el is not None else None
        stated = self.numbering_of(block) or _INHERIT
        anchor_numbered = anchor_ppr is not None and anchor_ppr.find(W + "numPr") is not None
        if stated["kind"] != "inherit" or anchor_numbered:
            fields["numbering"] = stated
        if block.direct_outline_level:
            fields["outlineLevel"] = block.direct_outline_level
        elif anchor_ppr is not None and anchor_ppr.find(W + "outlineLvl") is not None:
            fields["outlineLevel"] = None
        spacing = _spacing(block.direct_spacing)
        if spacing:
            fields["spacing"] = spacing
        if block.direct_indentation:
            fields["indentation"] = dict(block.direct_indentation)
        return fields

    # ------------------------------------------------------------------ paired paragraphs
    def changes(self, base: Block, revised: Block) -> dict[str, Any]:
        """The revised values of the properties that differ between two paired paragraphs.

        A revised style that cannot be carried into the base (see :mod:`.style_import`) is left out
        and counted in :attr:`missing_styles`, the rest applies; one that dangles in both versions
        alike is no change.
        """
        props: dict[str, Any] = {}
        default = self.styles.base.styles.default_paragraph_style_id
        base_style = None if base.style_id == default else base.style_id
        carried, revised_style = self._style_of(revised)
        revised_style = None if revised_style == default else revised_style
        if not carried:
            if base.style_id != revised.style_id:
                self.missing_styles[revised.style_id or ""] += 1
        elif base_style != revised_style:
            props["styleId"] = revised_style
        numbering = self.numbering_of(revised)
        if numbering is not None and numbering != dict(base.stated_numbering or _INHERIT):
            props["numbering"] = numbering
        if base.direct_alignment != revised.direct_alignment:
            props["alignment"] = revised.direct_alignment
        if _spacing(base.direct_spacing) != _spacing(revised.direct_spacing):
            props["spacing"] = _spacing(revised.direct_spacing)
        if base.direct_indentation != revised.direct_indentation:
            props["indentation"] = revised.direct_indentation
        if base.direct_outline_level != revised.direct_outline_level:
            props["outlineLevel"] = revised.direct_outline_level
        return props

    def reference_warnings(self) -> list[dict[str, Any]]:
        """One warning per revised style that could not be carried (the redline's ``referenceWarnings``).

        Only a style the revised version names without defining as a paragraph style (and the
        base does not define either) is left: it shows as the default style there too.
        """
        return [
            {
                "code": "missingStyle",
                "styleId": style_id,
                "paragraphs": paragraphs,
                "message": (
                    f'paragraph style "{style_id}" of the revised version is not a paragraph style either '
                    f"version defines; {paragraphs} paragraph(s) are written without it"
                ),
            }
            for style_id, paragraphs in sorted(self.missing_styles.items())
        ]
