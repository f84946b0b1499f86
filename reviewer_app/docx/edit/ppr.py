"""Paragraph properties in schema order, their tracked changes, and paragraph marks.

Word refuses a ``w:pPr`` whose children are out of the ``CT_PPr`` sequence, so every property
is placed by its rank rather than appended. The same module owns the other pPr rules of
ooxml-rules §5.4/§5.6: revision marks of the paragraph *mark* (``w:pPr/w:rPr/w:ins|w:del``)
come first in that ``w:rPr``, and a ``w:pPrChange`` is the last child of ``w:pPr`` holding the
*old* properties as ``CT_PPrBase`` (never the mark's ``w:rPr``, a ``w:sectPr`` or another change).
A mark joins its paragraph to the next one, so which mark may be inserted or deleted depends
on the paragraph's neighbours: those look-ups live here too.

Properties arrive as the contract spells them (§5.5: ``styleId``, ``outlineLevel``,
``numbering``, ``alignment``, ``spacing``, ``indentation``); :class:`PropertyWriter` checks the
references they make (a paragraph style, a numbering instance) against the live document and
refuses with the contract's skip codes before anything is written.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from lxml import etree

from ..sections import ends_section
from ..vocabulary import MARK_REVISION_ORDER, RANGE_MARKUP, RPR_HISTORY
from ..xmlutil import W
from .skips import Skip

PPR_BASE_ORDER = (
    "pStyle",
    "keepNext",
    "keepLines",
    "pageBreakBefore",
    "framePr",
    "widowControl",
    "numPr",
    "suppressLineNumbers",
    "pBdr",
    "shd",
    "tabs",
    "suppressAutoHyphens",
    "kinsoku",
    "wordWrap",
    "overflowPunct",
    "topLinePunct",
    "autoSpaceDE",
    "autoSpaceDN",
    "bidi",
    "adjustRightInd",
    "snapToGrid",
    "spacing",
    "ind",
    "contextualSpacing",
    "mirrorIndents",
    "suppressOverlap",
    "jc",
    "textDirection",
    "textAlignment",
    "textboxTightWrap",
    "outlineLvl",
    "divId",
    "cnfStyle",
)
_RANK = {W + name: i for i, name in enumerate((*PPR_BASE_ORDER, "rPr", "sectPr", "pPrChange"))}
_PPR, _RPR, _SECT, _CHANGE = W + "pPr", W + "rPr", W + "sectPr", W + "pPrChange"
#: Children of a ``w:pPr`` that are not ``CT_PPrBase`` (the mark's run properties and beyond).
_NOT_BASE = frozenset((_RPR, _SECT, _CHANGE))
#: Revision marks of the paragraph mark, in the order ``CT_ParaRPr`` requires them first.
#: The contract's paragraph properties (§5.5), in the order they are written.
PROPERTY_KEYS = ("styleId", "outlineLevel", "numbering", "alignment", "spacing", "indentation")
#: Contract outline level ``bodyText`` is ``w:outlineLvl`` 9.
_BODY_TEXT = "9"
#: How many paragraph styles a ``missingStyle`` message lists before "...".
_MAX_OFFERED = 60


# ------------------------------------------------------------------ placement
_Ranker = Callable[[etree._Element], int | None]


def ensure_ppr(p: etree._Element) -> etree._Element:
    """The paragraph's ``w:pPr``, created as its first child when it has none."""
    ppr = p.find(_PPR)
    if ppr is None:
        ppr = etree.Element(_PPR)
        p.insert(0, ppr)
    return ppr


def _place(parent: etree._Element, el: etree._Element, rank_of: _Ranker) -> None:
    rank = rank_of(el)
    assert rank is not None
    for index, child in enumerate(parent):
        child_rank = rank_of(child)
        if child_rank is not None and child_rank > rank:
            parent.insert(index, el)
            return
    parent.append(el)


def _ppr_rank(el: etree._Element) -> int | None:
    return _RANK.get(el.tag)


