"""Section properties of the two versions: page setup and section breaks changed, tracked.

A section's properties live in its ``w:sectPr`` (a section-ending paragraph's, then the body's own
for the last section). When both versions have as many sections, each pair whose settings differ
(page size, margins, orientation, columns, first-page header, page numbering...) gets the revised
settings with the base's kept in a ``w:sectPrChange`` (ooxml-rules §5.6): accepting keeps the
revised page setup, rejecting restores the base's. Header and footer references stay out of the
change (the schema leaves them out of ``w:sectPrChange``; :mod:`.header_footer` writes those), and
so does the base's ``w:printerSettings``, which points at a part of the base package.

A section break the revised version added is written as Word tracks one: a paragraph whose mark
is inserted carries the new ``w:sectPr`` (the revised section's settings; its header and footer
references are left to :mod:`.header_footer`, and until then it shows the headers of the
section it was cut from, as in Word). When the break sits on a paragraph the redline inserted,
that paragraph takes it; when it sits on a paragraph both versions have, that paragraph's mark
becomes the inserted one and its own mark moves to an empty paragraph right after it, marked
deleted (:func:`_split_mark`), so neither version gains a paragraph. Accepting keeps the break;
rejecting removes the inserted mark and the break with it (our resolver and Word; LibreOffice
7.4 keeps the page style the break started: tests/data/lo_compare_differences.tsv). A break
the revised version removed has its mark deleted the same way (:func:`_remove_breaks`), and the
section left takes the revised settings. A break whose place cannot be found (inside a table, on
a paragraph the redline did not write, one moved to another paragraph) is not written: the
redline's report names it (a difference left out is never silent).
"""

from __future__ import annotations

import copy
from typing import Any

from lxml import etree

from ..document import WordDocument
from ..edit.markup import pieces_of
from ..edit.ppr import add_mark_revision, ensure_ppr, mark_revision, set_child
from ..edit.stamp import Stamper
from ..hashing import normalize_text
from ..vocabulary import REVISION_WRAPPERS
from ..xmlutil import W
from .align import Event

_SECT, _CHANGE, _PRINTER = W + "sectPr", W + "sectPrChange", W + "printerSettings"
#: Children of ``w:sectPr`` that are not page setup: references to other parts, and the change.
REFERENCES = frozenset((W + "headerReference", W + "footerReference"))
_NOT_SETTINGS = REFERENCES | {_CHANGE, _PRINTER}


def section_list(body: etree._Element) -> list[etree._Element]:
    """The ``w:sectPr`` of each section in order: section-ending paragraphs', then the body's."""
    return [s for s in body.iter(_SECT) if s.getparent().tag in (W + "pPr", W + "body")]


def _settings(sect: etree._Element) -> list[etree._Element]:
    return [child for child in sect if isinstance(child.tag, str) and child.tag not in _NOT_SETTINGS]


def _key(children: list[etree._Element]) -> list[bytes]:
    """The settings as comparable bytes (namespace declarations each package makes its own left out)."""
    return [etree.tostring(child, method="c14n", exclusive=True) for child in children]


def _ending(sect: etree._Element) -> etree._Element | None:
    """The paragraph a section break sits on (None for the body's own, last section)."""
    holder = sect.getparent()
    return holder.getparent() if holder is not None and holder.tag == W + "pPr" else None


def _left_out(reason: str, revised_block_id: str | None = None) -> list[dict[str, Any]]:
    place: dict[str, Any] = {"story": {"type": "main"}}
    if revised_block_id is not None:
        place["revisedBlockId"] = revised_block_id  # the paragraph the revised version ends it on
    return [{"reason": reason, "place": place}]


def _breaks_left_out(
    ours: list[etree._Element],
    theirs: list[etree._Element],
    events: list[Event],
    placed: dict[etree._Element, etree._Element],
) -> list[dict[str, Any]]:
    """Section breaks the revised version put on another paragraph, or added or removed where
    that could not be written (by the main story's alignment ``events``): named, since they are
    not written. ``ours``: the base's sections the redline keeps."""
    if len(ours) != len(theirs):
        return _left_out(
            f"the revised version has {len(theirs)} sections where the base has {len(ours)}: "
            "section breaks added or removed where they cannot be marked are not marked"
        )
    partner = {e.revised.block.element: e.base.block.element for e in events if e.kind == "pair"}
    partner.update(placed)
    for sect, other in zip(ours, theirs, strict=True):
        mine, theirs_p = _ending(sect), _ending(other)
        if theirs_p is not None and partner.get(theirs_p) is not mine:
            text = "".join(t.text or "" for t in theirs_p.iter(W + "t"))[:40]
            block_id = next(
                (e.revised.block.id for e in events if e.revised and e.revised.block.element is theirs_p),
                None,
            )
            return _left_out(
                f'the section break after "{text}" is not where the base has it and is not marked', block_id
            )
    return []


def _written(events: list[Event], made: list[etree._Element]) -> dict[etree._Element, etree._Element]:
    """Revised body paragraphs the redline inserted → the paragraph it wrote for each: the
    inserted paragraphs come in the revised order, so each is the next of ``made`` (the body's
    new paragraphs, in order) whose accepted text reads as the revised one's."""
    found: dict[etree._Element, etree._Element] = {}
    queue = list(made)
    for e in events:
        r = e.revised
        if e.kind != "revised" or r.in_table or r.block.element is None:
            continue
        want = normalize_text(r.block.text)
        for index, p in enumerate(queue):
            if normalize_text(pieces_of(p).text) == want:
                found[r.block.element] = p
                del queue[: index + 1]
                break
    return found


