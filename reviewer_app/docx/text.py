"""Clean text of a paragraph: what a reader sees once pending changes are accepted (contract §2.1).

Tracked insertions read as plain text, deletions and hidden (``w:vanish``) runs are left out,
field results read as text while field instructions do not, and note references read as
``[^N]`` / ``[^eN]`` markers, published as structural boundaries so edits cannot split them.

One walker serves every reader: it optionally records, for each stretch of text, the run that
holds it, which the Markdown view and the edit engine use to map offsets back to XML.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from .vocabulary import DELETED, INSERTED, LIVE_RUN_CONTAINERS
from .xmlutil import MC, W, first_child, is_on

#: a note reference as the clean text spells it (``[^3]`` footnote, ``[^e2]`` endnote)
NOTE_MARKER = re.compile(r"\[\^e?\d+\]")


@dataclass(slots=True)
class Piece:
    """A stretch ``[start, end)`` of a paragraph's clean text and the element that produced it.

    ``kind`` is ``"text"`` (a ``w:t``), ``"char"`` (tab, break, symbol...), or ``"note"`` (a
    note reference marker); ``revision`` is the enclosing ``w:ins``/``w:moveTo`` (None when the
    text is not a pending insertion).
    """

    start: int
    end: int
    element: etree._Element
    run: etree._Element | None
    kind: str
    revision: etree._Element | None


@dataclass(slots=True)
class FieldState:
    """Complex-field nesting carried across paragraphs: a field may open in one and close in another."""

    stack: list[bool] = field(default_factory=list)  # True while in the instruction part

    @property
    def in_instruction(self) -> bool:
        """True while inside the instruction part of any open field (its text is not shown)."""
        return bool(self.stack) and True in self.stack


@dataclass(slots=True)
class NoteNumbers:
    """Reading-order numbers of footnote and endnote references within one story."""

    footnotes: int = 0
    endnotes: int = 0


@dataclass(slots=True)
class ParagraphText:
    """The clean text of one ``w:p`` and what the contract publishes about it."""

    text: str
    boundaries: list[dict[str, Any]]
    mark_deleted: bool
    mark_inserted: bool
    has_field_chars: bool = False
    pieces: list[Piece] | None = None
    has_removed_text: bool = False  # pending deleted or moved-away content


_R, _T, _BR, _SDT, _SDT_CONTENT = W + "r", W + "t", W + "br", W + "sdt", W + "sdtContent"
_FLD_CHAR, _RPR, _SYM, _RPR_CHANGE = W + "fldChar", W + "rPr", W + "sym", W + "rPrChange"
_VANISH, _SPEC_VANISH, _TYPE, _CLEAR = W + "vanish", W + "specVanish", W + "type", W + "clear"
_FOOTNOTE_REF, _ENDNOTE_REF = W + "footnoteReference", W + "endnoteReference"
_FLD_CHAR_TYPE = W + "fldCharType"
_ALTERNATE, _CHOICE, _FALLBACK = MC + "AlternateContent", MC + "Choice", MC + "Fallback"
#: Run children that read as one fixed character.
_CHARS = {
    W + "tab": "\t",
    W + "ptab": "\t",
    W + "cr": "\n",
    W + "noBreakHyphen": "\u2011",
    W + "softHyphen": "\u00ad",
}


#: Shared by every paragraph without boundaries (most of them); never mutated.
NO_BOUNDARIES: list[dict[str, Any]] = []


class TextWalk:
    """One pass over a paragraph's content tree; ``parts`` accumulates text in order.

    Views that need more than clean text (the Markdown view's deletions and comment marks)
    subclass it and override :meth:`emit`, :meth:`removed` or :meth:`other`, so they inherit
    every clean-text rule instead of restating it.
    """

    __slots__ = (
        "parts",
        "length",
        "boundaries",
        "fields",
        "notes",
        "pieces",
        "revision",
        "saw_field",
        "saw_removed",
    )

    def __init__(self, fields: FieldState, notes: NoteNumbers, collect: bool) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.boundaries: list[dict[str, Any]] = []
        self.fields = fields
        self.notes = notes
        self.pieces: list[Piece] | None = [] if collect else None
        self.revision: etree._Element | None = None
        self.saw_field = False
        self.saw_removed = False

    def emit(self, text: str, element: etree._Element, run: etree._Element | None, kind: str) -> None:
        start = self.length
        self.parts.append(text)
        self.length += len(text)
        if self.pieces is not None:
            self.pieces.append(Piece(start, self.length, element, run, kind, self.revision))

    def content(self, parent: etree._Element) -> None:
        """Read paragraph-level content (runs and the containers that hold runs)."""
        for child in parent[:]:  # a slice lists the children in C, cheaper than lxml's iterator
            tag = child.tag
            if tag == _R:
                self.run(child)
            elif tag in LIVE_RUN_CONTAINERS:
                if tag in INSERTED:
                    outer, self.revision = self.revision, child
                    self.content(child)
                    self.revision = outer
                else:
                    self.content(child)
            elif tag in DELETED:
                self.removed(child)
            elif tag == _SDT:
                body = child.find(_SDT_CONTENT)
                if body is not None:
                    self.content(body)
            elif tag == _ALTERNATE:
                chosen = child.find(_CHOICE)
                if chosen is None:
                    chosen = child.find(_FALLBACK)
                if chosen is not None:
                    self.content(chosen)
            else:
                self.other(child)

    def other(self, child: etree._Element) -> None:
        """Paragraph-level markup clean text ignores (bookmarks, comment ranges, proofing marks)."""

    def removed(self, parent: etree._Element) -> None:
        """Deleted content shows no text, but its field characters still open and close fields."""
        self.saw_removed = True
        for el in parent.iter(_FLD_CHAR):
            self.field_char(el)

    def field_char(self, el: etree._Element) -> None:
        kind = el.get(_FLD_CHAR_TYPE)
        self.saw_field = True
        stack = self.fields.stack
        if kind == "begin":
            stack.append(True)
        elif kind == "separate":
            if stack:
                stack[-1] = False
        elif kind == "end" and stack:
            stack.pop()

    def run(self, run: etree._Element) -> None:
        rpr = self.run_properties_of(run)
        hidden = False
        if rpr is not None:
            hidden, changed = run_property_marks(rpr)
            if changed:
                self.properties_changed()
        stack = self.fields.stack
        for child in run[:]:
            tag = child.tag
            if tag == _RPR:  # read above: neither text nor a marker
                continue
            if tag == _FLD_CHAR:
                self.field_char(child)
                continue
            if self.run_marker(child):
                continue
            if hidden or (stack and True in stack):
                continue
            if tag == _T:
                if child.text:
                    self.emit(child.text, child, run, "text")
            elif tag in _CHARS:
                self.emit(_CHARS[tag], child, run, "char")
            elif tag == _BR:
                kind = child.get(_TYPE)
                if kind == "page":
                    self.page_break(child, run)
                elif kind != "column":
                    self.emit("\n", child, run, "char")
            elif tag == _SYM:
                self.emit(symbol_text(child), child, run, "char")
            elif tag in (_FOOTNOTE_REF, _ENDNOTE_REF):
                self.note(child, run)
            else:
                self.run_other(child, run)

    def run_properties_of(self, run: etree._Element) -> etree._Element | None:
        """The ``w:rPr`` of a run about to be read (a subclass keeping more of the run looks here)."""
        return run_properties(run)

    def properties_changed(self) -> None:
        """The run about to be read has tracked formatting changes (``w:rPrChange``); ignored here."""

    def run_marker(self, child: etree._Element) -> bool:
        """A run child read even when hidden or inside a field code (True = consumed); none here."""
        return False

    def page_break(self, br: etree._Element, run: etree._Element) -> None:
        """A hard page break: a structural boundary of the clean text, not text."""
        boundary: dict[str, Any] = {"type": "pageBreak", "offset": self.length}
        clear = br.get(_CLEAR)
        if clear and clear != "none":
            boundary["clear"] = clear
        self.boundaries.append(boundary)

    def run_other(self, child: etree._Element, run: etree._Element) -> None:
        """Run content clean text ignores (drawings, objects); views that show them override this."""

    def note(self, ref: etree._Element, run: etree._Element) -> None:
        if ref.tag == _FOOTNOTE_REF:
            self.notes.footnotes += 1
            marker, note_type = f"[^{self.notes.footnotes}]", "footnote"
        else:
            self.notes.endnotes += 1
            marker, note_type = f"[^e{self.notes.endnotes}]", "endnote"
        self.boundaries.append(
            {"type": "noteReference", "noteType": note_type, "offset": self.length, "length": len(marker)}
        )
        self.emit(marker, ref, run, "note")


def symbol_text(sym: etree._Element) -> str:
    """The code point of a ``w:sym``, kept as written (as LibreOffice does).

    Symbol-font codes sit in the private-use area (U+F0xx); mapping them to look-alikes would
    depend on the font (Wingdings 0x28 is a telephone, not a parenthesis), so none is guessed.
    """
    try:
        code = int(sym.get(W + "char", ""), 16)
    except ValueError:
        return ""
    return chr(code) if 0 < code < 0x110000 else ""


def run_properties(run: etree._Element) -> etree._Element | None:
    """The ``w:rPr`` of ``run``, found by reading its children in turn (listed by a slice): the
    schema puts it first, and a run has a few children, which the walker reads anyway; cheaper
    than lxml's tag search or iterator, whose set-up costs more than such a read (the page view
    asks for every run)."""
    for child in run[:]:
        if child.tag == _RPR:
            return child
    return None


def run_property_marks(rpr: etree._Element) -> tuple[bool, bool]:
    """(hidden, changed) for a run whose properties are ``rpr``: whether its first ``w:vanish``
    or first ``w:specVanish`` is on, and whether it holds a ``w:rPrChange``, in one pass over
    ``rpr`` (three ``first_child`` look-ups cost several times more, for every run)."""
    vanish = spec_vanish = None
    changed = False
    for child in rpr[:]:
        tag = child.tag
        if tag == _VANISH:
            if vanish is None:
                vanish = child
        elif tag == _SPEC_VANISH:
            if spec_vanish is None:
                spec_vanish = child
        elif tag == _RPR_CHANGE:
            changed = True
    return is_on(vanish) or is_on(spec_vanish), changed


def paragraph_properties(p: etree._Element) -> etree._Element | None:
    """The ``w:pPr`` of ``p``: looked for first where the schema puts it, the first child, which
    costs a tenth of lxml's ``find`` (the block walk asks for every paragraph)."""
    first = p[0] if len(p) else None
    if first is not None and first.tag == _PPR:
        return first
    return None if first is None else first_child(p, _PPR)


