"""Section documents and pages: what a paged layout is made of, and the helpers it shares.

A :class:`SectionDoc` is one QTextDocument with one page geometry; a :class:`Page` is one band
of it; a :class:`PageSequence` is the finished pages of a layout, in order, with the number and
the section each shows. The page index, the headers, the painter and the view address pages
through these, so none of them needs the layout that writes the documents.
"""

from __future__ import annotations

import bisect
import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from lxml import etree
from PySide6.QtGui import QTextBlock, QTextBlockFormat, QTextCursor, QTextDocument, QTextFormat

from ...docx.numformats import format_number
from ...docx.sections import SectionProps
from ...docx.xmlutil import W
from .qformats import TWIPS
from .records import MODES, RenderedBlock

_PPR, _SECT = W + "pPr", W + "sectPr"
#: Markup-mode names the view accepts besides the canonical ``all``/``none``/``original``.
MODE_ALIASES = {
    "all": "all",
    "all markup": "all",
    "simple": "all",
    "none": "none",
    "no markup": "none",
    "accepted": "none",
    "original": "original",
    "rejected": "original",
}


def normalize_mode(mode: str) -> str:
    """``"All markup"`` → ``all``; raises ValueError for an unknown mode."""
    key = mode.strip().lower()
    if key not in MODE_ALIASES:
        raise ValueError(f"unknown markup mode {mode!r}; expected one of {', '.join(MODES)}")
    return MODE_ALIASES[key]