def set_child(ppr: etree._Element, name: str, el: etree._Element | None) -> None:
    """Put ``el`` (a ``w:<name>``) in ``ppr`` at its schema position, replacing any present; None removes."""
    existing = ppr.find(W + name)
    if existing is not None:
        ppr.remove(existing)
    if el is not None:
        in_order(ppr)
        _place(ppr, el, _ppr_rank)


def in_order(ppr: etree._Element) -> None:
    """Sort ``ppr``'s children into schema order (a file may come with them out of order).

    Children this module does not rank (extensions, comments) stay right after the child
    they followed.
    """
    keyed = []
    rank = -1
    for index, child in enumerate(ppr):
        own = _ppr_rank(child)
        rank = own if own is not None else rank
        keyed.append((rank, index, child))
    if [k[1] for k in sorted(keyed, key=lambda k: (k[0], k[1]))] != list(range(len(keyed))):
        ordered = [child for _rank, _index, child in sorted(keyed, key=lambda k: (k[0], k[1]))]
        for child in ordered:
            ppr.append(child)


def simple(name: str, **attrs: str) -> etree._Element:
    """``<w:name w:k="v" .../>``."""
    return etree.Element(W + name, attrib={W + k: v for k, v in attrs.items()})


def mark_rpr(ppr: etree._Element) -> etree._Element:
    """The paragraph mark's ``w:rPr`` (created at its schema position when absent)."""
    rpr = ppr.find(_RPR)
    if rpr is None:
        rpr = etree.Element(_RPR)
        _place(ppr, rpr, _ppr_rank)
    return rpr


def add_mark_revision(p: etree._Element, tag: str, attrs: dict[str, str]) -> etree._Element:
    """Mark the paragraph mark inserted/deleted/moved: ``tag`` goes first in ``w:pPr/w:rPr``.

    An existing ``w:ins`` stays ahead of a new ``w:del`` (the ``CT_ParaRPr`` order is ins,
    del, moveFrom, moveTo), so deleting someone's inserted mark keeps both records.
    """
    rpr = mark_rpr(ensure_ppr(p))
    el = etree.Element(tag, attrib=attrs)
    order = MARK_REVISION_ORDER.index(tag)
    position = 0
    for index, child in enumerate(rpr):
        if child.tag in MARK_REVISION_ORDER and MARK_REVISION_ORDER.index(child.tag) <= order:
            position = index + 1
    rpr.insert(position, el)
    return el


def mark_revision(p: etree._Element, tag: str) -> etree._Element | None:
    """The mark's ``w:ins``/``w:del``/... record when it has one."""
    ppr = p.find(_PPR)
    rpr = ppr.find(_RPR) if ppr is not None else None
    return rpr.find(tag) if rpr is not None else None


# ------------------------------------------------------------------ neighbours


def next_block(el: etree._Element) -> etree._Element | None:
    """The next sibling that is content (a paragraph, table, sectPr...), skipping range markup."""
    for sibling in el.itersiblings():
        if isinstance(sibling.tag, str) and sibling.tag not in RANGE_MARKUP:
            return sibling
    return None


def previous_block(el: etree._Element) -> etree._Element | None:
    """The previous sibling that is content, skipping range markup."""
    for sibling in el.itersiblings(preceding=True):
        if isinstance(sibling.tag, str) and sibling.tag not in RANGE_MARKUP:
            return sibling
    return None


def mark_carrier(first: etree._Element, last: etree._Element) -> etree._Element | None:
    """The paragraph before new ones that must carry their inserted mark, if any.

    New paragraphs followed by no paragraph (the end of a body or cell, or a table) would end
    with an inserted mark that rejecting cannot remove: LibreOffice leaves an empty paragraph.
    The paragraph just before them carries the inserted mark instead (see
    :func:`.ppr.take_over_mark`), unless it ends a section, whose break must stay where it is.
    """
    following = next_block(last)
    if following is not None and following.tag == W + "p":
        return None
    preceding = previous_block(first)
    if preceding is None or preceding.tag != W + "p" or ends_section(preceding):
        return None
    return preceding


