"""Snapshots: the block list plus per-block anchors (contract §2.1), kept current incrementally.

A full walk of a 300-page contract takes a few hundred milliseconds; re-reading it after every
one-word edit would make the agent and the page view wait. :class:`SnapshotCache` therefore
re-extracts only the paragraphs the edit engine reports as changed when the change leaves the
structure alone, and falls back to a full walk when ids, labels or note numbers could move.
"""

from __future__ import annotations

import json
import weakref
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


class Snapshot:
    """An immutable view of the main story: ``blocks`` in order and ``anchors`` by block id.

    Anchors need every block's hash; they are built on first access (opening and painting a
    document never asks for them), from this snapshot's own blocks, so a snapshot taken before
    an edit keeps describing the document as it was.
    """

    __slots__ = ("blocks", "_anchors", "_provider", "_memo")

    def __init__(
        self, blocks: list[Block], provider: Callable[[], dict[str, Anchor] | None] | None = None
    ) -> None:
        self.blocks = blocks
        self._anchors: dict[str, Anchor] | None = None
        self._provider = provider
        self._memo: dict[str, Any] = {}

    def memo(self, key: str, build: Callable[[Snapshot], Any]) -> Any:
        """A structure derived from this snapshot (a search index...), built once and kept.

        Safe because a snapshot never changes; an edit produces a new snapshot.
        """
        if key not in self._memo:
            self._memo[key] = build(self)
        return self._memo[key]

    @property
    def anchors(self) -> dict[str, Anchor]:
        if self._anchors is None:
            shared = self._provider() if self._provider is not None else None
            self._anchors = shared if shared is not None else build_anchors(self.blocks)
            self._provider = None
        return self._anchors

    def content_blocks(self) -> list[Block]:
        """Blocks the reading tools show: normalized text non-empty."""
        return [b for b in self.blocks if b.normalized]

    def agent_blocks(self) -> list[dict[str, Any]]:
        """Every content block as ``read_document`` shows it (fresh dicts over a per-snapshot list)."""
        views = self.memo("agent_blocks", lambda snap: [b.agent_view() for b in snap.content_blocks()])
        return [dict(view) for view in views]

    def index_of(self, block_id: str) -> int | None:
        """Position of ``block_id`` in :attr:`blocks` (None when absent).

        Uses a plain id map, not the anchors: finding a block must not hash every block.
        """
        positions = self.memo("positions", lambda snap: {b.id: i for i, b in enumerate(snap.blocks)})
        return positions.get(block_id)

    def block(self, block_id: str) -> Block | None:
        """The block with id ``block_id`` (None when absent)."""
        index = self.index_of(block_id)
        return None if index is None else self.blocks[index]

    def text_hash_of(self, block_id: str) -> str | None:
        """The anchor's ``textHash`` of one block (None when it has no anchor), hashing that block
        alone: stamping an operation's precondition must not hash the whole document."""
        block = self.block(block_id)
        return None if block is None or block.kind == "diagnostic" else block.text_hash

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


def build_anchors(blocks: list[Block]) -> dict[str, Anchor]:
    """Anchors of every non-diagnostic block, with hash occurrence counts over the snapshot."""
    counts: Counter[str] = Counter(b.text_hash for b in blocks if b.kind != "diagnostic")
    return {b.id: _anchor(b, i, counts) for i, b in enumerate(blocks) if b.kind != "diagnostic"}


def _shared_anchors(cache: weakref.ref[SnapshotCache], version: int) -> dict[str, Anchor] | None:
    """The cache's anchors for a snapshot of ``version``; None once the cache is gone."""
    live = cache()
    return None if live is None else live._anchors_copy(version)


