"""One paragraph as the page view paints it: ordered segments of text, insertions, deletions...

The engine's clean-text walker (:class:`~reviewer_app.docx.text.TextWalk`) decides what a reader
sees once changes are accepted; this subclass follows the same rules (hidden runs, field
instructions, note markers, symbols) and additionally keeps what the page shows around that
text: deleted runs, drawings, page breaks, comment ranges, the run each piece came from (for its
formatting) and the revision it belongs to (for the author colour). Joining the ``clean`` of the
segments gives the block's clean text exactly, which is how the page view's page index turns
laid-out lines back into the text the agent reads. No Qt here: it is what the document says
each stretch of a paragraph is; the page view decides how it looks.
"""

from __future__ import annotations

from lxml import etree

from .numformats import format_number
from .text import FieldState, NoteNumbers, TextWalk, run_properties
from .vocabulary import MOVES
from .xmlutil import MC, W, is_on

_R, _SYM, _RPR = W + "r", W + "sym", W + "rPr"
_FLD_CHAR, _INSTR, _FLD_SIMPLE = W + "fldChar", W + "instrText", W + "fldSimple"
_VANISH, _SPEC_VANISH = W + "vanish", W + "specVanish"
_NOTE_MARKS = (W + "footnoteRef", W + "endnoteRef")
_OBJECTS = frozenset((W + "drawing", W + "pict", W + "object"))
_ALTERNATE, _CHOICE, _FALLBACK = MC + "AlternateContent", MC + "Choice", MC + "Fallback"
_RANGE_START, _RANGE_END, _COMMENT_REF = (
    W + "commentRangeStart",
    W + "commentRangeEnd",
    W + "commentReference",
)
_PPR, _PPR_CHANGE = W + "pPr", W + "pPrChange"
_DELETED_PARTS = (W + "fldChar", W + "delText", W + "t", W + "tab", _RANGE_START, _RANGE_END, _COMMENT_REF)
#: Fields whose result the page view recomputes per page (in headers and footers).
PAGE_FIELDS = ("NUMPAGES", "SECTIONPAGES", "PAGE")
_NO_COMMENTS: frozenset[str] = frozenset()


class Segment:
    """A stretch of one paragraph with one role.

    ``kind``: ``text``/``insert`` (clean text), ``delete`` (deleted text), ``note`` (a note
    reference: shows ``text``, reads ``clean``), ``object`` (drawing, ``element`` set), ``break``
    (a page break), ``field`` (a PAGE/NUMPAGES result; ``text`` names the field).
    ``clean`` is the clean text this segment contributes (empty for deletions and objects).
    """

    __slots__ = ("kind", "text", "clean", "run", "revision", "comments", "element")

    def __init__(
        self,
        kind: str,
        text: str,
        clean: str,
        run: etree._Element | None,
        revision: etree._Element | None = None,
        comments: frozenset[str] = _NO_COMMENTS,
        element: etree._Element | None = None,
    ) -> None:
        self.kind = kind
        self.text = text
        self.clean = clean
        self.run = run
        self.revision = revision
        self.comments = comments
        self.element = element

    @property
    def is_move(self) -> bool:
        """True for the two halves of a tracked move (drawn doubled, not single)."""
        return self.revision is not None and self.revision.tag in MOVES

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Segment({self.kind!r}, {self.text!r})"


class StoryState:
    """What runs on from paragraph to paragraph of one story: open fields and comment ranges."""

    __slots__ = ("fields", "open_comments", "codes", "note_label", "endnote_format")

    def __init__(self) -> None:
        self.fields = FieldState()
        self.open_comments: set[str] = set()
        self.codes: list[list[str]] = []  # per open complex field: [instruction, emitted flag]
        #: in a footnote's own story: the number its ``w:footnoteRef`` mark shows
        self.note_label: str | None = None
        #: how endnote references are numbered (``w:endnotePr/w:numFmt``; Word's default)
        self.endnote_format = "lowerRoman"


