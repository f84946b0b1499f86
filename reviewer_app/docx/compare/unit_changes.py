"""Equations, pictures and drawings written into the redline as tracked changes, each as one unit.

The edit engine writes words; what a paragraph holds besides its words (:mod:`.units`) is
written here, after the story's words, so WmlComparer and Word see one object changed, not its
insides:

- a unit the revised paragraph no longer has is deleted whole: a picture's or drawing's run in
  ``w:del`` (a text box it draws goes with it as one object, its paragraphs untouched, as Word
  does), an equation in ``w:del`` around its ``m:oMathPara`` (or around the ``m:oMath`` when
  the math paragraph holds several) — run-level content the schema allows in a revision;
- a unit the revised paragraph added is copied from it in ``w:ins``: right after the unit it
  replaces, else at the same place of the paragraph's accepted text as in the revised one
  (counted in characters, as a note reference is placed), with the white space before it the
  base lacks. A picture's image part is copied into the base package (a part with the same
  bytes is reused) and related from the story's part; a part with relationships of its own (a
  chart, SmartArt) is copied with every part it reaches (:mod:`.part_copy`), and SmartArt's data
  part is pointed at the copy of its drawn shapes; a unit pointing at an external link, or at a
  part missing from the revised package, is not copied;
- paired paragraphs, deleted ones (an equation is not in a run, so the words' deletion leaves
  it) and added ones: an added paragraph is found among those the story's write made, in
  order, by its accepted text and, in a table row, its place there.

What cannot be written is handed back for the report (:func:`.units.unit_report`): never silent.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Callable

from lxml import etree

from ..edit.markup import _split_run, delete_runs, isolate, make_runs, pieces_of, runs_of, template_rpr
from ..edit.stamp import Stamper
from ..hashing import normalize_text
from ..package import Package
from ..vocabulary import DELETED, INSERTED, RANGE_MARKUP
from ..xmlutil import NS, R, W
from .align import Event
from .note_changes import offset_of, place_at
from .part_copy import PartCopier, complete
from .redline_ops import _P, _TC
from .units import M, UnitReader

_R, _RPR, _PPR, _INS, _DEL = W + "r", W + "rPr", W + "pPr", W + "ins", W + "del"
_MATH, _MATH_PARA = M + "oMath", M + "oMathPara"
_DOC_PR = "{%s}docPr" % NS["wp"]
_REL_ATTR = R.strip("{}")
Unit = tuple[str, etree._Element]
_DROPPED = RANGE_MARKUP | DELETED
_SHAPES = "{http://schemas.microsoft.com/office/drawing/2008/diagram}dataModelExt"


def _accepted(p: etree._Element) -> str:
    """``p``'s accepted text without note markers (what :func:`.note_changes.place_at` counts)."""
    read = pieces_of(p)
    return "".join(read.text[x.start : x.end] for x in read.pieces or () if x.kind != "note")


def _math_target(el: etree._Element) -> etree._Element:
    """What stands for equation ``el`` in the paragraph: its math paragraph when it is alone there."""
    parent = el.getparent()
    if parent is not None and parent.tag == _MATH_PARA and len(parent.findall(_MATH)) == 1:
        return parent
    return el


def _holder(el: etree._Element, p: etree._Element) -> tuple[etree._Element, etree._Element] | None:
    """The run holding drawing ``el`` in ``p`` and the run's child that contains it."""
    child = el
    for ancestor in el.iterancestors():
        if ancestor is p:
            return None
        if ancestor.tag == _R:
            return ancestor, child
        child = ancestor
    return None


