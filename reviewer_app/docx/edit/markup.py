"""Tracked-change markup on runs: the primitives every text operation is built from.

A clean-text range of a paragraph is first *isolated* into whole runs (splitting runs at the
range's ends, formatting copied to both halves); those runs are then deleted as tracked
(``w:del`` with ``w:delText``, nested inside another author's ``w:ins`` when the text was
theirs) and new runs are inserted as tracked (``w:ins``), taking the formatting of the text they
replace. All of it follows ``ooxml-rules.md`` §5.3-§5.7.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable

from lxml import etree

from ..text import NOTE_MARKER, FieldState, NoteNumbers, ParagraphText, Piece, paragraph_text
from ..vocabulary import DELETED, REVISION_WRAPPERS, RPR_HISTORY
from ..xmlutil import XML_SPACE, W
from .skips import Skip
from .stamp import Stamper

_TEXT_BOX = W + "txbxContent"
_R, _T, _RPR, _PPR = W + "r", W + "t", W + "rPr", W + "pPr"
_INS, _DEL = W + "ins", W + "del"
_COMMENT_REFERENCE_STYLE = "CommentReference"


def pieces_of(p: etree._Element, notes_before: tuple[int, int] = (0, 0)) -> ParagraphText:
    """The paragraph's clean text with its pieces, note markers numbered as in the snapshot."""
    return paragraph_text(p, FieldState(), NoteNumbers(*notes_before), collect=True)


def _split_run(run: etree._Element, child: etree._Element, offset: int | None) -> etree._Element:
    """Split ``run`` before ``child`` (or inside its text at ``offset``); return the second half.

    Both halves keep the run's properties, so the split is invisible in the document.
    """
    second = etree.Element(_R, attrib=dict(run.attrib))
    rpr = run.find(_RPR)
    if rpr is not None:
        second.append(copy.deepcopy(rpr))
    if offset is not None:
        text = child.text or ""
        tail_t = etree.SubElement(second, child.tag)
        tail_t.text = text[offset:]
        set_space(tail_t)
        child.text = text[:offset]
        set_space(child)
        movers = list(child.itersiblings())
    else:
        movers = [child, *child.itersiblings()]
    for el in movers:
        second.append(el)
    run.addnext(second)
    return second


def set_space(t: etree._Element) -> None:
    """``xml:space="preserve"`` when the text has edge whitespace (or is empty), per §5.3."""
    text = t.text or ""
    if text != text.strip() or not text:
        t.set(XML_SPACE, "preserve")


def _cut_at(p: etree._Element, offset: int, notes_before: tuple[int, int]) -> None:
    """Make ``offset`` fall on a run boundary, splitting one run if needed."""
    for piece in pieces_of(p, notes_before).pieces or ():
        if piece.start < offset < piece.end:
            if piece.kind != "text" or piece.run is None:
                raise Skip("protectedReference") if piece.kind == "note" else Skip("splitsCharacter")
            _split_run(piece.run, piece.element, offset - piece.start)
            return
        if piece.start == offset and piece.run is not None and piece.element is not _first_content(piece.run):
            _split_run(piece.run, piece.element, None)
            return


def _first_content(run: etree._Element) -> etree._Element | None:
    return next((c for c in run if c.tag != _RPR), None)


def isolate(p: etree._Element, start: int, end: int, notes_before: tuple[int, int]) -> list[Piece]:
    """Split runs so ``[start, end)`` is covered by whole runs; return the covering pieces in order.

    Raises ``Skip("protectedReference")`` when a boundary falls inside a note marker.
    """
    _cut_at(p, end, notes_before)
    _cut_at(p, start, notes_before)
    pieces = pieces_of(p, notes_before).pieces or []
    return [pc for pc in pieces if pc.start >= start and pc.end <= end and pc.end > pc.start]


def runs_of(pieces: Iterable[Piece]) -> list[etree._Element]:
    """The distinct runs holding ``pieces``, in document order."""
    seen: dict[int, etree._Element] = {}
    for piece in pieces:
        if piece.run is not None and id(piece.run) not in seen:
            seen[id(piece.run)] = piece.run
    return list(seen.values())


def _revision_ancestor(run: etree._Element, p: etree._Element) -> etree._Element | None:
    for ancestor in run.iterancestors():
        if ancestor is p:
            return None
        if ancestor.tag in REVISION_WRAPPERS:
            return ancestor
    return None


def to_deleted_text(run: etree._Element) -> None:
    """Rename ``w:t``/``w:instrText`` to their deleted forms (§5.3).

    Text inside a text box the run holds is left alone: the box's paragraphs are a story of their
    own, not inside our ``w:del``; deleting the run deletes the box as one object, as Word does.
    """
    boxed = run.find(".//" + _TEXT_BOX) is not None
    for el in run.iter(W + "t", W + "instrText"):
        if boxed and _in_text_box(el, run):
            continue
        el.tag = W + "delText" if el.tag == _T else W + "delInstrText"


def _in_text_box(el: etree._Element, run: etree._Element) -> bool:
    """Whether ``el`` sits in a text box inside ``run`` (not merely in a box that holds ``run``)."""
    for ancestor in el.iterancestors():
        if ancestor is run:
            return False
        if ancestor.tag == _TEXT_BOX:
            return True
    return False


