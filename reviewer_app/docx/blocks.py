"""The block model (contract §2.1-2.2): one block per paragraph of the main story, in order.

The walker visits ``w:body`` depth-first: body paragraphs, table-cell paragraphs (with their
table location), content controls and custom XML transparently; hidden table rows are skipped
whole, so invisible text never reaches the model; ``w:altChunk`` becomes a read-only diagnostic
block. List labels are counted live in reading order, never read from cached markers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from . import hashing
from .hashing import normalize_text
from .numbering import ListCounter, NumberingDefinitions
from .sections import ends_section
from .styles import StyleIndex
from .table_grid import TableGrid
from .text import (
    NO_BOUNDARIES,
    FieldState,
    NoteNumbers,
    complex_paragraphs,
    mark_state,
    paragraph_properties,
    paragraph_text,
    plain_paragraph,
)
from .vocabulary import BLOCK_WRAPPERS
from .xmlutil import MC, W14, W, int_attr, lenient_int, on_off

_ALIGNMENTS = frozenset(
    (
        "left",
        "center",
        "right",
        "both",
        "distribute",
        "mediumKashida",
        "highKashida",
        "lowKashida",
        "thaiDistribute",
    )
)
_JC_ALIASES = {"start": "left", "end": "right", "justify": "both"}
_PPR, _PSTYLE, _VAL, _OUTLINE_LVL = W + "pPr", W + "pStyle", W + "val", W + "outlineLvl"
_R = W + "r"
_JC, _SPACING, _IND, _NUMPR, _RPR = W + "jc", W + "spacing", W + "ind", W + "numPr", W + "rPr"
_P, _TBL, _NUM_ID, _ILVL = W + "p", W + "tbl", W + "numId", W + "ilvl"
_PARA_ID = W14 + "paraId"
_SDT, _SDT_CONTENT, _ALT_CHUNK, _TR = W + "sdt", W + "sdtContent", W + "altChunk", W + "tr"
_ALTERNATE, _CHOICE, _FALLBACK = MC + "AlternateContent", MC + "Choice", MC + "Fallback"


@dataclass(slots=True, eq=False)
class Block:
    """One paragraph (or diagnostic) block as the contract publishes it, plus engine bookkeeping.

    Public fields mirror ``FolioAIBlock``; ``element``, ``mark_deleted`` and ``notes_before``
    are engine-only and never serialized.
    """

    id: str
    kind: str
    text: str
    normalized: str
    element: etree._Element | None
    heading_level: int | None = None
    display_label: str | None = None
    style_id: str | None = None
    direct_alignment: str | None = None
    table: dict[str, int] | None = None
    stated_numbering: dict[str, Any] | None = None
    list_reference: dict[str, int] | None = None
    direct_outline_level: dict[str, Any] | None = None
    direct_spacing: dict[str, Any] | None = None
    direct_indentation: dict[str, Any] | None = None
    id_stability: str = "positional"
    structural_boundaries: list[dict[str, Any]] = field(default_factory=list)
    diagnostic: dict[str, str] | None = None
    mark_deleted: bool = False
    mark_inserted: bool = False
    notes_before: tuple[int, int] = (0, 0)
    has_field_chars: bool = False
    #: pending deleted (or moved-away) content: the checks read its original text only then
    has_removed_text: bool = False
    cached_hash: str | None = None  # filled by text_hash on first use
    cached_view: dict[str, Any] | None = None  # filled by agent_view on first use

    @property
    def text_hash(self) -> str:
        """``blockTextHash``: the contract hash of the normalized text, computed on first use.

        Opening and painting a document never needs it; the agent's reads do, once.
        """
        if self.cached_hash is None:
            self.cached_hash = hashing.text_hash(self.normalized)
        return self.cached_hash

    @property
    def is_content(self) -> bool:
        """Reading tools show only blocks whose normalized text is non-empty."""
        return bool(self.normalized)

    @property
    def shown_label(self) -> str | None:
        """The list number a reader sees, or None: an unnumbered heading's ``display_label`` is its
        style id (the agent's outline names it so), which neither the page nor a quote shows."""
        if not self.display_label:
            return None
        if self.kind == "listItem":
            return self.display_label
        numbered_heading = self.kind == "heading" and self.list_reference is not None
        return self.display_label if numbered_heading and self.display_label != self.style_id else None

    def agent_view(self) -> dict[str, Any]:
        """The ``FolioAgentBlock`` the reading tools return (contract §4.1), optional keys omitted.

        Built once per block and copied out (shallow: nested values are shared, read-only): a
        block is never edited in place (an edit makes a new block), and ``read_document`` on a
        300-page contract asks for 15,000 of these.
        """
        if self.cached_view is None:
            self.cached_view = self._agent_view()
        return dict(self.cached_view)

    def _agent_view(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "blockId": self.id,
            "kind": self.kind,
            "text": self.text,
            "blockTextHash": self.text_hash,
        }
        if self.display_label is not None:
            out["displayLabel"] = self.display_label
        if self.heading_level is not None:
            out["headingLevel"] = self.heading_level
        if self.kind != "diagnostic":
            out["statedNumbering"] = dict(self.stated_numbering or _INHERIT)
        if self.list_reference is not None:
            out["listReference"] = self.list_reference
        return out

    def to_dict(self) -> dict[str, Any]:
        """The contract's JSON shape: camelCase keys, absent optional fields omitted."""
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "text": self.text}
        optional = (
            ("headingLevel", self.heading_level),
            ("displayLabel", self.display_label),
            ("styleId", self.style_id),
            ("directAlignment", self.direct_alignment),
            ("table", self.table),
            ("statedNumbering", dict(self.stated_numbering) if self.stated_numbering else None),
            ("listReference", self.list_reference),
            ("directOutlineLevel", self.direct_outline_level),
            ("directSpacing", self.direct_spacing),
            ("directIndentation", self.direct_indentation),
            ("diagnostic", self.diagnostic),
        )
        for key, value in optional:
            if value is not None:
                out[key] = value
        if self.kind != "diagnostic":
            out["idStability"] = self.id_stability
        if self.structural_boundaries:
            out["structuralBoundaries"] = self.structural_boundaries
        return out


