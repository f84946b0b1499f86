"""Stories of the two versions, how they pair up, and the edit engine's view of one story.

Stories pair by identity first (the same header/footer relationship id, the same note id), then
headers and footers left over pair by kind and order (contract §10): a document re-saved by
another tool often renumbers its relationship ids while keeping "the first header" the first.

The edit engine works on a :class:`~..document.WordDocument`'s main story. :class:`StoryDocument`
presents one header, footer or note as that main story (same package, its own part and container),
so a redline writes into every paired story with the engine's tested markup, one batch per story.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lxml import etree

from .. import xmlutil
from ..blocks import Block
from ..document import WordDocument
from ..snapshot import SnapshotCache
from ..stories import story_blocks, story_containers

_NOTE_PARTS = {"footnote": xmlutil.REL_FOOTNOTES, "endnote": xmlutil.REL_ENDNOTES}
_STORY_PARTS = ("header", "footer", "footnotes", "endnotes", "comments")


@dataclass(slots=True)
class Story:
    """One story of one version: its handle, the part holding it, its container and blocks."""

    handle: dict[str, Any]
    part: str
    container: etree._Element
    blocks: list[Block]


def read_stories(doc: WordDocument) -> list[Story]:
    """The main story, then headers, footers, footnotes and endnotes (``list_stories`` order)."""
    found = [Story({"type": "main"}, doc.main_part, doc.body, doc.snapshot().blocks)]
    targets = {rel.rel_id: rel.target for rel in doc.package.relationships(doc.main_part)}
    for handle, container in story_containers(doc):
        kind = handle["type"]
        part = targets.get(handle.get("relationshipId", "")) if kind in ("header", "footer") else None
        if kind in _NOTE_PARTS:
            part = doc.part_name(_NOTE_PARTS[kind])
        if part is not None:
            found.append(Story(handle, part, container, story_blocks(doc, container)))
    return found


def story_roots(doc: WordDocument) -> list[tuple[str, etree._Element]]:
    """(part name, root) of the main part and of every header, footer, notes and comments part."""
    roots = [(doc.main_part, doc.root)]
    for rel in doc.package.relationships(doc.main_part):
        suffix = rel.rel_type.rsplit("/", 1)[-1]
        wanted = not rel.external and suffix in _STORY_PARTS and rel.target.endswith(".xml")
        if wanted and doc.package.has_part(rel.target) and all(rel.target != name for name, _ in roots):
            roots.append((rel.target, doc.package.xml(rel.target)))
    return roots


def _identity(handle: dict[str, Any]) -> tuple[str, Any]:
    kind = handle["type"]
    if kind in ("header", "footer"):
        return kind, handle.get("relationshipId")
    if kind in _NOTE_PARTS:
        return kind, handle.get("noteId")
    return kind, None


def pair_stories(base: list[Story], revised: list[Story]) -> list[tuple[Story | None, Story | None]]:
    """Pairs in base order, then stories only the revised version has.

    Identity first; then unpaired headers with unpaired headers (and footers with footers) in
    document order.
    """
    by_identity = {_identity(s.handle): s for s in revised}
    partner: dict[int, Story] = {}
    taken: set[int] = set()
    for s in base:
        other = by_identity.get(_identity(s.handle))
        if other is not None and id(other) not in taken:
            partner[id(s)] = other
            taken.add(id(other))
    for kind in ("header", "footer"):
        left_b = [s for s in base if s.handle["type"] == kind and id(s) not in partner]
        left_r = [s for s in revised if s.handle["type"] == kind and id(s) not in taken]
        for b, r in zip(left_b, left_r, strict=False):
            partner[id(b)] = r
            taken.add(id(r))
    pairs: list[tuple[Story | None, Story | None]] = [(s, partner.get(id(s))) for s in base]
    pairs.extend((None, s) for s in revised if id(s) not in taken)
    return pairs


class StoryDocument(WordDocument):
    """One header, footer or note presented to the edit engine as a document's main story.

    Shares the package, styles and numbering of the real document; ``main_part`` is the story's
    part (so checkpoints mark the right part dirty) and ``body`` its container.
    """

    def __init__(self, main: WordDocument, part: str, container: etree._Element) -> None:
        # WordDocument.__init__ would look for w:body in the main part; this story has its own
        self._main = main
        self.package = main.package
        self.main_part = part
        self.root = main.package.xml(part)
        self.body = container
        self.styles = main.styles
        self.numbering = main.numbering
        self._cache = SnapshotCache(self._walk)
        self.structure_changes = 0

    def part_root(self, rel_type: str) -> etree._Element | None:
        """Definitions (styles, numbering) are the document's, not the story part's."""
        return self._main.part_root(rel_type)

    def part_name(self, rel_type: str) -> str | None:
        return self._main.part_name(rel_type)

    def reload_definitions(self) -> None:
        self._main.reload_definitions()
        self.styles, self.numbering = self._main.styles, self._main.numbering