@dataclass(slots=True, eq=False)
class SectionDoc:
    """One QTextDocument and the sections laid out in it (``(position, section index)`` in order)."""

    document: QTextDocument
    props: SectionProps
    cursor: QTextCursor
    sections: list[tuple[int, int]] = field(default_factory=list)
    records: list[RenderedBlock] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    #: the section this document continues from the one before (a split at a page top), if any
    carried: int | None = None
    #: first positions of middle- or bottom-aligned cells not yet checked for a split row
    aligned_cells: list[int] = field(default_factory=list)
    #: anchored drawings (see :mod:`.floating`) with the document position of their anchor
    floats: list[tuple[int, Any]] = field(default_factory=list)
    #: cursors at the paragraphs that start in a page's top margin (see :meth:`lines_below_margin`)
    margin_starts: list[QTextCursor] = field(default_factory=list)
    #: (document revision, page count): counting walks Qt's layout, so it is done once per edit
    _counted: tuple[int, int] | None = None

    @property
    def page_width(self) -> float:
        return self.props.width * TWIPS

    @property
    def page_height(self) -> float:
        return self.props.height * TWIPS

    def page_count(self) -> int:
        """Pages holding laid-out content (forces Qt to finish laying out what has been written).

        Counted from the last line rather than Qt's document height, which also holds the last
        paragraph's space after and the bottom margin: a document ending at the foot of a page
        would otherwise get an empty page more than the same content in one flow.
        """
        revision = self.document.revision()
        if self._counted is not None and self._counted[0] == revision:
            return self._counted[1]
        count = self._count_pages()
        self._counted = (revision, count)
        return count

    def _count_pages(self) -> int:
        qt_pages = max(1, self.document.pageCount())
        block = self.document.lastBlock()
        doc_layout = self.document.documentLayout()
        while block.isValid():
            text_layout = block.layout()
            if text_layout is not None and text_layout.lineCount():
                line = text_layout.lineAt(text_layout.lineCount() - 1)
                rect = doc_layout.blockBoundingRect(block)
                bottom = rect.y() + line.y() + line.height()
                return max(1, min(qt_pages, int((bottom - 1) // self.page_height) + 1))
            block = block.previous()
        return qt_pages

    def lines_below_margin(self, written_from: int | None = None) -> None:
        """Note the paragraphs written from position ``written_from`` on that start in a page's
        top margin, and have Qt lay out again, from the paragraph before it, any such paragraph
        whose first line it left there.

        Qt checks whether a line fits its page by the line's own height but moves on by its
        spaced height (a tall inline picture in a paragraph with 1.5 line spacing), so such a
        line can run past the page's foot and the next paragraph starts in the next page's top
        margin. Laid out in one pass, that paragraph's first line is found below the page's
        bottom and moved to the next page's text top. But Qt notes where it is every 2000 LU or
        so, at a paragraph's start, and lays what is written later (or follows a page break)
        out again from the last note before it, counting the page from that note's height: from
        a note at that paragraph, the page is already the next one and the line stays in the
        margin. Whether a slice ended there decided it, so the window's small slices and the
        PDF's large ones broke the pages differently (dxo_WC-BodyBookmarks-Before, page 214).
        """
        document = self.document
        doc_layout = document.documentLayout()
        root = document.rootFrame()
        # asked of every paragraph written: the methods are looked up once
        rect, frame_at = doc_layout.blockBoundingRect, document.frameAt
        block = document.findBlock(written_from) if written_from is not None else QTextBlock()
        while block.isValid():
            frame = frame_at(block.position())
            if frame is not root:
                # only the body's own paragraphs count: a table's are passed over whole, unread
                block = document.findBlock(frame.lastPosition() + 1)
                continue
            if self._in_top_margin(rect(block).y()) and all(
                cursor.position() != block.position() for cursor in self.margin_starts
            ):
                cursor = QTextCursor(block)
                cursor.setKeepPositionOnInsert(True)  # an empty last paragraph: the next is written there
                self.margin_starts.append(cursor)
            block = block.next()
        left = [
            block.previous().position()
            for block in (cursor.block() for cursor in self.margin_starts)
            if block.previous().isValid()
            and (top := line_top(doc_layout, block, 0)) is not None
            and self._in_top_margin(top)
        ]
        if left:  # one re-layout, from the first: it reaches the others
            start = min(left)
            document.markContentsDirty(start, document.characterCount() - start)
            self._counted = None

    def _in_top_margin(self, y: float) -> bool:
        """True when document y ``y`` lies in the top margin of a page after the first."""
        height = self.page_height
        return y >= height and y % height < self.props.top * TWIPS - 0.5

    def record_at(self, position: int) -> RenderedBlock | None:
        """The rendered paragraph whose range holds ``position``."""
        i = bisect.bisect_right(self.starts, position) - 1
        if i < 0:
            return None
        record = self.records[i]
        return record if record.start <= position <= record.end else None

    def shift_records(self, first: int, delta: int) -> None:
        """Records ``first..`` moved by ``delta`` characters (text before them grew or shrank)."""
        starts, records = self.starts, self.records
        for j in range(first, len(records)):
            later = records[j]
            later.start += delta
            later.end += delta
            starts[j] += delta

    def page_of(self, position: int) -> int:
        """Page (within this document) of the line holding ``position``."""
        block = self.document.findBlock(position)
        if not block.isValid():
            return 0
        rect = self.document.documentLayout().blockBoundingRect(block)
        text_layout = block.layout()
        y = rect.y()
        if text_layout is not None and text_layout.lineCount():
            line = text_layout.lineForTextPosition(max(0, position - block.position()))
            if line.isValid():
                y = rect.y() + line.y() + line.height() / 2
        return max(0, int(y // self.page_height))


@dataclass(slots=True)
class SplitMark:
    """Where a paragraph item of the current slice starts, to cut the flow there (see ``cut_at_page_top``)."""

    item: int
    position: int
    records: int
    doc_records: int
    state: tuple[list[bool], set[str], list[list[Any]]]
    prev_style: str | None
    #: the section the paragraph is in (the writer counts sections again from there)
    section: int


#: A document is split only once it has this many pages (and at a page top after them) ...
SPLIT_PAGES = 10
#: ... and only when it is long enough for Qt's re-layouts to matter.
SPLIT_MIN_CHARS = 20000


@dataclass(frozen=True, slots=True)
class Page:
    """Page ``number`` (0-based, global): which document band it is and its size in LU."""

    number: int
    doc_index: int
    index_in_doc: int
    width: float
    height: float

    @property
    def top(self) -> float:
        """Where this page's band starts in its section document (LU)."""
        return self.index_in_doc * self.height


class PageSequence:
    """The pages of a layout's section documents, in order, as far as they are laid out.

    The layout appends to ``docs`` and calls :meth:`changed` after writing or editing; readers
    (the page index, headers and footers, the view) get pages, page numbers and the section a
    page shows from here. ``done`` is set once the last document is laid out to its end.
    """

    def __init__(self, docs: list[SectionDoc], sections: list[SectionProps]) -> None:
        self.docs = docs
        self.sections = sections
        self.done = False
        self._pages: list[Page] | None = None
        self._numbers: list[str] | None = None

    def changed(self) -> None:
        """The documents were written to or edited: pages are counted again when next asked."""
        self._pages = None
        self._numbers = None

    def final(self, doc_index: int) -> bool:
        """Whether document ``doc_index`` is laid out to its end (nothing more is written to it)."""
        return self.done or doc_index < len(self.docs) - 1

    def pages(self) -> list[Page]:
        """Every page laid out so far, in order."""
        if self._pages is None:
            pages: list[Page] = []
            for doc_index, section_doc in enumerate(self.docs):
                for i in range(section_doc.page_count()):
                    pages.append(
                        Page(len(pages), doc_index, i, section_doc.page_width, section_doc.page_height)
                    )
            self._pages = pages
        return self._pages

    def page_count(self) -> int:
        """Pages laid out so far (the final count once :attr:`done`)."""
        return len(self.pages())

    def first_page_of_doc(self, doc_index: int) -> int:
        """Global number of the first page of section document ``doc_index``."""
        return sum(d.page_count() for d in self.docs[:doc_index])

    def section_of_page(self, page: Page) -> tuple[int, bool]:
        """(section index, is the section's first page) for ``page``: which headers it shows."""
        section_doc = self.docs[page.doc_index]
        if section_doc.carried is not None:
            found, first = section_doc.carried, False
        else:
            found, first = section_doc.sections[0][1] if section_doc.sections else 0, page.index_in_doc == 0
        for position, section in section_doc.sections:
            start_page = section_doc.page_of(position)
            if self.sections[section].kind == "continuous" and start_page > 0:
                start_page += 1
            if start_page <= page.index_in_doc:
                found, first = section, start_page == page.index_in_doc
        return found, first

    def page_numbers(self) -> list[str]:
        """The number each page shows in a PAGE field (section restarts and formats applied)."""
        if self._numbers is None:
            numbers: list[str] = []
            value = 0
            for page in self.pages():
                section, first = self.section_of_page(page)
                props = self.sections[section]
                value = props.page_start if first and props.page_start is not None else value + 1
                numbers.append(format_number(value, props.page_format) if props.page_format else str(value))
            self._numbers = numbers
        return self._numbers


def line_top(doc_layout: Any, block: Any, index: int) -> float | None:
    """Document y of a block's first (``0``) or last (``-1``) line."""
    text_layout = block.layout()
    count = text_layout.lineCount() if text_layout is not None else 0
    if not count:
        return None
    rect = doc_layout.blockBoundingRect(block)
    line = text_layout.lineAt(0 if index == 0 else count - 1)
    return rect.y() + line.y()


_held: list[tuple[int, int, int]] = []


def hold_full_collections(hold: bool) -> None:
    """Hold back Python's full (generation 2) collections while layouts are being built.

    A full collection walks every object of a large open document and pauses for ~100 ms,
    long enough to freeze the window between two layout slices; young collections still run.
    Nested holds (two layouts at once) restore the thresholds when the last one ends.

    When the last hold ends, what exists then is frozen (``gc.freeze``): the document and its
    layout live as long as the document is shown, and the full collection the hold put off would
    otherwise run at once and walk all of them (90-120 ms on a 300-page contract, the longest
    freeze of the window's layout). Frozen objects are still freed by reference counting;
    :func:`collect_frozen` gives the rest back to the collector when a document is opened.
    """
    if hold:
        if not _held:
            threshold = gc.get_threshold()
            gc.set_threshold(threshold[0], threshold[1], 1_000_000)
            _held.append(threshold)
        else:
            _held.append(_held[-1])
    elif _held:
        threshold = _held.pop()
        if not _held:
            gc.freeze()
            gc.set_threshold(*threshold)


def collect_frozen() -> None:
    """Give what :func:`hold_full_collections` froze back to Python's collector and collect it.

    Called when a document is opened or closed: the last document's reference cycles go then,
    while the user waits for the open, rather than staying frozen while the next one is shown.
    With nothing frozen (no layout finished since) there is nothing to collect ahead of time.
    """
    if gc.get_freeze_count():
        gc.unfreeze()
        gc.collect()


_ALWAYS_BEFORE = QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore
#: block-format property holding a paragraph's space after (LU) while :func:`break_before`
#: has dropped it
_DROPPED_AFTER = QTextFormat.Property.UserProperty + 1


@contextmanager
def _one_layout(block: QTextBlock) -> Iterator[None]:
    """The formats set inside go in as one edit, so Qt lays out what follows ``block`` once, not
    once per format: a break sets two (the block's, and the space after of the one before)."""
    cursor = QTextCursor(block)
    cursor.beginEditBlock()
    try:
        yield
    finally:
        cursor.endEditBlock()


def break_before(block: QTextBlock) -> None:
    """Start a page at ``block``, as a keep rule or a footnote moving it on does.

    The paragraph before it then ends its page, so its space after goes too: Qt would put that
    space at the top of the new page, below the top margin, where Word and LibreOffice start
    the paragraph at the margin. :func:`take_break_back` gives the space back.
    """
    with _one_layout(block):
        fmt = block.blockFormat()
        fmt.setPageBreakPolicy(fmt.pageBreakPolicy() | _ALWAYS_BEFORE)
        QTextCursor(block).setBlockFormat(fmt)
        previous = block.previous()
        if not previous.isValid() or QTextCursor(previous).currentTable() is not None:
            return
        ending = previous.blockFormat()
        if ending.hasProperty(_DROPPED_AFTER) or not ending.bottomMargin():
            return
        ending.setProperty(_DROPPED_AFTER, ending.bottomMargin())
        ending.setBottomMargin(0)
        QTextCursor(previous).setBlockFormat(ending)


def ending_page(fmt: QTextBlockFormat) -> QTextBlockFormat:
    """``fmt`` for a paragraph's first half that ends its page where a footnote splits it: no
    space after (Qt would put it below the page break), and no space after of its own to give
    back (the second half, which ends the paragraph, holds that)."""
    ending = QTextBlockFormat(fmt)
    ending.setBottomMargin(0)
    ending.clearProperty(_DROPPED_AFTER)
    return ending


def joined(before: QTextBlockFormat, second: QTextBlockFormat) -> QTextBlockFormat:
    """The format of a split paragraph made whole again: ``before`` (its format when split), with
    the space after of ``second`` (its second half, which a break on the paragraph after it may
    have dropped since)."""
    whole = QTextBlockFormat(before)
    whole.setBottomMargin(second.bottomMargin())
    if second.hasProperty(_DROPPED_AFTER):
        whole.setProperty(_DROPPED_AFTER, second.doubleProperty(_DROPPED_AFTER))
    else:
        whole.clearProperty(_DROPPED_AFTER)
    return whole


def take_break_back(block: QTextBlock, policy: QTextFormat.PageBreakFlag | None = None) -> None:
    """Undo :func:`break_before`: ``block`` gets back ``policy`` (its page-break policy before),
    or loses the page break, and the paragraph before it its space after again.

    Only the policy goes back, not a whole earlier format: the block's own space after may have
    been dropped since, by a break still standing on the paragraph after it, and must stay so
    (else Qt puts it at the top of that paragraph's page, unlike a fresh layout).
    """
    with _one_layout(block):
        fmt = block.blockFormat()
        fmt.setPageBreakPolicy(fmt.pageBreakPolicy() & ~_ALWAYS_BEFORE if policy is None else policy)
        QTextCursor(block).setBlockFormat(fmt)
        previous = block.previous()
        ending = previous.blockFormat() if previous.isValid() else None
        if ending is not None and ending.hasProperty(_DROPPED_AFTER):
            ending.setBottomMargin(ending.doubleProperty(_DROPPED_AFTER))
            ending.clearProperty(_DROPPED_AFTER)
            QTextCursor(previous).setBlockFormat(ending)


def clear_page_break(document: QTextDocument) -> None:
    """Drop a page-break-before from the document's first block (it already starts a page)."""
    block = document.begin()
    fmt = block.blockFormat()
    if fmt.pageBreakPolicy() & QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore:
        fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_Auto)
        QTextCursor(block).setBlockFormat(fmt)


def enclosing_table_style(p: etree._Element) -> str | None:
    tbl = next(p.iterancestors(W + "tbl"), None)
    if tbl is None:
        return None
    tblpr = tbl.find(W + "tblPr")
    style = tblpr.find(W + "tblStyle") if tblpr is not None else None
    return style.get(W + "val") if style is not None else None