@dataclass(slots=True)
class _TableFrame:
    """Location of the cell being walked, pushed per (possibly nested) table."""

    outer_index: int
    table_index: int
    row_index: int = 0
    cell_index: int = 0
    grid_column: int = 0
    column_span: int = 1
    row_span: int = 1


class BodyWalker:
    """Builds the block list of one main story in a single depth-first pass."""

    def __init__(self, styles: StyleIndex, numbering: NumberingDefinitions) -> None:
        self.styles = styles
        self.numbering = numbering
        self._described: dict[tuple[Any, ...], _Described] = {}
        self._attribute_reads: dict[tuple[Any, ...], object] = {}

    def walk(self, body: etree._Element) -> list[Block]:
        self._blocks: list[Block] = []
        self._fields = FieldState()
        self._notes = NoteNumbers()
        self._counter = ListCounter(self.numbering)
        self._tables = 0
        self._outer_tables = 0
        self._frames: list[_TableFrame] = []
        self._position = 0
        self._complex = complex_paragraphs(body)
        self._container(body)
        blocks = self._blocks
        assign_ids(blocks)
        return blocks

    # ------------------------------------------------------------- structure
    def _container(self, parent: etree._Element) -> None:
        paragraph_index = 0
        for child in parent:
            tag = child.tag
            if tag == _P:
                self._paragraph(child, paragraph_index)
                paragraph_index += 1
            elif tag == _TBL:
                self._table(child)
            elif tag == _SDT:
                content = child.find(_SDT_CONTENT)
                if content is not None:
                    self._container(content)
            elif tag in BLOCK_WRAPPERS:
                self._container(child)
            elif tag == _ALTERNATE:
                chosen = child.find(_CHOICE)
                if chosen is None:
                    chosen = child.find(_FALLBACK)
                if chosen is not None:
                    self._container(chosen)
            elif tag == _ALT_CHUNK:
                self._diagnostic("[Unsupported w:altChunk content]", "altChunk")
            elif tag == _TR:
                self._diagnostic("[Unsupported nested w:tr content]", "tr")
            self._position += 1

    def _table(self, tbl: etree._Element) -> None:
        frame = _TableFrame(
            outer_index=self._frames[0].outer_index if self._frames else self._outer_tables,
            table_index=self._tables,
        )
        self._tables += 1
        if not self._frames:
            self._outer_tables += 1
        self._frames.append(frame)
        for row in TableGrid(tbl).rows:
            if row.hidden:
                continue
            for cell_index, cell in enumerate(row.cells):
                frame.row_index, frame.cell_index = row.index, cell_index
                frame.grid_column, frame.column_span = cell.col, cell.span
                frame.row_span = 1 if cell.covered else cell.row_span
                self._container(cell.tc)
        self._frames.pop()

    def _table_location(self, paragraph_index: int) -> dict[str, int] | None:
        if not self._frames:
            return None
        f = self._frames[-1]
        return {
            "outerTableIndex": f.outer_index,
            "tableIndex": f.table_index,
            "rowIndex": f.row_index,
            "cellIndex": f.cell_index,
            "gridColumnIndex": f.grid_column,
            "columnSpan": f.column_span,
            "rowSpan": f.row_span,
            "paragraphIndex": paragraph_index,
        }

    def _diagnostic(self, text: str, carrier: str) -> None:
        self._blocks.append(
            Block(
                id=f"opaque-{self._position}",
                kind="diagnostic",
                text=text,
                normalized=hashing.normalize_text(text),
                element=None,
                diagnostic={"type": "opaqueCarrier", "carrier": carrier},
            )
        )

    # ------------------------------------------------------------- paragraphs
    def _paragraph(self, p: etree._Element, paragraph_index: int) -> None:
        notes = self._notes
        notes_before = (notes.footnotes, notes.endnotes)
        text = None
        if p not in self._complex and True not in self._fields.stack:
            ppr, text = plain_paragraph(p)
        else:
            ppr = paragraph_properties(p)
        key, spacing, ind, rpr = _read_properties(ppr)
        table = self._table_location(paragraph_index) if self._frames else None
        if text is None:
            extracted = paragraph_text(p, self._fields, notes)
            text, boundaries = extracted.text, extracted.boundaries
            deleted, inserted = extracted.mark_deleted, extracted.mark_inserted
            fields, removed = extracted.has_field_chars, extracted.has_removed_text
        else:
            boundaries, fields, removed = NO_BOUNDARIES, False, False
            deleted, inserted = (False, False) if rpr is None else mark_state(rpr)
        # five arguments and the fields that differ from their defaults: a keyword call costs a
        # third more, on every paragraph
        block = Block("", "paragraph", text, normalize_text(text), p)
        block.table = table
        block.structural_boundaries = boundaries
        block.notes_before = notes_before
        if deleted or inserted or fields or removed:
            block.mark_deleted, block.mark_inserted = deleted, inserted
            block.has_field_chars, block.has_removed_text = fields, removed
        self.describe(block, key, spacing, ind)
        self._blocks.append(block)

    def describe(
        self, block: Block, key: _Key, spacing: etree._Element | None, ind: etree._Element | None
    ) -> None:
        """Fill style, heading level, numbering, label, kind and direct formatting of a block.

        What follows from the paragraph's style, numbering, outline level and alignment alone
        (``key``) is worked out once per combination (a long contract states a few dozen) and
        copied.
        """
        described = self._described.get(key)
        if described is None:
            described = self._described[key] = self._describe(key)
        style_id, heading_level, outline, stated, effective, alignment = described
        block.style_id = style_id
        block.heading_level = heading_level
        if outline is not None:
            block.direct_outline_level = dict(outline)
        block.stated_numbering = stated if stated is _INHERIT else dict(stated)
        block.direct_alignment = alignment
        label = None
        if effective is not None:
            num_id, ilvl = effective
            block.list_reference = {"numId": int(num_id), "level": ilvl}
            if not _section_marker(block):
                label = self._counter.label(num_id, ilvl)
        if heading_level is not None:
            block.kind = "heading"
            block.display_label = label if label else style_id
        elif label:
            block.kind = "listItem"
            block.display_label = label
        if spacing is not None:
            block.direct_spacing = self._cached(spacing, _spacing)
        if ind is not None:
            block.direct_indentation = self._cached(ind, direct_indentation)

    def _describe(self, key: _Key) -> _Described:
        style_id, numpr, num_val, ilvl_val, outline_val, jc_val = key
        if style_id is None:
            style_id = self.styles.default_paragraph_style_id
        level_raw = lenient_int(outline_val)
        heading_level: int | None
        outline: dict[str, Any] | None = None
        if level_raw is not None and 0 <= level_raw <= 8:
            heading_level = level_raw + 1
            outline = {"kind": "heading", "level": level_raw}
        elif level_raw is not None:
            heading_level = None
            outline = {"kind": "bodyText"}
        else:
            heading_level = self.styles.heading_level(style_id) if style_id else None
        stated = _stated_numbering(numpr, num_val, ilvl_val)
        effective = self.numbering.numbering_of((num_val, ilvl_val) if numpr else None, style_id)
        alignment = None
        if jc_val:
            value = _JC_ALIASES.get(jc_val, jc_val)
            alignment = value if value in _ALIGNMENTS else None
        return style_id, heading_level, outline, stated, effective, alignment

    def _cached(
        self, el: etree._Element, read: Callable[[etree._Element], dict[str, Any] | None]
    ) -> dict[str, Any] | None:
        """``read(el)`` (a fresh dict), worked out once per set of attributes ``el`` carries."""
        key = (read, tuple(el.items()))
        found = self._attribute_reads.get(key, _MISSING)
        if found is _MISSING:
            found = self._attribute_reads[key] = read(el)
        return None if found is None else dict(found)  # type: ignore[arg-type]


