"""Style look-ups: paragraph styles, heading levels, outline levels, style numbering, style chains.

Word stores most of what makes a paragraph a heading or a list item on its *style*, not on the
paragraph, and a style inherits from its ``w:basedOn`` parent. This module answers those
questions once per document from ``word/styles.xml`` so that the block model, the numbering
resolver and the page view's formatting never index or walk the style tree themselves. Hostile
or broken files are expected: a missing styles part, unknown ids and ``w:basedOn`` cycles all
yield "no information", never an error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml import etree

from .xmlutil import W, child_val, int_value

#: Word keeps the English built-in name ("heading 1") in ``w:name`` even when the UI language
#: localises the style id (``Nadpis1``, ``berschrift1``), so the name is the reliable key.
_HEADING_NAME = re.compile(r"^heading ([1-9])$", re.IGNORECASE)
_HEADING_ID = re.compile(r"^heading([1-9])$", re.IGNORECASE)

#: ``w:outlineLvl`` 9 is "body text": explicitly *not* an outline level.
_BODY_TEXT_OUTLINE = 9


@dataclass(frozen=True)
class _Style:
    """What this module reads from one ``w:style``; parsed once so look-ups never touch XML."""

    style_id: str
    style_type: str
    name: str | None
    based_on: str | None
    is_default: bool
    outline_level: int | None
    num_id: str | None
    ilvl: int | None
    #: the ``w:style`` itself, for readers of its formatting (the page view)
    element: etree._Element = field(compare=False, repr=False)


def _parse_style(el: etree._Element) -> _Style | None:
    """Read one ``w:style``; a style without an id cannot be referenced and is dropped."""
    style_id = el.get(W + "styleId")
    if not style_id:
        return None
    ppr = el.find(W + "pPr")
    num_pr = ppr.find(W + "numPr") if ppr is not None else None
    outline = int_value(child_val(ppr, "outlineLvl"))
    ilvl = int_value(child_val(num_pr, "ilvl"))
    return _Style(
        style_id=style_id,
        # ECMA-376 17.7.4.17: a style without w:type is a paragraph style.
        style_type=el.get(W + "type") or "paragraph",
        name=child_val(el, "name"),
        based_on=child_val(el, "basedOn"),
        is_default=el.get(W + "default") in ("1", "true", "on"),
        outline_level=outline if outline is not None and 0 <= outline <= _BODY_TEXT_OUTLINE else None,
        num_id=(child_val(num_pr, "numId") or "").strip() or None,
        ilvl=ilvl if ilvl is not None and 0 <= ilvl <= 8 else None,
        element=el,
    )


class StyleIndex:
    """Read-only index over ``word/styles.xml``.

    Built from the part's root element, or ``None`` when the package has no styles part (then
    every question answers "unknown"). Duplicate style ids keep the first definition, as Word
    does when it opens such a file.
    """

    def __init__(self, root: etree._Element | None) -> None:
        self._styles: dict[str, _Style] = {}
        self._paragraph_ids: list[str] = []
        #: the first ``w:default="1"`` style of each type
        self._defaults: dict[str, str] = {}
        self._heading_cache: dict[str | None, int | None] = {}
        self._numbering_cache: dict[str | None, tuple[str | None, int | None]] = {}
        if root is None:
            return
        for el in root.iterchildren(W + "style"):
            style = _parse_style(el)
            if style is None or style.style_id in self._styles:
                continue
            self._styles[style.style_id] = style
            if style.style_type == "paragraph":
                self._paragraph_ids.append(style.style_id)
            if style.is_default:
                self._defaults.setdefault(style.style_type, style.style_id)

    # -- identity ---------------------------------------------------------------------------

    def __contains__(self, style_id: object) -> bool:
        return isinstance(style_id, str) and style_id in self._styles

    def is_paragraph_style(self, style_id: str | None) -> bool:
        """True when ``style_id`` names a paragraph style (not character/table/numbering)."""
        style = self._styles.get(style_id) if style_id else None
        return style is not None and style.style_type == "paragraph"

    def paragraph_style_ids(self) -> list[str]:
        """Paragraph style ids in the order styles.xml lists them (the order Word's UI shows)."""
        return list(self._paragraph_ids)

    @property
    def default_paragraph_style_id(self) -> str | None:
        """The ``w:default="1"`` paragraph style: what a paragraph without ``w:pStyle`` uses."""
        return self._defaults.get("paragraph")

    def default_style_id(self, style_type: str) -> str | None:
        """The ``w:default="1"`` style of a type: what a run without ``w:rStyle`` (``"character"``)
        or a table without ``w:tblStyle`` (``"table"``) uses."""
        return self._defaults.get(style_type)

    def element(self, style_id: str | None) -> etree._Element | None:
        """The ``w:style`` of ``style_id`` (None when unknown), for readers of its formatting."""
        style = self._styles.get(style_id) if style_id else None
        return style.element if style else None

    def style_type(self, style_id: str | None) -> str | None:
        """``"paragraph"``, ``"character"``, ``"table"``, ``"numbering"`` or ``None`` if unknown."""
        style = self._styles.get(style_id) if style_id else None
        return style.style_type if style else None

    def style_name(self, style_id: str | None) -> str | None:
        """The style's ``w:name`` (what Word shows), or ``None`` for unknown ids or no name."""
        style = self._styles.get(style_id) if style_id else None
        return style.name if style else None

    def based_on_chain(self, style_id: str | None) -> list[str]:
        """The style itself followed by its ``w:basedOn`` ancestors, nearest first.

        Stops at the first unknown id or at a cycle: a file in which A is based on B and B on A
        is broken but must not hang the reader, so each style is visited once.
        """
        chain: list[str] = []
        seen: set[str] = set()
        current = style_id
        while current and current in self._styles and current not in seen:
            seen.add(current)
            chain.append(current)
            current = self._styles[current].based_on
        return chain

    def chain_elements(self, style_id: str | None) -> list[etree._Element]:
        """The ``w:style`` elements of :meth:`based_on_chain`, nearest first: what the page view
        layers a style's formatting from."""
        return [self._styles[sid].element for sid in self.based_on_chain(style_id)]

    def _chain(self, style_id: str | None) -> Iterator[_Style]:
        for sid in self.based_on_chain(style_id):
            yield self._styles[sid]

    # -- outline / headings -----------------------------------------------------------------

    def outline_level(self, style_id: str | None) -> int | None:
        """The style's explicit outline level 0..8 through ``w:basedOn``; ``None`` for body text.

        The nearest style in the chain that states ``w:outlineLvl`` decides, so a derived style
        can turn an inherited heading back into body text with ``w:outlineLvl w:val="9"``.
        """
        for style in self._chain(style_id):
            if style.outline_level is not None:
                return None if style.outline_level == _BODY_TEXT_OUTLINE else style.outline_level
        return None

    def heading_level(self, style_id: str | None) -> int | None:
        """:meth:`_heading_level`, remembered per style (asked once per paragraph of a long file)."""
        if style_id not in self._heading_cache:
            self._heading_cache[style_id] = self._heading_level(style_id)
        return self._heading_cache[style_id]

    def _heading_level(self, style_id: str | None) -> int | None:
        """1-based heading level of a paragraph style, or ``None`` when it is not a heading.

        Walks the ``w:basedOn`` chain nearest first; the first style that says anything
        decides. Within one style the built-in heading name ("heading 2", or a style id such
        as ``Heading2``) outranks its ``w:outlineLvl``, because Word fixes the outline level of
        its built-in headings whatever the XML says. "Title" is deliberately not a heading
        level: Word gives it no outline level, and a contract's title is not clause 1.
        """
        if not self.is_paragraph_style(style_id):
            return None
        for style in self._chain(style_id):
            match = _HEADING_NAME.match((style.name or "").strip()) or _HEADING_ID.match(style.style_id)
            if match:
                return int(match.group(1))
            if style.outline_level is not None:
                if style.outline_level == _BODY_TEXT_OUTLINE:
                    return None
                return style.outline_level + 1
        return None

    # -- numbering --------------------------------------------------------------------------

    def numbering(self, style_id: str | None) -> tuple[str | None, int | None]:
        """:meth:`_numbering`, remembered per style."""
        if style_id not in self._numbering_cache:
            self._numbering_cache[style_id] = self._numbering(style_id)
        return self._numbering_cache[style_id]

    def _numbering(self, style_id: str | None) -> tuple[str | None, int | None]:
        """The style's ``w:numPr`` as ``(numId, ilvl)``, each inherited through ``w:basedOn``.

        ``numId`` and ``ilvl`` are inherited separately (nearest stated value wins), the way
        Word merges paragraph properties. ``ilvl`` is ``None`` when no style in the chain states
        it: the numbering resolver then uses the abstract numbering's level linked to this
        style (``w:lvl/w:pStyle``) or level 0, a decision that needs numbering.xml and so is
        not made here. A ``numId`` of ``"0"`` is returned as is: it means "no numbering" and
        stops inheritance of a base style's list.
        """
        num_id: str | None = None
        ilvl: int | None = None
        for style in self._chain(style_id):
            if num_id is None and style.num_id is not None:
                num_id = style.num_id
            if ilvl is None and style.ilvl is not None:
                ilvl = style.ilvl
            if num_id is not None and ilvl is not None:
                break
        return num_id, ilvl