# ------------------------------------------------------------------ base properties
def base_copy(ppr: etree._Element | None) -> etree._Element:
    """A new ``w:pPr`` holding copies of ``ppr``'s ``CT_PPrBase`` children (what a pPrChange keeps)."""
    out = etree.Element(_PPR)
    if ppr is not None:
        for child in ppr:
            if child.tag not in _NOT_BASE and isinstance(child.tag, str):
                out.append(copy.deepcopy(child))
    in_order(out)
    return out


def base_key(ppr: etree._Element | None) -> bytes:
    """A comparable serialization of the base properties (order-insensitive across children)."""
    parts = sorted(etree.tostring(child) for child in base_copy(ppr))
    return b"".join(parts)


def replace_base(ppr: etree._Element, base: etree._Element) -> None:
    """Make ``ppr``'s base children copies of ``base``'s, keeping its rPr, sectPr and pPrChange."""
    for child in list(ppr):
        if child.tag not in _NOT_BASE:
            ppr.remove(child)
    for child in base:
        _place(ppr, copy.deepcopy(child), _ppr_rank)


def inheritable_copy(ppr: etree._Element | None) -> etree._Element:
    """The anchor's pPr for a new paragraph: no section break, no pending change, no mark revisions."""
    out = copy.deepcopy(ppr) if ppr is not None else etree.Element(_PPR)
    for child in list(out):
        if child.tag in (_SECT, _CHANGE):
            out.remove(child)
    numpr = out.find(W + "numPr")
    if numpr is not None:
        for child in list(numpr):
            if child.tag in (W + "ins", W + "numberingChange"):
                numpr.remove(child)
    rpr = out.find(_RPR)
    if rpr is not None:
        for child in list(rpr):
            if child.tag in RPR_HISTORY:
                rpr.remove(child)
        if len(rpr) == 0:
            out.remove(rpr)
    return out


def mark_formatting(rpr: etree._Element | None) -> list[etree._Element]:
    """Copies of a mark's formatting children, without its revision records."""
    if rpr is None:
        return []
    return [copy.deepcopy(c) for c in rpr if c.tag not in RPR_HISTORY and isinstance(c.tag, str)]


def record_change(ppr: etree._Element, old_base: etree._Element, attrs: dict[str, str]) -> etree._Element:
    """Append ``w:pPrChange`` (last child) holding ``old_base`` as the previous properties."""
    change = etree.SubElement(ppr, _CHANGE, attrib=attrs)
    change.append(copy.deepcopy(old_base))
    return change


def change_properties(
    p: etree._Element,
    apply: Callable[[etree._Element], None],
    stamp: Callable[[], dict[str, str]] | None,
    own_author: str | None = None,
) -> bool:
    """Change the paragraph's properties with ``apply``; when ``stamp`` is given (tracked mode)
    keep the old set in the one ``w:pPrChange`` OOXML allows (``pendingParagraphPropertyChange``
    when there already is one). False, and nothing changed, when they come out as they were.

    A pending change by ``own_author`` is gone on from instead, as Word does for a person's
    second key: it keeps the properties from before the first, and goes when they are back.
    """
    ppr = ensure_ppr(p)
    old = base_copy(ppr)
    apply(ppr)
    if base_key(ppr) == base_key(old):
        drop_if_empty(p)
        return False
    if stamp is not None:
        pending = ppr.find(_CHANGE)
        if pending is None:
            record_change(ppr, old, stamp())
        elif own_author is None or pending.get(W + "author") != own_author:
            raise Skip("pendingParagraphPropertyChange")
        elif base_key(ppr) == base_key(pending.find(_PPR)):
            ppr.remove(pending)
            drop_if_empty(p)
    return True