def paragraph_mark_state(p: etree._Element) -> tuple[bool, bool]:
    """(deleted, inserted) for the paragraph mark, from ``w:pPr/w:rPr``'s revision children."""
    ppr = paragraph_properties(p)
    return mark_state(first_child(ppr, _RPR) if ppr is not None else None)


def mark_state(rpr: etree._Element | None) -> tuple[bool, bool]:
    """(deleted, inserted) for a paragraph mark whose properties are ``rpr`` (its ``w:pPr/w:rPr``)."""
    if rpr is None:
        return False, False
    deleted = inserted = False
    for child in rpr:
        tag = child.tag
        if tag in DELETED:
            deleted = True
        elif tag in INSERTED:
            inserted = True
    return deleted, inserted


#: Markup whose paragraph needs the full walker (it is not plain runs of text, tabs and breaks).
COMPLEX_TAGS = tuple(
    W + t
    for t in (
        "del",
        "moveFrom",
        "fldChar",
        "vanish",
        "specVanish",
        "sym",
        "footnoteReference",
        "endnoteReference",
        "noBreakHyphen",
        "softHyphen",
        "ptab",
        "drawing",
        "pict",
        "object",
        "sdt",
    )
) + (_ALTERNATE,)
_TAB, _CR, _P, _PPR = W + "tab", W + "cr", W + "p", W + "pPr"


