"""Random valid batches on real documents: the engine's contract holds for every one of them.

The conformance matrix checks one chosen edit per (file, type); edits in the wild come in batches
that mix types, hit the same block twice, cite styles and lists the document may not define, and
reach tables, notes and other authors' changes. Hypothesis generates such batches (1-6 operations
of random types with well-shaped fields drawn from the document itself), and for each one we
check what must hold whatever the edit: the engine never raises, every refusal is a §6 skip with
its exact reason and issue, every operation is either applied or skipped, receipts exist only for
applied operations, the saved file keeps every structural invariant of ooxml-rules §5.12
(:mod:`tests.edit_invariants`), rejecting our own changes restores the text, and undoing the batch
restores the package byte for byte. Deterministic (``derandomize``) and bounded to run in well
under a minute; no LibreOffice (the schema checker runs on a sample of the examples).
"""

from __future__ import annotations

import io
import os
import re
import zipfile
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.edit.contract import ALIGNMENTS, MODES_BY_TYPE, OPERATION_TYPES
from reviewer_app.docx.edit.skips import SKIP_REASONS, reason_for
from reviewer_app.docx.edit.stamp import RevisionStamp
from reviewer_app.docx.hashing import text_hash
from reviewer_app.docx.package import Package
from tests import edit_invariants as inv
from tests.conftest import CORPUS, REPO_ROOT

AUTHOR = inv.OUR_AUTHOR
STAMP = RevisionStamp(date="2026-05-06T07:08:09Z", id_seed=50)
PUBLIC = CORPUS / "public"
FILES = {
    "sample-msa": REPO_ROOT / "resources" / "samples" / "sample-msa.docx",
    "lists": PUBLIC / "pt_DB012-Lists-With-Different-Numberings.docx",
    "table": PUBLIC / "pt_WC006-Table.docx",
    "revisions": PUBLIC / "pt_RA001-Tracked-Revisions-01.docx",
    "comments": PUBLIC / "d2p_comments.docx",
    "footnotes": PUBLIC / "mammoth_footnotes.docx",
    "rtl": PUBLIC / "pt_HC014-RTL-Table-01.docx",
}
#: Per file; set REVIEWER_PROPERTY_EXAMPLES higher for a deeper (slower) local search.
EXAMPLES_PER_FILE = int(os.environ.get("REVIEWER_PROPERTY_EXAMPLES", "14"))
#: The schema checker (a subprocess, ~0.5 s) runs on every this-many-th example of a file.
SCHEMA_EVERY = 5
#: A handler crash is caught by the engine and reported as invalidResult "<ExceptionType>: ...".
_CRASH = re.compile(r"^[A-Z]\w*(Error|Exception|Exit)\b")
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"

# Text the model might write: words, spaces, punctuation, and the characters that trip writers.
_CHARS = "abcdefghij KLMNOP  ,.;:()-–’é\u0301\u00a0\tש文😀"
texts = st.text(alphabet=st.sampled_from(_CHARS), max_size=24)
lines = st.text(alphabet=st.sampled_from(_CHARS + "\n\n"), max_size=40)


@dataclass(frozen=True)
class Doc:
    """What the generator draws from: the document's blocks, cells, styles and lists."""

    key: str
    data: bytes
    blocks: tuple[tuple[str, str], ...]  # (id, text) of every paragraph block, blank ones included
    content: tuple[tuple[str, str], ...]
    cells: tuple[str, ...]  # ids of table cell paragraphs
    tables: tuple[tuple[str, int], ...]  # (cell paragraph id, outermost table index)
    styles: tuple[str, ...]  # paragraph style ids, then ids that must be refused
    num_ids: tuple[int, ...]
    texts: tuple[str, ...]  # accepted-view texts of the content blocks
    baseline: Any  # structural findings of the input