def take_over_mark(
    carrier: etree._Element, last: etree._Element, stamp: Callable[[], dict[str, str]]
) -> None:
    """Give ``last`` (a new paragraph) the carrier's original mark; the carrier keeps a copy to mark new.

    New paragraphs after the last paragraph of a body or cell (or before a table) would end with
    an inserted mark that rejecting cannot remove: LibreOffice leaves an empty paragraph. So
    the original mark moves to close the new paragraphs (with its mark formatting and any
    pending property change) and the paragraph before them ends with the inserted mark. When
    the properties differ a ``w:pPrChange`` on ``last`` records the carrier's, which
    rejecting restores together with the join. The caller marks the carrier's mark inserted.
    """
    carrier_ppr, last_ppr = ensure_ppr(carrier), ensure_ppr(last)
    for tag in (_RPR, _CHANGE):
        for old in last_ppr.findall(tag):
            last_ppr.remove(old)
        moving = carrier_ppr.find(tag)
        if moving is not None:
            last_ppr.append(moving)
    if last_ppr.find(_CHANGE) is None and base_key(last_ppr) != base_key(carrier_ppr):
        record_change(last_ppr, base_copy(carrier_ppr), stamp())
    formatting = mark_formatting(last_ppr.find(_RPR))
    if formatting:
        mark_rpr(carrier_ppr).extend(formatting)


# ------------------------------------------------------------------ contract properties
def _on(value: bool) -> str:
    return "1" if value else "0"


def spacing_element(spacing: Mapping[str, Any]) -> etree._Element:
    """``w:spacing`` holding exactly the contract's spacing cluster (it replaces the whole child)."""
    attrs: dict[str, str] = {}
    for key, attr in (("spaceBefore", "before"), ("spaceAfter", "after"), ("lineSpacing", "line")):
        if key in spacing:
            attrs[attr] = str(int(spacing[key]))
    if "lineSpacingRule" in spacing:
        attrs["lineRule"] = str(spacing["lineSpacingRule"])
    for key in ("beforeAutospacing", "afterAutospacing"):
        if key in spacing:
            attrs[key] = _on(bool(spacing[key]))
    return simple("spacing", **attrs)


def indentation_element(indentation: Mapping[str, Any]) -> etree._Element:
    """``w:ind`` from the contract's indentation: a negative or ``hangingIndent`` first line hangs."""
    attrs: dict[str, str] = {}
    if "indentLeft" in indentation:
        attrs["left"] = str(int(indentation["indentLeft"]))
    if "indentRight" in indentation:
        attrs["right"] = str(int(indentation["indentRight"]))
    first = indentation.get("indentFirstLine")
    hanging = indentation.get("hangingIndent")
    if first is not None:
        if hanging or first < 0:
            attrs["hanging"] = str(abs(int(first)))
        else:
            attrs["firstLine"] = str(int(first))
    elif hanging:
        attrs["hanging"] = "0"
    return simple("ind", **attrs)


