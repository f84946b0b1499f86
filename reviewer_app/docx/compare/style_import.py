"""The revised version's paragraph styles, as style ids of the base package the redline is written into.

A ``w:pStyle`` means something only inside its own package, and the engine refuses a style the
document does not define (``missingStyle``). A lawyer comparing two drafts expects the redline to
show the revised version's formatting, as Word's Compare does, so each revised style the redline
needs is made available in the base, by the first rule that applies:

- the base defines the same styleId, of the same type → that style (the base's definition wins:
  a redline shows which style a paragraph has, not how two versions define it);
- the base has a style of the same type with the same ``w:name``, ignoring case → its id. Word
  matches styles by name: a localized Word writes ``Overskrift1`` for the built-in "heading 1";
- the revised style is its package's default of its type ("Normal") → the base's default, or no
  style at all when the base has none (the base's unstyled paragraphs read with the document
  defaults; copying a second "Normal" would claim to be the body style without being it);
- otherwise B's ``w:style`` is copied into the base's styles part, untracked (style definitions
  are not tracked changes), and so are the styles it names (``basedOn``, ``next``, ``link``), each
  by these same rules. The copy's list (``w:numPr``) goes through
  :class:`~.numbering_import.NumberingImport` and is dropped when it cannot be mapped.

A copy keeps its id unless the base defines that id as another type *or references it without
defining it* (a base paragraph naming an undefined style reads as the default; defining the id
would restyle it, untracked), then it gets the first free ``<id>N``. Its name gets a number when a
base style of another type already has it. A base without a styles part gets one, with its
relationship and content type, as a base without lists gets a numbering part: the part holds only
the copies, none a default and no document defaults, so the base's own paragraphs read as before.
"""

from __future__ import annotations

import copy

from lxml import etree

from ..document import WordDocument
from ..edit.context import EditContext
from ..edit.numbering_write import definitions_root
from ..edit.stamp import Stamper
from ..xmlutil import REL_STYLES, W
from .numbering_import import NumberingImport
from .stories import story_roots

STYLES_REL_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles"
STYLES_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"
#: References from one style to another that a copy must carry (or drop).
_REFERENCES = ("basedOn", "next", "link")
#: Revision marks inside a style: the copy is untracked, so the revised version's history stays out.
_CHANGES = tuple(W + tag for tag in ("pPrChange", "rPrChange", "tblPrChange", "trPrChange", "tcPrChange"))
_ON = ("1", "true", "on")


def _type(el: etree._Element) -> str:
    return el.get(W + "type") or "paragraph"  # ECMA-376 17.7.4.17: no w:type is a paragraph style


def _name(el: etree._Element) -> str:
    name = el.find(W + "name")
    return (name.get(W + "val") or "").strip() if name is not None else ""


class _Catalogue:
    """One package's styles by id, by (type, lower-case name) and its default per type."""

    def __init__(self, root: etree._Element | None) -> None:
        self.by_id: dict[str, etree._Element] = {}
        self.by_name: dict[tuple[str, str], str] = {}
        self.defaults: dict[str, str] = {}
        for el in root.iterchildren(W + "style") if root is not None else ():
            self.add(el)

    def add(self, el: etree._Element) -> None:
        """Index ``el``; the first definition of an id, a name or a type's default wins, as in Word."""
        style_id = el.get(W + "styleId")
        if not style_id or style_id in self.by_id:
            return
        self.by_id[style_id] = el
        if _name(el):
            self.by_name.setdefault((_type(el), _name(el).lower()), style_id)
        if el.get(W + "default") in _ON:
            self.defaults.setdefault(_type(el), style_id)

    def type_of(self, style_id: str) -> str | None:
        el = self.by_id.get(style_id)
        return _type(el) if el is not None else None

    def is_default(self, style_id: str) -> bool:
        el = self.by_id.get(style_id)
        return el is not None and self.defaults.get(_type(el)) == style_id


