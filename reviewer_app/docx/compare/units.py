"""What a paragraph holds besides its words: equations, pictures, other drawings, text boxes.

A block's text (and so its comparison key) is its words; an equation (``m:oMath``), a picture
or a shape sits in the paragraph as one object the words do not show. Each such object is a
*unit*: two paragraphs with the same words but another equation, or a picture replaced, added
or removed, differ. A picture is known by the bytes of its image part, not by its relationship
id (each package numbers those its own way). A text box's paragraphs are a story of their own
(:mod:`.stories`); here the box counts only as the object it is drawn in.

The redline writes words through the edit engine and units whole (:mod:`.unit_changes`); a unit
difference it cannot write (a drawing linked to a file outside the package, a unit of a moved
paragraph) is named by :func:`unit_report`,
with its place, for the redline's report (a difference left out must never be silent). A space
turned non-breaking, or a line break or tab added or removed, is a text change
(:func:`spaces_differ`): the comparison key reads all of them as one space.
"""

from __future__ import annotations

import hashlib
from typing import Any

from lxml import etree

from ..document import WordDocument
from ..vocabulary import DELETED
from ..xmlutil import MC, R, W
from .align import Event

M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_V = "{urn:schemas-microsoft-com:vml}"
_OBJECTS = frozenset((W + "drawing", W + "pict", W + "object"))
_SKIP = frozenset((W + "txbxContent", MC + "Fallback", W + "pPr", W + "rPr", W + "delText"))
#: How a unit reads in a report.
_NAMES = {"equation": "an equation", "picture": "a picture", "text box": "a text box", "drawing": "a drawing"}
_EXCERPT = 40
_SHOWN_SPACES = frozenset("\u00a0\u202f\n\t")


class UnitReader:
    """Reads the units of one version's paragraphs, knowing its package (for picture bytes)."""

    def __init__(self, doc: WordDocument, part: str) -> None:
        self.package = doc.package
        self.part = part
        self.relations = {rel.rel_id: rel for rel in doc.package.relationships(part)}
        self.targets = {rel_id: rel.target for rel_id, rel in self.relations.items() if not rel.external}
        self._hashes: dict[str, str] = {}

    def _picture(self, rel_id: str | None) -> str:
        target = self.targets.get(rel_id or "")
        if target is None or not self.package.has_part(target):
            return "picture"
        if target not in self._hashes:
            self._hashes[target] = hashlib.sha1(self.package.read_bytes(target)).hexdigest()[:12]
        return f"picture {self._hashes[target]}"

    def _object(self, el: etree._Element) -> str:
        if el.tag == M + "oMath":
            return "equation " + "".join(t.text or "" for t in el.iter(M + "t"))
        blip = next(el.iter(_A + "blip"), None)
        if blip is not None:
            return self._picture(blip.get(R + "embed"))
        image = next(el.iter(_V + "imagedata"), None)
        if image is not None:
            return self._picture(image.get(R + "id"))
        return "text box" if next(el.iter(W + "txbxContent"), None) is not None else "drawing"

    def units(self, p: etree._Element | None) -> list[str]:
        """The units of paragraph ``p`` in order (deleted ones left out: the accepted view)."""
        return [name for name, _ in self.found(p)]

    def found(self, p: etree._Element | None) -> list[tuple[str, etree._Element]]:
        """The units of paragraph ``p`` with their elements (``m:oMath``, ``w:drawing``, …)."""
        found: list[tuple[str, etree._Element]] = []
        if p is not None:
            self._collect(p, found)
        return found

    def _collect(self, el: etree._Element, found: list[tuple[str, etree._Element]]) -> None:
        for child in el:
            tag = child.tag
            if not isinstance(tag, str) or tag in _SKIP or tag in DELETED:
                continue
            if tag in _OBJECTS or tag == M + "oMath":
                found.append((self._object(child), child))
            else:
                self._collect(child, found)


def holds_object(p: etree._Element | None) -> bool:
    """Whether paragraph ``p`` holds an equation or a drawing: then it is not blank, words or not."""
    return p is not None and next(p.iter(*_OBJECTS, M + "oMath"), None) is not None


def _kind(unit: str) -> str:
    return unit.split(" ", 1)[0] if not unit.startswith("text box") else "text box"


def _space_places(text: str) -> list[tuple[int, str]]:
    """Where ``text`` has white space a reader sees as more than a space (a non-breaking space, a
    line break, a tab), with the number of words before each: what a normalized key hides."""
    if not any(ch in text for ch in _SHOWN_SPACES):
        return []
    places: list[tuple[int, str]] = []
    words, in_word = 0, False
    for ch in text:
        if ch in _SHOWN_SPACES:
            places.append((words, ch))
            in_word = False
        elif ch.isspace():
            in_word = False
        elif not in_word:
            words, in_word = words + 1, True
    return places


def spaces_differ(base: str, revised: str) -> bool:
    """Whether two texts of one comparison key differ in white space a reader sees: the key reads
    all white space as one space, but "art.\u00a012" is written so the number never starts a
    line, and a line break added inside a paragraph (or a blank line in it) is a new line."""
    return _space_places(base) != _space_places(revised)


def _excerpt(text: str) -> str:
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 1] + "…"


def _left_out(reason: str, story: dict[str, Any], b: Any, r: Any) -> dict[str, Any]:
    place = {"story": story}
    if b is not None:
        place["blockId"] = b.block.id
    if r is not None:
        place["revisedBlockId"] = r.block.id
    return {"reason": reason, "place": place}


def unit_report(
    events: list[Event], base: UnitReader, revised: UnitReader, story: dict[str, Any]
) -> list[dict[str, Any]]:
    """Differences of units the redline of this story did not write (``events``: those the unit
    writer handed back), each with its place: a paired paragraph whose units differ, an added
    paragraph holding units, a deleted paragraph's equation."""
    out: list[dict[str, Any]] = []
    for event in events:
        b, r = event.base, event.revised
        ours = base.units(b.block.element) if b is not None else []
        if r is None or r.block.element is None:
            if b is not None and any(_kind(u) == "equation" for u in ours):
                text = b.block.text.strip()
                which = f'the deleted paragraph "{_excerpt(text)}"' if text else "a deleted paragraph"
                reason = f"an equation in {which} is not marked"
                out.append(_left_out(reason, story, b, None))
            continue
        theirs = revised.units(r.block.element)
        if theirs == ours:
            continue
        kinds = {_kind(u) for u in theirs if u not in ours} | {_kind(u) for u in ours if u not in theirs}
        what = " and ".join(_NAMES[k] for k in sorted(kinds)) or "the order of its objects"
        if b is not None and b.block.text.strip():
            where = f'the paragraph "{_excerpt(b.block.text)}"'
        else:
            where = "a paragraph added" if b is None else "a paragraph with no words"
            before = _before(events, event)
            where += f' after "{_excerpt(before)}"' if before else " at the start"
        verb = "are" if len(kinds) > 1 else "is"
        out.append(_left_out(f"{what} changed in {where} {verb} not marked", story, b, r))
    return out


def _before(events: list[Event], event: Event) -> str:
    """The text of the last base paragraph before ``event`` (where an added paragraph goes)."""
    text = ""
    for other in events:
        if other is event:
            break
        if other.base is not None and other.base.block.text.strip():
            text = other.base.block.text
    return text
