"""The engine's named sets of WordprocessingML elements, each written once.

Every set is a frozenset of Clark names (``{w-namespace}local``) so a module tests ``el.tag in SET``
or walks ``root.iter(*SET)`` without spelling the tags again. Neighbouring sets differ on purpose;
the sentence above each one says which elements it leaves out and why, so a module whose rule
differs names that difference here instead of keeping a private copy.
"""

from __future__ import annotations

from .xmlutil import W


def _w(*names: str) -> frozenset[str]:
    return frozenset(W + name for name in names)


# ------------------------------------------------------------------ revision marks (ECMA-376 17.13.5)
#: Marks whose content is in the document once accepted: a tracked insertion or a move's arrival.
INSERTED = _w("ins", "moveTo")
#: Marks whose content leaves the document once accepted: a tracked deletion or a move's departure;
#: readers of the current text skip what sits inside them.
DELETED = _w("del", "moveFrom")
#: The two halves of a move; a move is reported and resolved as a pair, unlike a plain ins or del.
MOVES = _w("moveFrom", "moveTo")
#: The four revision wrappers in the order ``CT_ParaRPr`` requires when they mark a paragraph mark
#: (ins, del, moveFrom, moveTo, ahead of its formatting); only the writer of such marks needs order.
MARK_REVISION_ORDER = tuple(W + name for name in ("ins", "del", "moveFrom", "moveTo"))
#: The four revision wrappers around runs (and, inside a ``w:rPr``, the marks of a paragraph mark);
#: each carries its own revision id, so a wrapper cut in two needs a fresh id for one half.
REVISION_WRAPPERS = frozenset(MARK_REVISION_ORDER)
#: What a ``w:rPr`` says about its own history rather than its formatting: the paragraph mark's
#: revision marks and the ``rPrChange`` record. Copying formatting to a new run drops these.
RPR_HISTORY = REVISION_WRAPPERS | _w("rPrChange")
#: Property-change and table-cell revision records (they describe a change; they wrap no runs).
REVISION_RECORDS = _w(
    "rPrChange",
    "pPrChange",
    "sectPrChange",
    "tblPrChange",
    "tblGridChange",
    "tblPrExChange",
    "trPrChange",
    "tcPrChange",
    "numberingChange",
    "cellIns",
    "cellDel",
    "cellMerge",
)
#: The table-cell records among them: resolving one changes the table's grid, not a property.
CELL_REVISIONS = _w("cellIns", "cellDel", "cellMerge")
#: Start and end markers of a move's range; they pair with the move's wrappers by name.
MOVE_RANGES = _w("moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart", "moveToRangeEnd")
#: customXml insertion/deletion/move range markers: revision markup with no content of its own.
CUSTOM_XML_RANGES = frozenset(
    W + f"customXml{kind}Range{end}"
    for kind in ("Ins", "Del", "MoveFrom", "MoveTo")
    for end in ("Start", "End")
)
#: Range markers that pair with revisions and share their id family.
REVISION_RANGES = MOVE_RANGES | CUSTOM_XML_RANGES
#: Every element that carries a revision id: wrappers, records and range markers.
REVISION_ELEMENTS = REVISION_WRAPPERS | REVISION_RECORDS | REVISION_RANGES

#: Paragraph-level markers that are neither content nor a block (bookmarks, comment and move
#: ranges, permissions, proofing marks): skipped when looking for a paragraph's neighbours.
RANGE_MARKUP = (
    _w(
        "bookmarkStart",
        "bookmarkEnd",
        "commentRangeStart",
        "commentRangeEnd",
        "permStart",
        "permEnd",
        "proofErr",
    )
    | MOVE_RANGES
)

# ------------------------------------------------------------------ run containers
#: Run containers that are not revisions (hyperlink, smart tag, custom XML, simple field, bidi
#: embedding and override): a run inside one is still the paragraph's own run.
RUN_WRAPPERS = _w("hyperlink", "smartTag", "customXml", "fldSimple", "dir", "bdo")
#: Containers whose runs are the paragraph's current text: run wrappers and insertions, not
#: deletions (the clean-text walker looks through these and skips ``DELETED``).
LIVE_RUN_CONTAINERS = INSERTED | RUN_WRAPPERS
#: Every container a run of a paragraph may sit in, deleted or not: a comment range or a
#: paragraph's end may fall inside any of them, so the comment writer walks out of all of them.
RUN_CONTAINERS = REVISION_WRAPPERS | RUN_WRAPPERS
#: The containers a paragraph split may cut in two, each half keeping the attributes: all of
#: ``RUN_CONTAINERS`` but a simple field, whose halves would each carry the whole field instruction.
SPLITTABLE_CONTAINERS = RUN_CONTAINERS - _w("fldSimple")
#: Where a table cell's current runs may sit: ``LIVE_RUN_CONTAINERS`` plus run-level content
#: controls, whose text is still the cell's text when a table operation reads or empties a cell.
CELL_RUN_CONTAINERS = LIVE_RUN_CONTAINERS | _w("sdt", "sdtContent")

#: Containers that may wrap whole paragraphs and tables at body level; the block walker reads
#: through them (a content control is read through its ``w:sdtContent`` instead).
BLOCK_WRAPPERS = REVISION_WRAPPERS | _w("customXml")

# ------------------------------------------------------------------ comments
#: The three markers that anchor a comment in a story (the ``w:comment`` itself lives in its part).
COMMENT_ANCHORS = _w("commentRangeStart", "commentRangeEnd", "commentReference")
#: Elements that carry a comment id: the anchors and the comment; ids are unique among them.
COMMENT_ELEMENTS = COMMENT_ANCHORS | _w("comment")
