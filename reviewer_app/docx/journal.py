"""Undo records of a person's acts, proportional to what an act touched, exact to the byte.

Keeping "the package as it was" before every act costs a serialization and a zip of the whole
document (80-190 ms on a 300-page contract) on every click. A :class:`ChangeJournal` instead
records, while an act runs:

* of the main story, the body's top-level children before the act and a deep copy of each one
  the act touches, taken before the first change to it. Every writer reports what it is about
  to change: the edit engine's :class:`~.edit.context.Checkpoints` (the same records its own
  rollback relies on), accept/reject (:mod:`.edit.resolve`) and the comment writer outside a
  batch call :func:`touching` / :func:`created_inside`;
* of every other part, its bytes before and after (small parts: comments, people, relationships,
  content types, styles or numbering when edited), compared so nothing needs reporting beyond
  what saving needs too: a part no one marked dirty during the act (``Package.mark_dirty``) and
  still the same tree is taken as unchanged, not serialized again (a resolve on a 2,000-comment
  contract would otherwise serialize all five comment parts, ~10 ms, to change one).

:meth:`ChangeJournal.finish` turns that into an :class:`UndoEntry` whose ``undo``/``redo`` swap the
two states in place. When the act only rewrote the text of top-level paragraphs (accepting one
change, a one-word edit), the swap keeps those paragraph elements and re-reads them alone, so
undo does not cost a walk of the whole document either.
"""

from __future__ import annotations

import copy
import logging
import weakref
from dataclasses import dataclass

from lxml import etree

from . import xmlutil
from .document import WordDocument
from .xmlutil import W, parse_xml

log = logging.getLogger(__name__)

_P = W + "p"
#: up to this many touched tops are found by searching the body's children for each one
_FEW = 32
#: the journal of the act running now (acts run one at a time, on the UI thread)
_active: ChangeJournal | None = None
#: The bytes of the other parts as the last act left them, by document, with the version they
#: are true at and the part roots they were serialized from: the next act starts from the same
#: state, so it takes them instead of serializing every changed part again (comments.xml with
#: 2,000 comments costs ~8 ms a time).
_LEFT: weakref.WeakKeyDictionary[WordDocument, tuple[int, dict[str, tuple[etree._Element, bytes]]]] = (
    weakref.WeakKeyDictionary()
)


#: The body's top-level children as the last act left them, by document, with the structure
#: version they are true at: listing 6,000 children makes as many Python proxies (~10 ms), and an
#: act that changes no structure (a keystroke) leaves the list as it was. Every writer that adds,
#: removes or moves a top-level element reports it (``structure_changed``), as the snapshot relies on.
_CHILDREN: weakref.WeakKeyDictionary[WordDocument, tuple[int, etree._Element, list[etree._Element]]] = (
    weakref.WeakKeyDictionary()
)


def _body_children(doc: WordDocument) -> list[etree._Element]:
    """The body's top-level children now (the list is shared: never change it)."""
    version, body, children = _CHILDREN.get(doc, (None, None, []))
    if version == doc.structure_changes and body is doc.body and len(children) == len(doc.body):
        return children
    children = list(doc.body)
    _CHILDREN[doc] = (doc.structure_changes, doc.body, children)
    return children


def touching(element: etree._Element) -> None:
    """``element`` is about to change (or be detached): the running act's journal keeps its
    top-level ancestor as it is now. Elements of other parts and other documents are ignored."""
    if _active is not None:
        _active.touch(element)


def created_inside(element: etree._Element) -> None:
    """``element`` was just inserted: the journal keeps its top-level ancestor without it."""
    if _active is not None:
        _active.created(element)


def _swap_content(a: etree._Element, b: etree._Element) -> None:
    """Exchange the attributes, text and children of ``a`` and ``b`` (tails stay)."""
    a_attrib, a_text, a_children = dict(a.attrib), a.text, list(a)
    b_attrib, b_text, b_children = dict(b.attrib), b.text, list(b)
    a_tail, b_tail = a.tail, b.tail
    a.clear()
    b.clear()
    a.attrib.update(b_attrib)
    b.attrib.update(a_attrib)
    a.text, b.text = b_text, a_text
    a.tail, b.tail = a_tail, b_tail
    a.extend(b_children)
    b.extend(a_children)


@dataclass(slots=True)
class _PartState:
    """One side of an act for the parts other than the main story."""

    bytes_by_part: dict[str, bytes | None]  # None: the part does not exist on this side
    bookkeeping: tuple[frozenset[str], frozenset[str], tuple[str, ...]]  # dirty, removed, added