@cache
def load_doc(key: str) -> Doc:
    path = FILES[key]
    if not path.exists():
        pytest.skip(f"{path} not found (shared/ must sit beside the repository)")
    data = path.read_bytes()
    reviewer = DocxReviewer.from_bytes(data)
    blocks = [b for b in reviewer.snapshot().blocks if b.kind != "diagnostic"]
    saved = inv.load(data)
    styles_part = saved.xml("word/styles.xml") if "word/styles.xml" in saved.parts else None
    styles = [
        (s.get(_W + "type"), s.get(_W + "styleId"))
        for s in (styles_part.iter(_W + "style") if styles_part is not None else ())
    ]
    paragraph_styles = [sid for kind, sid in styles if kind == "paragraph"][:12]
    others = [sid for kind, sid in styles if kind in ("character", "table")][:2]
    num_ids = []
    if "word/numbering.xml" in saved.parts:
        num_ids = [int(n.get(_W + "numId")) for n in saved.xml("word/numbering.xml").iter(_W + "num")][:6]
    return Doc(
        key,
        data,
        tuple((b.id, b.text) for b in blocks),
        tuple((b.id, b.text) for b in blocks if b.normalized),
        tuple(b.id for b in blocks if b.table is not None),
        tuple((b.id, b.table["outerTableIndex"]) for b in blocks if b.table is not None),
        tuple(paragraph_styles + others + ["NoSuchStyle"]),
        tuple(num_ids),
        tuple(inv.accepted_texts(reviewer)),
        inv.structural_findings(data),
    )


# ----------------------------------------------------------------------------- field strategies
@st.composite
def text_range(draw: st.DrawFn, doc: Doc) -> tuple[str, dict[str, Any]]:
    block_id, text = draw(st.sampled_from(doc.content))
    start = draw(st.integers(0, len(text) - 1))
    end = draw(st.integers(start + 1, len(text)))
    rng = {
        "type": "textRange",
        "story": "main",
        "blockId": block_id,
        "startOffset": start,
        "endOffset": end,
        "selectedTextHash": text_hash(text[start:end]),
    }
    return text[start:end], rng


def numbering(doc: Doc) -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(
        st.sampled_from([{"kind": "none"}, {"kind": "inherit"}]),
        st.builds(lambda i: {"kind": "levelOnly", "ilvl": i}, st.integers(0, 8)),
        st.builds(
            lambda n, i: {"kind": "reference", "numId": n, "ilvl": i},
            st.sampled_from([*doc.num_ids, 999]),
            st.integers(0, 8),
        ),
        st.builds(lambda f: {"kind": "newList", "format": f}, st.sampled_from(["bullet", "numbered"])),
    )


def paragraph_properties(doc: Doc) -> st.SearchStrategy[dict[str, Any]]:
    options = {
        "styleId": st.one_of(st.none(), st.sampled_from(doc.styles)),
        "alignment": st.one_of(st.none(), st.sampled_from(ALIGNMENTS)),
        "numbering": numbering(doc),
        "outlineLevel": st.one_of(
            st.none(),
            st.just({"kind": "bodyText"}),
            st.builds(lambda n: {"kind": "heading", "level": n}, st.integers(0, 8)),
        ),
        "spacing": st.one_of(
            st.none(),
            st.fixed_dictionaries(
                {}, optional={"spaceBefore": st.integers(0, 600), "spaceAfter": st.integers(0, 600)}
            ).filter(bool),
        ),
        "indentation": st.one_of(
            st.none(),
            st.fixed_dictionaries(
                {}, optional={"indentLeft": st.integers(-720, 2880), "hangingIndent": st.booleans()}
            ).filter(bool),
        ),
    }
    return st.fixed_dictionaries({}, optional=options).filter(bool)


def formatting() -> st.SearchStrategy[dict[str, Any]]:
    flag = st.one_of(st.none(), st.booleans())
    options = {
        "bold": flag,
        "italic": flag,
        "underline": flag,
        "strike": flag,
        "fontFamily": st.one_of(st.none(), st.sampled_from(["Arial", "Times New Roman"])),
        "fontSizePt": st.one_of(st.none(), st.sampled_from([8, 10.5, 12, 14])),
        "color": st.one_of(st.none(), st.sampled_from(["#1F4E79", "c00000"])),
    }
    return st.fixed_dictionaries({}, optional=options).filter(bool)


