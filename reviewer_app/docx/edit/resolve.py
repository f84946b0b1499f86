"""Accepting and rejecting tracked changes, one at a time or all at once, as Word does.

Only a person resolves changes (contract decision 7): these functions back the redline panel and
``DocxReviewer.accept_all``/``reject_all``; the agent has no tool for them. They act on the live
document outside a batch, so there are no checkpoints; the parts they change are marked dirty.
One change resolved inside paragraphs (run insertions, deletions and moves, formatting, an
accepted property change, a paragraph mark that joins nothing) re-reads only those paragraphs:
a click on Accept must not re-walk a 300-page contract. Anything that can add, remove or restyle
blocks (a join, table structure, a rejected property change, numbering, section and table
properties) has the whole snapshot rebuilt.

What is resolved is what :mod:`..revisions` reads: :func:`~..revisions.revision_records` lists the
revision elements of a story, :func:`~..revisions.change_groups` folds them into the changes
``list_changes`` reports. A change is addressed by that id; a replacement's deletion and insertion
are two changes, a move's two halves (``w:moveFrom``/``w:moveTo`` inside ranges sharing one
``w:name``) are resolved together, because resolving one half alone would duplicate or lose the
moved text.

Semantics: accepting an insertion unwraps it, accepting a deletion removes it with its content;
rejecting does the opposite (``w:delText`` becomes ``w:t`` again, ``w:delInstrText``
``w:instrText``). A deletion nested in another author's insertion is removed by accepting the
deletion and by rejecting the insertion. Paragraph marks: accepting a deleted mark or rejecting
an inserted one joins the paragraph with the next one, **as LibreOffice does** (verified with
``lo_accept_all.py``/``lo_reject_all.py``): the joined paragraph keeps the first paragraph's
properties, unless nothing of the first paragraph is left (a wholly deleted paragraph), in which
case the next paragraph's properties win; the surviving paragraph mark (its run properties and
any section break) is the second paragraph's. A mark with no following paragraph in the same
container (last paragraph of a cell or of the body, a paragraph before a table) cannot be joined:
like LibreOffice, the record is dropped and the paragraph stays. Property changes and table
structure are handled in :mod:`.resolve_table`.

The work is done in single passes: records are collected once per story, content first, then
properties, table structure, and paragraph marks last (in reverse order, so a chain of joined
paragraphs folds from the end); elements a previous step removed are skipped.
"""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

from .. import journal, xmlutil
from ..document import WordDocument
from ..revisions import ChangeGroup, RevisionRecord, change_groups, revision_records
from ..vocabulary import CUSTOM_XML_RANGES, DELETED, MOVE_RANGES, MOVES, RANGE_MARKUP, REVISION_WRAPPERS
from ..xmlutil import MC, W
from .resolve_table import drop_if_empty, prune_tables, rescue_markers, resolve_property, resolve_structure

_INSERTING = frozenset(("ins", "moveTo"))
_DELETING = frozenset(("del", "moveFrom"))
_RUN_MARKS = frozenset(("runMarkIns", "runMarkDel"))
_MARKS = frozenset(("markIns", "markDel", "markMoveFrom", "markMoveTo"))
_MARK_INSERTED = frozenset(("markIns", "markMoveTo"))
_STRUCTURE = frozenset(("rowIns", "rowDel", "cellIns", "cellDel"))
_MOVES = frozenset(("moveFrom", "moveTo", "markMoveFrom", "markMoveTo"))
#: Kinds whose resolution changes only the text or marks of the paragraph holding them (a mark's
#: join is checked after the fact); an accepted ``w:pPrChange`` only drops its record.
_IN_PARAGRAPH = _INSERTING | _DELETING | _RUN_MARKS | _MARKS | frozenset(("rPrChange", "markRPrChange"))
_UNDELETE = {W + "delText": W + "t", W + "delInstrText": W + "instrText"}
#: Paragraph children that may stand between two paragraphs' content once they are joined.
_BETWEEN = RANGE_MARKUP | CUSTOM_XML_RANGES
#: Elements that are characters of a paragraph (LibreOffice's test for "the paragraph is empty").
_CHARACTERS = tuple(
    W + t
    for t in (
        "t",
        "delText",
        "tab",
        "ptab",
        "br",
        "cr",
        "sym",
        "noBreakHyphen",
        "softHyphen",
        "drawing",
        "pict",
        "object",
        "fldChar",
        "fldSimple",
        "footnoteReference",
        "endnoteReference",
    )
) + ("{%s}oMath" % xmlutil.NS["m"], MC + "AlternateContent")
#: Parts besides the main story whose revisions accept/reject-all resolve (relationship suffixes).
_OTHER_PARTS = (
    "header",
    "footer",
    "footnotes",
    "endnotes",
    "comments",
    "styles",
    "numbering",
    "glossaryDocument",
)


