"""New lists for ``numbering: {kind: "newList"}`` (contract §5.5 "Numbering states").

A new list is a fresh ``w:abstractNum`` (nine levels, bullets or the usual 1. / a. / i.
cascade) and a ``w:num`` instance pointing at it, appended to ``word/numbering.xml``. A
package without a numbering part gets one, with its relationship and content type, so the
paragraphs that reference the list are never left pointing at nothing (folio #1103).

Rollback: appended definitions are recorded as created elements; a created part is recorded
in ``created_parts`` after the content-types and relationships roots were checkpointed, so a
refused operation leaves the package exactly as it was.
"""

from __future__ import annotations

import posixpath
import random
import weakref

from lxml import etree

from ..xmlutil import NS, REL_NUMBERING, W
from .context import EditContext
from .ppr import PropertyWriter

NUMBERING_REL_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering"
NUMBERING_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"
_CONTENT_TYPES = "[Content_Types].xml"
_BULLETS = ("\u2022", "\u25e6", "\u25aa")
_NUMBER_FORMATS = ("decimal", "lowerLetter", "lowerRoman")
#: Indentation per level (twips) and the hanging space for the label, as Word's default lists.
_STEP, _HANGING = 720, 360


def _rels_name(part: str) -> str:
    folder, base = posixpath.split(part)
    return posixpath.join(folder, "_rels", base + ".rels")


def _numbering_root(ctx: EditContext) -> tuple[str, etree._Element]:
    """The numbering part (name, root), created with its relationship and content type if absent."""
    return definitions_root(ctx, REL_NUMBERING, NUMBERING_REL_TYPE, "numbering", NUMBERING_CONTENT_TYPE)


def definitions_root(
    ctx: EditContext, rel_suffix: str, rel_type: str, stem: str, content_type: str
) -> tuple[str, etree._Element]:
    """The main part's definitions part of ``rel_type`` (numbering, styles): (name, root).

    Created when absent, as ``<stem>.xml`` beside the main part with root ``w:<stem>``, its
    relationship and its content type, so what the batch adds is never left pointing at
    nothing. Shared with the redline, which copies the revised version's styles into a base
    that may have no styles part.
    """
    doc = ctx.doc
    name = doc.part_name(rel_suffix)
    if name is not None:
        return name, doc.package.xml(name)
    package = doc.package
    folder = posixpath.dirname(doc.main_part)
    name = posixpath.join(folder, f"{stem}.xml")
    counter = 1
    while package.has_part(name):
        counter += 1
        name = posixpath.join(folder, f"{stem}{counter}.xml")
    ctx.touch(package.xml(_CONTENT_TYPES), part=_CONTENT_TYPES)
    rels = _rels_name(doc.main_part)
    if package.has_part(rels):
        ctx.touch(package.xml(rels), part=rels)
    else:
        ctx.checkpoints.created_parts.append(rels)
    root = etree.Element(W + stem, nsmap={"w": NS["w"]})
    package.put_xml(name, root, content_type)  # marks the new part dirty itself
    ctx.checkpoints.created_parts.append(name)
    _CREATED.setdefault(ctx, set()).add(name)
    package.add_relationship(doc.main_part, rel_type, name)
    package.invalidate_relationships(doc.main_part)
    return name, root


def _next_id(root: etree._Element, tag: str, attr: str) -> int:
    used = [0]
    for el in root.iterchildren(W + tag):
        raw = (el.get(W + attr) or "").strip()
        if raw.isdigit():
            used.append(int(raw))
    return max(used) + 1


def _val(parent: etree._Element, name: str, value: str) -> etree._Element:
    return etree.SubElement(parent, W + name, attrib={W + "val": value})


def _level(ilvl: int, fmt: str) -> etree._Element:
    """One ``w:lvl`` in ``CT_Lvl`` order: start, numFmt, lvlText, lvlJc, pPr (and rPr for bullets)."""
    lvl = etree.Element(W + "lvl", attrib={W + "ilvl": str(ilvl)})
    _val(lvl, "start", "1")
    if fmt == "bullet":
        _val(lvl, "numFmt", "bullet")
        _val(lvl, "lvlText", _BULLETS[ilvl % len(_BULLETS)])
    else:
        _val(lvl, "numFmt", _NUMBER_FORMATS[ilvl % len(_NUMBER_FORMATS)])
        _val(lvl, "lvlText", f"%{ilvl + 1}.")
    _val(lvl, "lvlJc", "left")
    ppr = etree.SubElement(lvl, W + "pPr")
    etree.SubElement(
        ppr, W + "ind", attrib={W + "left": str(_STEP * (ilvl + 1)), W + "hanging": str(_HANGING)}
    )
    return lvl


