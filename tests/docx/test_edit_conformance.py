"""Every operation type on real documents, judged by LibreOffice and the writer invariants.

The handler tests state the markup they mean on tiny documents; this matrix asks the question a
lawyer cares about on real files (a contract with lists, tables, footnotes, comments and another
party's pending changes; corpus files for lists, tables, revisions, comments, footnotes and
right-to-left text): does each operation land as the change we intended, so that an independent
reader (LibreOffice 7.4) shows it, accepting it gives the intended text and rejecting it gives
back the original? For every (file, type) a target is chosen automatically, the operation applied
as "Reviewer AI" with a fixed stamp, the output saved and checked against every ooxml-rules §5.12
invariant (:mod:`tests.edit_invariants`).

Where a file offers no target the operation can apply to (no table, one-character list items, a
one-paragraph document), the contract skip it must give is asserted explicitly (``Case.skip`` and
its reason). Where LibreOffice 7.4 cannot show what we wrote, the exception is listed in
:data:`LO_LIMITS` with the reason; nothing is skipped silently. Texts are compared as LibreOffice
lays them out, blank paragraphs left out (it folds merged cells and empty section paragraphs), and
our ``[^N]`` note markers match the note number LibreOffice shows.
"""

from __future__ import annotations

import re
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.blocks import Block
from reviewer_app.docx.edit.contract import OPERATION_TYPES
from reviewer_app.docx.edit.stamp import RevisionStamp
from reviewer_app.docx.hashing import normalize_text, text_hash
from reviewer_app.docx.package import Package
from reviewer_app.docx.xmlutil import W
from tests import edit_invariants as inv
from tests.conftest import CORPUS, REPO_ROOT
from tests.edit_invariants import NOTE_MARKER, Edit, intended, lo_copy, locate, matches, shown

AUTHOR = inv.OUR_AUTHOR
STAMP = RevisionStamp(date="2026-03-04T05:06:07Z", id_seed=100)
COMMENT_TEXT = "Please confirm this wording."
PUBLIC = CORPUS / "public"
FILES: dict[str, Path] = {
    "sample-msa": REPO_ROOT / "resources" / "samples" / "sample-msa.docx",
    "lists": PUBLIC / "pt_DB012-Lists-With-Different-Numberings.docx",
    "table": PUBLIC / "pt_WC006-Table.docx",
    "revisions": PUBLIC / "pt_RA001-Tracked-Revisions-01.docx",
    "comments": PUBLIC / "d2p_comments.docx",
    "footnotes": PUBLIC / "mammoth_footnotes.docx",
    "rtl": PUBLIC / "pt_HC014-RTL-Table-01.docx",
}
#: Files with another author's pending changes: text edits there go where those changes are.
WITH_REVISIONS = frozenset(("sample-msa", "revisions"))
PARTIES = (
    {"name": "Northwind Analytics Ltd", "signatory": "Jane Doe", "title": "Director"},
    {"name": "Harbour Bank plc"},
)

