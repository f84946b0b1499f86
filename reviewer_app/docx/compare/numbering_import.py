"""The revised version's lists, as numIds of the base package the redline is written into.

A ``w:numId`` means something only inside its own package: the revised version's list 7 may not
exist in the base, or the base's list 7 may be a different list. A paragraph the redline inserts
(or re-numbers) must name a list of the *base*, or the engine refuses it (``missingNumbering``)
or, worse, it joins the wrong list. So each revised numId the redline needs is mapped:

- the base has the same numId showing the same levels (the usual case: both versions come from
  one document) → the same numId;
- otherwise the revised list's ``w:abstractNum`` and ``w:num`` are copied into the base's
  numbering part with fresh ids (the part, its relationship and content type are created when
  the base has none) through the edit engine's own :func:`~..edit.numbering_write.add_list_definition`,
  and every paragraph using the revised numId gets the new one, so a copied list keeps counting
  as one list.

A numId the revised version does not define maps to itself when the base does not define it
either (both dangle alike: no change to report) and to nothing otherwise.
"""

from __future__ import annotations

import copy
import random

from lxml import etree

from ..document import WordDocument
from ..edit.context import EditContext
from ..edit.numbering_write import add_list_definition
from ..edit.stamp import Stamper
from ..xmlutil import REL_NUMBERING, W

#: Children of an abstractNum that identify a list instance rather than define how it looks.
_IDENTITY = frozenset((W + "nsid", W + "tmpl", W + "name"))
#: Attributes Word rewrites on save without changing what a level shows.
_VOLATILE_ATTRS = (W + "tplc", "{http://schemas.microsoft.com/office/word/2012/wordml}tentative")


def _nums(root: etree._Element | None) -> dict[str, etree._Element]:
    if root is None:
        return {}
    return {el.get(W + "numId", ""): el for el in root.iterchildren(W + "num")}


def _abstracts(root: etree._Element | None) -> dict[str, etree._Element]:
    if root is None:
        return {}
    return {el.get(W + "abstractNumId", ""): el for el in root.iterchildren(W + "abstractNum")}


def _canonical(el: etree._Element) -> bytes:
    """``el`` serialized without the attributes Word rewrites on every save."""
    clean = copy.deepcopy(el)
    for node in clean.iter():
        for attr in _VOLATILE_ATTRS:
            node.attrib.pop(attr, None)
    return etree.tostring(clean, method="c14n")


class NumberingImport:
    """Maps the revised version's numIds to the base's, copying lists the base lacks (lazily)."""

    def __init__(self, base: WordDocument, revised: WordDocument) -> None:
        self.base = base
        self._revised_root = revised.part_root(REL_NUMBERING)
        self._revised_nums = _nums(self._revised_root)
        self._revised_abstracts = _abstracts(self._revised_root)
        self._mapped: dict[str, str | None] = {}
        self._ctx: EditContext | None = None
        #: numIds created in the base, in order (the redline's report and tests read them)
        self.copied: list[str] = []

    def _definition(self, num: etree._Element, abstracts: dict[str, etree._Element]) -> bytes | None:
        """What a list instance shows: its abstract's levels (identity children left out) and overrides."""
        pointer = num.find(W + "abstractNumId")
        abstract = abstracts.get(pointer.get(W + "val", "") if pointer is not None else "")
        if abstract is None:
            return None
        levels = b"".join(_canonical(child) for child in abstract if child.tag not in _IDENTITY)
        overrides = b"".join(_canonical(child) for child in num.iterchildren(W + "lvlOverride"))
        return levels + b"|" + overrides

    def base_num_id(self, revised_num_id: int | str) -> int | None:
        """The base numId showing the revised version's list ``revised_num_id`` (None: cannot)."""
        key = str(revised_num_id)
        if key not in self._mapped:
            self._mapped[key] = self._map(key)
        found = self._mapped[key]
        return int(found) if found is not None else None

    def _map(self, key: str) -> str | None:
        revised = self._revised_nums.get(key)
        wanted = self._definition(revised, self._revised_abstracts) if revised is not None else None
        if revised is None or wanted is None:  # the revised version does not define this list
            return key if not self.base.numbering.instance_defined(key) else None
        base_root = self.base.part_root(REL_NUMBERING)
        same = _nums(base_root).get(key)
        if same is not None and self._definition(same, _abstracts(base_root)) == wanted:
            return key
        return self._copy(revised)

    def _copy(self, revised_num: etree._Element) -> str | None:
        """Copy the revised list into the base with fresh ids; its new numId."""
        pointer = revised_num.find(W + "abstractNumId")
        abstract = self._revised_abstracts.get(pointer.get(W + "val", "") if pointer is not None else "")
        if abstract is None:
            return None
        abstract = copy.deepcopy(abstract)
        for picture in abstract.iter(W + "lvlPicBulletId"):
            picture.getparent().remove(picture)  # the picture is not copied: the level's text shows
        nsid = abstract.find(W + "nsid")
        if nsid is not None:  # a second list with the base's nsid would read as the same list to Word
            seed = random.Random(f"{len(self.copied)}-{nsid.get(W + 'val')}")
            nsid.set(W + "val", format(seed.randrange(1, 0xFFFFFFFF), "08X"))
        if self._ctx is None:
            doc = self.base
            self._ctx = EditContext(doc, doc.snapshot(), Stamper(doc, "compare"), tracked=False)
        new_id = add_list_definition(self._ctx, abstract, copy.deepcopy(revised_num))
        package = self.base.package
        for part in self._ctx.checkpoints.dirty_parts:
            if package.has_part(part):
                package.mark_dirty(part)
        self.base.reload_definitions()
        self.copied.append(new_id)
        return new_id