class PropertyWriter:
    """Writes contract paragraph properties into a ``w:pPr``, checking what they reference.

    ``new_list(format)`` returns the numId of the operation's new list for ``format`` (one
    list per operation and format, so every paragraph one operation numbers joins it).
    """

    def __init__(self, styles: Any, numbering: Any, new_list: Callable[[str], str]) -> None:
        self.styles = styles
        self.numbering = numbering
        self.new_list = new_list

    def check_style(self, style_id: str | None) -> None:
        """``missingStyle`` unless ``style_id`` is None or a paragraph style of this document."""
        if style_id is None or self.styles.is_paragraph_style(style_id):
            return
        offered = self.styles.paragraph_style_ids()
        listed = ", ".join(offered[:_MAX_OFFERED]) + (", ..." if len(offered) > _MAX_OFFERED else "")
        kind = self.styles.style_type(style_id)
        what = f"a {kind} style" if kind else "not a style this document defines"
        raise Skip(
            "missingStyle",
            f'"{style_id}" is not a paragraph style here ({what}); offered: {listed or "none"}',
        )

    def check(self, props: Mapping[str, Any]) -> None:
        """Refuse before writing: a bad style or an undefined numbering reference."""
        if "styleId" in props:
            self.check_style(props["styleId"])
        numbering = props.get("numbering")
        if numbering is not None and numbering.get("kind") == "reference":
            num_id = int(numbering["numId"])
            if not self.numbering.instance_defined(str(num_id)):
                raise Skip("missingNumbering", f"numId {num_id} is not defined by this document")

    def numbering_element(self, state: Mapping[str, Any]) -> etree._Element | None:
        """The ``w:numPr`` a numbering state asks for (None = no direct numbering)."""
        kind = state.get("kind")
        if kind == "inherit":
            return None
        numpr = etree.Element(W + "numPr")
        if kind == "none":
            etree.SubElement(numpr, W + "numId", attrib={W + "val": "0"})
        elif kind == "levelOnly":
            etree.SubElement(numpr, W + "ilvl", attrib={W + "val": str(int(state["ilvl"]))})
        elif kind == "reference":
            if state.get("ilvl") is not None:
                etree.SubElement(numpr, W + "ilvl", attrib={W + "val": str(int(state["ilvl"]))})
            etree.SubElement(numpr, W + "numId", attrib={W + "val": str(int(state["numId"]))})
        elif kind == "newList":
            num_id = self.new_list(str(state["format"]))
            level = int(state.get("level") or 0)
            etree.SubElement(numpr, W + "ilvl", attrib={W + "val": str(level)})
            etree.SubElement(numpr, W + "numId", attrib={W + "val": num_id})
        else:  # the parser admits only the five kinds
            raise Skip("invalidResult", f"unknown numbering kind {kind!r}")
        return numpr

    def apply(self, ppr: etree._Element, props: Mapping[str, Any]) -> None:
        """Write ``props`` into ``ppr`` (call :meth:`check` first); ``None`` values remove."""
        if "styleId" in props:
            style_id = props["styleId"]
            set_child(ppr, "pStyle", None if style_id is None else simple("pStyle", val=style_id))
        if "outlineLevel" in props:
            level = props["outlineLevel"]
            if level is None:
                value = None
            elif level.get("kind") == "heading":
                value = str(int(level["level"]))
            else:
                value = _BODY_TEXT
            set_child(ppr, "outlineLvl", None if value is None else simple("outlineLvl", val=value))
        if "numbering" in props:
            state = props["numbering"]
            set_child(ppr, "numPr", None if state is None else self.numbering_element(state))
        if "alignment" in props:
            jc = props["alignment"]
            set_child(ppr, "jc", None if jc is None else simple("jc", val=jc))
        if "spacing" in props:
            spacing = props["spacing"]
            set_child(ppr, "spacing", None if spacing is None else spacing_element(spacing))
        if "indentation" in props:
            ind = props["indentation"]
            set_child(ppr, "ind", None if ind is None else indentation_element(ind))


def inserted_ppr(
    anchor: etree._Element, fields: Mapping[str, Any], in_scope: bool, first: bool, writer: PropertyWriter
) -> etree._Element:
    """Properties of one paragraph an insertion writes next to ``anchor`` (contract §5.5).

    In scope (the first paragraph, or every one with ``formattingScope: allParagraphs``): the
    anchor's pPr when ``inheritFormatting``; the anchor's stated numbering and outline level
    unless the operation states its own ("omitted numbering copies the anchor's"); then the
    operation's properties. ``pageBreakBefore`` applies to the first paragraph only.
    """
    anchor_ppr = anchor.find(_PPR)
    ppr = (
        inheritable_copy(anchor_ppr) if in_scope and fields.get("inheritFormatting") else etree.Element(_PPR)
    )
    if in_scope:
        if anchor_ppr is not None:
            for key, name in (("numbering", "numPr"), ("outlineLevel", "outlineLvl")):
                stated = anchor_ppr.find(W + name)
                if key not in fields and stated is not None and ppr.find(W + name) is None:
                    set_child(ppr, name, inheritable_copy(_wrap(stated)).find(W + name))
        writer.apply(ppr, {k: fields[k] for k in PROPERTY_KEYS if k in fields})
    if first and "pageBreakBefore" in fields:
        set_child(ppr, "pageBreakBefore", simple("pageBreakBefore") if fields["pageBreakBefore"] else None)
    return ppr


def _wrap(el: etree._Element) -> etree._Element:
    ppr = etree.Element(_PPR)
    ppr.append(copy.deepcopy(el))
    return ppr


def drop_if_empty(p: etree._Element) -> None:
    """Remove an empty ``w:pPr`` (Word writes none rather than an empty one)."""
    ppr = p.find(_PPR)
    if ppr is not None and len(ppr) == 0 and not ppr.attrib:
        p.remove(ppr)