def complex_paragraphs(root: etree._Element) -> set[etree._Element]:
    """Paragraphs under ``root`` that hold markup the fast path cannot read (one C-level scan)."""
    found: set[etree._Element] = set()
    for el in root.iter(*COMPLEX_TAGS):
        p = next(el.iterancestors(_P), None)
        if p is not None:
            found.add(p)
    return found


def plain_paragraph(p: etree._Element) -> tuple[etree._Element | None, str | None]:
    """The ``w:pPr`` of a paragraph made only of runs of text, tabs and line breaks, and its clean
    text, in one pass over the paragraph's children.

    Gives the text :func:`paragraph_text` gives for such a paragraph, several times faster (a
    300-page contract has ~15,000 of them): the runs are read where they sit, and only a child
    that holds elements (a hyperlink, an insertion) is searched for the runs inside it, as
    :class:`TextWalk` reads none in the paragraph's properties. The text is None when the
    paragraph turns out to hold a page break, which the full walker must publish as a boundary.
    """
    parts: list[str] = []
    ppr = None
    for child in p:
        tag = child.tag
        if tag == _R:
            if not _run_text(child, parts, True):
                return paragraph_properties(p), None
        elif tag == _PPR:
            if ppr is None:
                ppr = child
        elif len(child):
            for run in child.iter(_R):
                if not _run_text(run, parts, False):
                    return paragraph_properties(p), None
    return ppr, "".join(parts)


def _run_text(run: etree._Element, parts: list[str], inner: bool) -> bool:
    """Append the text of ``run``'s own children to ``parts``; False at a typed break.

    With ``inner``, runs nested in the run's other children (a ruby's) follow it, in the order
    a depth-first search of the paragraph meets them (a nested run found that way is read with
    ``inner`` off, for that search already reaches the runs inside it).
    """
    holders = None
    for el in run:
        tag = el.tag
        if tag == _T:
            text = el.text
            if text:
                parts.append(text)
        elif tag == _RPR:
            continue
        elif tag == _TAB:
            parts.append("\t")
        elif tag == _BR:
            if el.get(_TYPE) is not None:
                return False
            parts.append("\n")
        elif tag == _CR:
            parts.append("\n")
        elif inner and len(el):
            holders = [el] if holders is None else [*holders, el]
    if holders is not None:
        for holder in holders:
            for nested in holder.iter(_R):
                if not _run_text(nested, parts, False):
                    return False
    return True


def paragraph_text(
    p: etree._Element,
    fields: FieldState | None = None,
    notes: NoteNumbers | None = None,
    collect: bool = False,
) -> ParagraphText:
    """Extract the clean text of ``p``; pass shared ``fields``/``notes`` when walking a whole story."""
    walk = TextWalk(fields or FieldState(), notes or NoteNumbers(), collect)
    walk.content(p)
    deleted, inserted = paragraph_mark_state(p)
    boundaries = walk.boundaries or NO_BOUNDARIES
    return ParagraphText(
        "".join(walk.parts), boundaries, deleted, inserted, walk.saw_field, walk.pieces, walk.saw_removed
    )
