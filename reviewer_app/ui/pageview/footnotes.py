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

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lxml import etree
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QPainter, QPen, QTextDocument

from ...docx.stories import story_blocks, story_containers
from ...docx.xmlutil import REL_FOOTNOTES, W
from .document_band import paint_document_band
from .headers import laid_out_height, story_document

if TYPE_CHECKING:  # pragma: no cover
    from ...docx.document import WordDocument
    from .records import BuildContext

#: Height of the band holding the rule above a page's notes (LU, 20 pt) when the footnotes part
#: has no separator note to lay out (see :meth:`NoteDocuments.rule_height`).
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
    #: height (LU) of the band holding the rule, above the pieces
    rule: float = SEPARATOR_LU
    #: the first piece continues a note from the page before (drawn under a full-width rule)
    continued: bool = False
    rest: list[NotePiece] = field(default_factory=list)

    @property
    def height(self) -> float:
        """Room the foot takes above the bottom margin (LU); 0 for an empty foot."""
        if not self.pieces:
            return 0.0
        return self.rule + sum(piece.height for piece in self.pieces)


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
        self._rules: dict[bool, float] = {}

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

    def rule_height(self, continued: bool, width: float) -> float:
        """Height (LU) of the band above a page's notes: its separator, or the continuation
        separator when the foot goes on with a note cut on the page before (``continued``).

        Word lays out the footnotes part's separator note like a paragraph whose only character
        is the rule, so its style (here its font size and spacing) sets the room the notes take
        from the body: an 11 pt Times New Roman separator takes a 12.65 pt line. A part without one gets
        :data:`SEPARATOR_LU`.
        """
        if continued not in self._rules:
            kind = "continuationSeparator" if continued else "separator"
            root = self.document.part_root(REL_FOOTNOTES)
            note = None
            if root is not None:
                note = next((n for n in root.iterchildren(W + "footnote") if n.get(W + "type") == kind), None)
            height = SEPARATOR_LU
            if note is not None:
                self._load()
                built = story_document(self.context, self._part_name, note, {}, width)
                height = laid_out_height(built)
            self._rules[continued] = height
        return self._rules[continued]

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


def _cuts(document: QTextDocument, top: float) -> Iterator[float]:
    """The line bottoms below ``top`` where ``document`` (a note) may be cut between two pages, in order.

    A paragraph with widow control (``w:widowControl``) is cut only where at least two of its
    lines stay above the cut and two go below it, as in Word and LibreOffice: such a note of
    two or three lines moves whole. A paragraph's end is always a cut.
    """
    doc_layout = document.documentLayout()
    guarded = {record.start for record in getattr(document, "records", ()) if record.orphan_control}
    block = document.begin()
    while block.isValid():
        rect = doc_layout.blockBoundingRect(block)
        text_layout = block.layout()
        count = text_layout.lineCount() if text_layout is not None else 0
        widows = block.position() in guarded
        shown = 0
        for i in range(count):
            line = text_layout.lineAt(i)
            bottom = rect.y() + line.y() + line.height()
            if bottom <= top:
                continue
            shown += 1
            if i == count - 1 or not widows or (shown >= 2 and count - i - 1 >= 2):
                yield bottom
        block = block.next()


def line_cut(document: QTextDocument, top: float, limit: float) -> float:
    """The lowest cut of ``document`` (see :func:`_cuts`) in ``(top, limit]``, or ``top`` when none fits.

    A note continued on the next page is cut between two of its lines, never through one.
    """
    best = top
    for bottom in _cuts(document, top):
        if bottom > limit:
            break
        best = bottom
    return best


def opening_height(piece: NotePiece) -> float:
    """Height (LU) of the least of ``piece`` that may start on a page (its first line, or two
    under widow control): what must fit at the foot of the page citing the note."""
    first = next(_cuts(piece.document, piece.top), piece.bottom)
    return min(piece.height, max(0.0, first - piece.top))


def claim(notes: list[NotePiece]) -> float:
    """Room (LU) ``notes``, cited in this order on one page, must have there: each whole but
    the last, and the last's opening (see :func:`opening_height`), which may go on overleaf."""
    if not notes:
        return 0.0
    return sum(piece.height for piece in notes[:-1]) + opening_height(notes[-1])


def fill_foot(carried: list[NotePiece], notes: list[NotePiece], room: float, rule: float) -> PageFoot:
    """The foot holding ``carried`` then ``notes`` in at most ``room`` LU, under a rule band
    ``rule`` LU high.

    As in Word and LibreOffice, a note continued from the page before comes first and takes
    what room it needs, save what the page's own notes claim (see :func:`claim`), so that every
    note starts on the page citing it; the own notes then fill what is left. What does not fit
    is cut at a line boundary and left, in order, in ``rest`` for the next page.
    """
    foot = PageFoot(rule=rule)
    space = room - rule
    own = min(max(0.0, space), claim(notes))
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
        painter, left, y + foot.rule / 2, width if foot.continued else min(SEPARATOR_LENGTH, width)
    )
    for piece, top in piece_tops(foot, base):
        painter.save()
        painter.translate(left, top)
        paint_document_band(painter, piece.document, piece.top, width, piece.height)
        painter.restore()


def piece_tops(foot: PageFoot, base: float) -> list[tuple[NotePiece, float]]:
    """Each piece of ``foot`` with the page y (LU) its band is drawn at, the foot ending at ``base``:
    where :func:`paint_foot` draws it, and so where a click or the caret meets the note's text."""
    y = base - foot.height + foot.rule
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