class StyleImport:
    """Maps the revised version's paragraph style ids to the base's, copying styles it lacks (lazily)."""

    def __init__(self, base: WordDocument, revised: WordDocument, numbering: NumberingImport) -> None:
        self.base = base
        self.numbering = numbering
        self._revised = _Catalogue(revised.part_root(REL_STYLES))
        self._base = _Catalogue(base.part_root(REL_STYLES))
        self._names = {name for _type, name in self._base.by_name}
        #: ids the base's stories name without (necessarily) defining them; read at the first copy
        self._referenced: set[str] | None = None
        self._mapped: dict[str, str | None] = {}
        self._paragraph: dict[str, str | None] = {}
        #: style ids created in the base, in order (the redline's tests read them)
        self.copied: list[str] = []

    def base_style_id(self, revised_style_id: str) -> str | None:
        """The base paragraph style standing for the revised one (None: none can)."""
        if revised_style_id not in self._paragraph:
            self._paragraph[revised_style_id] = self._paragraph_style(revised_style_id)
        return self._paragraph[revised_style_id]

    def _paragraph_style(self, style_id: str) -> str | None:
        if self._revised.type_of(style_id) not in (None, "paragraph"):
            return None  # the revised paragraph names a character or table style: Word ignores it
        copied = len(self.copied)
        found = self._resolve(style_id)
        if len(self.copied) != copied:
            name = self.base.part_name(REL_STYLES)
            if name is not None:
                self.base.package.mark_dirty(name)
            self.base.reload_definitions()
        return found if self.base.styles.is_paragraph_style(found) else None

    def _resolve(self, style_id: str) -> str | None:
        if style_id not in self._mapped:
            self._mapped[style_id] = self._map(style_id)
        return self._mapped[style_id]

    def _map(self, style_id: str) -> str | None:
        el = self._revised.by_id.get(style_id)
        if el is None:  # the revised version names a style it does not define: only the same id can do
            return style_id if style_id in self._base.by_id else None
        kind = _type(el)
        if self._base.type_of(style_id) == kind:
            return style_id
        named = self._base.by_name.get((kind, _name(el).lower())) if _name(el) else None
        if named is not None:
            return named
        if self._revised.is_default(style_id):
            return self._base.defaults.get(kind)
        return self._copy(style_id, el)

    def _copy(self, style_id: str, source: etree._Element) -> str:
        """Append a copy of the revised ``source`` to the base's styles; its id there."""
        root = self._root()
        new_id = self._free_id(style_id)
        self._mapped[style_id] = new_id  # before the references: link and next often point back
        style = copy.deepcopy(source)
        style.set(W + "styleId", new_id)
        style.attrib.pop(W + "default", None)
        for change in list(style.iter(*_CHANGES)):
            change.getparent().remove(change)
        for tag in _REFERENCES:
            for ref in style.findall(W + tag):
                target = self._resolve(ref.get(W + "val") or "")
                if target is None:
                    style.remove(ref)
                else:
                    ref.set(W + "val", target)
        self._map_numbering(style)
        self._unique_name(style)
        root.append(style)
        self._base.add(style)
        self.copied.append(new_id)
        return new_id

    def _root(self) -> etree._Element:
        """The base's styles part, created (with relationship and content type) when it has none."""
        root = self.base.part_root(REL_STYLES)
        if root is not None:
            return root
        doc = self.base
        ctx = EditContext(doc, doc.snapshot(), Stamper(doc, "compare"), tracked=False)
        return definitions_root(ctx, REL_STYLES, STYLES_REL_TYPE, "styles", STYLES_CONTENT_TYPE)[1]

    def _free_id(self, style_id: str) -> str:
        if self._referenced is None:
            names = (W + "pStyle", W + "rStyle", W + "tblStyle")
            self._referenced = {
                el.get(W + "val") or "" for _, root in story_roots(self.base) for el in root.iter(*names)
            }
        taken = self._base.by_id.keys() | self._referenced
        fresh, counter = style_id, 0
        while fresh in taken:
            counter += 1
            fresh = f"{style_id}{counter}"
        return fresh

    def _map_numbering(self, style: etree._Element) -> None:
        """Point the copy's list at the base's numbering, or drop it (it would name another list)."""
        num_pr = style.find(f"{W}pPr/{W}numPr")
        num_id = num_pr.find(W + "numId") if num_pr is not None else None
        if num_id is None:
            return
        value = (num_id.get(W + "val") or "").strip()
        if value == "0":  # "no list": stops a based-on style's list, means the same everywhere
            return
        mapped = self.numbering.base_num_id(value) if value.isdigit() else None
        if mapped is None:
            num_pr.getparent().remove(num_pr)
        else:
            num_id.set(W + "val", str(mapped))

    def _unique_name(self, style: etree._Element) -> None:
        """Number the copy's name when a base style of another type has it (names must not repeat)."""
        name_el = style.find(W + "name")
        name = _name(style)
        if name_el is None or not name:
            return
        fresh, counter = name, 1
        while fresh.lower() in self._names:
            counter += 1
            fresh = f"{name} {counter}"
        name_el.set(W + "val", fresh)
        self._names.add(fresh.lower())