class UnitWriter:
    """Writes the unit differences of one paired story into the base; hands back what it cannot."""

    def __init__(self, base: UnitReader, revised: UnitReader, stamper: Callable[[], Stamper]) -> None:
        self.base = base
        self.revised = revised
        self._stamper_of = stamper
        self._stamper: Stamper | None = None
        self._imported: dict[str, str] = {}
        self._parts = PartCopier(revised.package, base.package)
        self._doc_pr: int | None = None
        #: units deleted whole, and revised units with their copies: a text box drawn in one is
        #: written with it, not a story only one version has
        self.carried: set[etree._Element] = set()

    @property
    def stamper(self) -> Stamper:
        """Made on the first change (it scans every part for ids: most stories need none)."""
        if self._stamper is None:
            self._stamper = self._stamper_of()
        return self._stamper

    @property
    def next_revision_id(self) -> int | None:
        """The id after the last this writer gave (None when it wrote nothing)."""
        return self._stamper.next_revision_id if self._stamper is not None else None

    def write(self, events: list[Event], made: list[etree._Element]) -> list[Event]:
        """Write each event's unit differences; ``made``: paragraphs the story's write added, in
        order. Returns the events left unwritten."""
        left: list[Event] = []
        queue = list(made)
        for event in events:
            b = event.base.block.element if event.base is not None else None
            r = event.revised.block.element if event.revised is not None else None
            if r is None:
                ours = self.base.found(b) if b is not None else []
                if b is not None and ours and not self._change(b, ours, [], None):
                    left.append(event)
                continue
            theirs = self.revised.found(r)
            if b is None:
                target = _take(queue, r) if theirs else None
                if theirs and (target is None or not self._change(target, [], theirs, r)):
                    left.append(event)
                continue
            ours = self.base.found(b)
            if [n for n, _ in ours] != [n for n, _ in theirs] and not self._change(b, ours, theirs, r):
                left.append(event)
        return left

    # ------------------------------------------------------------------ one paragraph
    def _change(
        self, p: etree._Element, ours: list[Unit], theirs: list[Unit], r: etree._Element | None
    ) -> bool:
        """Turn ``p``'s units ``ours`` into ``theirs`` (of revised paragraph ``r``); False, with
        nothing written, when one of them cannot be."""
        matcher = difflib.SequenceMatcher(None, [n for n, _ in ours], [n for n, _ in theirs], autojunk=False)
        steps = [op for op in matcher.get_opcodes() if op[0] != "equal"]
        gone = [el for _, i1, i2, _, _ in steps for _, el in ours[i1:i2]]
        new = [el for _, _, _, j1, j2 in steps for _, el in theirs[j1:j2]]
        if not all(self._deletable(el, p) for el in gone) or not all(self._copyable(el, r) for el in new):
            return False
        for _tag, i1, i2, j1, j2 in steps:
            after: etree._Element | None = None
            for _, el in ours[i1:i2]:
                after = self._delete(el, p)
            for _, el in theirs[j1:j2]:
                assert r is not None  # new units come from a revised paragraph
                after = self._insert(p, el, r, after)
        if r is not None:
            self._trim(p, r)
        return True

    def _trim(self, p: etree._Element, r: etree._Element) -> None:
        """Delete the white space a removed unit leaves at the end of ``p`` ("Two ⟨picture⟩" →
        "Two"): the comparison key ignores it, a reader of the accepted paragraph would not."""
        have, want = pieces_of(p).text, pieces_of(r).text
        if len(have) > len(want) and have.startswith(want) and not have[len(want) :].strip():
            pieces = isolate(p, len(want), len(have), (0, 0))
            delete_runs(runs_of(pieces), p, self.stamper, tracked=True)

    def _deletable(self, el: etree._Element, p: etree._Element) -> bool:
        if el.tag == _MATH:
            return _math_target(el).tag == _MATH_PARA or el.getparent().tag != _MATH_PARA
        return _holder(el, p) is not None

    def _delete(self, el: etree._Element, p: etree._Element) -> etree._Element | None:
        """Delete unit ``el`` of ``p`` as tracked; the element it now sits in."""
        if el.tag == _MATH:
            target = _math_target(el)
            wrapper = etree.Element(_DEL, attrib=self.stamper.attributes())
            target.addprevious(wrapper)
            wrapper.append(target)
            self.carried.add(target)
            return wrapper
        run, child = _holder(el, p) or (None, None)
        assert run is not None and child is not None
        if any(c is not child and c.tag != _RPR for c in run):
            if child.getprevious() is not None and child.getprevious().tag != _RPR:
                run = _split_run(run, child, None)
            if child.getnext() is not None:
                _split_run(run, child.getnext(), None)
        delete_runs([run], p, self.stamper, tracked=True)
        self.carried.add(run)
        return run.getparent() if run.getparent() is not None and run.getparent().tag == _DEL else run

    # ------------------------------------------------------------------ insertion
    def _copyable(self, el: etree._Element, r: etree._Element | None) -> bool:
        source = _source(el, r) if r is not None else None
        return source is not None and all(self._importable(rel_id) for rel_id in _rel_ids(source))

    def _importable(self, rel_id: str) -> bool:
        """Whether relationship ``rel_id`` of the revised story points at parts we can copy."""
        rel = self.revised.relations.get(rel_id)
        package = self.revised.package
        if rel is None or rel.external or not complete(package, rel.target):
            return False
        shapes = _shape_links(package, rel.target) if rel.rel_type.endswith("/diagramData") else []
        return all(self._importable(ext.get("relId", "")) for ext in shapes)

    def _insert(
        self, p: etree._Element, el: etree._Element, r: etree._Element, after: etree._Element | None
    ) -> etree._Element:
        """Copy revised unit ``el`` of ``r`` into ``p`` as an insertion (after ``after`` if set)."""
        wrapper = etree.Element(_INS, attrib=self.stamper.attributes())
        source = _source(el, r)
        assert source is not None  # checked by _copyable
        if el.tag == _MATH:
            unit = _settled(copy.deepcopy(source))
        else:
            holder = _holder(el, r)
            rpr = template_rpr(holder[0]) if holder is not None else None
            unit = etree.Element(_R)
            if rpr is not None:
                unit.append(rpr)
            unit.append(_settled(copy.deepcopy(source)))
            self._relate(unit)
        rpr = template_rpr(unit) if unit.tag == _R else None
        trailing = ""
        if after is None:
            offset = offset_of(r, el)
            have, want = _accepted(p), _accepted(r)
            gap = want[len(have) : offset]
            if gap and not gap.strip():
                wrapper.extend(make_runs(gap, rpr))
            space = want[offset:][: len(want[offset:]) - len(want[offset:].lstrip())]
            if space and offset < len(have) and not have[offset:].startswith(space):
                trailing = space  # "sum ⟨x+y⟩ is": the key read "sum is" with one space
            after = place_at(p, offset, self.stamper)
        wrapper.append(unit)
        if trailing:
            wrapper.extend(make_runs(trailing, rpr))
        if after is None:
            ppr = p.find(_PPR)
            p.insert(0 if ppr is None else p.index(ppr) + 1, wrapper)
        else:
            after.addnext(wrapper)
        self.carried.update((unit, source))
        return wrapper

    def _relate(self, unit: etree._Element) -> None:
        """Point the copy's relationships at parts of the base package (copied when missing) and
        give its drawings ids of their own."""
        for el in unit.iter():
            for name, value in el.attrib.items():
                if etree.QName(name).namespace == _REL_ATTR:
                    el.set(name, self._import(value))
        for doc_pr in unit.iter(_DOC_PR):
            if self._doc_pr is None:
                ids = self.base.package.xml(self.base.part).iter(_DOC_PR)
                self._doc_pr = 1 + max((int(v) for el in ids if (v := el.get("id", "")).isdigit()), default=0)
            doc_pr.set("id", str(self._doc_pr))
            self._doc_pr += 1

    def _import(self, rel_id: str) -> str:
        """The base relationship id for the revised story's ``rel_id`` (a picture, say)."""
        if rel_id in self._imported:
            return self._imported[rel_id]
        rel = self.revised.relations[rel_id]
        package, part, source = self.base.package, self.base.part, self.revised.package
        if not source.has_part(source.relationships_part(rel.target)):
            data = source.read_bytes(rel.target)
            for mine in package.relationships(part):
                same = mine.rel_type == rel.rel_type and not mine.external and package.has_part(mine.target)
                if same and package.read_bytes(mine.target) == data:
                    self._imported[rel_id] = mine.rel_id
                    return mine.rel_id
        name = self._parts.copy(rel.target)
        self._imported[rel_id] = package.add_relationship(part, rel.rel_type, name)
        for ext in _shape_links(package, name) if rel.rel_type.endswith("/diagramData") else []:
            ext.set("relId", self._import(ext.get("relId", "")))
            package.mark_dirty(name)
        return self._imported[rel_id]


