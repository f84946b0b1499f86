"""Room for footnotes: body lines that would run into a page's notes move to the next page.

A section document has one page size and one bottom margin, so Qt fills every page down to the
margin. Once a stretch of pages is laid out, :meth:`NoteRoom.reserve` visits each page once, in
order: it takes the notes whose references sit on the page (and any note continued from the
page before), and finds the first line that would overlap them, counting only the notes of the
lines above it and itself, whole. A note may go on at the foot of the next page (as in Word and
LibreOffice) but starts on the page citing it: the line citing it needs only its opening (its
first line, two under widow control), and the text after it then goes to the next page. The
notes may fill the page but for its first line. The line that would overlap goes to the next
page, with its note: a whole paragraph gets a page break before it (keeping a keep-with-next
heading and a lone first line with it), a paragraph running on is split at that line with a
block separator whose second half starts a page; a table row gets its table moved when the
table starts on the page. Qt then lays out the rest again and the next page is visited.
Where the notes move nothing, the visit keeps widow control too: a paragraph's last line alone
at the top of the next page takes the line before it along (:meth:`NoteRoom._widow`), with the
same moves. Each page is settled once, so the work is bounded by the pages laid out.

Every move is recorded so that re-rendering a paragraph can undo the moves after it
(:meth:`NoteRoom.release`) and redo them for the new text (:meth:`NoteRoom.rewind`, then
:meth:`NoteRoom.reserve`). The room works on the layout's section documents alone (their
records, pages and margins), so the layout runs it as one step of placing a page.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QPainter, QTextBlock, QTextBlockFormat, QTextCursor, QTextFormat, QTextTable

from .footnotes import NoteDocuments, NotePiece, PageFoot, claim, fill_foot, paint_foot
from .pages import break_before, ending_page, joined, take_break_back
from .qformats import TWIPS
from .section_geometry import text_left, text_width

if TYPE_CHECKING:  # pragma: no cover
    from .pages import Page, SectionDoc

_ALWAYS_BEFORE = QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore
#: A line this close (LU) below where a page's text starts counts as that page's first line.
_AT_TOP = 30.0


@dataclass(slots=True)
class _Move:
    """One body move: a page break set on the block (or table) at ``position``, or a split there."""

    position: int
    kind: str  # "break" | "split" | "table"
    #: the block format the split block (or the broken block) had before
    before: QTextBlockFormat | None = None


@dataclass(slots=True)
class _DocNotes:
    """Per section document: pages settled, their feet, and the moves made for them."""

    checked: int = 0
    feet: dict[int, PageFoot] = field(default_factory=dict)
    moves: list[_Move] = field(default_factory=list)
    #: records looked at for footnote references so far, whether one had any (``cited``), and
    #: whether one had any or widow control (``noted``)
    scanned: int = 0
    cited: bool = False
    noted: bool = False


class NoteRoom:
    """Settles the footnotes of the pages of ``docs``, a layout's section documents (see the
    module docstring); ``documents`` lays out the notes themselves."""

    def __init__(self, docs: list[SectionDoc], documents: NoteDocuments) -> None:
        self.docs = docs
        self.documents = documents
        self._docs: list[_DocNotes] = []

    def _state(self, doc_index: int) -> _DocNotes:
        while len(self._docs) <= doc_index:
            self._docs.append(_DocNotes())
        return self._docs[doc_index]

    # ------------------------------------------------------------------ reading
    def settled(self, doc_index: int) -> int:
        """Pages of document ``doc_index`` whose lines no longer move for notes."""
        return self._state(doc_index).checked

    def foot(self, page: Page) -> PageFoot | None:
        """The footnotes ``page`` shows at its foot (None when it has none)."""
        if page.doc_index >= len(self._docs):
            return None
        return self._docs[page.doc_index].feet.get(page.index_in_doc)

    def paint(self, painter: QPainter, page: Page) -> None:
        """Paint ``page``'s footnotes above its bottom margin (page coordinates, LU)."""
        foot = self.foot(page)
        if foot is None:
            return
        props = self.docs[page.doc_index].props
        paint_foot(painter, foot, text_left(props), page.height - props.bottom * TWIPS, text_width(props))

    # ------------------------------------------------------------------ settling pages
    def reserve(self, doc_index: int, final: bool, until: int | None = None) -> list[int]:
        """Settle the laid-out pages of document ``doc_index`` not settled yet (those before
        page ``until``, when given).

        All its pages when ``final``, else all but the last (text may still be added to it).
        Returns the positions where block separators were inserted, in order, so that the
        caller can shift positions it holds.
        """
        state = self._state(doc_index)
        section_doc = self.docs[doc_index]
        inserted: list[int] = []
        count = section_doc.page_count()
        records = section_doc.records
        state.scanned = min(state.scanned, len(records))
        fresh = records[state.scanned :]
        state.cited = state.cited or any(record.notes for record in fresh)
        state.noted = state.noted or state.cited or any(record.orphan_control for record in fresh)
        state.scanned = len(records)
        if not state.noted and not self._carried(doc_index, state.checked):
            # no notes and no widow control: nothing moves
            state.checked = max(state.checked, count if final else count - 1)
            return inserted
        guard = 4 * count + 16
        while guard > 0:
            guard -= 1
            last = count if final else count - 1
            if state.checked >= (last if until is None else min(last, until)):
                break
            split = self._settle(doc_index, section_doc, state, state.checked)
            if split is not None:
                inserted.append(split)
            state.checked += 1
            count = section_doc.page_count()
        return inserted

    def _carried(self, doc_index: int, page: int) -> list[NotePiece]:
        if page > 0:
            foot = self._docs[doc_index].feet.get(page - 1)
        elif doc_index > 0 and doc_index - 1 < len(self._docs):
            before = self._docs[doc_index - 1]
            foot = before.feet.get(before.checked - 1)
        else:
            foot = None
        return list(foot.rest) if foot is not None else []

    def _refs(self, section_doc: SectionDoc, state: _DocNotes, page: int) -> list[tuple[int, str, str]]:
        """(position, note id, number) of the footnote references on ``page``, in order (none
        without asking Qt where the page starts, while no paragraph of the document has any)."""
        if not state.cited:
            return []
        height = section_doc.page_height
        doc_layout = section_doc.document.documentLayout()
        middle = section_doc.page_width / 2
        fuzzy = Qt.HitTestAccuracy.FuzzyHit
        first_position = max(0, doc_layout.hitTest(QPointF(middle, page * height + 1), fuzzy))
        next_position = doc_layout.hitTest(QPointF(middle, (page + 1) * height + 1), fuzzy)
        first = max(0, bisect.bisect_right(section_doc.starts, first_position) - 4)
        found = []
        for record in section_doc.records[first:]:
            if next_position > first_position and record.start > next_position:
                break
            for offset, note_id, label in record.notes:
                at = record.start + offset
                if section_doc.page_of(at) == page:
                    found.append((at, note_id, label))
        return found

    def _settle(self, doc_index: int, section_doc: SectionDoc, state: _DocNotes, page: int) -> int | None:
        """Give ``page`` its foot, moving the first overlapping line on; the split position if split."""
        state.feet.pop(page, None)
        carried = self._carried(doc_index, page)
        refs = self._refs(section_doc, state, page)
        if not refs and not carried:
            return self._widow(section_doc, state, page)
        props = section_doc.props
        width = text_width(props)
        height = section_doc.page_height
        page_top = page * height
        base = page_top + height - props.bottom * TWIPS
        notes = [(at, self.documents.piece(note_id, label, width)) for at, note_id, label in refs]
        carried_height = sum(piece.height for piece in carried)
        rule = self.documents.rule_height(bool(carried), width)
        total = rule + carried_height + sum(p.height for _at, p in notes if p is not None)
        split = None
        moves = len(state.moves)
        for block, index, top, bottom in _page_lines(section_doc, page, base - total - 1):
            line = block.layout().lineAt(index)
            start = block.position() + line.textStart()
            end = start + line.textLength()
            cited = [(at, p) for at, p in notes if p is not None and at < end]
            needed = rule + carried_height + sum(p.height for _at, p in cited)
            if cited and cited[-1][0] >= start:  # its own note may go on overleaf
                needed = rule + carried_height + claim([p for _at, p in cited])
            if bottom <= base - needed + 0.5:
                continue
            if top - page_top <= props.top * TWIPS + block.blockFormat().topMargin() + _AT_TOP:
                continue  # a page's first line stays, however tall its notes
            split = self._move(section_doc, state, block, index, page)
            break
        if len(state.moves) == moves:  # the notes moved nothing: the page may still end on a widow
            split = self._widow(section_doc, state, page)
        if len(state.moves) > moves:  # what moved took its references along
            refs = self._refs(section_doc, state, page)
            notes = [(at, self.documents.piece(note_id, label, width)) for at, note_id, label in refs]
        room = base - _last_bottom(section_doc, page)
        foot = fill_foot(carried, [p for _at, p in notes if p is not None], room, rule)
        if foot.pieces or foot.rest:
            state.feet[page] = foot
        return split

    def move_count(self, doc_index: int) -> int:
        """How many body moves the notes of document ``doc_index`` have made so far."""
        return len(self._state(doc_index).moves)

    def first_moved(self, doc_index: int, since: int) -> int | None:
        """Where the first of the moves after the first ``since`` of document ``doc_index`` is
        (None when there are none): text from there went to a later page."""
        return min((move.position for move in self._state(doc_index).moves[since:]), default=None)

    # ------------------------------------------------------------------ moving lines on
    def _move(
        self,
        section_doc: SectionDoc,
        state: _DocNotes,
        block: QTextBlock,
        index: int,
        page: int,
    ) -> int | None:
        """Move line ``index`` of ``block`` (and what follows) to the next page; the split position."""
        table = QTextCursor(block).currentTable()
        if table is not None:
            while isinstance(table.parentFrame(), QTextTable):
                table = table.parentFrame()
            first = table.firstCursorPosition().block()
            if _page_of_line(section_doc, first, 0) != page or _is_page_top(section_doc, first, page):
                return None  # a table running over from the page before stays as Qt laid it out
            fmt = table.format()
            fmt.setPageBreakPolicy(fmt.pageBreakPolicy() | _ALWAYS_BEFORE)
            table.setFormat(fmt)
            state.moves.append(_Move(table.firstPosition(), "table"))
            return None
        record = section_doc.record_at(block.position())
        lines = block.layout().lineCount()
        orphan = record is not None and record.orphan_control
        if orphan and index == lines - 1 and index >= 2:
            index -= 1  # widow control: the last line does not go alone
        if index == 0 or (orphan and index == 1):
            target = self._chain_start(section_doc, block, page)
            if _is_page_top(section_doc, target, page):
                target = block
            if not _is_page_top(section_doc, target, page):
                self._break_before(state, target)
                return None
        return self._split(section_doc, state, block, index) if index > 0 else None

    def _widow(self, section_doc: SectionDoc, state: _DocNotes, page: int) -> int | None:
        """Widow control: when the next page starts with the last line of a paragraph under it
        and the rest of it ends this page, the line before goes along (two lines to a page, as
        in Word and LibreOffice); a paragraph left with fewer than two lines here moves whole.
        The split position, if split."""
        height = section_doc.page_height
        first = next(_page_lines(section_doc, page + 1, (page + 1) * height), None)
        if first is None:
            return None
        block, index = first[0], first[1]
        record = section_doc.record_at(block.position())
        if (
            record is None
            or not record.orphan_control
            or index == 0
            or index != block.layout().lineCount() - 1
            or record.start != block.position()
            or section_doc.document.findBlock(record.end) != block  # one block holds it
            or QTextCursor(block).currentTable() is not None
        ):
            return None
        return self._move(section_doc, state, block, index - 1 if index >= 3 else 0, page)

    def _chain_start(self, section_doc: SectionDoc, block: QTextBlock, page: int) -> QTextBlock:
        """``block``, or the first of the keep-with-next paragraphs before it on the same page."""
        target = block
        while True:
            previous = target.previous()
            if not previous.isValid() or QTextCursor(previous).currentTable() is not None:
                return target
            record = section_doc.record_at(previous.position())
            if record is None or not record.keep_next or _page_of_line(section_doc, previous, 0) != page:
                return target
            target = section_doc.document.findBlock(record.start)

    def _break_before(self, state: _DocNotes, block: QTextBlock) -> None:
        state.moves.append(_Move(block.position(), "break", QTextBlockFormat(block.blockFormat())))
        break_before(block)

    def _split(self, section_doc: SectionDoc, state: _DocNotes, block: QTextBlock, index: int) -> int:
        fmt = block.blockFormat()
        position = block.position() + block.layout().lineAt(index).textStart()
        following = QTextBlockFormat(fmt)
        following.setTopMargin(0)
        following.setTextIndent(0)
        following.setPageBreakPolicy(fmt.pageBreakPolicy() | _ALWAYS_BEFORE)
        cursor = QTextCursor(section_doc.document)
        cursor.setPosition(position)
        char_format = block.charFormat()
        cursor.insertBlock(following, char_format)
        # Qt would add the first half's space after below the page break (whatever the second
        # half's top margin): the first half ends its page, so it has none; release restores it
        QTextCursor(block).setBlockFormat(ending_page(fmt))
        self._shift(section_doc, position, 1)
        state.moves.append(_Move(position, "split", QTextBlockFormat(fmt)))
        return position

    def _shift(self, section_doc: SectionDoc, position: int, delta: int) -> None:
        """Records after a separator inserted (``delta`` 1) or removed (-1) at ``position`` move."""
        record = section_doc.record_at(position)
        if record is not None and record.start < position:
            record.open_gap(position - record.start + (1 if delta < 0 else 0), delta)
        section_doc.shift_records(bisect.bisect_right(section_doc.starts, position), delta)

    # ------------------------------------------------------------------ after an edit
    def release(self, doc_index: int, position: int) -> None:
        """Undo the moves made at or after ``position`` (a paragraph there is about to be rebuilt)."""
        if doc_index >= len(self._docs):
            return
        state = self._docs[doc_index]
        section_doc = self.docs[doc_index]
        document = section_doc.document
        if not state.moves or state.moves[-1].position < position:
            return
        cursor = QTextCursor(document)
        cursor.beginEditBlock()
        while state.moves and state.moves[-1].position >= position:
            move = state.moves.pop()
            if move.kind == "split":
                second = document.findBlock(move.position + 1).blockFormat()
                cursor.setPosition(move.position)
                cursor.deleteChar()
                if move.before is not None:
                    cursor.setBlockFormat(joined(move.before, second))
                self._shift(section_doc, move.position, -1)
            elif move.kind == "break" and move.before is not None:
                take_break_back(document.findBlock(move.position), move.before.pageBreakPolicy())
            elif move.kind == "table":
                cursor.setPosition(move.position)
                table = cursor.currentTable()
                if table is not None:
                    fmt = table.format()
                    fmt.setPageBreakPolicy(fmt.pageBreakPolicy() & ~_ALWAYS_BEFORE)
                    table.setFormat(fmt)
        cursor.endEditBlock()

    def forget_after(self, doc_index: int, position: int) -> None:
        """The text from ``position`` on was removed (the flow was cut there): drop its moves."""
        if doc_index >= len(self._docs):
            return
        state = self._docs[doc_index]
        state.moves = [move for move in state.moves if move.position < position]
        count = self.docs[doc_index].page_count()
        state.checked = min(state.checked, count)
        state.feet = {page: foot for page, foot in state.feet.items() if page < count}

    def rewind(self, doc_index: int, position: int) -> None:
        """Count the pages from the one holding ``position`` as not settled (after a rebuild
        there); :meth:`reserve` settles them again."""
        state = self._state(doc_index)
        page = self.docs[doc_index].page_of(position)
        if page >= state.checked:
            return
        state.checked = page
        state.feet = {p: foot for p, foot in state.feet.items() if p < page}
        state.scanned = 0  # the rebuilt paragraph may cite a note the old one did not