class ParagraphSegments(TextWalk):
    """Walks one ``w:p`` into :class:`Segment` objects (see module docstring)."""

    __slots__ = (
        "segments",
        "state",
        "anchors",
        "format_change",
        "page_fields",
        "run_properties",
        "properties",
        "mark_properties",
        "_comments",
        "_simple",
    )

    def __init__(self, state: StoryState, notes: NoteNumbers, page_fields: bool = False) -> None:
        super().__init__(state.fields, notes, collect=False)
        self.segments: list[Segment] = []
        self.state = state
        #: (comment id, segment index) where a comment's range ends or its reference sits
        self.anchors: list[tuple[str, int]] = []
        self.format_change = False
        self.page_fields = page_fields
        #: each run walked -> its ``w:rPr`` (None: it has none), so a reader of the segments'
        #: formatting need not search the run again
        self.run_properties: dict[etree._Element, etree._Element | None] = {}
        #: the first ``w:pPr`` walked and its ``w:rPr`` (the paragraph mark's properties), read
        #: in the same pass that looks for a ``w:pPrChange``
        self.properties: etree._Element | None = None
        self.mark_properties: etree._Element | None = None
        self._comments = frozenset(state.open_comments)
        self._simple: set[int] = set()

    # -- clean text (called by the base walker's rules) ---------------------------------------
    def emit(self, text: str, element: etree._Element, run: etree._Element | None, kind: str) -> None:
        super().emit(text, element, run, kind)
        if self.page_fields and self._page_field(run):
            return
        if kind == "note":
            self.segments.append(
                Segment(
                    "note",
                    _note_label(text, self.state.endnote_format),
                    text,
                    run,
                    self.revision,
                    self._comments,
                    element,
                )
            )
            return
        shown = "\u2028" if text == "\n" else text
        seg_kind = "text" if self.revision is None else "insert"
        last = self.segments[-1] if self.segments else None
        if (
            last is not None
            and last.kind == seg_kind
            and last.run is run
            and last.revision is self.revision
            and last.comments is self._comments
            and (kind != "char" or element.tag != _SYM)
        ):
            last.text += shown
            last.clean += text
        else:
            seg = Segment(seg_kind, shown, text, run, self.revision, self._comments)
            if kind == "char" and element.tag == _SYM:  # text comes from w:t, symbols are chars
                seg.element = element
            self.segments.append(seg)

    def _page_field(self, run: etree._Element | None) -> bool:
        """In a header/footer, replace a PAGE/NUMPAGES result by a field segment (once per field)."""
        codes = self.state.codes
        name = None
        if codes and not codes[-1][1]:
            name = _page_field_name(codes[-1][0])
            if name:
                codes[-1][1] = True
        elif codes and codes[-1][1] and _page_field_name(codes[-1][0]):
            return True
        parent = run.getparent() if run is not None else None
        if name is None and parent is not None and parent.tag == _FLD_SIMPLE:
            simple = _page_field_name(parent.get(W + "instr") or "")
            if simple:
                if id(parent) in self._simple:
                    return True
                self._simple.add(id(parent))
                name = simple
        if name is None:
            return False
        self.segments.append(Segment("field", name, "", run, None, self._comments))
        return True

    # -- markup clean text ignores -------------------------------------------------------------
    def other(self, child: etree._Element) -> None:
        tag = child.tag
        if tag == _RANGE_START:
            self._open(child.get(W + "id"))
        elif tag == _RANGE_END:
            self._close(child.get(W + "id"))
        elif tag == _PPR:
            first = self.properties is None
            if first:
                self.properties = child
            for prop in child[:]:
                prop_tag = prop.tag
                if prop_tag == _PPR_CHANGE:
                    self.format_change = True
                elif prop_tag == _RPR and first and self.mark_properties is None:
                    self.mark_properties = prop

    def _open(self, comment_id: str | None) -> None:
        if comment_id is not None and comment_id not in self.state.open_comments:
            self.state.open_comments.add(comment_id)
            self._comments = frozenset(self.state.open_comments)

    def _close(self, comment_id: str | None) -> None:
        if comment_id is None:
            return
        if comment_id in self.state.open_comments:
            self.state.open_comments.discard(comment_id)
            self._comments = frozenset(self.state.open_comments)
        self.anchors.append((comment_id, len(self.segments)))

    def field_char(self, el: etree._Element) -> None:
        kind = el.get(W + "fldCharType")
        if kind == "begin":
            self.state.codes.append(["", False])
        elif kind == "end" and self.state.codes:
            self.state.codes.pop()
        super().field_char(el)

    def run_properties_of(self, run: etree._Element) -> etree._Element | None:
        """The run's ``w:rPr``, kept for the segments' formatting."""
        rpr = self.run_properties[run] = run_properties(run)
        return rpr

    def properties_changed(self) -> None:
        """A run whose properties changed flags the paragraph."""
        self.format_change = True

    def run_marker(self, child: etree._Element) -> bool:
        """Field instruction text (to name PAGE/NUMPAGES fields) and comment references."""
        stack = self.fields.stack
        if child.tag == _INSTR and stack and stack[-1] and self.state.codes:
            self.state.codes[-1][0] += child.text or ""
            return True
        if child.tag == _COMMENT_REF:
            self._reference(child)
            return True
        return False

    def page_break(self, br: etree._Element, run: etree._Element) -> None:
        self.segments.append(Segment("break", "", "", run))

    def run_other(self, child: etree._Element, run: etree._Element) -> None:
        """Drawings and objects become object segments (the layout places them).

        A note's own number mark (``w:footnoteRef``, ``w:endnoteRef``) shows the reference's number; it is
        no clean text (the note story's text does not hold it either).
        """
        if child.tag in _NOTE_MARKS:
            if self.state.note_label is not None:
                self.segments.append(Segment("note", self.state.note_label, "", run, None, self._comments))
        elif child.tag in _OBJECTS:
            self.segments.append(Segment("object", "", "", run, self.revision, self._comments, child))
        elif child.tag == _ALTERNATE:
            chosen = _alternate_object(child)
            if chosen is not None:
                self.segments.append(Segment("object", "", "", run, self.revision, self._comments, chosen))

    def _reference(self, ref: etree._Element) -> None:
        comment_id = ref.get(W + "id")
        if comment_id is not None and not any(c == comment_id for c, _ in self.anchors):
            self.anchors.append((comment_id, len(self.segments)))

    def removed(self, parent: etree._Element) -> None:
        """Deleted runs become ``delete`` segments; their field characters still count."""
        for el in parent.iter(*_DELETED_PARTS):
            tag = el.tag
            if tag == _FLD_CHAR:
                self.field_char(el)
            elif tag == _RANGE_START:
                self._open(el.get(W + "id"))
            elif tag == _RANGE_END:
                self._close(el.get(W + "id"))
            elif tag == _COMMENT_REF:
                self._reference(el)
            elif not self.fields.in_instruction:
                run = el.getparent()
                if run is None or run.tag != _R or _hidden(run):
                    continue
                text = "\t" if tag == W + "tab" else (el.text or "")
                if not text:
                    continue
                last = self.segments[-1] if self.segments else None
                if last is not None and last.kind == "delete" and last.run is run and last.revision is parent:
                    last.text += text
                else:
                    self.segments.append(Segment("delete", text, "", run, parent, self._comments))