def _source(el: etree._Element, r: etree._Element) -> etree._Element | None:
    """What a copy of revised unit ``el`` takes from ``r``: the equation (with its math paragraph
    when alone there), or the content of the run drawing it (with its fallback copy)."""
    if el.tag == _MATH:
        return _math_target(el)
    holder = _holder(el, r)
    return holder[1] if holder is not None else None


def _settled(unit: etree._Element) -> etree._Element:
    """A copied unit as the revised version shows it, fit to sit in another document: pending
    changes inside it resolved (Word tracks edits inside an equation in its math runs, which the
    revised view left), its bookmarks and comment marks dropped (their names and ids are the
    revised version's)."""
    for el in list(unit.iter(*_DROPPED, *INSERTED)):
        parent = el.getparent()
        if parent is None:
            continue
        if el.tag in INSERTED:
            index = parent.index(el)
            for child in reversed(list(el)):
                parent.insert(index, child)
        parent.remove(el)
    return unit


def _shape_links(package: Package, data_part: str) -> list[etree._Element]:
    """The ``dsp:dataModelExt`` elements of a SmartArt data part: each names, by a relationship
    id *of the story part*, the drawn shapes Word and LibreOffice render."""
    return list(package.xml(data_part).iter(_SHAPES))


def _rel_ids(root: etree._Element) -> set[str]:
    return {
        value
        for el in root.iter()
        for name, value in el.attrib.items()
        if etree.QName(name).namespace == _REL_ATTR
    }


