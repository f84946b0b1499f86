"""Stories: the main body, headers, footers, footnotes and endnotes (contract §3, §4.4).

Every story is read with the same walker as the body, so tracked insertions, hyperlinks,
fields, content controls and tables in a footnote read exactly as they would in the body.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from . import xmlutil
from .blocks import Block, BodyWalker
from .document import WordDocument
from .snapshot import Snapshot
from .xmlutil import W

#: Footnote/endnote types that are layout furniture, not notes a reader wrote.
_SEPARATOR_TYPES = frozenset(("separator", "continuationSeparator", "continuationNotice"))


def main_story_text(snapshot: Snapshot) -> str:
    """The main story as one line per content block: ``[id] (hN) text``, ``[id] label text``."""
    lines = []
    for block in snapshot.content_blocks():
        if block.kind == "heading":
            lines.append(f"[{block.id}] (h{block.heading_level}) {block.text}")
        elif block.kind == "listItem":
            lines.append(f"[{block.id}] {block.display_label or '•'} {block.text}")
        else:
            lines.append(f"[{block.id}] {block.text}")
    return "\n".join(lines)


def story_blocks(doc: WordDocument, container: etree._Element) -> list[Block]:
    """Blocks of a non-main story container (``w:hdr``, ``w:ftr``, ``w:footnote``...)."""
    return BodyWalker(doc.styles, doc.numbering).walk(container)


def _story_text(doc: WordDocument, container: etree._Element) -> str:
    return "\n".join(b.text for b in story_blocks(doc, container) if b.kind != "diagnostic")


def _notes(doc: WordDocument, rel_type: str, tag: str) -> list[tuple[int, etree._Element]]:
    root = doc.part_root(rel_type)
    if root is None:
        return []
    notes = []
    for note in root.iterchildren(W + tag):
        if note.get(W + "type") in _SEPARATOR_TYPES:
            continue
        try:
            notes.append((int(note.get(W + "id", "")), note))
        except ValueError:
            continue
    return notes


def story_containers(doc: WordDocument) -> list[tuple[dict[str, Any], etree._Element]]:
    """(handle, container) of every non-main story: headers, footers, footnotes, endnotes."""
    found: list[tuple[dict[str, Any], etree._Element]] = []
    for kind in ("header", "footer"):
        for rel in doc.package.related_parts(doc.main_part, kind):
            found.append(({"type": kind, "relationshipId": rel.rel_id}, doc.package.xml(rel.target)))
    for kind, rel_type, tag in (
        ("footnote", xmlutil.REL_FOOTNOTES, "footnote"),
        ("endnote", xmlutil.REL_ENDNOTES, "endnote"),
    ):
        for note_id, note in _notes(doc, rel_type, tag):
            found.append(({"type": kind, "noteId": note_id}, note))
    return found


def list_stories(doc: WordDocument) -> list[dict[str, Any]]:
    """Main story first, then headers, footers (relationship order), footnotes and endnotes."""
    stories: list[dict[str, Any]] = [{"handle": {"type": "main"}, "text": main_story_text(doc.snapshot())}]
    for handle, container in story_containers(doc):
        stories.append({"handle": handle, "text": _story_text(doc, container)})
    return stories


def find_story_container(doc: WordDocument, handle: dict[str, Any]) -> etree._Element | None:
    """The container element a non-main story handle names (None when it names nothing)."""
    for candidate, container in story_containers(doc):
        if candidate == handle:
            return container
    return None


def read_story(doc: WordDocument, handle: dict[str, Any]) -> dict[str, Any] | None:
    """The story a handle names, as ``{handle, text}``; None when there is no such story."""
    if handle.get("type") == "main":
        return {"handle": {"type": "main"}, "text": main_story_text(doc.snapshot())}
    container = find_story_container(doc, handle)
    if container is None:
        return None
    return {"handle": handle, "text": _story_text(doc, container)}
