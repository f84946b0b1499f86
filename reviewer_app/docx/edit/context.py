"""What one operation handler sees while it runs, and how its work is undone.

Handlers never copy whole parts: before touching an element they *checkpoint* it (a deep copy
of that element alone), so rolling back a refused operation, an atomic batch, a dry run or
the latest batch (undo) restores exactly what changed, fast, even in a 300-page contract.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from .. import journal
from ..blocks import Block
from ..document import WordDocument
from ..snapshot import Snapshot
from ..stories import find_story_block
from ..xmlutil import W
from .skips import Skip
from .stamp import Stamper

#: the roots of the parts holding the stories besides the main one
_STORY_ROOTS = frozenset(W + tag for tag in ("footnotes", "endnotes", "hdr", "ftr"))


@dataclass(slots=True)
class _Saved:
    element: etree._Element
    original: etree._Element | None  # deep copy to restore in place; None for created/removed
    parent: etree._Element | None = None
    index: int = 0
    created: bool = False
    clean_part: str | None = None  # a part that was unchanged before: clean again once restored


def _restore_in_place(element: etree._Element, original: etree._Element) -> None:
    """Give ``element`` back ``original``'s attributes and content, keeping its identity.

    Later operations of the batch (and the snapshot) hold references to paragraph elements;
    replacing the element would leave them pointing at a detached copy.
    """
    tail = element.tail
    element.clear()
    element.attrib.update(original.attrib)
    element.text = original.text
    element.tail = tail
    for child in list(original):
        element.append(child)


class Checkpoints:
    """What an operation (or a batch) changed, restorable in reverse order.

    Modified elements are deep-copied once; created elements are removed on restore; removed
    elements are put back where they were. Nothing larger than a touched element is copied.
    """

    def __init__(self) -> None:
        self._saved: list[_Saved] = []
        self._ids: set[int] = set()
        self.created_parts: list[str] = []
        self.dirty_parts: set[str] = set()

    def save(self, element: etree._Element, part: str | None = None, part_was_clean: bool = False) -> None:
        """Remember ``element``'s content as it is now (once per checkpoint span).

        ``part_was_clean`` says the part had no pending change, so restoring this element
        also restores the part's original bytes on save.
        """
        journal.touching(element)
        if id(element) in self._ids:
            return
        self._ids.add(id(element))
        self._saved.append(
            _Saved(element, copy.deepcopy(element), clean_part=part if part_was_clean else None)
        )

    def created(self, element: etree._Element) -> None:
        """``element`` is new: restoring removes it."""
        journal.created_inside(element)
        self._ids.add(id(element))
        self._saved.append(_Saved(element, None, created=True))

    def removed(self, element: etree._Element) -> None:
        """``element`` is about to be detached: restoring puts it back at the same place."""
        parent = element.getparent()
        if parent is None:
            return
        journal.touching(element)
        self._saved.append(_Saved(element, None, parent, parent.index(element)))

    def elements(self) -> list[etree._Element]:
        """Every element recorded, oldest first (the validator checks them)."""
        return [s.element for s in self._saved]

    def extend(self, other: Checkpoints) -> None:
        """Take over ``other``'s records (an operation's checkpoints joining its batch's)."""
        for saved in other._saved:
            if id(saved.element) not in self._ids or saved.original is None:
                self._ids.add(id(saved.element))
                self._saved.append(saved)
        self.created_parts.extend(other.created_parts)
        self.dirty_parts |= other.dirty_parts

    def restore(self, doc: WordDocument) -> None:
        """Undo every record, newest first, and drop parts that were created."""
        for saved in reversed(self._saved):
            if saved.created:
                parent = saved.element.getparent()
                if parent is not None:
                    parent.remove(saved.element)
            elif saved.original is None:
                if saved.element.getparent() is None and saved.parent is not None:
                    saved.parent.insert(saved.index, saved.element)
            else:
                _restore_in_place(saved.element, saved.original)
                if saved.clean_part is not None and doc.package.has_part(saved.clean_part):
                    doc.package.mark_clean(saved.clean_part)
        for name in reversed(self.created_parts):
            doc.package.remove_part(name)
        doc.package.invalidate_relationships()  # a restored .rels tree must be read afresh
        self._saved.clear()
        self._ids.clear()
        self.created_parts.clear()


@dataclass(slots=True)
class Outcome:
    """What a handler reports for an applied operation.

    ``comment_anchor`` is where the operation's optional ``comment`` goes: a paragraph and the
    first and last elements of the changed stretch (None, None = the whole paragraph).
    """

    affected: list[dict[str, Any]]
    comment_id: str | None = None
    revision_ids: list[str] = field(default_factory=list)
    comment_anchor: tuple[etree._Element, etree._Element | None, etree._Element | None] | None = None


@dataclass(slots=True)
class Edited:
    """A stretch of a block's text an earlier operation of this batch changed.

    ``orig_*`` are offsets in the text as the batch read it; ``live_*`` in the text as it reads
    now, after this batch's earlier operations.
    """

    orig_start: int
    orig_end: int
    live_start: int
    live_end: int
    operation_id: str
    whole_block: bool = False

    @property
    def delta(self) -> int:
        return (self.live_end - self.live_start) - (self.orig_end - self.orig_start)