@st.composite
def operation(draw: st.DrawFn, doc: Doc, index: int, mode: str) -> dict[str, Any]:
    """One well-shaped operation of a random type on a random block of ``doc``."""
    types = [t for t in OPERATION_TYPES if mode in MODES_BY_TYPE[t]]
    op_type = draw(st.sampled_from(types))
    op: dict[str, Any] = {"id": f"op{index}", "type": op_type}
    on_cells = op_type.endswith(("Row", "Column", "Cells", "Cell")) or op_type == "deleteTable"
    pool = doc.cells if on_cells and doc.cells and draw(st.integers(0, 3)) else [b for b, _ in doc.content]
    block_id = draw(st.sampled_from(pool))
    text = dict(doc.blocks)[block_id]
    if op_type in ("replaceRange", "commentOnRange", "formatRange"):
        _selected, op["range"] = draw(text_range(doc))
        block_id, text = op["range"]["blockId"], dict(doc.blocks)[op["range"]["blockId"]]
        extra = {
            "replaceRange": ("replace", lines),
            "commentOnRange": ("comment", st.builds(lambda t: {"text": t}, texts)),
            "formatRange": ("formatting", formatting()),
        }[op_type]
        op[extra[0]] = draw(extra[1])
    else:
        op["blockId"] = block_id
    if op_type == "replaceInBlock":
        start = draw(st.integers(0, max(len(text) - 1, 0)))
        found = text[start : start + draw(st.integers(1, 12))]
        op["find"] = draw(st.one_of(st.just(found), texts)) if found else draw(texts)
        op["replace"] = draw(st.one_of(lines, st.just(found + "[^1]")))
    elif op_type in ("insertAfterBlock", "insertBeforeBlock"):
        op["text"] = draw(lines)
        optional = {
            "styleId": st.one_of(st.none(), st.sampled_from(doc.styles)),
            "alignment": st.one_of(st.none(), st.sampled_from(ALIGNMENTS)),
            "numbering": numbering(doc),
            "inheritFormatting": st.booleans(),
            "pageBreakBefore": st.booleans(),
            "formattingScope": st.sampled_from(["firstParagraph", "allParagraphs"]),
            "lineBreakMode": st.sampled_from(["paragraph", "inline"]),
            "comment": st.builds(lambda t: {"text": t}, texts),
        }
        op.update(draw(st.fixed_dictionaries({}, optional=optional)))
        if draw(st.integers(0, 9)) == 0:  # a hard page break: empty text, no pageBreakBefore/lineBreakMode
            op.update(text="", hardPageBreak={"clear": draw(st.sampled_from(["none", "all"]))})
            op.pop("pageBreakBefore", None)
            op.pop("lineBreakMode", None)
    elif op_type == "replaceBlock":
        op["text"] = draw(st.one_of(lines, st.just(text.upper())))
        op.update(
            draw(
                st.fixed_dictionaries(
                    {}, optional={"styleId": st.one_of(st.none(), st.sampled_from(doc.styles))}
                )
            )
        )
    elif op_type == "deleteBlock":
        op.update(
            draw(st.fixed_dictionaries({}, optional={"comment": st.builds(lambda t: {"text": t}, texts)}))
        )
    elif op_type == "splitBlock":
        op["offset"] = draw(st.integers(0, len(text)))
        if op["offset"] < len(text) and text[op["offset"]] == " " and draw(st.booleans()):
            op["separator"] = " "
        if draw(st.booleans()):
            op["secondParagraphProperties"] = draw(paragraph_properties(doc))
    elif op_type == "mergeBlockWithNext":
        op.update(draw(st.fixed_dictionaries({}, optional={"separator": st.sampled_from([" ", "; ", ""])})))
    elif op_type == "setBlockParagraphProperties":
        op["properties"] = draw(paragraph_properties(doc))
    elif op_type == "insertTable":
        width = draw(st.integers(1, 3))
        op["rows"] = draw(st.lists(st.lists(texts, min_size=width, max_size=width), min_size=1, max_size=3))
        op.update(
            draw(st.fixed_dictionaries({}, optional={"position": st.sampled_from(["after", "before"])}))
        )
    elif op_type == "commentOnBlock":
        op["comment"] = {"text": draw(texts)}
        if text and draw(st.booleans()):
            start = draw(st.integers(0, len(text) - 1))
            op["quote"] = text[start : start + draw(st.integers(1, 10))]
    elif op_type == "insertSignatureTable":
        party = st.fixed_dictionaries({"name": texts}, optional={"signatory": texts, "title": texts})
        op["parties"] = draw(st.lists(party, max_size=3))
        op.update(
            draw(st.fixed_dictionaries({}, optional={"position": st.sampled_from(["after", "before"])}))
        )
    elif op_type in ("insertTableRow", "insertTableColumn"):
        op.update(
            draw(
                st.fixed_dictionaries(
                    {},
                    optional={
                        "position": st.sampled_from(["after", "before"]),
                        "cellTexts": st.lists(texts, max_size=5),
                    },
                )
            )
        )
    elif op_type == "mergeTableCells":
        table = dict(doc.tables).get(block_id)
        corners = [cell for cell, t in doc.tables if t == table]
        if corners and draw(st.booleans()):  # an opposite corner in the same table
            op["endBlockId"] = draw(st.sampled_from(corners))
        else:
            op["rowCount"] = draw(st.integers(2, 4))
    if draw(st.integers(0, 5)) == 0:  # the hash the model read (catches edits earlier in the batch)
        op["precondition"] = {"blockTextHash": text_hash(" ".join(text.split()))}
    return op