def _hidden(run: etree._Element) -> bool:
    rpr = run.find(_RPR)
    return rpr is not None and (is_on(rpr.find(_VANISH)) or is_on(rpr.find(_SPEC_VANISH)))


def _alternate_object(alternate: etree._Element) -> etree._Element | None:
    for branch in (alternate.find(_CHOICE), alternate.find(_FALLBACK)):
        if branch is None:
            continue
        for el in branch.iter(*_OBJECTS):
            return el
    return None


def _page_field_name(instruction: str) -> str | None:
    words = instruction.split()
    if words and words[0].upper() in PAGE_FIELDS:
        return words[0].upper()
    return None


def _note_label(marker: str, endnote_format: str) -> str:
    """``[^3]`` shows as 3; ``[^e2]`` as ii in Word's default endnote format (lower-case Roman)."""
    inner = marker[2:-1]
    if inner.startswith("e"):
        try:
            return format_number(int(inner[1:]), endnote_format)
        except ValueError:
            return inner
    return inner


def paragraph_segments(
    p: etree._Element, state: StoryState, notes: NoteNumbers, page_fields: bool = False
) -> ParagraphSegments:
    """Walk ``p`` (sharing ``state`` with the story's other paragraphs) and return the walker."""
    walk = ParagraphSegments(state, notes, page_fields)
    walk.content(p)
    return walk
