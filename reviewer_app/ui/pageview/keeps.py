"""Word's page-break rules Qt does not know: keep with next, keep lines together, no orphan.

Qt breaks pages line by line. Word also moves a paragraph to the next page when it is marked
"keep with next" (``w:keepNext``, every heading) and the paragraph after it starts on the next
page, when it is marked "keep lines together" (``w:keepLines``) and its lines would fall on two
pages, or when widow/orphan control (``w:widowControl``) would leave its first line alone at the
foot of a page. :func:`apply_keeps` looks at each paragraph once, in order, and gives such a
paragraph a page break before it (for a chain of keep-with-next paragraphs, the first of the
chain), which Qt then honours. The layout calls it page by page, each page's paragraphs before
that page's footnotes are settled (see :mod:`.settling`), so the pages come out
the same however the writing is sliced. (Qt's own
``nonBreakableLines`` is no keepLines: it also stops the paragraph wrapping, so its text would
run off the page.)
"""

from __future__ import annotations

from itertools import chain, islice, takewhile
from typing import TYPE_CHECKING

from lxml import etree
from PySide6.QtGui import QTextCursor, QTextLayout, QTextTable

from ...docx.xmlutil import W
from .pages import break_before, line_top, take_break_back

if TYPE_CHECKING:  # pragma: no cover
    from .pages import SectionDoc
    from .records import RenderedBlock

#: Lines within this distance (LU) of the top margin count as "already at the top of a page".
_AT_TOP = 30.0


def _first_line(section_doc: SectionDoc, record: RenderedBlock) -> float | None:
    document = section_doc.document
    block = document.findBlock(record.start)
    return line_top(document.documentLayout(), block, 0) if block.isValid() else None


