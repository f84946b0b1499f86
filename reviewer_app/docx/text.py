"""Clean text of a paragraph: what a reader sees once pending changes are accepted (contract §2.1).

Tracked insertions read as plain text, deletions and hidden (``w:vanish``) runs are left out,
field results read as text while field instructions do not, and note references read as
``[^N]`` / ``[^eN]`` markers, published as structural boundaries so edits cannot split them.

One walker serves every reader: it optionally records, for each stretch of text, the run that
holds it, which the Markdown view and the edit engine use to map offsets back to XML.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from .xmlutil import MC, W, is_on

#: Containers whose children are read as if they were the paragraph's own.
_TRANSPARENT = frozenset(
    W + t for t in ("ins", "moveTo", "hyperlink", "smartTag", "customXml", "fldSimple", "dir", "bdo")
)
#: Containers whose content is removed in the accepted view.
_REMOVED = frozenset(W + t for t in ("del", "moveFrom"))


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
        return any(self.stack)


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
    pieces: list[Piece] | None = None


class _Walk:
    """One pass over a paragraph's content tree; ``parts`` accumulates text in order."""

    __slots__ = ("parts", "length", "boundaries", "fields", "notes", "pieces", "revision")

    def __init__(self, fields: FieldState, notes: NoteNumbers, collect: bool) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.boundaries: list[dict[str, Any]] = []
        self.fields = fields
        self.notes = notes
        self.pieces: list[Piece] | None = [] if collect else None
        self.revision: etree._Element | None = None

    def emit(self, text: str, element: etree._Element, run: etree._Element | None, kind: str) -> None:
        start = self.length
        self.parts.append(text)
        self.length += len(text)
        if self.pieces is not None:
            self.pieces.append(Piece(start, self.length, element, run, kind, self.revision))

    def content(self, parent: etree._Element) -> None:
        """Read paragraph-level content (runs and the containers that hold runs)."""
        for child in parent:
            tag = child.tag
            if tag == W + "r":
                self.run(child)
            elif tag in _TRANSPARENT:
                if tag == W + "ins" or tag == W + "moveTo":
                    outer, self.revision = self.revision, child
                    self.content(child)
                    self.revision = outer
                else:
                    self.content(child)
            elif tag in _REMOVED:
                self.removed(child)
            elif tag == W + "sdt":
                body = child.find(W + "sdtContent")
                if body is not None:
                    self.content(body)
            elif tag == MC + "AlternateContent":
                chosen = child.find(MC + "Choice")
                if chosen is None:
                    chosen = child.find(MC + "Fallback")
                if chosen is not None:
                    self.content(chosen)

    def removed(self, parent: etree._Element) -> None:
        """Deleted content shows no text, but its field characters still open and close fields."""
        for el in parent.iter(W + "fldChar"):
            self.field_char(el)

    def field_char(self, el: etree._Element) -> None:
        kind = el.get(W + "fldCharType")
        if kind == "begin":
            self.fields.stack.append(True)
        elif kind == "separate":
            if self.fields.stack:
                self.fields.stack[-1] = False
        elif kind == "end" and self.fields.stack:
            self.fields.stack.pop()

    def run(self, run: etree._Element) -> None:
        rpr = run.find(W + "rPr")
        hidden = rpr is not None and (is_on(rpr.find(W + "vanish")) or is_on(rpr.find(W + "specVanish")))
        for child in run:
            tag = child.tag
            if tag == W + "fldChar":
                self.field_char(child)
                continue
            if hidden or self.fields.in_instruction:
                continue
            if tag == W + "t":
                if child.text:
                    self.emit(child.text, child, run, "text")
            elif tag == W + "tab" or tag == W + "ptab":
                self.emit("\t", child, run, "char")
            elif tag == W + "br":
                kind = child.get(W + "type")
                if kind == "page":
                    boundary: dict[str, Any] = {"type": "pageBreak", "offset": self.length}
                    clear = child.get(W + "clear")
                    if clear and clear != "none":
                        boundary["clear"] = clear
                    self.boundaries.append(boundary)
                elif kind != "column":
                    self.emit("\n", child, run, "char")
            elif tag == W + "cr":
                self.emit("\n", child, run, "char")
            elif tag == W + "noBreakHyphen":
                self.emit("\u2011", child, run, "char")
            elif tag == W + "softHyphen":
                self.emit("\u00ad", child, run, "char")
            elif tag == W + "sym":
                self.emit(_symbol(child), child, run, "char")
            elif tag == W + "footnoteReference" or tag == W + "endnoteReference":
                self.note(child, run)
            elif tag == MC + "AlternateContent":
                continue  # drawings and text boxes: not part of the paragraph's text

    def note(self, ref: etree._Element, run: etree._Element) -> None:
        if ref.tag == W + "footnoteReference":
            self.notes.footnotes += 1
            marker, note_type = f"[^{self.notes.footnotes}]", "footnote"
        else:
            self.notes.endnotes += 1
            marker, note_type = f"[^e{self.notes.endnotes}]", "endnote"
        self.boundaries.append(
            {"type": "noteReference", "noteType": note_type, "offset": self.length, "length": len(marker)}
        )
        self.emit(marker, ref, run, "note")


def _symbol(sym: etree._Element) -> str:
    """The code point of a ``w:sym``, kept as written (as LibreOffice does).

    Symbol-font codes sit in the private-use area (U+F0xx); mapping them to look-alikes would
    depend on the font (Wingdings 0x28 is a telephone, not a parenthesis), so none is guessed.
    """
    try:
        code = int(sym.get(W + "char", ""), 16)
    except ValueError:
        return ""
    return chr(code) if 0 < code < 0x110000 else ""


def paragraph_mark_state(p: etree._Element) -> tuple[bool, bool]:
    """(deleted, inserted) for the paragraph mark, from ``w:pPr/w:rPr``'s revision children."""
    ppr = p.find(W + "pPr")
    rpr = ppr.find(W + "rPr") if ppr is not None else None
    if rpr is None:
        return False, False
    deleted = rpr.find(W + "del") is not None or rpr.find(W + "moveFrom") is not None
    inserted = rpr.find(W + "ins") is not None or rpr.find(W + "moveTo") is not None
    return deleted, inserted


def paragraph_text(
    p: etree._Element,
    fields: FieldState | None = None,
    notes: NoteNumbers | None = None,
    collect: bool = False,
) -> ParagraphText:
    """Extract the clean text of ``p``; pass shared ``fields``/``notes`` when walking a whole story."""
    walk = _Walk(fields or FieldState(), notes or NoteNumbers(), collect)
    walk.content(p)
    deleted, inserted = paragraph_mark_state(p)
    return ParagraphText("".join(walk.parts), walk.boundaries, deleted, inserted, walk.pieces)
