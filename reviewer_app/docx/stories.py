"""Stories: the main body, headers, footers, footnotes and endnotes (contract §3, §4.4).

Every story is read with the same walker as the body, so tracked insertions, hyperlinks,
fields, content controls and tables in a footnote read exactly as they would in the body.
"""

from __future__ import annotations

from dataclasses import replace
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


#: the separator between a story's name and a block id in a paragraph of another story
_STORY_SEPARATOR = "/"


def story_block_id(handle: dict[str, Any], block_id: str) -> str:
    """The id of a paragraph of a non-main story, unlike every main-story id (which has no
    ``/``): ``footnote-3/seq-0001``, ``header-rId7/0A1B2C3D``. Each story numbers its own blocks
    from one, so a note's ``seq-0001`` must not be taken for the body's first paragraph."""
    key = handle.get("noteId", handle.get("relationshipId"))
    return f"{handle['type']}-{key}{_STORY_SEPARATOR}{block_id}"


def split_story_block_id(block_id: str) -> tuple[dict[str, Any], str] | None:
    """(story handle, the story's own block id) of a :func:`story_block_id`; None for a main-story id."""
    story, separator, inner = block_id.partition(_STORY_SEPARATOR)
    kind, _dash, key = story.partition("-")
    if not separator or not key or not inner:
        return None
    if kind in ("footnote", "endnote"):
        try:
            return {"type": kind, "noteId": int(key)}, inner
        except ValueError:
            return None
    return ({"type": kind, "relationshipId": key}, inner) if kind in ("header", "footer") else None


def story_part(doc: WordDocument, handle: dict[str, Any]) -> str | None:
    """The name of the part holding the story ``handle`` names."""
    kind = handle.get("type")
    if kind in ("footnote", "endnote"):
        return doc.part_name(xmlutil.REL_FOOTNOTES if kind == "footnote" else xmlutil.REL_ENDNOTES)
    for rel in doc.package.related_parts(doc.main_part, str(kind)):
        if rel.rel_id == handle.get("relationshipId"):
            return rel.target
    return None


def find_story_block(doc: WordDocument, block_id: str) -> tuple[dict[str, Any], str, Block] | None:
    """(handle, part name, block) of the paragraph of another story a :func:`story_block_id` names."""
    split = split_story_block_id(block_id)
    if split is None:
        return None
    handle, inner = split
    container, part = find_story_container(doc, handle), story_part(doc, handle)
    if container is None or part is None:
        return None
    found = next((b for b in story_blocks(doc, container) if b.id == inner), None)
    return (handle, part, replace(found, id=block_id)) if found is not None else None
