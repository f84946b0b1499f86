"""The caret in a page's other stories: the footnotes at its foot, its header and its footer.

Each of these is a story of its own (footnotes.xml, header1.xml...), laid out as its own
document and drawn on the page (:mod:`.footnotes`, :mod:`.headers`). A caret in one is a
:class:`~.caret.Caret` like any other, whose block id names the story's paragraph qualified by
the story (:func:`~...docx.stories.story_block_id`, ``footnote-3/seq-0001``,
``header-rId8/seq-0001``): the body's lookups never take it for the body paragraph of the same
number, and typing addresses that paragraph of the story's part through the edit engine.

A :class:`StoryFrame` says where a band of such a document is drawn on a page; clicks are
hit-tested and the caret is drawn through the frames alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QLineF, QPointF, Qt
from PySide6.QtGui import QTextDocument

from ...docx.stories import split_story_block_id, story_block_id
from .caret import Caret, clean_length, document_line
from .caret_moves import line_bound
from .footnotes import piece_tops
from .headers import footer_top
from .qformats import TWIPS

if TYPE_CHECKING:  # pragma: no cover
    from .layout import Page, PagedLayout
    from .records import RenderedBlock

#: the stories a double click enters (Word edits a header or footer only after one)
HEADER_STORIES = frozenset(("header", "footer"))


@dataclass(frozen=True, slots=True)
class StoryFrame:
    """The band ``[top, bottom)`` of a story's document, drawn with its left edge and ``top`` at
    page point ``origin`` (LU)."""

    story: dict[str, Any]
    document: QTextDocument
    origin: QPointF
    top: float
    bottom: float

    def holds(self, point: QPointF) -> bool:
        """Whether page point ``point`` is level with the band."""
        return self.origin.y() <= point.y() < self.origin.y() + self.bottom - self.top


def note_frames(layout: PagedLayout, page: Page) -> list[StoryFrame]:
    """The footnote pieces drawn at ``page``'s foot."""
    foot = layout.notes.foot(page)
    if foot is None:
        return []
    props = layout.docs[page.doc_index].props
    left = (props.left + props.gutter) * TWIPS
    return [
        StoryFrame(piece.document.story, piece.document, QPointF(left, y), piece.top, piece.bottom)
        for piece, y in piece_tops(foot, page.height - props.bottom * TWIPS)
        if getattr(piece.document, "story", None) is not None
    ]


def header_frames(layout: PagedLayout, page: Page) -> list[StoryFrame]:
    """``page``'s header and footer, where the page painter draws them."""
    props = layout.sections[layout.section_of_page(page)[0]]
    left = (props.left + props.gutter) * TWIPS
    frames = []
    for kind in ("header", "footer"):
        rel_id, document = layout.headers.story(page, kind), layout.headers.document(page, kind)
        if rel_id is None or document is None:
            continue
        height = document.size().height()
        y = props.header * TWIPS if kind == "header" else footer_top(page.height, props.footer, document)
        story = {"type": kind, "relationshipId": rel_id}
        frames.append(StoryFrame(story, document, QPointF(left, y), 0.0, height))
    return frames


def _records(document: QTextDocument) -> list[RenderedBlock]:
    return getattr(document, "records", None) or []


def story_caret_at(frames: list[StoryFrame], point: QPointF) -> Caret | None:
    """The caret gap nearest page point ``point`` in the story drawn there; None off the frames."""
    for frame in frames:
        if not frame.holds(point):
            continue
        inside = QPointF(point.x() - frame.origin.x(), frame.top + point.y() - frame.origin.y())
        position = frame.document.documentLayout().hitTest(inside, Qt.HitTestAccuracy.FuzzyHit)
        record = next(
            (r for r in _records(frame.document) if r.block_id is not None and r.start <= position <= r.end),
            None,
        )
        if record is None or record.block_id is None:
            return None
        offset = min(record.clean_offset(position), clean_length(record))
        return Caret(story_block_id(frame.story, record.block_id), offset)
    return None


def _caret_records(frames: list[StoryFrame], caret: Caret) -> Iterator[tuple[StoryFrame, RenderedBlock]]:
    """Each of ``frames`` drawing the story paragraph ``caret`` stands in, with that paragraph."""
    split = split_story_block_id(caret.block_id)
    if split is None:
        return
    story, inner = split
    for frame in frames:
        if frame.story == story:
            record = next((r for r in _records(frame.document) if r.block_id == inner), None)
            if record is not None:
                yield frame, record


def story_step(frames: list[StoryFrame], caret: Caret, step: int) -> Caret | None:
    """One character left (``step`` -1) or right (+1) within the story paragraph ``caret`` stands
    in (None: not in ``frames``)."""
    for _frame, record in _caret_records(frames, caret):
        return Caret(caret.block_id, max(0, min(clean_length(record), caret.offset + step)))
    return None


def story_line_end(frames: list[StoryFrame], caret: Caret, end: bool) -> Caret | None:
    """The start (Home) or end (End) of the line on screen the caret stands on in a story
    paragraph (None: not in ``frames``)."""
    for frame, record in _caret_records(frames, caret):
        found = document_line(frame.document, record, caret.offset)
        if found is not None:
            position = line_bound(found[0], found[1], end)
            return Caret(caret.block_id, min(record.clean_offset(position), clean_length(record)))
    return None


def story_caret_line(frames: list[StoryFrame], caret: Caret) -> QLineF | None:
    """The caret's vertical line (page LU) when it stands in a story one of ``frames`` draws."""
    for frame, record in _caret_records(frames, caret):
        found = document_line(frame.document, record, caret.offset)
        if found is None:
            continue
        block, line, in_block = found
        origin = frame.document.documentLayout().blockBoundingRect(block)
        y = origin.y() + line.y()
        if not frame.top <= y + line.height() / 2 < frame.bottom:
            continue  # on the part of a note continued on another page
        x = frame.origin.x() + origin.x() + line.cursorToX(in_block)[0]
        y += frame.origin.y() - frame.top
        return QLineF(QPointF(x, y), QPointF(x, y + line.height()))
    return None


def story_of(block_id: str) -> str | None:
    """The kind of story (``footnote``, ``header``...) a block id names a paragraph of; None for the body."""
    split = split_story_block_id(block_id)
    return split[0]["type"] if split is not None else None