#: What the block model reads from a paragraph's ``w:pPr`` that decides its description: its
#: style id, whether it states ``w:numPr``, that numPr's numId and ilvl values, its outline
#: level value and its alignment value (each None when not stated).
_Key = tuple[str | None, bool, str | None, str | None, str | None, str | None]
#: What a paragraph's style, numbering, outline level and alignment alone decide: its style id,
#: heading level, direct outline level, stated numbering, effective (numId, ilvl), alignment.
_Described = tuple[
    str | None, int | None, dict[str, Any] | None, dict[str, Any], tuple[str, int] | None, str | None
]
_MISSING = object()
_NO_PROPERTIES: tuple[_Key, None, None, None] = ((None, False, None, None, None, None), None, None, None)


def _read_properties(
    ppr: etree._Element | None,
) -> tuple[_Key, etree._Element | None, etree._Element | None, etree._Element | None]:
    """What the block model reads from a paragraph's ``w:pPr``: its description key, its
    ``w:spacing``, ``w:ind`` and ``w:rPr``, found in one pass over its children (a 300-page
    contract has ~15,000; lxml's ``find`` per property costs more). A property a malformed file
    states twice is read from its last statement, the mark's ``w:rPr`` from its first (as
    text.paragraph_mark_state reads it)."""
    if ppr is None:
        return _NO_PROPERTIES
    style_id = num_val = ilvl_val = outline_val = jc_val = spacing = ind = rpr = None
    numpr = False
    for child in ppr:
        tag = child.tag
        if tag == _PSTYLE:
            style_id = child.get(_VAL)
        elif tag == _JC:
            jc_val = child.get(_VAL)
        elif tag == _NUMPR:
            numpr = True
            num_id = ilvl = None
            for part in child:
                part_tag = part.tag
                if part_tag == _NUM_ID:
                    if num_id is None:
                        num_id = part
                elif part_tag == _ILVL and ilvl is None:
                    ilvl = part
            num_val = None if num_id is None else num_id.get(_VAL)
            ilvl_val = None if ilvl is None else ilvl.get(_VAL)
        elif tag == _OUTLINE_LVL:
            outline_val = child.get(_VAL)
        elif tag == _SPACING:
            spacing = child
        elif tag == _IND:
            ind = child
        elif tag == _RPR and rpr is None:
            rpr = child
    return (style_id, numpr, num_val, ilvl_val, outline_val, jc_val), spacing, ind, rpr