@st.composite
def batches(draw: st.DrawFn, doc: Doc) -> dict[str, Any]:
    mode = draw(st.sampled_from(["tracked-changes", "tracked-changes", "tracked-changes", "direct"]))
    count = draw(st.integers(1, 6))
    batch: dict[str, Any] = {
        "version": 1,
        "mode": mode,
        "operations": [draw(operation(doc, i, mode)) for i in range(count)],
    }
    if draw(st.integers(0, 7)) == 0:
        batch["atomic"] = True
    return batch


# ----------------------------------------------------------------------------- the properties
_seen: Counter[str] = Counter()


def _parts(data: bytes) -> dict[str, bytes]:
    """Every part's content: XML canonicalized (the declaration's spelling is not content)."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        parts = {name: z.read(name) for name in z.namelist()}
    for name, body in parts.items():
        if name.endswith((".xml", ".rels")):
            parts[name] = etree.tostring(etree.fromstring(body))
    return parts


def check_batch(doc: Doc, batch: dict[str, Any], tmp: Path) -> None:
    """Everything that must hold after applying ``batch`` to ``doc``, whatever it does."""
    reviewer = DocxReviewer(Package.from_bytes(doc.data), author=AUTHOR, revision_stamp=STAMP)
    before = reviewer.to_bytes()
    result = reviewer.apply_operations(batch)  # never raises for a well-shaped batch

    ids = [op["id"] for op in batch["operations"]]
    applied = [a["id"] for a in result["applied"]]
    skipped = [s["id"] for s in result["skipped"]]
    assert sorted(applied + skipped) == sorted(ids) and not set(applied) & set(skipped)
    assert [r["operationId"] for r in result["receipts"]] == applied
    for receipt in result["receipts"]:
        assert ids[receipt["operationIndex"]] == receipt["operationId"] and receipt["affected"]
    assert [i["operationId"] for i in result["issues"]] == skipped
    for skip, issue in zip(result["skipped"], result["issues"], strict=True):
        code, message = issue["code"], issue.get("message")
        assert code in SKIP_REASONS, issue
        reason, recovery, retryable = SKIP_REASONS[code]
        assert skip["reason"] == reason_for(code, message)
        assert (issue["recovery"], issue["retryable"]) == (recovery, retryable)
        assert ids[issue["operationIndex"]] == issue["operationId"]
        assert issue["path"] == f"$.operations[{issue['operationIndex']}]"
        assert not (code == "invalidResult" and _CRASH.match(message or "")), f"handler crashed: {message}"
    if result["status"] != "committed" or not applied:
        assert reviewer.to_bytes() == before  # rejected, previewed or nothing applied: untouched
        return

    out = reviewer.to_bytes()
    problems = inv.structural_problems(out, doc.baseline)
    assert not problems, problems
    _seen[doc.key] += 1
    if _seen[doc.key] % SCHEMA_EVERY == 1:  # the input's report is computed once (a file on disk)
        source = tmp / f"{doc.key}-in.docx"
        if not source.exists():
            source.write_bytes(doc.data)
        inv.assert_schema_no_new_errors(out, source)
    if batch["mode"] != "direct":
        inv.assert_reject_restores(out, list(doc.texts))
    _assert_intended_text(doc, batch, applied, out)

    assert reviewer.undo_operations(result["undoHandle"])["status"] == "undone"
    restored, original = _parts(reviewer.to_bytes()), _parts(before)
    assert restored.keys() == original.keys()
    assert [name for name in original if restored[name] != original[name]] == []


def _assert_intended_text(doc: Doc, batch: dict[str, Any], applied: list[str], out: bytes) -> None:
    """§5.12.2 for a lone text edit: the block reads, once accepted, as the operation intended."""
    if len(applied) != 1 or len(batch["operations"]) != 1:
        return
    (op,) = batch["operations"]
    block_id = op["range"]["blockId"] if "range" in op else op["blockId"]
    text = dict(doc.blocks)[block_id]
    if op["type"] == "replaceInBlock":
        wanted = text.replace(op["find"], op["replace"], 1)
    elif op["type"] == "replaceRange":
        wanted = text[: op["range"]["startOffset"]] + op["replace"] + text[op["range"]["endOffset"] :]
    elif op["type"] == "replaceBlock":
        wanted = op["text"]
    else:
        return
    after = {b.id: b.text for b in DocxReviewer.from_bytes(out).snapshot().blocks}
    if inv.normalize_text(wanted) and block_id in after:
        assert inv.normalize_text(after[block_id]) == inv.normalize_text(wanted), (text, op)


@pytest.mark.parametrize("key", list(FILES))
def test_random_batches_keep_the_contract_and_the_invariants(key: str, tmp_path_factory):
    doc = load_doc(key)
    tmp = tmp_path_factory.mktemp(f"props-{key}")

    @settings(
        max_examples=EXAMPLES_PER_FILE,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(batch=batches(doc))
    def run(batch: dict[str, Any]) -> None:
        check_batch(doc, batch, tmp)

    run()


def test_undo_restores_the_main_part_byte_for_byte():
    """Found by the property above on Word-saved files: ``Applier.undo`` restores the content but
    marks every touched part dirty, so saving re-serializes it (``<?xml version='1.0'...``, LF for
    CRLF) and the main part's bytes differ from the file as opened."""
    doc = load_doc("lists")
    reviewer = DocxReviewer.from_bytes(doc.data, author=AUTHOR)
    main = inv.load(doc.data).main_part
    before = reviewer.package.read_bytes(main)
    op = {"id": "a", "type": "replaceInBlock", "blockId": "seq-0001", "find": "a", "replace": "b"}
    result = reviewer.apply_operations({"version": 1, "operations": [op]})
    assert reviewer.undo_operations(result["undoHandle"])["status"] == "undone"
    assert reviewer.package.read_bytes(main) == before