class EditContext:
    """Shared state of one batch: the document, the snapshot as read, stamps and bookkeeping."""

    def __init__(self, doc: WordDocument, snapshot: Snapshot, stamper: Stamper, tracked: bool) -> None:
        self.doc = doc
        self.snapshot = snapshot
        self.stamper = stamper
        self.tracked = tracked
        self.checkpoints = Checkpoints()
        self.normalizations: list[dict[str, str]] = []
        self.edited: dict[str, list[Edited]] = {}
        self.structure_changed = False
        self.changed_paragraphs: list[etree._Element] = []
        self.operation_id = ""
        #: elements and parts restored by rollbacks (a refused operation, an atomic batch, a dry
        #: run): the engine decides from them whether the snapshot is still true
        self.rolled_back: list[etree._Element] = []
        self.rolled_back_parts: set[str] = set()

    def note_rollback(self, checkpoints: Checkpoints) -> None:
        """Remember what ``checkpoints`` is about to restore (call before restoring)."""
        self.rolled_back.extend(checkpoints.elements())
        self.rolled_back_parts |= checkpoints.dirty_parts | set(checkpoints.created_parts)

    # ------------------------------------------------------------ targets
    def block(self, block_id: str) -> Block:
        """The block ``block_id`` names in the snapshot the batch addresses.

        ``missingBlock`` when there is none; ``unsupportedBlock`` for a read-only diagnostic
        block (content Reviewer preserves but cannot edit).
        """
        block = self.snapshot.block(block_id)
        if block is None:
            found = find_story_block(self.doc, block_id)  # a paragraph of a note, header or footer
            block = found[2] if found is not None else None
        if block is None:
            raise Skip("missingBlock")
        if block.element is None:
            raise Skip("unsupportedBlock", "this is preserved content Reviewer cannot edit")
        return block

    # ------------------------------------------------------------ recording
    def touch(self, element: etree._Element, part: str | None = None) -> None:
        """Checkpoint ``element`` before changing it and mark its part dirty.

        An element of another story (a note, a header) needs its ``part`` named: a handler that
        does not name it cannot edit there, and is refused rather than leave the part unsaved. A
        document whose own root is that story's part (compare edits a note as a document) names it.
        """
        if part is None:
            root = element.getroottree().getroot()
            if root.tag in _STORY_ROOTS and root is not self.doc.root:
                raise Skip("unsupportedBlock", "this edit cannot be made in a note, header or footer")
        name = part or self.doc.main_part
        package = self.doc.package
        self.checkpoints.save(element, name, package.has_part(name) and not package.is_dirty(name))
        self.checkpoints.dirty_parts.add(name)

    def created(self, element: etree._Element, part: str | None = None) -> None:
        """Record a newly inserted element (blocks were added: the snapshot is rebuilt)."""
        self.checkpoints.created(element)
        self.checkpoints.dirty_parts.add(part or self.doc.main_part)
        self.structure_changed = True

    def removing(self, element: etree._Element, part: str | None = None) -> None:
        """Call before detaching ``element`` (direct-mode deletions)."""
        self.checkpoints.removed(element)
        self.checkpoints.dirty_parts.add(part or self.doc.main_part)
        self.structure_changed = True

    def text_changed(self, p: etree._Element) -> None:
        """A paragraph's text changed in place (structure intact)."""
        self.changed_paragraphs.append(p)

    def mark_structure_changed(self) -> None:
        """Blocks were added, removed, split, merged or re-styled: the snapshot must be rebuilt."""
        self.structure_changed = True

    def to_live(self, block_id: str, offset: int) -> int:
        """Map an offset in the text as read to the text as it is now."""
        return offset + sum(e.delta for e in self.edited.get(block_id, ()) if e.orig_end <= offset)

    def to_orig(self, block_id: str, offset: int) -> int:
        """Map an offset in the live text back to the text as read."""
        return offset - sum(e.delta for e in self.edited.get(block_id, ()) if e.live_end <= offset)

    def record_edit(self, block_id: str, live_start: int, live_old_end: int, live_new_end: int) -> None:
        """This operation replaced live ``[live_start, live_old_end)`` by text ending at ``live_new_end``."""
        edits = self.edited.setdefault(block_id, [])
        shift = live_new_end - live_old_end
        for edit in edits:
            if edit.live_start >= live_old_end:
                edit.live_start += shift
                edit.live_end += shift
        orig_start = self.to_orig(block_id, live_start)
        orig_end = orig_start + (live_old_end - live_start)
        edits.append(Edited(orig_start, orig_end, live_start, live_new_end, self.operation_id))

    def record_whole_block(self, block_id: str) -> None:
        """This operation consumed the whole block (deleted, rewrote, split or merged it)."""
        self.edited.setdefault(block_id, []).append(Edited(0, 0, 0, 0, self.operation_id, whole_block=True))

    def overlapping(self, block_id: str, start: int | None = None, end: int | None = None) -> Edited | None:
        """The earlier edit a target overlaps, live offsets (no range = the whole block)."""
        for edit in self.edited.get(block_id, ()):
            if edit.whole_block or start is None or end is None:
                return edit
            if start < edit.live_end and edit.live_start < end:
                return edit
            if start == end and edit.live_start < start < edit.live_end:
                return edit
        return None

    def normalize(self, path: str, message: str) -> None:
        """Record an apply-time normalization (reported after the parser's)."""
        self.normalizations.append({"path": path, "message": message})