class SnapshotCache:
    """Holds the current blocks (and, once asked for, anchors) of one document across edits."""

    def __init__(self, build: Callable[[], list[Block]]) -> None:
        self._build = build
        self._blocks: list[Block] | None = None
        self._anchors: dict[str, Anchor] | None = None
        self._counts: Counter[str] = Counter()
        self._ids_by_hash: dict[str, set[str]] = {}
        self._position: dict[etree._Element, int] = {}
        #: position of each block id, shared by the snapshots until the structure changes (a
        #: re-read paragraph keeps its id and place, so a keystroke need not map 10,000 ids again)
        self._index: dict[str, int] | None = None
        self._current: tuple[int, Snapshot] | None = None
        self.version = 0

    def snapshot(self) -> Snapshot:
        """The current snapshot: the same object until the next change, then a fresh one."""
        if self._current is not None and self._current[0] == self.version and self._blocks is not None:
            return self._current[1]
        if self._blocks is None:
            self._rebuild()
        assert self._blocks is not None
        version = self.version
        # held by its cache, the snapshot reaches back weakly; once the cache is gone it builds its
        # own anchors, as a snapshot of an older version does
        cache = weakref.ref(self)
        snapshot = Snapshot(list(self._blocks), lambda: _shared_anchors(cache, version))
        if self._index is None:
            self._index = {b.id: i for i, b in enumerate(self._blocks)}
        snapshot.memo("positions", lambda _snap: self._index)  # never changed: replaced on invalidate
        self._current = (version, snapshot)
        return snapshot

    def _anchors_copy(self, version: int) -> dict[str, Anchor] | None:
        """A copy of the maintained anchors if nothing changed since ``version`` (else None)."""
        if version != self.version or self._blocks is None:
            return None
        if self._anchors is None:
            self._anchors = build_anchors(self._blocks)
            self._counts = Counter(a.text_hash for a in self._anchors.values())
            self._ids_by_hash = {}
            for block_id, anchor in self._anchors.items():
                self._ids_by_hash.setdefault(anchor.text_hash, set()).add(block_id)
        return dict(self._anchors)

    def invalidate(self) -> None:
        """Drop everything: the next snapshot walks the whole story again."""
        self._blocks = None
        self._anchors = None
        self._index = None
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
                self.invalidate()
                return

    def _update_one(self, index: int) -> bool:
        assert self._blocks is not None
        old = self._blocks[index]
        if old.has_field_chars or old.element is None:
            return False
        fresh = paragraph_text(old.element, FieldState(), NoteNumbers(*old.notes_before))
        if fresh.has_field_chars:
            return False  # a field was added: its state runs across paragraphs
        if any(b["type"] == "noteReference" for b in fresh.boundaries) or any(
            b["type"] == "noteReference" for b in old.structural_boundaries
        ):
            return False
        normalized = hashing.normalize_text(fresh.text)
        if bool(normalized) != bool(old.normalized) or fresh.mark_deleted != old.mark_deleted:
            return False
        new = Block(**{name: getattr(old, name) for name in Block.__slots__})  # type: ignore[attr-defined]
        new.text = fresh.text
        new.normalized = normalized
        new.cached_hash = None
        new.cached_view = None
        new.structural_boundaries = fresh.boundaries
        new.mark_inserted = fresh.mark_inserted
        new.has_removed_text = fresh.has_removed_text
        self._blocks[index] = new
        if self._anchors is not None:
            self._update_anchor(old, new, index)
        return True

    def _update_anchor(self, old: Block, new: Block, index: int) -> None:
        """Keep maintained anchors current: the block's own and those sharing its old/new hash."""
        assert self._anchors is not None and self._blocks is not None
        self._counts[old.text_hash] -= 1
        self._counts[new.text_hash] += 1
        self._ids_by_hash[old.text_hash].discard(new.id)
        self._ids_by_hash.setdefault(new.text_hash, set()).add(new.id)
        self._anchors[new.id] = _anchor(new, index, self._counts)
        for block_id in self._ids_by_hash[old.text_hash] | self._ids_by_hash[new.text_hash]:
            start = self._anchors[block_id].start
            self._anchors[block_id] = _anchor(self._blocks[start], start, self._counts)

    def _rebuild(self) -> None:
        self._blocks = self._build()
        self._anchors = None
        self._index = None
        self._position = {b.element: i for i, b in enumerate(self._blocks) if b.element is not None}