def _page_lines(
    section_doc: SectionDoc, page: int, from_y: float
) -> Iterator[tuple[QTextBlock, int, float, float]]:
    """``(block, line index, top, bottom)`` of the lines whose middle is on ``page``, from ``from_y``."""
    document = section_doc.document
    doc_layout = document.documentLayout()
    bounds = doc_layout.blockBoundingRect  # looked up once: asked of block after block
    height = section_doc.page_height
    page_top, page_bottom = page * height, (page + 1) * height
    position = doc_layout.hitTest(QPointF(section_doc.page_width / 2, from_y), Qt.HitTestAccuracy.FuzzyHit)
    block = document.findBlock(max(0, position))
    while block.previous().isValid() and bounds(block).top() > from_y:
        block = block.previous()
    if block.previous().isValid():
        block = block.previous()
    while block.isValid():
        rect = bounds(block)
        if rect.top() > page_bottom:
            break
        text_layout = block.layout()
        for i in range(text_layout.lineCount() if text_layout is not None else 0):
            line = text_layout.lineAt(i)
            top = rect.y() + line.y()
            middle = top + line.height() / 2
            if page_top <= middle < page_bottom:
                yield block, i, top, top + line.height()
        block = block.next()


def _last_bottom(section_doc: SectionDoc, page: int) -> float:
    """Bottom of the page's last line (where its text starts when the page holds no line)."""
    height = section_doc.page_height
    bottom = page * height + section_doc.props.top * TWIPS
    # from the foot of the page up to the block there: the page's last lines are near it
    for from_y in ((page + 1) * height - section_doc.props.bottom * TWIPS - 1, page * height):
        found = [line_bottom for _block, _index, _top, line_bottom in _page_lines(section_doc, page, from_y)]
        if found:
            return max(bottom, max(found))
    return bottom


def _page_of_line(section_doc: SectionDoc, block: QTextBlock, index: int) -> int:
    text_layout = block.layout()
    rect = section_doc.document.documentLayout().blockBoundingRect(block)
    if text_layout is None or not text_layout.lineCount():
        return int(rect.y() // section_doc.page_height)
    line = text_layout.lineAt(index)
    return int((rect.y() + line.y() + line.height() / 2) // section_doc.page_height)


def _is_page_top(section_doc: SectionDoc, block: QTextBlock, page: int) -> bool:
    """True when ``block``'s first line is the first line of ``page`` (moving it would gain nothing)."""
    text_layout = block.layout()
    if text_layout is None or not text_layout.lineCount():
        return True
    rect = section_doc.document.documentLayout().blockBoundingRect(block)
    top = rect.y() + text_layout.lineAt(0).y() - page * section_doc.page_height
    return top <= section_doc.props.top * TWIPS + block.blockFormat().topMargin() + _AT_TOP