_CELL_RECORDS = "LibreOffice 7.4 ignores w:tcPrChange: it shows the cells as merged or split, not as a change"
_EDGE = "LibreOffice 7.4 cannot join a paragraph with a following table, so its Reject All leaves it empty"
_ROW_RECORDS = (
    "a row another author inserted and we delete carries w:ins and w:del in w:trPr; LibreOffice 7.4 "
    "keeps one row record, so its Reject All keeps the emptied row"
)
#: Where LibreOffice 7.4 cannot show what we wrote, by (file or "*", type) and aspect, with the reason.
#: "reject": its Reject All text is compared without blank paragraphs (it keeps an empty one);
#: "changes": (the redlines it lists for us instead of the intended ones, why).
LO_LIMITS: dict[tuple[str, str], dict[str, Any]] = {
    ("*", "insertTableColumn"): {
        "reject": "LibreOffice 7.4 ignores w:cellIns: Reject All removes the new cells' text but keeps the cells"
    },
    ("*", "mergeTableCells"): {"changes": ({}, _CELL_RECORDS), "reject": _CELL_RECORDS},
    ("*", "splitTableCell"): {"changes": ({}, _CELL_RECORDS), "reject": _CELL_RECORDS},
    ("table", "commentOnRange"): {
        "reject": "a comment in the first cell of a table that starts the body makes LibreOffice 7.4 add "
        "an empty paragraph before the table (its anchor text reads '\\n111')"
    },
    ("table", "insertBeforeBlock"): {
        "reject": "no paragraph precedes the table to carry the new paragraph's inserted mark; " + _EDGE
    },
    ("table", "insertTable"): {
        "reject": "the separator paragraph before the new table is inserted; " + _EDGE
    },
    ("footnotes", "insertAfterBlock"): {
        "reject": "the paragraph carrying the inserted mark ends with a footnote reference, and LibreOffice "
        "7.4's Reject All then keeps the emptied last paragraph (without the references it joins cleanly)"
    },
    **{
        ("revisions", t): {"reject": _ROW_RECORDS}
        for t in ("deleteTable", "deleteTableRow", "deleteTableColumn")
    },
    **{
        (key, "formatRange"): {
            "changes": (
                {},
                "the formatted word lies in another author's pending insertion; LibreOffice 7.4 shows only "
                "their insertion there (the same run outside it shows our format change)",
            )
        }
        for key in WITH_REVISIONS
    },
}
LO_LIMITS[("table", "commentOnBlock")] = LO_LIMITS[("table", "commentOnRange")]
LO_LIMITS[("revisions", "replaceRange")] = {
    "reject": "the replaced word sits in a table cell of pt_RA001 next to its floating tables; LibreOffice "
    "7.4's Reject All of our output drops the paragraph it also moves across those tables (see "
    "lo_text_differences.tsv), while our own reject_all restores the original exactly (checked by the "
    "invariants). Not yet reduced to a minimal file"
}


def lo_limits(key: str, op_type: str) -> dict[str, Any]:
    return {**LO_LIMITS.get(("*", op_type), {}), **LO_LIMITS.get((key, op_type), {})}


# ----------------------------------------------------------------------------- choosing targets
@dataclass
class Cell:
    blocks: list[Block]
    span: int
    vmerge: str | None  # "restart", "continue" or None

    @property
    def texts(self) -> list[str]:
        return [b.normalized for b in self.blocks if b.normalized]


@dataclass
class Case:
    """One (file, type): the operation, and what it must do (or the skip it must give, and why)."""

    key: str
    type: str
    op: dict[str, Any] = field(default_factory=dict)
    mode: str = "tracked-changes"
    skip: str | None = None
    why: str = ""
    edits: list[Edit] = field(default_factory=list)
    #: LibreOffice's redlines by us, by type (a tuple: either count is right, see :func:`_carried`)
    changes: dict[str, int | tuple[int, ...]] = field(default_factory=dict)
    comment: str | None = None  # the anchor text of the comment the operation adds