# ----------------------------------------------------------------------------- the invariants themselves
_R = "<w:r><w:t>x</w:t></w:r>"
_REV = 'w:author="A" w:date="2026-01-01T00:00:00Z"'
#: One fault per invariant (body XML, and extra parts): each check must report it, and only it.
_FAULTS = {
    inv.revision_id_findings: dict(
        body=f'<w:p><w:ins w:id="7" {_REV}>{_R}</w:ins></w:p>',
        header=f'<w:p><w:del w:id="7" {_REV}><w:r><w:delText>y</w:delText></w:r></w:del></w:p>',
    ),
    inv.comment_findings: dict(body='<w:p><w:commentRangeStart w:id="3"/><w:r><w:t>x</w:t></w:r></w:p>'),
    inv.revision_text_findings: dict(body=f'<w:p><w:del w:id="1" {_REV}>{_R}</w:del></w:p>'),
    inv.whitespace_findings: dict(body="<w:p><w:r><w:t> padded</w:t></w:r></w:p>"),
    inv.placement_findings: dict(
        body=f'<w:p><w:pPr><w:rPr><w:b/><w:ins w:id="1" {_REV}/></w:rPr></w:pPr>{_R}</w:p>'
    ),
    inv.para_id_findings: dict(body='<w:p w14:paraId="0000000A"/><w:p w14:paraId="0000000A"/>'),
    inv.namespace_findings: dict(
        body='<w:p xmlns:w16cex="http://schemas.microsoft.com/office/word/2018/wordml/cex" w16cex:x="1"/>'
    ),
}


@pytest.mark.parametrize("check", list(_FAULTS), ids=lambda c: c.__name__)
def test_each_invariant_reports_its_fault_and_passes_a_clean_document(check):
    from tests.docx_factory import make_docx

    clean = make_docx(f"<w:p>{_R}</w:p>", header=f"<w:p>{_R}</w:p>")
    assert all(not found(clean) for found in inv.STRUCTURAL.values())
    parts = dict(_FAULTS[check])
    faulty = make_docx(parts.pop("body"), **({"header": f"<w:p>{_R}</w:p>"} | parts))
    assert check(faulty), check.__name__
    assert inv.new_findings(check(faulty), check(clean)), "a fault must count as new against a clean input"


def test_relationship_and_python_docx_checks_catch_a_broken_package():
    from tests.docx_factory import make_docx

    data = make_docx(f"<w:p>{_R}</w:p>")
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        parts = {name: z.read(name) for name in z.namelist()}
    rels = "word/_rels/document.xml.rels"
    parts[rels] = parts[rels].replace(
        b"</Relationships>",
        b'<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        b'relationships/styles" Target="missing.xml"/></Relationships>',
    )
    broken = io.BytesIO()
    with zipfile.ZipFile(broken, "w") as z:
        for name, body in parts.items():
            z.writestr(name, body)
    assert inv.relationship_findings(broken.getvalue()) == [
        f"{rels} rId9 (styles): target word/missing.xml missing"
    ]
    assert inv.python_docx_findings(broken.getvalue())
