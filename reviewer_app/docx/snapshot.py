"""Snapshots: the block list plus per-block anchors (contract §2.1), kept current incrementally.

A full walk of a 300-page contract takes a few hundred milliseconds; re-reading it after every
one-word edit would make the agent and the page view wait. :class:`SnapshotCache` therefore
re-extracts only the paragraphs the edit engine reports as changed when the change leaves the
structure alone, and falls back to a full walk when ids, labels or note numbers could move.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from lxml import etree

from . import hashing
from .blocks import Block
from .text import FieldState, NoteNumbers, paragraph_text


@dataclass(slots=True, frozen=True)
class Anchor:
    """Where a block sits and what it said, for staleness checks.

    ``start``/``end`` are the block's position in the snapshot's block sequence (``end`` =
    ``start + 1``): stable across text edits, which character offsets into the whole document
    would not be.
    """

    id: str
    start: int
    end: int
    text: str
    normalized_text: str
    text_hash: str
    hash_occurrence_count: int
    structural_boundary_hash: str | None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "from": self.start,
            "to": self.end,
            "text": self.text,
            "normalizedText": self.normalized_text,
            "textHash": self.text_hash,
            "hashOccurrenceCount": self.hash_occurrence_count,
        }
        if self.structural_boundary_hash is not None:
            out["structuralBoundaryHash"] = self.structural_boundary_hash
        return out


@dataclass(slots=True, frozen=True)
class Snapshot:
    """An immutable view of the main story: ``blocks`` in order and ``anchors`` by block id."""

    blocks: list[Block]
    anchors: dict[str, Anchor]

    def content_blocks(self) -> list[Block]:
        """Blocks the reading tools show: normalized text non-empty."""
        return [b for b in self.blocks if b.normalized]

    def index_of(self, block_id: str) -> int | None:
        """Position of ``block_id`` in :attr:`blocks` (None when absent)."""
        anchor = self.anchors.get(block_id)
        if anchor is not None:
            return anchor.start
        # diagnostic blocks have no anchor
        return next((i for i, b in enumerate(self.blocks) if b.id == block_id), None)

    def block(self, block_id: str) -> Block | None:
        """The block with id ``block_id`` (None when absent)."""
        index = self.index_of(block_id)
        return None if index is None else self.blocks[index]

    def to_dict(self) -> dict[str, Any]:
        return {
            "blocks": [b.to_dict() for b in self.blocks],
            "anchors": {k: a.to_dict() for k, a in self.anchors.items()},
        }


def _boundary_hash(block: Block) -> str | None:
    if not block.structural_boundaries:
        return None
    return hashing.text_hash(json.dumps(block.structural_boundaries, sort_keys=True, separators=(",", ":")))


def _anchor(block: Block, index: int, counts: Counter[str]) -> Anchor:
    return Anchor(
        id=block.id,
        start=index,
        end=index + 1,
        text=block.text,
        normalized_text=block.normalized,
        text_hash=block.text_hash,
        hash_occurrence_count=counts[block.text_hash],
        structural_boundary_hash=_boundary_hash(block),
    )


class SnapshotCache:
    """Holds the current blocks and anchors of one document and updates them after edits."""

    def __init__(self, build: Callable[[], list[Block]]) -> None:
        self._build = build
        self._blocks: list[Block] | None = None
        self._anchors: dict[str, Anchor] = {}
        self._counts: Counter[str] = Counter()
        self._position: dict[etree._Element, int] = {}
        self._ids_by_hash: dict[str, set[str]] = {}
        self.version = 0

    def snapshot(self) -> Snapshot:
        """The current snapshot (built on first use, then kept up to date)."""
        if self._blocks is None:
            self._rebuild()
        assert self._blocks is not None
        return Snapshot(list(self._blocks), dict(self._anchors))

    def invalidate(self) -> None:
        """Drop everything: the next snapshot walks the whole story again."""
        self._blocks = None
        self.version += 1

    def paragraphs_changed(self, paragraphs: Iterable[etree._Element]) -> None:
        """Re-read only ``paragraphs``, whose text (not structure or properties) changed.

        Falls back to a full rebuild when a paragraph is unknown, holds fields or note
        references (whose state runs across paragraphs), or turns blank/non-blank (which moves
        ``seq-``/``blank-`` ordinals).
        """
        self.version += 1
        if self._blocks is None:
            return
        for p in paragraphs:
            index = self._position.get(p)
            if index is None or not self._update_one(index):
                self._blocks = None
                return

    def _update_one(self, index: int) -> bool:
        assert self._blocks is not None
        old = self._blocks[index]
        if old.has_field_chars or old.element is None:
            return False
        fresh = paragraph_text(old.element, FieldState(), NoteNumbers(*old.notes_before))
        if any(b["type"] == "noteReference" for b in fresh.boundaries) or any(
            b["type"] == "noteReference" for b in old.structural_boundaries
        ):
            return False
        if old.element.find(".//{*}fldChar") is not None:
            return False  # a field was added: its state runs across paragraphs
        normalized = hashing.normalize_text(fresh.text)
        if bool(normalized) != bool(old.normalized) or fresh.mark_deleted != old.mark_deleted:
            return False
        new = Block(**{name: getattr(old, name) for name in Block.__slots__})  # type: ignore[attr-defined]
        new.text = fresh.text
        new.normalized = normalized
        new.text_hash = hashing.text_hash(normalized)
        new.structural_boundaries = fresh.boundaries
        new.mark_inserted = fresh.mark_inserted
        self._blocks[index] = new
        self._counts[old.text_hash] -= 1
        self._counts[new.text_hash] += 1
        self._ids_by_hash[old.text_hash].discard(new.id)
        self._ids_by_hash.setdefault(new.text_hash, set()).add(new.id)
        # blocks sharing the old or the new hash see their occurrence count change
        for block_id in self._ids_by_hash[old.text_hash] | self._ids_by_hash[new.text_hash]:
            start = self._anchors[block_id].start if block_id != new.id else index
            self._anchors[block_id] = _anchor(self._blocks[start], start, self._counts)
        return True

    def _rebuild(self) -> None:
        blocks = self._build()
        counts: Counter[str] = Counter(b.text_hash for b in blocks if b.kind != "diagnostic")
        anchors = {b.id: _anchor(b, i, counts) for i, b in enumerate(blocks) if b.kind != "diagnostic"}
        ids_by_hash: dict[str, set[str]] = {}
        for block_id, anchor in anchors.items():
            ids_by_hash.setdefault(anchor.text_hash, set()).add(block_id)
        self._blocks = blocks
        self._counts = counts
        self._anchors = anchors
        self._ids_by_hash = ids_by_hash
        self._position = {b.element: i for i, b in enumerate(blocks) if b.element is not None}