def delete_runs(runs: list[etree._Element], p: etree._Element, stamper: Stamper, tracked: bool) -> None:
    """Delete ``runs``: wrapped in ``w:del`` (grouped by adjacency) when tracked, removed when direct.

    Text the same author inserted and has not had accepted simply disappears, as in Word; text
    another author inserted gets our ``w:del`` nested inside their ``w:ins`` (§5.7).
    """
    group: list[etree._Element] = []
    for run in runs:
        ancestor = _revision_ancestor(run, p)
        if ancestor is not None and ancestor.tag in DELETED:
            continue  # already deleted
        own_insertion = ancestor is not None and ancestor.get(W + "author") == stamper.author
        if not tracked or own_insertion:
            _flush(group, stamper)
            group = []
            parent = run.getparent()
            parent.remove(run)
            if ancestor is not None and len(ancestor) == 0:
                ancestor.getparent().remove(ancestor)
            continue
        if group and group[-1].getnext() is not run:
            _flush(group, stamper)
            group = []
        group.append(run)
    _flush(group, stamper)


def _flush(group: list[etree._Element], stamper: Stamper) -> None:
    if not group:
        return
    wrapper = etree.Element(_DEL, attrib=stamper.attributes())
    group[0].addprevious(wrapper)
    for run in group:
        to_deleted_text(run)
        wrapper.append(run)


def template_rpr(run: etree._Element | None) -> etree._Element | None:
    """A copy of ``run``'s properties fit for new text: pending-change records removed."""
    if run is None:
        return None
    rpr = run.find(_RPR)
    if rpr is None:
        return None
    clone = copy.deepcopy(rpr)
    for child in list(clone):
        if child.tag in RPR_HISTORY:
            clone.remove(child)
    style = clone.find(W + "rStyle")
    if style is not None and style.get(W + "val") == _COMMENT_REFERENCE_STYLE:
        clone.remove(style)
    return clone if len(clone) else None


def refuse_note_markers(text: str) -> None:
    """Refuse new text that spells a note reference: ``[^1]`` written as letters would look like a
    reference to the model and to nobody else, and a real reference cannot be made from text."""
    if NOTE_MARKER.search(text):
        raise Skip("protectedReference")


def make_runs(text: str, rpr: etree._Element | None) -> list[etree._Element]:
    """Runs spelling ``text``: tabs become ``w:tab``, line breaks ``w:br`` (never ``\\n`` in ``w:t``)."""
    run = etree.Element(_R)
    if rpr is not None:
        run.append(copy.deepcopy(rpr))
    buffer = ""

    def flush_text() -> None:
        nonlocal buffer
        if buffer:
            t = etree.SubElement(run, _T)
            t.text = buffer
            set_space(t)
            buffer = ""

    for ch in text:
        if ch == "\t":
            flush_text()
            etree.SubElement(run, W + "tab")
        elif ch in "\r\n":
            flush_text()
            etree.SubElement(run, W + "br")
        else:
            buffer += ch
    flush_text()
    return [run]


def insertion_point(
    anchor_run: etree._Element, p: etree._Element, stamper: Stamper | None = None
) -> etree._Element:
    """The element after which new runs go: the run itself, or its enclosing revision wrapper.

    ``w:ins`` may not nest inside another ``w:ins``/``w:del``, so an anchor inside a pending
    revision hands over its outermost wrapper below the paragraph content level. With a
    ``stamper``, a wrapper that holds more text after the anchor is first split there (the tail
    moves to a copy with its own revision id), so new text lands right after the anchor and not
    after the other author's whole insertion.
    """
    element = anchor_run
    child = anchor_run
    for ancestor in anchor_run.iterancestors():
        if ancestor is p:
            break
        if ancestor.tag in REVISION_WRAPPERS:
            tail = list(child.itersiblings())
            if stamper is not None and tail:
                clone = etree.Element(ancestor.tag, attrib=dict(ancestor.attrib))
                clone.set(W + "id", stamper.revision_id())
                for sibling in tail:
                    clone.append(sibling)
                ancestor.addnext(clone)
            element = ancestor
        child = ancestor
    return element


def insert_runs(
    runs: list[etree._Element],
    p: etree._Element,
    after: etree._Element | None,
    stamper: Stamper,
    tracked: bool,
) -> etree._Element:
    """Place ``runs`` after ``after`` (or at the paragraph's start), wrapped in ``w:ins`` if tracked.

    Returns the inserted wrapper (or the last run when direct).
    """
    if tracked:
        wrapper = etree.Element(_INS, attrib=stamper.attributes())
        for run in runs:
            wrapper.append(run)
        items: list[etree._Element] = [wrapper]
    else:
        items = list(runs)
    if after is None:
        ppr = p.find(_PPR)
        index = 0 if ppr is None else p.index(ppr) + 1
        for offset, item in enumerate(items):
            p.insert(index + offset, item)
    else:
        for item in reversed(items):
            after.addnext(item)
    return items[-1]