# ----------------------------------------------------------------- stories
def _stories(doc: WordDocument) -> list[tuple[str, etree._Element]]:
    """(part name, root) of every part that can hold revisions; the main story first."""
    found = [(doc.main_part, doc.body)]
    seen = {doc.main_part}
    package = doc.package
    for suffix in _OTHER_PARTS:
        for rel in package.related_parts(doc.main_part, suffix):
            if rel.target not in seen and rel.target.endswith(".xml"):
                seen.add(rel.target)
                found.append((rel.target, package.xml(rel.target)))
    return found


def _move_ranges(root: etree._Element) -> tuple[dict[etree._Element, str], dict[str, list[etree._Element]]]:
    """Which move each ``w:moveFrom``/``w:moveTo`` belongs to, and each move's range markers.

    One pass in document order: a move element belongs to the innermost open range of its side;
    ranges pair start to end by ``w:id`` and the two sides of a move share ``w:name``.
    """
    names: dict[etree._Element, str] = {}
    markers: dict[str, list[etree._Element]] = {}
    open_ranges: dict[str, dict[str, str]] = {"From": {}, "To": {}}
    for el in root.iter(*MOVE_RANGES, *MOVES):
        local = etree.QName(el).localname
        side = "From" if local.startswith("moveFrom") else "To"
        if local.endswith("RangeStart"):
            name = el.get(W + "name") or ""
            open_ranges[side][el.get(W + "id") or ""] = name
            markers.setdefault(name, []).append(el)
        elif local.endswith("RangeEnd"):
            name = open_ranges[side].pop(el.get(W + "id") or "", "")
            markers.setdefault(name, []).append(el)
        elif open_ranges[side]:
            names[el] = next(reversed(open_ranges[side].values()))
    return names, markers


def _attached(el: etree._Element, root: etree._Element) -> bool:
    """False once an earlier step removed ``el`` (or an ancestor) from the story."""
    return any(a is root for a in el.iterancestors())


# ----------------------------------------------------------------- content
def _unwrap(el: etree._Element) -> None:
    for child in list(el):
        el.addprevious(child)
    _remove(el)


def _remove(el: etree._Element) -> None:
    """Detach ``el`` (and its tail, which in WordprocessingML is at most indentation)."""
    parent = el.getparent()
    if parent is not None:
        parent.remove(el)


def _prune_wrappers(el: etree._Element | None) -> None:
    """Remove ``w:ins``/``w:del`` wrappers a resolution left empty (innermost first)."""
    while el is not None and el.tag in REVISION_WRAPPERS and len(el) == 0:
        parent = el.getparent()
        _remove(el)
        el = parent


def _undelete(el: etree._Element) -> None:
    """Deleted text of a rejected deletion becomes text again; nested deletions stay deleted."""
    for node in el.iter(*_UNDELETE):
        nested = False
        for ancestor in node.iterancestors():
            if ancestor is el:
                break
            if ancestor.tag in DELETED:
                nested = True
                break
        if not nested:
            node.tag = _UNDELETE[node.tag]


def _resolve_content(record: RevisionRecord, accept: bool) -> None:
    el = record.element
    parent = el.getparent()
    if record.kind in _RUN_MARKS:
        # a mark on a math control character: the character itself is not removed (rare; Word
        # writes these only inside equations), the revision record goes
        _remove(el)
        drop_if_empty(parent)
        return
    if (record.kind in _INSERTING) == accept:
        if record.kind in _DELETING:
            _undelete(el)
        _unwrap(el)
    else:
        rescue_markers(el, keep_runs=True)
        _remove(el)
    _prune_wrappers(parent)


# ----------------------------------------------------------------- paragraph marks
def _has_characters(p: etree._Element) -> bool:
    return any(el.tag not in (W + "t", W + "delText") or el.text for el in p.iter(*_CHARACTERS))


def _take_mark(p: etree._Element, source_ppr: etree._Element | None) -> None:
    """Give ``p`` the paragraph mark of ``source_ppr``: its run properties and section break."""
    ppr = p.find(W + "pPr")
    if ppr is not None:
        for old in ppr.findall(W + "rPr") + ppr.findall(W + "sectPr"):
            ppr.remove(old)
    moved = [] if source_ppr is None else source_ppr.findall(W + "rPr") + source_ppr.findall(W + "sectPr")
    if not moved:
        drop_if_empty(ppr)
        return
    if ppr is None:
        ppr = etree.Element(W + "pPr")
        p.insert(0, ppr)
    change = ppr.find(W + "pPrChange")
    for el in moved:
        if change is not None:
            change.addprevious(el)
        else:
            ppr.append(el)


