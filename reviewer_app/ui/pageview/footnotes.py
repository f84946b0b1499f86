"""Footnotes at the foot of their page: each note's own document, what a page's foot holds, painting.

Word (and LibreOffice) print a page's footnotes at its foot, above the bottom margin: a short
rule, then each note referenced on the page, its number and text in the footnote style. A note
too long for the room left is continued at the foot of the next page, under a rule as wide as
the text (Word's continuation separator). :mod:`.note_room` decides which notes each page holds
and moves body lines to the next page to make the room; this module builds the notes' documents
(once per note and width, with the body's builder, so a note reads and looks as Word shows it)
and fills and paints a page's foot.

A note is not body text: page text (``read_page``) stays the body's clean text, where the
reference reads ``[^N]``; the note's own text is its story (``list_stories`` / ``read_story``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lxml import etree
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QPainter, QPen, QTextDocument

from ...docx.stories import story_blocks, story_containers
from ...docx.xmlutil import REL_FOOTNOTES
from .document_band import paint_document_band
from .headers import story_document

if TYPE_CHECKING:  # pragma: no cover
    from ...docx.document import WordDocument
    from .records import BuildContext

#: Height of the band holding the rule above a page's notes (LU; a 10 pt line, about Word's).
SEPARATOR_LU = 200.0
#: Word's separator: a two-inch rule at the left of the text column.
SEPARATOR_LENGTH = 1440.0
_RULE = QColor("#000000")


@dataclass(slots=True, eq=False)
class NotePiece:
    """The band ``[top, bottom)`` of one note's document shown at the foot of a page (LU)."""

    document: QTextDocument
    top: float
    bottom: float

    @property
    def height(self) -> float:
        return self.bottom - self.top


@dataclass(slots=True, eq=False)
class PageFoot:
    """What one page's foot shows: the rule and note pieces; ``rest`` continues on the next page."""

    pieces: list[NotePiece] = field(default_factory=list)
    #: the first piece continues a note from the page before (drawn under a full-width rule)
    continued: bool = False
    rest: list[NotePiece] = field(default_factory=list)

    @property
    def height(self) -> float:
        """Room the foot takes above the bottom margin (LU); 0 for an empty foot."""
        if not self.pieces:
            return 0.0
        return SEPARATOR_LU + sum(piece.height for piece in self.pieces)


class NoteDocuments:
    """The footnotes part's notes laid out as documents, built the first time a page needs one
    (with the formats and markup of ``context``, the body's build context)."""

    def __init__(self, document: WordDocument, context: BuildContext) -> None:
        self.document = document
        self.context = context
        self._containers: dict[str, etree._Element] | None = None
        self._part_name = ""
        self._blocks: dict[etree._Element, object] = {}
        self._docs: dict[tuple[str, str, float], QTextDocument | None] = {}

    def _load(self) -> dict[str, etree._Element]:
        if self._containers is None:
            document = self.document
            self._containers = {
                str(handle["noteId"]): container
                for handle, container in story_containers(document)
                if handle["type"] == "footnote"
            }
            self._part_name = document.part_name(REL_FOOTNOTES) or ""
        return self._containers

    def piece(self, note_id: str, label: str, width: float) -> NotePiece | None:
        """The whole note ``note_id`` (numbered ``label``) laid out ``width`` wide; None when absent."""
        key = (note_id, label, width)
        if key not in self._docs:
            container = self._load().get(note_id)
            built = None
            if container is not None:
                for block in story_blocks(self.document, container):
                    if block.element is not None:
                        self._blocks[block.element] = block
                built = story_document(
                    self.context, self._part_name, container, self._blocks, width, None, label
                )
                built.story = {"type": "footnote", "noteId": int(note_id)}  # what a click in it edits
            self._docs[key] = built
        document = self._docs[key]
        if document is None:
            return None
        return NotePiece(document, 0.0, document.size().height())


def line_cut(document: QTextDocument, top: float, limit: float) -> float:
    """The lowest line bottom of ``document`` in ``(top, limit]``, or ``top`` when no line fits.

    A note continued on the next page is cut between two of its lines, never through one.
    """
    doc_layout = document.documentLayout()
    best = top
    block = document.begin()
    while block.isValid():
        rect = doc_layout.blockBoundingRect(block)
        if rect.top() > limit:
            break
        text_layout = block.layout()
        for i in range(text_layout.lineCount() if text_layout is not None else 0):
            line = text_layout.lineAt(i)
            bottom = rect.y() + line.y() + line.height()
            if bottom > limit:
                return best
            if bottom > top:
                best = bottom
        block = block.next()
    return best


def fill_foot(carried: list[NotePiece], notes: list[NotePiece], room: float) -> PageFoot:
    """The foot holding ``carried`` then ``notes`` in at most ``room`` LU (rule included).

    The page's own notes come first in claiming the room, so that a note is on the page citing
    it even when a long note continued from the page before would fill the foot; the
    continuation takes what they leave. What does not fit is cut at a line boundary and left,
    in order, in ``rest`` for the next page.
    """
    foot = PageFoot()
    space = room - SEPARATOR_LU
    own = min(max(0.0, space), sum(piece.height for piece in notes))
    space = _place(foot, carried, space - own) + own
    foot.continued = bool(foot.pieces)
    _place(foot, notes, space)
    return foot


def _place(foot: PageFoot, pieces: list[NotePiece], space: float) -> float:
    """Add ``pieces`` to ``foot`` while they fit in ``space``; returns the space left."""
    full = False
    for piece in pieces:
        if full:
            foot.rest.append(piece)
            continue
        if piece.height <= space + 0.5:
            foot.pieces.append(piece)
            space -= piece.height
            continue
        cut = line_cut(piece.document, piece.top, piece.top + max(0.0, space))
        if cut > piece.top:
            foot.pieces.append(NotePiece(piece.document, piece.top, cut))
        foot.rest.append(NotePiece(piece.document, cut, piece.bottom))
        space, full = 0.0, True
    return max(0.0, space)


def paint_foot(painter: QPainter, foot: PageFoot, left: float, base: float, width: float) -> None:
    """Paint ``foot`` so that it ends at ``base`` (the top of the bottom margin), text at ``left``."""
    if not foot.pieces:
        return
    y = base - foot.height
    paint_separator(
        painter, left, y + SEPARATOR_LU / 2, width if foot.continued else min(SEPARATOR_LENGTH, width)
    )
    for piece, top in piece_tops(foot, base):
        painter.save()
        painter.translate(left, top)
        paint_document_band(painter, piece.document, piece.top, width, piece.height)
        painter.restore()


def piece_tops(foot: PageFoot, base: float) -> list[tuple[NotePiece, float]]:
    """Each piece of ``foot`` with the page y (LU) its band is drawn at, the foot ending at ``base``:
    where :func:`paint_foot` draws it, and so where a click or the caret meets the note's text."""
    y = base - foot.height + SEPARATOR_LU
    placed = []
    for piece in foot.pieces:
        placed.append((piece, y))
        y += piece.height
    return placed


def paint_separator(painter: QPainter, left: float, y: float, length: float) -> None:
    """The rule Word draws above notes (footnotes at a page's foot, endnotes at the end)."""
    pen = QPen(_RULE)
    pen.setWidthF(5.0)
    painter.save()
    painter.setPen(pen)
    painter.drawLine(QPointF(left, y), QPointF(left + length, y))
    painter.restore()