def _row_slot(p: etree._Element) -> tuple[etree._Element | None, tuple[int, int] | None]:
    """``p``'s table row, and where it sits there: its cell's place among the row's cells and
    its own among the cell's paragraphs; (None, None) outside a cell."""
    cell = p.getparent()
    row = cell.getparent() if cell is not None and cell.tag == _TC else None
    if cell is None or row is None:
        return None, None
    return row, ([c for c in row if c.tag == _TC].index(cell), [q for q in cell if q.tag == _P].index(p))


def _take(queue: list[etree._Element], r: etree._Element) -> etree._Element | None:
    """The paragraph of ``queue`` the story's write made for added paragraph ``r``: the first
    whose accepted text reads as ``r``'s, or, when a paragraph further in the same row reads so
    too and sits at ``r``'s place of its row, that one. It and those before it leave the queue
    (added paragraphs are found in order). The place matters in a row added whole: a paragraph
    holding only an equation or a picture reads as blank, as does a blank line before it."""
    want, (_, slot) = normalize_text(_accepted(r)), _row_slot(r)
    first, row = None, None
    for index, p in enumerate(queue):
        if first is not None and _row_slot(p)[0] is not row:
            break
        if normalize_text(_accepted(p)) != want:
            continue
        here, at = _row_slot(p)
        if first is None:
            first, row = index, here
        if slot is None or at == slot:
            first = index
            break
    if first is None:
        return None
    found = queue[first]
    del queue[: first + 1]
    return found
