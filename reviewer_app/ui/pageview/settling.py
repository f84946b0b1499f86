"""Settling a section document's pages: keep rules, then footnotes, one page at a time.

Each page's paragraphs get their keep rules (:mod:`.keeps`) before its footnotes take room
(:mod:`.note_room`), and both before the next page's: done in that one order, the page breaks
are the same however the writing was sliced (a slice used to apply the keep rules of all its
paragraphs before any note moved a line). After a paragraph is re-rendered in place, its pages
are settled again from the first paragraph whose keep rules or notes the new text may change.
The layout only says which document to settle and whether more text will be written to it.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

from .keeps import apply_keeps, chain_start, first_kept, release_keeps, still_kept, waits_on_page

if TYPE_CHECKING:  # pragma: no cover
    from .note_room import NoteRoom
    from .pages import SectionDoc
    from .records import RenderedBlock

#: the first later paragraph a keep rule gave a page break, with where the text before it ended
Kept = tuple["RenderedBlock", float]


class PageSettler:
    """Applies the keep rules and settles the footnotes of ``docs``, a layout's section documents."""

    def __init__(self, docs: list[SectionDoc], notes: NoteRoom) -> None:
        self.docs = docs
        self.notes = notes
        #: per document: the first record the keep rules still have to look at
        self._kept: dict[int, int] = {}

    def settle(self, doc_index: int, final: bool) -> list[int]:
        """Settle the pages of document ``doc_index`` laid out so far (all of them when ``final``:
        nothing more is written to it). Returns where the notes inserted block separators (see
        :meth:`.note_room.NoteRoom.reserve`)."""
        section_doc = self.docs[doc_index]
        separators: list[int] = []
        while True:
            page = self.notes.settled(doc_index)
            self._kept[doc_index] = apply_keeps(section_doc, self._kept.get(doc_index, 0), page, final)
            if not final and waits_on_page(section_doc, self._kept[doc_index], page):
                return separators  # the page's keep rules wait for the next paragraph: so do its notes
            moves = self.notes.move_count(doc_index)
            separators += self.notes.reserve(doc_index, final, page + 1)
            moved = self.notes.first_moved(doc_index, moves)
            if moved is not None:  # the keep rules after text a note moved on are judged anew
                first = bisect.bisect_left(section_doc.starts, moved)
                release_keeps(section_doc, first, self._kept[doc_index])
                self._kept[doc_index] = min(self._kept[doc_index], first)
            if self.notes.settled(doc_index) <= page:
                return separators

    def unsettle(self, doc_index: int, i: int) -> tuple[RenderedBlock, Kept | None]:
        """Before record ``i`` is rebuilt: take back the footnote moves from the first paragraph
        whose keep rules look at it (the keep-with-next headings before it) and return that
        paragraph, with the first later one a keep rule had given a page break (None when there
        is none or it is record ``i`` itself, whose own lines decide its break); see
        :meth:`settle_again`."""
        section_doc = self.docs[doc_index]
        records = section_doc.records
        chain = records[chain_start(records, i)]
        self.notes.release(doc_index, chain.start)
        kept = first_kept(section_doc, i)
        return chain, None if kept is not None and kept[0] is records[i] else kept

    def settle_again(
        self, doc_index: int, chain: RenderedBlock, moved: bool, final: bool, kept: Kept | None = None
    ) -> None:
        """After a rebuild: settle the pages again from ``chain`` (see :meth:`unsettle`).

        When lines after it ``moved``, the keep rules are judged again from there. When the text
        before ``kept`` ends no higher now (on the same page), its break and every page after it
        stand and only the paragraphs before it are judged again (and, if that pushes the text
        before it to a later page, the breaks from it on are taken back); else the breaks from
        ``chain`` on are taken back and all judged again (taking a break back costs Qt a layout
        of the rest of the document).
        """
        section_doc = self.docs[doc_index]
        if moved:
            first: int | None = bisect.bisect_left(section_doc.starts, chain.start)
            if kept is not None and still_kept(section_doc, kept):
                stop = section_doc.records.index(kept[0])
                apply_keeps(section_doc, first, section_doc.page_count(), True, stop)
                # unless the paragraphs judged again pushed the text before it on a page
                first = None if still_kept(section_doc, kept) else stop
            if first is not None:
                release_keeps(section_doc, first)
                self._kept[doc_index] = min(self._kept.get(doc_index, 0), first)
        self.notes.rewind(doc_index, chain.start)
        self.settle(doc_index, final)
