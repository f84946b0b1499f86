"""Stories of the two versions, how they pair up, and the edit engine's view of one story.

Stories pair by identity first (the same header/footer relationship id, the same note id), then
headers and footers left over pair by kind and order (contract §10): a document re-saved by
another tool often renumbers its relationship ids while keeping "the first header" the first.

The edit engine works on a :class:`~..document.WordDocument`'s main story. :class:`StoryDocument`
presents one header, footer or note as that main story (same package, its own part and container),
so a redline writes into every paired story with the engine's tested markup, one batch per story.

A text box (``w:txbxContent`` in a drawing or VML shape) is a story of its own: its paragraphs
are not the host paragraph's text. Boxes pair by their order in the document (``textBox`` with
its ``index``). A box drawn both as DrawingML (``mc:Choice``) and as its VML fallback
(``mc:Fallback``) is one box: it is read from the choice, and the fallback copy is kept in
:attr:`Story.twins` so a redline writes the same changes into both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from .. import xmlutil
from ..blocks import Block
from ..document import WordDocument
from ..snapshot import SnapshotCache
from ..stories import story_blocks, story_containers
from ..xmlutil import MC, W

_NOTE_PARTS = {"footnote": xmlutil.REL_FOOTNOTES, "endnote": xmlutil.REL_ENDNOTES}
_STORY_PARTS = ("header", "footer", "footnotes", "endnotes", "comments")
_BOX, _ALTERNATE, _CHOICE, _FALLBACK = (
    W + "txbxContent",
    MC + "AlternateContent",
    MC + "Choice",
    MC + "Fallback",
)


@dataclass(slots=True)
class Story:
    """One story of one version: its handle, the part holding it, its container and blocks."""

    handle: dict[str, Any]
    part: str
    container: etree._Element
    blocks: list[Block]
    #: the same text box's fallback copies (VML under ``mc:Fallback``), written like the box
    twins: list[etree._Element] = field(default_factory=list)


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
    boxes = [(story.part, box) for story in found for box in _boxes(story.container)]
    for index, (part, box) in enumerate(boxes, start=1):
        story = Story({"type": "textBox", "index": index}, part, box, story_blocks(doc, box))
        story.twins = _fallback_twins(box)
        found.append(story)
    return found


def _boxes(container: etree._Element) -> list[etree._Element]:
    """Text boxes drawn in ``container`` (boxes in boxes too), in document order, fallback
    copies left out."""
    return [box for box in container.iter(_BOX) if next(box.iterancestors(_FALLBACK), None) is None]


def _fallback_twins(box: etree._Element) -> list[etree._Element]:
    """The fallback copy of a box drawn in an ``mc:Choice``: the box at the same place among the
    fallback's boxes (same count on both sides, or none is taken)."""
    choice = next(box.iterancestors(_CHOICE), None)
    alternate = choice.getparent() if choice is not None else None
    if alternate is None or alternate.tag != _ALTERNATE:
        return []
    fallback = alternate.find(_FALLBACK)
    if fallback is None:
        return []
    ours = [b for b in choice.iter(_BOX) if next(b.iterancestors(_CHOICE)) is choice]
    theirs = [b for b in fallback.iter(_BOX) if next(b.iterancestors(_FALLBACK)) is fallback]
    return [theirs[ours.index(box)]] if len(ours) == len(theirs) else []


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
    if kind == "textBox":
        return kind, handle.get("index")
    return kind, None


def _text(story: Story) -> str:
    return "\n".join(b.normalized for b in story.blocks)


def pair_stories(base: list[Story], revised: list[Story]) -> list[tuple[Story | None, Story | None]]:
    """Pairs in base order, then stories only the revised version has.

    Notes with the same text first (a note added or removed before them renumbers them all);
    then identity; then unpaired headers with unpaired headers (and footers with footers) in
    document order.
    """
    by_identity = {_identity(s.handle): s for s in revised}
    partner: dict[int, Story] = {}
    taken: set[int] = set()
    waiting: dict[tuple[str, str], list[Story]] = {}
    for s in revised:
        if s.handle["type"] in _NOTE_PARTS and _text(s):
            waiting.setdefault((s.handle["type"], _text(s)), []).append(s)
    for s in base:
        queue = waiting.get((s.handle["type"], _text(s))) if s.handle["type"] in _NOTE_PARTS else None
        if queue:
            partner[id(s)] = queue.pop(0)
            taken.add(id(partner[id(s)]))
    for s in base:
        if id(s) in partner:
            continue
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