def _page(y: float, section_doc: SectionDoc) -> int:
    return int(y // section_doc.page_height)


def _at_page_top(y: float, section_doc: SectionDoc) -> bool:
    offset = y - _page(y, section_doc) * section_doc.page_height
    return offset <= section_doc.props.top * 0.5 + _AT_TOP


def _break_before(section_doc: SectionDoc, record: RenderedBlock) -> None:
    break_before(section_doc.document.findBlock(record.start))
    record.kept = True


def chain_start(records: list[RenderedBlock], i: int) -> int:
    """Index of the first record whose keep rules look at record ``i``: ``i`` itself or the
    first of the keep-with-next paragraphs right before it; for a paragraph in a table, those
    before the table (a lead-in kept with a table kept together looks at its end)."""
    table = _outer_table(records[i])
    while i > 0 and (
        records[i - 1].keep_next or (table is not None and _outer_table(records[i - 1]) is table)
    ):
        i -= 1
    return i


def _outer_table(record: RenderedBlock) -> etree._Element | None:
    """The outermost ``w:tbl`` holding ``record``'s paragraph (None outside tables)."""
    return _outer_place(record)[0]


def _outer_place(record: RenderedBlock) -> tuple[etree._Element | None, etree._Element | None]:
    """The outermost ``w:tbl`` holding ``record``'s paragraph and that table's child holding it
    (its row, at any depth of nested tables), in one walk up; (None, None) outside tables."""
    table = row = child = None
    element = record.element
    while element is not None:
        if element.tag == W + "tbl":
            table, row = element, child
        child, element = element, element.getparent()
    return table, row


def first_kept(section_doc: SectionDoc, first: int) -> tuple[RenderedBlock, float] | None:
    """The first of records ``first..`` a keep rule gave a page break, with the top of the last
    line before it (where the text before it ends); None when there is none."""
    document = section_doc.document
    doc_layout = document.documentLayout()
    for record in section_doc.records[first:]:
        if record.kept:
            block = document.findBlock(record.start).previous()
            while block.isValid():
                top = line_top(doc_layout, block, -1)
                if top is not None:
                    return record, top
                block = block.previous()
            return None
    return None


def still_kept(section_doc: SectionDoc, kept: tuple[RenderedBlock, float]) -> bool:
    """True when the text before a paragraph given a page break by a keep rule ends no higher
    than ``kept`` says it did, on the same page: the break stands, and so does every page after
    it. (Ending on a later page, that text takes the paragraph along to a page of its own.)"""
    found = first_kept(section_doc, section_doc.records.index(kept[0]))
    if found is None or found[0] is not kept[0]:
        return False
    return found[1] >= kept[1] - 0.5 and _page(found[1], section_doc) == _page(kept[1], section_doc)


def release_keeps(section_doc: SectionDoc, first: int, stop: int | None = None) -> None:
    """Take back the page breaks keep rules gave records ``first..`` (up to ``stop``, where the
    rules have not looked yet): text before them moved (a paragraph was rebuilt with other
    lines, or a footnote took a line on), so where they fall is to be judged again."""
    for record in section_doc.records[first:stop]:
        if record.kept:
            record.kept = False
            take_break_back(section_doc.document.findBlock(record.start))


def apply_keeps(
    section_doc: SectionDoc, first: int, through_page: int, final: bool, stop: int | None = None
) -> int:
    """Apply the keep rules to records ``first..`` (up to ``stop``) of the document that start
    on a page up to ``through_page``; returns the index of the first record still to be looked at.

    A record is looked at only once the record after it is written (keep-with-next needs
    where that one starts), or when ``final`` (nothing more comes). Qt re-lays the document
    out after each page break added.
    """
    records = section_doc.records
    end = len(records) if stop is None else min(stop, len(records))
    i = max(0, first)
    lines = _Lines(section_doc)
    while i < end and (final or i + 1 < len(records)):
        record = records[i]
        if record.keep_next or record.orphan_control or record.keep_lines:
            top = lines.first(record)
            if top is not None and _page(top, section_doc) > through_page:
                break
            target = _target(section_doc, records, i, lines) if top is not None else None
            if target is not None:
                start = top if target is record else lines.first(target)
                if start is not None and not _at_page_top(start, section_doc):
                    _break_before(section_doc, target)
                    lines.forget()  # the break moved the lines after it
        i += 1
    return i


class _Lines:
    """The first and last line tops of a section document's records, each read from Qt once
    while the keep rules are applied: a paragraph's first line is asked for as the paragraph
    after a keep-with-next one and again as the next paragraph judged. Forgotten after a page
    break moves the lines."""

    __slots__ = ("document", "doc_layout", "_find", "_rect", "_tops")

    def __init__(self, section_doc: SectionDoc) -> None:
        self.document = section_doc.document
        self.doc_layout = self.document.documentLayout()
        # asked for every paragraph: a Qt object's method costs a lookup each time it is named
        self._find, self._rect = self.document.findBlock, self.doc_layout.blockBoundingRect
        #: record start -> (its block's layout, the block's document y, its first line's top)
        self._tops: dict[int, tuple[QTextLayout, float, float] | None] = {}

    def forget(self) -> None:
        self._tops.clear()

    def block(self, record: RenderedBlock) -> tuple[QTextLayout, float, float] | None:
        """(text layout, document y, first line's top) of the block where ``record`` starts;
        None when it has no lines."""
        tops = self._tops
        if record.start in tops:
            return tops[record.start]
        block = self._find(record.start)
        found = None
        if block.isValid():
            text_layout = block.layout()
            if text_layout is not None and text_layout.lineCount():
                origin = self._rect(block).y()
                found = (text_layout, origin, origin + text_layout.lineAt(0).y())
        tops[record.start] = found
        return found

    def first(self, record: RenderedBlock) -> float | None:
        """Document y of ``record``'s first line (None when its block has no lines)."""
        found = self.block(record)
        return found[2] if found is not None else None

    def last(self, record: RenderedBlock) -> float | None:
        """Document y of ``record``'s last line (the last of the block where it ends)."""
        block = self._find(max(record.start, record.end))
        if not block.isValid():
            return None
        if block.position() == record.start:  # one block: its first line's block, read already
            found = self.block(record)
            if found is None:
                return None
            text_layout, origin, _top = found
            return origin + text_layout.lineAt(text_layout.lineCount() - 1).y()
        return line_top(self.doc_layout, block, -1)


def waits_on_page(section_doc: SectionDoc, i: int, page: int) -> bool:
    """True when record ``i``, the first the keep rules have still to look at, starts on a page
    up to ``page``: its keep rules wait for the record after it, so the notes and widows of that
    page must wait too (moved by them first, it would break where a whole layout does not)."""
    records = section_doc.records
    if i >= len(records):
        return False
    top = _first_line(section_doc, records[i])
    return top is not None and _page(top, section_doc) <= page


def _target(
    section_doc: SectionDoc, records: list[RenderedBlock], i: int, lines: _Lines
) -> RenderedBlock | None:
    """The paragraph a keep rule of record ``i`` moves to the next page (None: none moves)."""
    record = records[i]
    found = lines.block(record)
    if found is None:
        return None
    text_layout, origin, top = found
    if _at_page_top(top, section_doc):
        return None
    page = _page(top, section_doc)
    count = text_layout.lineCount()
    second = origin + text_layout.lineAt(1).y() if count > 1 else None
    if record.orphan_control and second is not None and _page(second, section_doc) > page:
        return record  # its first line alone at the foot of the page
    if record.keep_lines and second is not None:
        last = origin + text_layout.lineAt(count - 1).y()
        if _page(last, section_doc) > page:
            return record  # its lines on two pages
    if record.keep_next and i + 1 < len(records):
        following = records[i + 1]
        last = lines.last(record)
        after = _kept_table_end(section_doc, records, i)
        if after is None or last is None or _page(after, section_doc) > _page(last, section_doc) + 1:
            after = lines.first(following)  # no kept table, or one no page holds
        height = section_doc.page_height
        if after is not None and last is not None and int(after // height) > int(last // height):
            return _chain_start(section_doc, records, i)
    return None


def _kept_table_end(section_doc: SectionDoc, records: list[RenderedBlock], i: int) -> float | None:
    """The top of the last line of the table right after record ``i`` when that table is kept
    together (None otherwise): every paragraph of its rows but the last keeps with next, as a
    signature block does, whether it says so itself or its style (or the document defaults)
    does. Keeping with the next paragraph, record ``i`` then keeps with the whole table, as in
    Word and LibreOffice, which move the lead-in and the table to the next page rather than
    split them. (A table is written whole, so its end is known here.)"""
    element = records[i].element
    following = element.getnext() if element is not None else None
    if following is None or following.tag != W + "tbl":
        return None
    rows = following.findall(W + "tr")
    if len(rows) < 2:
        return None
    placed = ((record, *_outer_place(record)) for record in islice(records, i + 1, None))
    cells = takewhile(lambda place: place[1] is following, placed)  # walked only until one fails
    first = next(cells, None)
    if first is None or not all(
        record.cell_keep_next for record, _table, row in chain([first], cells) if row is not rows[-1]
    ):
        return None
    document = section_doc.document
    table = QTextCursor(document.findBlock(first[0].start)).currentTable()
    if table is None:
        return None
    while isinstance(table.parentFrame(), QTextTable):
        table = table.parentFrame()
    return line_top(document.documentLayout(), table.lastCursorPosition().block(), 0)


def _chain_start(section_doc: SectionDoc, records: list[RenderedBlock], i: int) -> RenderedBlock:
    """The first of the keep-with-next paragraphs ending at ``i`` that share its page."""
    page = _page(_first_line(section_doc, records[i]) or 0.0, section_doc)
    j = i
    while j > 0 and records[j - 1].keep_next:
        top = _first_line(section_doc, records[j - 1])
        if top is None or _page(top, section_doc) != page:
            break
        j -= 1
    return records[j]