def _abstract(abstract_id: int, fmt: str, rng: random.Random) -> etree._Element:
    abstract = etree.Element(W + "abstractNum", attrib={W + "abstractNumId": str(abstract_id)})
    _val(abstract, "nsid", format(rng.randrange(1, 0xFFFFFFFF), "08X"))
    _val(abstract, "multiLevelType", "hybridMultilevel")
    for ilvl in range(9):
        abstract.append(_level(ilvl, fmt))
    return abstract


_CREATED: weakref.WeakKeyDictionary[EditContext, set[str]] = weakref.WeakKeyDictionary()
_LISTS: weakref.WeakKeyDictionary[EditContext, dict[tuple[str, str], str]] = weakref.WeakKeyDictionary()


def writer_for(ctx: EditContext, op_id: str) -> PropertyWriter:
    """A property writer for operation ``op_id`` whose ``newList`` states share one list per format.

    "All paragraphs numbered by one operation join the same new list; separate operations
    start separate lists" (contract §5.5).
    """
    lists = _LISTS.setdefault(ctx, {})

    def new_list(fmt: str) -> str:
        if (op_id, fmt) not in lists:
            lists[op_id, fmt] = create_list(ctx, fmt)
        return lists[op_id, fmt]

    return PropertyWriter(ctx.doc.styles, ctx.doc.numbering, new_list)


def create_list(ctx: EditContext, fmt: str) -> str:
    """Append a new list (``"bullet"`` or ``"numbered"``) and return its ``w:numId``."""
    _name, root = _numbering_root(ctx)
    abstract_id = _next_id(root, "abstractNum", "abstractNumId")
    num_id = _next_id(root, "num", "numId")
    rng = random.Random(f"{num_id}-{abstract_id}-{fmt}")
    return add_list_definition(ctx, _abstract(abstract_id, fmt, rng), etree.Element(W + "num"))


def add_list_definition(ctx: EditContext, abstract: etree._Element, num: etree._Element) -> str:
    """Add ``abstract`` and ``num`` to the numbering part (created if absent) with fresh ids; return
    the new ``w:numId``. ``num`` is pointed at ``abstract``; its other children (level overrides) stay.

    Shared by new lists and by the redline, which copies a list the revised version uses and the
    base lacks. ``w:abstractNum`` elements must all precede the ``w:num`` elements
    (``CT_Numbering``), and ``w:numIdMacAtCleanup`` comes last, so both are inserted at their
    places, not appended.
    """
    name, root = _numbering_root(ctx)
    abstract_id = _next_id(root, "abstractNum", "abstractNumId")
    num_id = _next_id(root, "num", "numId")
    abstract.set(W + "abstractNumId", str(abstract_id))
    num.set(W + "numId", str(num_id))
    pointer = num.find(W + "abstractNumId")
    if pointer is None:
        pointer = etree.Element(W + "abstractNumId")
        num.insert(0, pointer)
    pointer.set(W + "val", str(abstract_id))
    abstracts = list(root.iterchildren(W + "abstractNum"))
    if abstracts:
        abstracts[-1].addnext(abstract)
    else:
        pictures = list(root.iterchildren(W + "numPicBullet"))
        if pictures:
            pictures[-1].addnext(abstract)
        else:
            root.insert(0, abstract)
    nums = list(root.iterchildren(W + "num"))
    if nums:
        nums[-1].addnext(num)
    else:
        abstract.addnext(num)
        # keep every abstractNum ahead of the first num
        for later in list(num.itersiblings(W + "abstractNum")):
            num.addprevious(later)
    # A part this batch created is not listed as dirty: undoing the batch removes it, and a
    # removed part cannot be marked dirty again.
    for el in (abstract, num):
        ctx.checkpoints.created(el)
    if name not in _CREATED.get(ctx, ()):
        ctx.checkpoints.dirty_parts.add(name)
    ctx.mark_structure_changed()
    return str(num_id)