def _section_marker(block: Block) -> bool:
    """Whether the paragraph is only the mark that carries a section break (``w:pPr/w:sectPr``, no
    text, no run content) and so shows and counts no list number. ECMA-376 states no such rule; it is
    how LibreOffice reads Word's files (it drops the paragraph), and the Common Paper templates' own
    cross-references ("Section 3.1 (Trademark License)") count their clauses that way: the empty
    numbered Heading 1 ending the cover page is not clause 1."""
    p = block.element
    if block.text or p is None or not ends_section(p):
        return False
    return not any(child.tag != _RPR for run in p.iter(_R) for child in run)


#: Shared by every paragraph without numPr; never mutated (serializers copy it).
_INHERIT: dict[str, Any] = {"kind": "inherit"}


def _stated_numbering(numpr: bool, num_val: str | None, ilvl_val: str | None) -> dict[str, Any]:
    """What the paragraph itself says about numbering (contract 'Numbering states'): whether it
    states a ``w:numPr``, and that numPr's numId and ilvl values."""
    if not numpr:
        return _INHERIT
    num_id = lenient_int(num_val)
    ilvl = lenient_int(ilvl_val)
    if num_id == 0:
        return {"kind": "none"}
    if num_id is None:
        return {"kind": "levelOnly", "ilvl": ilvl} if ilvl is not None else {"kind": "inherit"}
    stated: dict[str, Any] = {"kind": "reference", "numId": num_id}
    if ilvl is not None:
        stated["ilvl"] = ilvl
    return stated