class Source:
    """A document as read before editing: our blocks, their tables, LibreOffice's accepted text."""

    def __init__(self, key: str, path: Path, reading: dict[str, Any]) -> None:
        self.key, self.path = key, path
        self.reviewer = DocxReviewer.open(path)
        self.blocks = self.reviewer.snapshot().blocks
        self.accepted = shown(reading["accept_all"]["paragraphs"])
        self.tables = self._tables()

    def unique(self, block: Block) -> bool:
        return bool(block.normalized) and locate(self.accepted, [block.normalized]) is not None

    def candidates(self, kinds: tuple[str, ...], revised: bool = False) -> list[Block]:
        """Content blocks to target, preferred kinds first ("cell" = a table cell paragraph, else
        last). ``revised``: in files with revisions, paragraphs holding another author's change
        come first (word-level edits go there); otherwise paragraphs without other changes or
        comment markers come first, since LibreOffice splits a whole-paragraph change at each."""

        def rank(block: Block) -> tuple[int, int]:
            kind = "cell" if block.table else block.kind
            kind_rank = kinds.index(kind) if kind in kinds else len(kinds)
            busy = _has_changes(block)
            if revised and self.key in WITH_REVISIONS:
                return 0 if _their_words(block) else 1, kind_rank
            return kind_rank, 0 if not busy else 1

        found = [
            b
            for b in self.blocks
            if b.kind != "diagnostic" and self.unique(b) and not b.mark_deleted and not b.has_field_chars
        ]
        return sorted(found, key=rank)

    def next_block(self, block: Block) -> Block | None:
        following = block.element.getnext()
        return next((b for b in self.blocks if b.element is following), None)

    def _tables(self) -> list[list[list[Cell]]]:
        """Top-level tables without nesting, as rows of cells (the snapshot's table locations)."""
        grouped: dict[int, dict[tuple[int, int], Cell]] = {}
        nested: set[int] = set()
        for b in self.blocks:
            loc = b.table
            if loc is None:
                continue
            if loc["tableIndex"] != loc["outerTableIndex"]:
                nested.add(loc["outerTableIndex"])
                continue
            cells = grouped.setdefault(loc["tableIndex"], {})
            at = (loc["rowIndex"], loc["cellIndex"])
            if at not in cells:
                tc_pr = b.element.getparent().find(W + "tcPr")
                vm = tc_pr.find(W + "vMerge") if tc_pr is not None else None
                vmerge = None if vm is None else ("restart" if vm.get(W + "val") == "restart" else "continue")
                cells[at] = Cell([], loc["columnSpan"], vmerge)
            cells[at].blocks.append(b)
        tables = []
        for index, cells in sorted(grouped.items()):
            rows = [[cells[k] for k in sorted(cells) if k[0] == r] for r in sorted({k[0] for k in cells})]
            seq = [t for row in rows for cell in row for t in cell.texts]
            if index not in nested and seq and locate(self.accepted, seq) is not None:
                tables.append(rows)
        return tables


_BUSY = tuple(
    W + t for t in ("ins", "del", "rPrChange", "pPrChange", "commentRangeStart", "commentReference")
)


def _has_changes(block: Block) -> bool:
    """Another author's change or a comment marker in the paragraph."""
    return any(True for _ in block.element.iter(*_BUSY))


def _their_words(block: Block) -> list[str]:
    """Words of the block that sit in another author's pending insertion (editing them nests)."""
    inserted = " ".join(
        t.text or ""
        for ins in block.element.iter(W + "ins")
        if ins.getparent().tag != W + "rPr"
        for t in ins.iter(W + "t")
    )
    return [w for w in re.findall(r"\b[^\W\d_]{3,}\b|\b\d+\b", inserted) if block.text.count(w) == 1]