class UndoEntry:
    """What undoing and redoing one act needs; ``undo`` and ``redo`` alternate, starting with undo."""

    def __init__(
        self,
        doc: WordDocument,
        in_place: list[tuple[etree._Element, etree._Element]] | None,
        before: list[tuple[int, etree._Element]],
        after: list[tuple[int, etree._Element]],
        parts: tuple[_PartState, _PartState],
        definitions: bool,
    ) -> None:
        self._doc = doc
        self._in_place = in_place
        self._states = (before, after)
        self._parts = parts
        self._definitions = definitions

    def undo(self) -> None:
        self._apply(0)

    def redo(self) -> None:
        self._apply(1)

    def _apply(self, side: int) -> None:
        doc = self._doc
        if self._in_place is not None:
            for live, stored in self._in_place:
                _swap_content(live, stored)
        else:
            self._replace_children(doc.body, self._states[1 - side], self._states[side])
        state = self._parts[side]
        doc.package.restore_state(state.bytes_by_part, state.bookkeeping, parse_xml)
        if self._definitions:
            doc.reload_definitions()
        if self._in_place is not None and not self._definitions:
            doc.paragraphs_changed([live for live, _ in self._in_place])
        else:
            doc.structure_changed()

    @staticmethod
    def _replace_children(
        body: etree._Element,
        current: list[tuple[int, etree._Element]],
        target: list[tuple[int, etree._Element]],
    ) -> None:
        """Remove ``current``'s own elements, then put ``target``'s at their positions.

        Elements both sides share (the untouched ones) stay where they are, in the same order.
        """
        for _, el in current:
            body.remove(el)
        if len(target) <= 64:
            for index, el in target:
                body.insert(index, el)
            return
        shared = iter(list(body))
        merged: list[etree._Element] = []
        for index, el in target:
            while len(merged) < index:
                merged.append(next(shared))
            merged.append(el)
        merged.extend(shared)
        body[:] = merged