def _spacing(el: etree._Element | None) -> dict[str, Any] | None:
    if el is None:
        return None
    out: dict[str, Any] = {}
    for key, attr in (("spaceBefore", "before"), ("spaceAfter", "after"), ("lineSpacing", "line")):
        value = int_attr(el, attr)
        if value is not None:
            out[key] = value
    rule = el.get(W + "lineRule")
    if rule in ("auto", "exact", "atLeast"):
        out["lineSpacingRule"] = rule
    for key, attr in (("beforeAutospacing", "beforeAutospacing"), ("afterAutospacing", "afterAutospacing")):
        flag = on_off(el.get(W + attr), None)
        if flag is not None:
            out[key] = flag
    return out or None


def direct_indentation(el: etree._Element | None) -> dict[str, Any] | None:
    """A ``w:ind`` as the contract's ``directIndentation`` (left/start, right/end, hanging/first)."""
    if el is None:
        return None
    out: dict[str, Any] = {}
    left = int_attr(el, "left")
    left = left if left is not None else int_attr(el, "start")
    right = int_attr(el, "right")
    right = right if right is not None else int_attr(el, "end")
    if left is not None:
        out["indentLeft"] = left
    if right is not None:
        out["indentRight"] = right
    hanging = int_attr(el, "hanging")
    first = int_attr(el, "firstLine")
    if hanging is not None:
        out["indentFirstLine"] = -hanging
        out["hangingIndent"] = True
    elif first is not None:
        out["indentFirstLine"] = first
    return out or None


def assign_ids(blocks: list[Block]) -> None:
    """Give every paragraph block its id (contract §2.2): paraId, else ``seq-``/``blank-``.

    ``seq`` ordinals count every text-bearing paragraph and ``blank`` ordinals every empty one,
    in separate sequences, so adding a blank line never renumbers a ``seq-`` citation.
    """
    used: set[str] = set()
    text_ordinal = 0
    blank_ordinal = 0
    current_para_id, is_reserved_id = hashing.current_para_id, hashing.is_reserved_id
    for block in blocks:
        if block.kind == "diagnostic":
            continue
        if block.normalized:
            text_ordinal += 1
        else:
            blank_ordinal += 1
        para_id = block.element.get(_PARA_ID) if block.element is not None else None
        if para_id:
            para_id = current_para_id(para_id)
            if para_id not in used and not is_reserved_id(para_id):
                block.id = para_id
                block.id_stability = "stable"
                used.add(para_id)
                continue
        prefix, ordinal = ("seq", text_ordinal) if block.normalized else ("blank", blank_ordinal)
        candidate = hashing.positional_id(prefix, ordinal)
        while candidate in used:
            ordinal += 1
            candidate = hashing.positional_id(prefix, ordinal)
        block.id = candidate
        block.id_stability = "positional"
        used.add(candidate)