def _split_mark(p: etree._Element, stamper: Stamper, inserted: bool = True) -> None:
    """Give paragraph ``p`` an inserted mark and its own mark a paragraph of its own, deleted
    (``inserted``; the other way round to remove the break ``p`` carries).

    The empty paragraph after ``p`` takes ``p``'s properties and a deleted mark. Rejecting joins
    ``p`` to it (the inserted mark goes), and a joined paragraph takes the properties of the
    mark it ends with, so ``p`` is as it was; accepting removes the empty paragraph (its deleted
    mark goes and it has nothing to keep). Either way no paragraph is added to a version.
    """
    ppr = p.find(W + "pPr")
    twin = etree.Element(W + "p")
    if ppr is not None:
        kept = copy.deepcopy(ppr)
        for el in kept.findall(f"{W}rPr/*") + kept.findall(_SECT):
            if el.tag in REVISION_WRAPPERS or el.tag == _SECT:
                el.getparent().remove(el)
        for change in kept.iter(W + "pPrChange", W + "rPrChange"):
            change.set(W + "id", stamper.revision_id())  # a copy of a change is a change of its own
        twin.append(kept)
    p.addnext(twin)
    add_mark_revision(twin, W + ("del" if inserted else "ins"), stamper.attributes())
    add_mark_revision(p, W + ("ins" if inserted else "del"), stamper.attributes())


def _remove_breaks(doc: WordDocument, events: list[Event], stamper: Stamper) -> set[etree._Element]:
    """Mark deleted the section breaks only the base has, on a body paragraph the revised version
    keeps without a break (its mark deleted, its own mark moved to an empty inserted paragraph)
    or on a blank paragraph it dropped (its mark deleted); return their ``w:sectPr``. Accepting
    joins the section to the next, whose settings it takes; rejecting keeps the break."""
    paired = {e.base.block.element: e.revised.block.element for e in events if e.kind == "pair"}
    dropped = {e.base.block.element for e in events if e.kind == "base"}
    removed: set[etree._Element] = set()
    for sect in section_list(doc.body):
        p = _ending(sect)
        if p is None or p.getparent() is not doc.body or mark_revision(p, W + "ins") is not None:
            continue
        other = paired.get(p)
        if other is not None and other.find(f"{W}pPr/{W}sectPr") is None:
            _split_mark(p, stamper, inserted=False)
        elif p in dropped and not pieces_of(p).text.strip():
            if mark_revision(p, W + "del") is None:
                add_mark_revision(p, W + "del", stamper.attributes())
        else:
            continue
        removed.add(sect)
        doc.package.mark_dirty(doc.main_part)
    return removed


def _add_breaks(
    doc: WordDocument,
    theirs: list[etree._Element],
    events: list[Event],
    made: list[etree._Element],
    stamper: Stamper,
) -> dict[etree._Element, etree._Element]:
    """Write the section breaks only the revised version has (see the module text); return, for
    each break written, the revised paragraph ending its section → the redline's paragraph."""
    partner = {e.revised.block.element: e.base.block.element for e in events if e.kind == "pair"}
    breaks = {p for sect in section_list(doc.body) if (p := _ending(sect)) is not None}
    written: dict[etree._Element, etree._Element] | None = None
    placed: dict[etree._Element, etree._Element] = {}
    for other in theirs:
        ending = _ending(other)
        if ending is None or partner.get(ending) in breaks:
            continue
        base = partner.get(ending)
        if base is None:
            written = _written(events, made) if written is None else written
            target = written.get(ending)
            if target is None or mark_revision(target, W + "ins") is None:
                continue
        elif base.getparent() is doc.body and mark_revision(base, W + "ins") is None:
            target = base
            _split_mark(base, stamper)
        else:
            continue
        sect = etree.Element(_SECT, attrib=dict(other.attrib))
        sect.extend(copy.deepcopy(child) for child in _settings(other))
        set_child(ensure_ppr(target), "sectPr", sect)
        placed[ending] = target
        doc.package.mark_dirty(doc.main_part)
    return placed


def track_section_changes(
    doc: WordDocument,
    revised: WordDocument,
    events: list[Event],
    stamper: Stamper,
    made: list[etree._Element],
) -> list[dict[str, Any]]:
    """Write the section breaks the revised version added, then each changed section's revised
    settings over those of base ``doc``, tracked; return the differences left out (``reason``
    and ``place``). ``events``: the main story's alignment; ``made``: the body paragraphs the
    redline inserted, in order."""
    theirs = section_list(revised.body)
    placed = (
        _add_breaks(doc, theirs, events, made, stamper) if len(section_list(doc.body)) < len(theirs) else {}
    )
    removed = _remove_breaks(doc, events, stamper) if len(section_list(doc.body)) > len(theirs) else set()
    ours = [sect for sect in section_list(doc.body) if sect not in removed]
    left_out = _breaks_left_out(ours, theirs, events, placed)
    if len(ours) != len(theirs):
        return left_out
    for sect, other in zip(ours, theirs, strict=True):
        old, new = _settings(sect), _settings(other)
        if _key(old) == _key(new):
            continue
        kept = [child for child in sect if child.tag in REFERENCES]
        printer = [child for child in sect if child.tag == _PRINTER]
        change = etree.Element(_CHANGE, attrib=stamper.attributes())
        etree.SubElement(change, _SECT).extend(copy.deepcopy(child) for child in old + printer)
        for child in list(sect):
            sect.remove(child)
        sect.extend([*kept, *(copy.deepcopy(child) for child in new), *printer, change])
        doc.package.mark_dirty(doc.main_part)
    return left_out