def _join_with_next(p: etree._Element) -> None:
    """Join paragraph ``p`` with the next paragraph of its container (see the module docstring)."""
    between: list[etree._Element] = []
    following = p.getnext()
    while following is not None and (not isinstance(following.tag, str) or following.tag in _BETWEEN):
        if isinstance(following.tag, str):
            between.append(following)
        following = following.getnext()
    if following is None or following.tag != W + "p":
        return
    if _has_characters(p):
        _take_mark(p, following.find(W + "pPr"))
        for el in between + [c for c in following if c.tag != W + "pPr"]:
            p.append(el)
        _remove(following)
        return
    moved = [c for c in p if c.tag != W + "pPr"] + between
    index = 1 if following.find(W + "pPr") is not None else 0
    for el in moved:
        following.insert(index, el)
        index += 1
    _remove(p)


def _resolve_mark(record: RevisionRecord, accept: bool, joins: list[etree._Element]) -> None:
    el = record.element
    rpr = el.getparent()
    ppr = rpr.getparent() if rpr is not None else None
    p = ppr.getparent() if ppr is not None else None
    _remove(el)
    drop_if_empty(rpr)
    drop_if_empty(ppr)
    if p is not None and (record.kind in _MARK_INSERTED) != accept:
        joins.append(p)


# ----------------------------------------------------------------- one story
def _resolve_story(root: etree._Element, records: list[RevisionRecord], accept: bool) -> bool:
    """Resolve ``records`` (document order) of the story under ``root``; True when paragraphs joined."""
    content = [r for r in records if r.kind in _INSERTING | _DELETING | _RUN_MARKS]
    marks = [r for r in records if r.kind in _MARKS]
    structure = [r for r in records if r.kind in _STRUCTURE]
    properties = [
        r for r in records if r.kind not in _INSERTING | _DELETING | _RUN_MARKS | _MARKS | _STRUCTURE
    ]
    for record in content:
        if _attached(record.element, root):
            _resolve_content(record, accept)
    for record in properties:
        if _attached(record.element, root):
            resolve_property(record.kind, record.element, accept)
    tables: set[etree._Element] = set()
    for record in structure:
        if _attached(record.element, root):
            resolve_structure(record.kind, record.element, accept, tables)
    prune_tables(tables)
    joins: list[etree._Element] = []
    for record in marks:
        if _attached(record.element, root):
            _resolve_mark(record, accept, joins)
    for p in reversed(joins):
        if _attached(p, root):
            _join_with_next(p)
    return bool(joins)


def _remove_range_markers(root: etree._Element, markers: Iterable[etree._Element]) -> None:
    for el in markers:
        if _attached(el, root):
            _remove(el)


def _custom_xml_markers(root: etree._Element, author: str | None) -> list[etree._Element]:
    """customXml revision range markers (of one author; an end pairs with its start by id)."""
    found = list(root.iter(*CUSTOM_XML_RANGES))
    if author is None:
        return found
    ids = {el.get(W + "id") for el in found if el.tag.endswith("Start") and el.get(W + "author") == author}
    return [el for el in found if el.get(W + "id") in ids]


class _StoryChanges:
    """The records and changes of one story, and the selection of them being resolved."""

    def __init__(self, part: str, root: etree._Element) -> None:
        self.part = part
        self.root = root
        self.records = revision_records(root)
        self.groups: list[ChangeGroup] = change_groups(self.records) if self.records else []
        self.move_names, self.move_markers = _move_ranges(root) if self.records else ({}, {})

    def with_partners(self, chosen: set[RevisionRecord]) -> tuple[set[RevisionRecord], set[str]]:
        """``chosen`` plus the other half of every move it touches; the moves' names."""
        names = {
            self.move_names[r.element] for r in chosen if r.kind in _MOVES and r.element in self.move_names
        }
        if names:
            chosen |= {
                r for r in self.records if r.kind in _MOVES and self.move_names.get(r.element) in names
            }
        return chosen, names

    def resolve(self, chosen: set[RevisionRecord], accept: bool, names: set[str]) -> tuple[int, bool]:
        """Resolve the chosen records; return how many reported changes that covered and whether
        paragraphs were joined."""
        ordered = [r for r in self.records if r in chosen]
        self._report_touched(ordered, names)
        joined = _resolve_story(self.root, ordered, accept)
        for name in names:
            _remove_range_markers(self.root, self.move_markers.get(name, ()))
        return sum(1 for g in self.groups if any(r in chosen for r in g.records)), joined

    def _report_touched(self, records: list[RevisionRecord], names: set[str]) -> None:
        """Tell the undo journal what resolving ``records`` may change: each record's place, a
        mark's paragraph and what follows it up to the paragraph it may join, the move ranges."""
        for record in records:
            journal.touching(record.element)
            if record.kind in _MARKS and record.paragraph is not None:
                following = record.paragraph.getnext()
                while following is not None:
                    journal.touching(following)
                    if following.tag == W + "p":
                        break
                    following = following.getnext()
        for name in names:
            for marker in self.move_markers.get(name, ()):
                journal.touching(marker)

    def paragraphs_of(
        self, chosen: set[RevisionRecord], accept: bool, names: set[str]
    ) -> list[etree._Element] | None:
        """The paragraphs resolving ``chosen`` changes in place, or None when it may add, remove
        or restyle blocks (see the module docstring); move range markers count with their paragraph."""
        paragraphs: dict[etree._Element, None] = {}
        for record in chosen:
            local = record.kind in _IN_PARAGRAPH or (accept and record.kind == "pPrChange")
            if not local or record.paragraph is None:
                return None
            paragraphs[record.paragraph] = None
        for name in names:
            for marker in self.move_markers.get(name, ()):
                paragraph = next(marker.iterancestors(W + "p"), None)
                if paragraph is None:
                    return None
                paragraphs[paragraph] = None
        return list(paragraphs)