class ChangeJournal:
    """Records one act (see the module docstring); use :meth:`finish` to get its undo entry."""

    def __init__(self, doc: WordDocument) -> None:
        global _active
        self._doc = doc
        self._body = doc.body
        self._children = _body_children(doc)
        self._copies: dict[etree._Element, etree._Element] = {}
        #: tops first copied when something was inserted into them: live element -> its copy
        self._created_in: dict[etree._Element, dict[etree._Element, etree._Element]] = {}
        self._whole_body: list[etree._Element] | None = None
        self._bookkeeping_before = doc.package.bookkeeping()
        self._marks_before = doc.package.marks()
        self._parts_before = self._part_bytes(set(self._bookkeeping_before[0]))
        self._roots_before = {name: doc.package.xml(name) for name in self._parts_before}
        self._present_before = set(doc.package.part_names())
        self._structure_before = doc.structure_changes
        self._previous = _active
        _active = self

    # ------------------------------------------------------------- reports
    def _top_level(self, element: etree._Element) -> etree._Element | None:
        node, parent = element, element.getparent()
        while parent is not None and parent is not self._body:
            node, parent = parent, parent.getparent()
        return node if parent is self._body else None

    def touch(self, element: etree._Element) -> None:
        if element is self._body or element is self._doc.root:
            self._copy_whole_body()
            return
        top = self._top_level(element)
        if top is not None and top not in self._copies:
            self._copies[top] = copy.deepcopy(top)

    def created(self, element: etree._Element) -> None:
        top = self._top_level(element)
        if top is None or top is element:
            return  # outside the body, or a new top-level element (absent from the "before" side)
        if top not in self._copies:
            duplicate = copy.deepcopy(top)
            self._copies[top] = duplicate
            # writers report several insertions after making them all: map each to its copy
            self._created_in[top] = dict(zip(top.iter(), duplicate.iter(), strict=True))
        counterpart = self._created_in.get(top, {}).get(element)
        if counterpart is not None and counterpart.getparent() is not None:
            counterpart.getparent().remove(counterpart)

    def _copy_whole_body(self) -> None:
        if self._whole_body is None:
            self._whole_body = [self._copies.get(el) or copy.deepcopy(el) for el in self._children]

    # ------------------------------------------------------------- finishing
    def _part_bytes(self, names: set[str]) -> dict[str, bytes]:
        doc = self._doc
        version, left = _LEFT.get(doc, (None, {}))
        found: dict[str, bytes] = {}
        for name in names - {doc.main_part}:
            kept = left.get(name) if version == doc.version else None
            if kept is not None and doc.package.has_part(name) and doc.package.xml(name) is kept[0]:
                found[name] = kept[1]
            else:
                found[name] = doc.package.read_bytes(name)
        return found

    def finish(self) -> UndoEntry | None:
        """Stop recording; the undo entry of what the act changed (None when it changed nothing)."""
        global _active
        _active = self._previous
        doc = self._doc
        bookkeeping_after = doc.package.bookkeeping()
        parts_before, parts_after = self._changed_parts(bookkeeping_after)
        after_children = _body_children(doc)
        if self._whole_body is not None:
            self._copies = dict(zip(self._children, self._whole_body, strict=True))
        unchanged = not self._copies and not parts_before and after_children == self._children
        if unchanged and bookkeeping_after == self._bookkeeping_before:
            return None
        definitions = bool(
            set(parts_before) & {doc.part_name(xmlutil.REL_STYLES), doc.part_name(xmlutil.REL_NUMBERING)}
        )
        in_place = None
        if (
            doc.structure_changes == self._structure_before
            and after_children == self._children
            and all(top.tag == _P for top in self._copies)
        ):
            in_place = list(self._copies.items())
        if after_children == self._children:
            before, after = self._rewritten_in_order()
        else:
            before, after = self._sides(after_children)
        states = (
            _PartState(parts_before, self._bookkeeping_before),
            _PartState(parts_after, bookkeeping_after),
        )
        return UndoEntry(doc, in_place, before, after, states, definitions)

    def _rewritten_in_order(
        self,
    ) -> tuple[list[tuple[int, etree._Element]], list[tuple[int, etree._Element]]]:
        """Both sides when the body kept its children in order (a keystroke, one accept): only
        the touched tops differ, found by position without walking ten thousand others in Python."""
        children, copies = self._children, self._copies
        if len(copies) <= _FEW:
            # a top made and dropped again within the act is on neither side
            positions = sorted((children.index(el), el) for el in copies if el.getparent() is self._body)
        else:  # many tops (a whole-body act): one walk rather than a search per top
            positions = [(i, el) for i, el in enumerate(children) if el in copies]
        return [(i, self._copies[el]) for i, el in positions], positions

    def _sides(
        self, after_children: list[etree._Element]
    ) -> tuple[list[tuple[int, etree._Element]], list[tuple[int, etree._Element]]]:
        """Both sides of an act that inserted, removed or moved top-level content: the elements
        that are not shared, unchanged, by the two, with their positions."""
        after_ids = {id(el) for el in after_children}
        shared = {id(el) for el in self._children if el not in self._copies and id(el) in after_ids}
        if len(shared) != len(self._children) - len(self._copies):
            log.error("an act moved top-level content it did not report; its undo may be incomplete")
        before = [
            (i, self._copies.get(el, el)) for i, el in enumerate(self._children) if id(el) not in shared
        ]
        after = [(i, el) for i, el in enumerate(after_children) if id(el) not in shared]
        return before, after

    def _changed_parts(
        self, bookkeeping_after: tuple[frozenset[str], frozenset[str], tuple[str, ...]]
    ) -> tuple[dict[str, bytes | None], dict[str, bytes | None]]:
        """Bytes before and after of every other part the act changed (None: absent on that side).

        A part clean before the act still holds its archived bytes; a dirty one was serialized
        when the journal began.
        """
        package = self._doc.package
        present_after = set(package.part_names())
        dirty_before = self._bookkeeping_before[0]
        candidates = set(dirty_before | bookkeeping_after[0]) | (self._present_before ^ present_after)
        candidates.discard(self._doc.main_part)
        before: dict[str, bytes | None] = {}
        after: dict[str, bytes | None] = {}
        left: dict[str, tuple[etree._Element, bytes]] = {}
        for name in candidates:
            if self._untouched(name, bookkeeping_after[0]):
                left[name] = (self._roots_before[name], self._parts_before[name])
                continue
            if name not in self._present_before:
                old = None
            elif name in dirty_before:
                old = self._parts_before[name]
            else:
                old = package.archived_bytes(name)
            new = package.read_bytes(name) if name in present_after else None
            if old != new:
                before[name], after[name] = old, new
            if new is not None and name in bookkeeping_after[0]:
                left[name] = (package.xml(name), new)
        _LEFT[self._doc] = (self._doc.version, left)
        return before, after

    def _untouched(self, name: str, dirty_after: frozenset[str]) -> bool:
        """True when part ``name`` was dirty before and after the act, is the same tree and was
        not marked changed during the act: its bytes are the ones it began with."""
        package = self._doc.package
        return (
            name in self._roots_before
            and name in dirty_after
            and not package.marked_since(name, self._marks_before)
            and package.xml(name) is self._roots_before[name]
        )