def _word(block: Block) -> tuple[int, str]:
    """A word occurring once in the block's text, outside note markers: one in another author's
    insertion when there is one, else the middle one."""
    text = block.text
    theirs = _their_words(block)
    if theirs:
        return text.index(theirs[0]), theirs[0]
    markers = [m.span() for m in NOTE_MARKER.finditer(text)]
    for pattern in (r"\b[^\W\d_]{3,}\b", r"\b\w+\b"):  # whole tokens of the word diff
        words = [
            (m.start(), m.group())
            for m in re.finditer(pattern, text)
            if text.count(m.group()) == 1 and not any(s < m.end() and m.start() < e for s, e in markers)
        ]
        if words:
            return words[len(words) // 2]
    raise LookupError(f"no unique word in {text!r}")


def _range(block: Block, start: int, end: int) -> dict[str, Any]:
    return {
        "type": "textRange",
        "story": "main",
        "blockId": block.id,
        "startOffset": start,
        "endOffset": end,
        "selectedTextHash": text_hash(block.text[start:end]),
    }


def _flat(rows: list[list[list[str]]]) -> list[str]:
    return [t for row in rows for cell in row for t in cell]


def _texts(rows: list[list[Cell]]) -> list[list[list[str]]]:
    return [[cell.texts for cell in row] for row in rows]


# ----------------------------------------------------------------------------- building the cases
def _text_case(case: Case, source: Source) -> None:
    """replaceInBlock, replaceRange, formatRange, commentOnRange, replaceBlock."""
    kinds = {"replaceRange": ("cell", "paragraph", "listItem")}.get(
        case.type, ("listItem", "paragraph", "heading")
    )
    block = source.candidates(kinds, revised=True)[0]
    start, word = _word(block)
    text = block.normalized
    if case.type == "replaceInBlock":
        case.op.update(blockId=block.id, find=word, replace="REVISED")
        case.edits = [Edit([text], "replace", [text.replace(word, "REVISED", 1)])]
        case.changes = {"delete": 1, "insert": 1}
    elif case.type == "replaceRange":
        case.op.update(range=_range(block, start, start + len(word)), replace="REVISED")
        case.edits = [Edit([text], "replace", [text.replace(word, "REVISED", 1)])]
        case.changes = {"delete": 1, "insert": 1}
    elif case.type == "formatRange":
        # underline too: in RA001 the word is already bold italic, and re-applying only those is a no-op
        formatting = {"bold": True, "italic": True, "underline": True}
        case.op.update(range=_range(block, start, start + len(word)), formatting=formatting)
        case.changes = {"format": 1}
    elif case.type == "commentOnRange":
        case.op.update(range=_range(block, start, start + len(word)), comment={"text": COMMENT_TEXT})
        case.comment = word
    else:  # replaceBlock: the word rewritten and a clause appended, two hunks of the word diff
        suffix = "as restated" if block.text[-1:].isspace() else " as restated"  # (one if no word between)
        new = block.text.replace(word, "RESTATED", 1) + suffix
        case.op.update(blockId=block.id, text=new)
        case.edits = [Edit([text], "replace", [normalize_text(new)])]
        between = re.search(r"\w", block.text[start + len(word) :]) is not None
        case.changes = {"delete": 1, "insert": 2 if between else 1}


def _paragraph_case(case: Case, source: Source) -> None:
    """Inserts, deleteBlock, splitBlock, mergeBlockWithNext, setBlockParagraphProperties, comments."""
    kind = case.type
    if kind == "splitBlock":
        blocks = source.candidates(("paragraph", "listItem", "heading"))
        spaced = [b for b in blocks if " " in b.text.strip()]
        if spaced:  # at the space nearest the middle, which the split removes
            block = spaced[0]
            spaces = [i for i, c in enumerate(block.text) if c == " " and 0 < i < len(block.text.rstrip())]
            offset = min(spaces, key=lambda i: abs(i - len(block.text) // 2))
            case.op.update(blockId=block.id, offset=offset, separator=" ")
            case.changes = {"insert": 1, "delete": 1}
            end = offset + 1
        else:  # inside the first word of two letters or more
            found = [(b, m) for b in blocks for m in re.finditer(r"\w{2,}", b.text)]
            if not found:
                case.op.update(blockId=blocks[0].id, offset=len(blocks[0].text))
                case.skip, case.why = "noopOperation", "every block is a single character: no inner offset"
                return
            block, word = found[0]
            offset = end = word.start() + len(word.group()) // 2
            case.op.update(blockId=block.id, offset=offset)
            case.changes = {"insert": 1}
        halves = [normalize_text(block.text[:offset]), normalize_text(block.text[end:])]
        case.edits = [Edit([block.normalized], "replace", halves)]
        return
    if kind == "mergeBlockWithNext":
        for block in source.candidates(("paragraph", "listItem", "heading")):
            following = source.next_block(block)
            if following is not None and following.normalized and not following.mark_deleted:
                case.op.update(blockId=block.id, separator=" ")
                joined = normalize_text(f"{block.text} {following.text}")
                case.edits = [Edit([block.normalized, following.normalized], "replace", [joined])]
                case.changes = {"insert": 1, "delete": 1}
                return
        block = source.candidates(("paragraph",))[0]
        case.op.update(blockId=block.id, separator=" ")
        case.skip, case.why = "unsupportedBlock", "no paragraph is followed by another in its container"
        return
    kinds = ("cell", "paragraph") if kind == "insertBeforeBlock" else ("listItem", "paragraph", "heading")
    if kind in ("deleteBlock",):
        blocks = [b for b in source.candidates(kinds) if source.next_block(b) is not None]
        block = (blocks or source.candidates(kinds))[0]
    else:
        block = source.candidates(kinds)[0]
    case.op["blockId"] = block.id
    if kind in ("insertAfterBlock", "insertBeforeBlock"):
        text = f"Inserted clause ({kind})."
        case.op["text"] = text
        case.edits = [
            Edit(_beside(source, block), "after" if kind == "insertAfterBlock" else "before", [text])
        ]
        case.changes = {"insert": 1, **_carried(source, block, kind == "insertAfterBlock")}
    elif kind == "deleteBlock":
        case.edits = [Edit([block.normalized], "replace", [])]
        case.changes = {"delete": 1}
    elif kind == "setBlockParagraphProperties":
        props: dict[str, Any] = {"alignment": "center" if block.direct_alignment != "center" else "right"}
        if block.kind == "listItem":
            props["indentation"] = {"indentLeft": 1440}
        case.op["properties"] = props
        case.changes = {"paragraph_format": 1}
    else:  # commentOnBlock
        case.op["comment"] = {"text": COMMENT_TEXT}
        case.comment = block.normalized


def _beside(source: Source, block: Block) -> list[str]:
    """What an insertion anchored at ``block`` lands beside: the block, or its whole outer table."""
    if block.table is None:
        return [block.normalized]
    table = next(t for t in source.tables if any(block in c.blocks for row in t for c in row))
    return _flat(_texts(table))


def _carried(source: Source, block: Block, after: bool) -> dict[str, tuple[int, ...]]:
    """A new paragraph followed by no paragraph (before a table, at the end of the body) takes the
    previous paragraph's mark; a change of its properties to that paragraph's may be recorded."""
    element = block.element
    while element.getparent().tag != W + "body":
        element = element.getparent()
    following = element.getnext() if after else element
    previous = element if after else element.getprevious()
    carried = (following is None or following.tag != W + "p") and previous is not None
    return {"paragraph_format": (0, 1)} if carried and previous.tag == W + "p" else {}


def _insert_table_case(case: Case, source: Source) -> None:
    block = source.candidates(("paragraph", "listItem", "heading"))[0]
    case.op.update(blockId=block.id, position="after")
    if case.type == "insertTable":
        rows = [["Term", "Value"], ["Fee", "EUR 100"]]
        case.op["rows"] = rows
        case.edits = [Edit(_beside(source, block), "after", [t for row in rows for t in row])]
        case.changes = {"insert": 4}
    else:
        case.mode = "direct"
        case.op.update(parties=[dict(p) for p in PARTIES], comment={"text": COMMENT_TEXT})
        lines = []
        for party in PARTIES:
            lines += [f"Signed for and on behalf of {party['name']}", "_" * 30]
            lines += [f"Name: {party.get('signatory', '')}", f"Title: {party.get('title', '')}", "Date:"]
        case.edits = [Edit(_beside(source, block), "after", [normalize_text(t) for t in lines])]
        case.comment = f"Signed for and on behalf of {PARTIES[0]['name']}"


def _table_case(case: Case, source: Source) -> None:
    """Row, column, table and cell operations on the first plain table (unsupportedBlock without one)."""
    if not source.tables:
        block = source.candidates(("paragraph", "listItem", "heading"))[0]
        case.op["blockId"] = block.id
        if case.type == "mergeTableCells":
            case.op["rowCount"] = 2
        case.skip, case.why = "unsupportedBlock", "the document has no table"
        return
    rows = source.tables[0]
    texts = _texts(rows)
    seq = _flat(texts)
    r = 1 if len(rows) > 2 else 0
    first = next(b for b in rows[r][0].blocks)
    kind = case.type
    new = [[list(cell) for cell in row] for row in texts]
    if kind == "deleteTable":
        case.op["blockId"] = first.id
        new = []
    elif kind in ("insertTableRow", "deleteTableRow"):
        case.op["blockId"] = first.id
        if kind == "insertTableRow":
            cell_texts = [f"New cell {i + 1}" for i in range(len(rows[r]))]
            case.op.update(position="after", cellTexts=cell_texts)
            new.insert(r + 1, [[t] for t in cell_texts])
        else:
            del new[r]
    elif kind in ("insertTableColumn", "deleteTableColumn"):
        case.op["blockId"] = first.id
        if kind == "insertTableColumn":
            cell_texts = [f"Col {i + 1}" for i in range(len(rows))]
            case.op.update(position="after", cellTexts=cell_texts)
            for row, text in zip(new, cell_texts, strict=True):
                row.insert(1, [text])
        else:
            for row in new:
                del row[0]
    elif kind == "mergeTableCells":  # any table's cell with an empty cell below
        pairs = [
            (upper, lower)
            for table in source.tables
            for above, below in zip(table, table[1:], strict=False)
            for upper, lower in zip(above, below, strict=False)
            if upper.span == lower.span == 1 and upper.vmerge is lower.vmerge is None and not lower.texts
        ]
        target = pairs[0][0] if pairs else rows[0][0]
        case.op.update(blockId=target.blocks[0].id, rowCount=2)
        if not pairs:
            case.skip, case.why = (
                "unsupportedMode",
                "no cell has an empty cell below: a tracked merge cannot move text",
            )
    else:  # splitTableCell
        merged = [c for t in source.tables for row in t for c in row if c.vmerge == "restart" and c.span == 1]
        case.op["blockId"] = (merged[0] if merged else rows[0][0]).blocks[0].id
        if not merged:
            case.skip, case.why = "noopOperation", "no cell of the table is merged"
    case.edits = [Edit(seq, "replace", _flat(new) if new else [])]
    written = sum(1 for row in texts for cell in row if cell)  # cells holding text: one redline each
    case.changes = {
        "deleteTable": {"delete": written},
        "insertTableRow": {"insert": len(rows[r])},
        "deleteTableRow": {"delete": sum(1 for cell in texts[r] if cell)},
        "insertTableColumn": {"insert": len(rows)},
        "deleteTableColumn": {"delete": sum(1 for row in texts if row[0])},
    }.get(kind, {})


_BUILDERS = {
    **dict.fromkeys(
        ("replaceInBlock", "replaceRange", "formatRange", "commentOnRange", "replaceBlock"), _text_case
    ),
    **dict.fromkeys(("insertTable", "insertSignatureTable"), _insert_table_case),
    **dict.fromkeys(
        ("deleteTable", "insertTableRow", "deleteTableRow", "insertTableColumn", "deleteTableColumn"),
        _table_case,
    ),
    **dict.fromkeys(("mergeTableCells", "splitTableCell"), _table_case),
}


def build_case(source: Source, op_type: str) -> Case:
    case = Case(source.key, op_type, op={"id": f"{op_type}-1", "type": op_type})
    _BUILDERS.get(op_type, _paragraph_case)(case, source)
    return case


# ----------------------------------------------------------------------------- running the matrix
@dataclass
class Run:
    """One (file, type) cell: the case, what the engine returned, the saved output and LibreOffice's copy."""

    case: Case
    result: dict[str, Any] | None = None
    out: Path | None = None
    lo_out: Path | None = None
    error: BaseException | None = None


def _apply(source: Source, op_type: str, folder: Path) -> Run:
    run = Run(Case(source.key, op_type))
    try:  # a failure belongs to its own cell of the matrix, not to the whole module
        run.case = build_case(source, op_type)
        reviewer = DocxReviewer(Package.open(source.path), author=AUTHOR, revision_stamp=STAMP)
        batch = {"version": 1, "mode": run.case.mode, "operations": [run.case.op]}
        run.result = reviewer.apply_operations(batch)
        run.out = folder / f"{source.key}-{op_type}.docx"
        reviewer.save(run.out)
        run.lo_out = lo_copy(run.out, folder)
    except Exception as exc:
        run.error = exc
    return run


@pytest.fixture(scope="module")
def matrix(lo_reading, tmp_path_factory) -> dict[tuple[str, str], Run]:
    """Apply every case, then let LibreOffice read originals and outputs, two soffice at a time."""
    missing = [str(p) for p in FILES.values() if not p.exists()]
    if missing:
        pytest.skip(f"conformance inputs not found: {missing}")
    folder = tmp_path_factory.mktemp("conformance")
    originals = {key: lo_copy(path, folder) for key, path in FILES.items()}
    with ThreadPoolExecutor(max_workers=2) as pool:
        readings = list(pool.map(lambda p: lo_reading(p, accept_reject=True), originals.values()))
    runs: dict[tuple[str, str], Run] = {
        ("original", key): Run(Case(key, ""), lo_out=p) for key, p in originals.items()
    }
    for (key, path), reading in zip(FILES.items(), readings, strict=True):
        source = Source(key, path, reading)
        for op_type in OPERATION_TYPES:
            runs[(key, op_type)] = _apply(source, op_type, folder)
    outputs = [r.lo_out for r in runs.values() if r.lo_out is not None and r.result and r.result["applied"]]
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda p: lo_reading(p, accept_reject=True), outputs))
    return runs


def _our_changes(reading: dict[str, Any]) -> dict[str, int]:
    return dict(Counter(c["type"] for c in reading["tracked_changes"] if c["author"] == AUTHOR))


def _assert_changes(found: dict[str, int], wanted: dict[str, int | tuple[int, ...]]) -> None:
    """LibreOffice lists exactly the intended changes by kind (a tuple allows either count)."""
    allowed = {k: v if isinstance(v, tuple) else (v,) for k, v in wanted.items()}
    assert set(found) <= set(allowed), (found, wanted)
    assert all(found.get(k, 0) in v for k, v in allowed.items()), (found, wanted)


def _same_texts(expected: list[str], actual: list[str]) -> bool:
    return len(expected) == len(actual) and all(map(matches, expected, actual))


@pytest.mark.libreoffice
@pytest.mark.corpus
@pytest.mark.parametrize("op_type", OPERATION_TYPES)
@pytest.mark.parametrize("key", list(FILES))
def test_operation_on_a_real_document(matrix, lo_reading, key: str, op_type: str):
    run = matrix[(key, op_type)]
    if run.error is not None:
        raise run.error
    case, result, source_path = run.case, run.result, FILES[key]
    assert result is not None and run.out is not None and run.lo_out is not None
    if case.skip is not None:
        assert [i["code"] for i in result["issues"]] == [case.skip], (case.why, result["skipped"])
        assert result["applied"] == [] and result["receipts"] == []
        assert (
            inv.load(run.out).parts["word/document.xml"] == inv.load(source_path).parts["word/document.xml"]
        )
        return
    assert [a["id"] for a in result["applied"]] == [case.op["id"]], result["skipped"]
    assert len(result["receipts"]) == 1

    inv.assert_structural(run.out, source_path)
    inv.assert_schema_no_new_errors(run.out, source_path)
    ours = [c for c in DocxReviewer.open(run.out).changes() if c["author"] == AUTHOR]
    assert bool(ours) == (case.mode != "direct" and op_type not in ("commentOnRange", "commentOnBlock"))
    if case.mode != "direct":
        inv.assert_reject_restores(run.out, inv.accepted_texts(DocxReviewer.open(source_path)))

    before = lo_reading(matrix[("original", key)].lo_out, accept_reject=True)
    after = lo_reading(run.lo_out, accept_reject=True)
    assert after["load_ok"], after.get("error")
    limits = lo_limits(key, op_type)
    _assert_changes(_our_changes(after), limits["changes"][0] if "changes" in limits else case.changes)
    ours = [c for c in after["comments"] if c["author"] == AUTHOR]
    assert len(after["comments"]) == len(before["comments"]) + (case.comment is not None)
    if case.comment is not None:
        (comment,) = ours
        assert comment["text"] == COMMENT_TEXT
        assert matches(case.comment, normalize_text(comment["anchor_text"])), comment
    expected = intended(shown(before["accept_all"]["paragraphs"]), case.edits)
    accepted = shown(after["accept_all"]["paragraphs"])
    assert _same_texts(expected, accepted), (expected, accepted)
    assert after["accept_all"]["remaining_tracked_changes"] == 0
    if case.mode == "direct":  # nothing to reject: the edit is plain text in both views
        expected = intended(shown(before["reject_all"]["paragraphs"]), case.edits)
        assert _same_texts(expected, shown(after["reject_all"]["paragraphs"]))
    elif "reject" in limits:
        assert shown(after["reject_all"]["paragraphs"]) == shown(before["reject_all"]["paragraphs"])
    else:
        assert after["reject_all"]["paragraphs"] == before["reject_all"]["paragraphs"]


# ----------------------------------------------------------------------------- minimal reproductions
# What the matrix found, reduced to the smallest document (no LibreOffice needed).
_THEIRS = 'w:id="5" w:author="Opposing Counsel" w:date="2026-01-01T00:00:00Z"'


def _tiny(body: str) -> DocxReviewer:
    from tests.docx_factory import make_docx

    return DocxReviewer(Package.from_bytes(make_docx(body)), author=AUTHOR, revision_stamp=STAMP)


def test_replacing_a_word_inside_another_authors_insertion_keeps_the_new_word_in_place():
    """Found on pt_RA001 and sample-msa: the replacement's ``w:ins`` went after the other author's
    whole ``w:ins`` (ops_text.replace_span → markup.insertion_point), i.e. to the paragraph's end."""
    from tests.docx_factory import p

    runs = f"<w:ins {_THEIRS}><w:r><w:t>System suitability solution</w:t></w:r></w:ins>"
    reviewer = _tiny(p(runs=runs, para_id="00000001"))
    op = {
        "id": "a",
        "type": "replaceInBlock",
        "blockId": "00000001",
        "find": "suitability",
        "replace": "check",
    }
    assert reviewer.apply_operations({"version": 1, "operations": [op]})["applied"]
    after = DocxReviewer.from_bytes(reviewer.to_bytes())
    assert after.read_document()[0]["text"] == "System check solution"


def test_our_edit_in_a_row_another_author_inserted_stays_our_change():
    """Found on pt_RA001: revisions._structure_owners folds every insertion/deletion inside a
    tracked row into the row's change whatever its author, so ``changes()`` hides our insertion
    and ``reject_all(author=us)`` leaves it in the document."""
    from tests.docx_factory import p

    row = (
        f'<w:tbl><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid><w:tr><w:trPr><w:ins {_THEIRS}/></w:trPr>'
        f"<w:tc>{p('Fee due', para_id='00000002')}</w:tc></w:tr></w:tbl>"
    )
    reviewer = _tiny(p("Intro", para_id="00000001") + row + p("End", para_id="00000003"))
    op = {"id": "a", "type": "replaceInBlock", "blockId": "00000002", "find": "Fee", "replace": "Cost"}
    assert reviewer.apply_operations({"version": 1, "operations": [op]})["applied"]
    after = DocxReviewer.from_bytes(reviewer.to_bytes())
    assert {(c["type"], c["text"]) for c in after.changes() if c["author"] == AUTHOR} == {
        ("deletion", "Fee"),
        ("insertion", "Cost"),
    }
    after.reject_all(author=AUTHOR)
    assert [b["text"] for b in after.read_document()] == ["Intro", "Fee due", "End"]