def _finish(doc: WordDocument, parts: set[str], paragraphs: list[etree._Element] | None = None) -> None:
    """Mark changed parts dirty and let the snapshot (and styles/numbering) be read again.

    ``paragraphs``: the main-story paragraphs the resolution changed in place (re-read alone);
    None when the structure may have changed (everything is read again).
    """
    for part in parts:
        doc.package.mark_dirty(part)
    definitions = {doc.part_name(xmlutil.REL_STYLES), doc.part_name(xmlutil.REL_NUMBERING)}
    if parts & definitions:
        doc.reload_definitions()
        paragraphs = None
    if not parts:
        return
    if paragraphs is None:
        doc.structure_changed()
    else:
        doc.paragraphs_changed(paragraphs)


# ----------------------------------------------------------------- public API
def _resolve_all(doc: WordDocument, accept: bool, author: str | None) -> int:
    count = 0
    dirty: set[str] = set()
    for part, root in _stories(doc):
        story = _StoryChanges(part, root)
        extra = _custom_xml_markers(root, author)
        if not story.records and not extra:
            continue
        if author is None:
            chosen, names = set(story.records), set(story.move_markers)
        else:
            grouped = {r for g in story.groups for r in g.records}
            chosen = {r for g in story.groups if g.author == author for r in g.records}
            chosen |= {r for r in story.records if r not in grouped and r.author == author}
            chosen, names = story.with_partners(chosen)
        if chosen:
            count += story.resolve(chosen, accept, names)[0]
            dirty.add(part)
        if extra:
            for marker in extra:
                journal.touching(marker)
            _remove_range_markers(root, extra)
            dirty.add(part)
    _finish(doc, dirty)
    return count


def _resolve_one(doc: WordDocument, change_id: str, accept: bool) -> bool:
    for part, root in _stories(doc):
        story = _StoryChanges(part, root)
        picked = [g for g in story.groups if g.id == change_id]
        if not picked:
            continue
        chosen = {r for g in picked for r in g.records}
        keys = {(g.id, g.type, g.author) for g in picked}
        # mc:Fallback copies of the same content carry the same revision and must follow it
        chosen |= {r for r in story.records if r.fallback and (r.id, r.type, r.author) in keys}
        chosen, names = story.with_partners(chosen)
        paragraphs = story.paragraphs_of(chosen, accept, names) if part == doc.main_part else []
        if story.resolve(chosen, accept, names)[1]:
            paragraphs = None
        _finish(doc, {part}, paragraphs)
        return True
    return False


def accept_change(doc: WordDocument, change_id: str) -> bool:
    """Accept the change ``list_changes`` reports with ``change_id`` (False when there is none).

    The main story is searched first, then headers, footers, notes and comments. Should several
    changes share the id (a malformed file), all of them are accepted: the id is the only handle
    the panel has, and leaving one of them unreachable would be worse.
    """
    return _resolve_one(doc, str(change_id), accept=True)


def reject_change(doc: WordDocument, change_id: str) -> bool:
    """Reject the change with ``change_id`` (see :func:`accept_change`)."""
    return _resolve_one(doc, str(change_id), accept=False)


def accept_all(doc: WordDocument, author: str | None = None) -> int:
    """Accept every change in every story (or only ``author``'s); return how many were accepted.

    The count is of changes as ``list_changes`` reports them (a move counts as its two halves),
    over all stories. Without ``author`` no revision markup is left in any part, including
    comments, styles and numbering.
    """
    return _resolve_all(doc, accept=True, author=author)


def reject_all(doc: WordDocument, author: str | None = None) -> int:
    """Reject every change in every story (or only ``author``'s); return how many were rejected."""
    return _resolve_all(doc, accept=False, author=author)
