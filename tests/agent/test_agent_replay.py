"""Operation replay (contract §5.8, operation-replay.test) and the batch-level refusals the executor
passes through: overlapping operations (operation-batch-safety.test), undefined styles
(operation-style-references.test) and undefined numbering (operation-references.test, #1103).
"""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest

from reviewer_app.agent import replay
from reviewer_app.agent.bridge import ReviewerBridge, create_reviewer_bridge
from reviewer_app.agent.review_queue import ReviewQueueBridge
from reviewer_app.agent.suggest_changes import SuggestChangesOptions
from reviewer_app.docx import DocxReviewer, hashing
from reviewer_app.docx.edit.contract import MODES_BY_TYPE, OPERATION_TYPES
from tests.bridge_conformance import error, ok
from tests.docx_factory import heading_styles, make_docx, p

ALL_TYPES = SuggestChangesOptions(operation_types=OPERATION_TYPES, max_operations=200)
A1, A2, A3, A4, A5 = "0A000001", "0A000002", "0A000003", "0A000004", "0A000005"
T11, T12, T21, T22, T31, T32 = "0B000011", "0B000012", "0B000021", "0B000022", "0B000031", "0B000032"
S1, S2 = "0C000001", "0C000002"
FIRST = "The Supplier delivers the goods on time."
RESTART = '<w:vMerge w:val="restart"/>'


def _cell(text: str, para_id: str, tcpr: str = "") -> str:
    return f'<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/>{tcpr}</w:tcPr>{p(text, para_id)}</w:tc>'


def _table(rows: str, columns: int) -> str:
    grid = '<w:gridCol w:w="2000"/>' * columns
    return f'<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>{grid}</w:tblGrid>{rows}</w:tbl>'


def replay_docx() -> bytes:
    body = "".join(
        (
            p(FIRST, A1),
            p("Payment is due within 30 days.", A2),
            p("Each party bears its own costs.", A3),
            p("Signed by the parties.", A4),
            _table(
                f"<w:tr>{_cell('Party', T11)}{_cell('Role', T12)}</w:tr><w:tr>{_cell('Acme', T21)}{_cell('Supplier', T22)}</w:tr>"
                f"<w:tr>{_cell('', T31)}{_cell('Beta', T32)}</w:tr>",
                2,
            ),
            p("Between the tables.", "0A0000FF"),
            _table(
                f"<w:tr>{_cell('Merged', S1, RESTART)}</w:tr><w:tr>{_cell('', S2, '<w:vMerge/>')}</w:tr>", 1
            ),
            p("Closing words.", A5),
        )
    )
    return make_docx(body, styles=heading_styles())


def _range(start: int, end: int) -> dict[str, Any]:
    return {
        "type": "textRange",
        "story": "main",
        "blockId": A1,
        "startOffset": start,
        "endOffset": end,
        "selectedTextHash": hashing.text_hash(FIRST[start:end]),
    }


GOODS = _range(FIRST.index("goods"), FIRST.index("goods") + 5)
#: One operation of every contract type that applies to :func:`replay_docx`.
SAMPLES: dict[str, dict[str, Any]] = {
    "replaceInBlock": {"blockId": A1, "find": "on time", "replace": "promptly"},
    "replaceRange": {"range": GOODS, "replace": "products"},
    "commentOnRange": {"range": GOODS, "comment": "Which goods?"},
    "formatRange": {"range": GOODS, "formatting": {"bold": True}},
    "insertAfterBlock": {"blockId": A2, "text": "Late payment bears interest."},
    "insertBeforeBlock": {"blockId": A2, "text": "Invoices are sent monthly."},
    "replaceBlock": {"blockId": A3, "text": "Each party bears its own legal costs."},
    "deleteBlock": {"blockId": A3},
    "splitBlock": {"blockId": A1, "offset": FIRST.index("delivers")},
    "mergeBlockWithNext": {"blockId": A1},
    "setBlockParagraphProperties": {"blockId": A2, "properties": {"alignment": "center"}},
    "insertTable": {"blockId": A4, "rows": [["Name", "Date"], ["", ""]]},
    "deleteTable": {"blockId": T11},
    "commentOnBlock": {"blockId": A2, "comment": "Check the period."},
    "insertSignatureTable": {"blockId": A4, "parties": [{"name": "Acme Ltd", "signatory": "J. Doe"}]},
    "insertTableRow": {"blockId": T11, "cellTexts": ["Beta", "Buyer"]},
    "deleteTableRow": {"blockId": T21},
    "insertTableColumn": {"blockId": T11, "position": "before"},
    "deleteTableColumn": {"blockId": T12},
    "mergeTableCells": {"blockId": T21, "rowCount": 2},  # onto an empty cell: tracked merges need one
    "splitTableCell": {"blockId": S1},
}
CASES = [
    (type_, mode)
    for type_ in OPERATION_TYPES
    for mode in ("tracked-changes", "direct")
    if mode in MODES_BY_TYPE[type_]
]


def reviewer() -> DocxReviewer:
    return DocxReviewer.from_bytes(replay_docx(), author="Reviewer AI")


def suggest(bridge: Any, *operations: dict[str, Any]) -> dict[str, Any]:
    return ok(bridge, "suggest_changes", {"operations": list(operations)}, ALL_TYPES)


def state(bridge: Any) -> tuple[Any, ...]:
    return (
        ok(bridge, "read_document"),
        ok(bridge, "read_changes"),
        ok(bridge, "read_comments"),
        bridge.get_document_version(),
    )


def conflict(index: int, op_id: str) -> str:
    return (
        f'operations[{index}].id "{op_id}" already names a different operation this document applied. '
        "Give a new operation a new id, or omit ids to have them generated."
    )


def test_every_type_has_a_sample():
    assert set(SAMPLES) == set(OPERATION_TYPES)


@pytest.mark.parametrize(("type_", "mode"), CASES)
def test_replay_of_every_type(type_, mode):
    bridge = create_reviewer_bridge(reviewer(), mode=mode)
    op = {"id": f"{type_}-1", "type": type_, **SAMPLES[type_]}
    first = suggest(bridge, op)
    assert first["applied"] == [{"id": op["id"]}] and first["replayed"] == [] and first["skipped"] == [], (
        first
    )
    after_first = state(bridge)
    again = suggest(bridge, op)
    assert (again["applied"], again["queued"], again["skipped"]) == ([], [], [])
    assert again["replayed"] == [{"id": op["id"]}]
    assert again["receipts"] == first["receipts"]
    assert state(bridge) == after_first
    different = dict(op, area="Commercial")
    assert error(bridge, "suggest_changes", {"operations": [different]}, ALL_TYPES) == conflict(0, op["id"])
    assert state(bridge) == after_first


def test_keys_in_another_order_and_integral_floats_still_replay():
    bridge = create_reviewer_bridge(reviewer())
    op = {"id": "split", "type": "splitBlock", "blockId": A1, "offset": 4}
    suggest(bridge, op)
    resent = {"offset": 4.0, "blockId": A1, "type": "splitBlock", "id": "split"}
    assert suggest(bridge, resent)["replayed"] == [{"id": "split"}]


def test_replay_beside_new_operations():
    bridge = create_reviewer_bridge(reviewer())
    old = {"id": "old", "type": "replaceInBlock", "blockId": A1, "find": "on time", "replace": "promptly"}
    first = suggest(bridge, old)
    new1 = {"id": "new1", "type": "insertAfterBlock", "blockId": A2, "text": "New one."}
    new2 = {"id": "new2", "type": "deleteBlock", "blockId": A3}
    mixed = suggest(bridge, new1, old, new2)
    assert mixed["applied"] == [{"id": "new1"}, {"id": "new2"}] and mixed["replayed"] == [{"id": "old"}]
    assert [(r["operationId"], r["operationIndex"]) for r in mixed["receipts"]] == [
        ("new1", 0),
        ("old", 1),
        ("new2", 2),
    ]
    assert mixed["receipts"][1]["affected"] == first["receipts"][0]["affected"]
    assert [c["text"] for c in ok(bridge, "read_changes") if c["type"] == "insertion"].count("promptly") == 1


def test_skipped_operations_are_not_recorded():
    bridge = create_reviewer_bridge(reviewer())
    wrong = {"id": "fix", "type": "replaceInBlock", "blockId": A1, "find": "late", "replace": "promptly"}
    assert suggest(bridge, wrong)["issues"][0]["code"] == "missingFind"
    again = suggest(bridge, wrong)
    assert again["replayed"] == [] and again["issues"][0]["code"] == "missingFind"
    fixed = suggest(bridge, dict(wrong, find="on time"))
    assert fixed["applied"] == [{"id": "fix"}]


def test_issues_are_reindexed_to_the_call_as_sent():
    bridge = create_reviewer_bridge(reviewer())
    old = {"id": "old", "type": "deleteBlock", "blockId": A3}
    suggest(bridge, old)
    missing = {"id": "missing", "type": "deleteBlock", "blockId": "7FFFFFF0"}
    summary = suggest(bridge, old, missing)
    assert summary["issues"][0]["operationIndex"] == 1 and summary["issues"][0]["path"] == "$.operations[1]"


def test_the_session_is_the_document():
    shared = reviewer()
    op = {"id": "x", "type": "deleteBlock", "blockId": A3}
    suggest(create_reviewer_bridge(shared), op)
    assert suggest(create_reviewer_bridge(shared), op)["replayed"] == [{"id": "x"}]
    assert suggest(create_reviewer_bridge(reviewer()), op)["applied"] == [{"id": "x"}], "another document"


def test_a_bridge_without_a_session_is_its_own_session():
    class Plain:
        def __init__(self, inner: ReviewerBridge) -> None:
            self.inner = inner

        def __getattr__(self, name: str) -> Any:
            if name == "replay_session":
                raise AttributeError(name)
            return getattr(self.inner, name)

    shared = reviewer()
    first, second = Plain(create_reviewer_bridge(shared)), Plain(create_reviewer_bridge(shared))
    op = {"id": "ins", "type": "insertAfterBlock", "blockId": A2, "text": "Once."}
    suggest(first, op)
    assert suggest(first, op)["replayed"] == [{"id": "ins"}]
    assert suggest(second, op)["applied"] == [{"id": "ins"}]


def test_ledgers_are_held_weakly():
    doc = reviewer()
    suggest(create_reviewer_bridge(doc), {"id": "x", "type": "deleteBlock", "blockId": A3})
    gc.collect()  # earlier tests' sessions must not be collected during the measurement
    assert doc in replay._LEDGERS
    probe = weakref.ref(doc)
    del doc
    gc.collect()
    assert probe() is None  # the ledger did not keep the document session alive


def test_add_comment_is_not_deduplicated():
    bridge = create_reviewer_bridge(reviewer())
    for _ in range(2):
        assert ok(bridge, "add_comment", {"blockId": A2, "text": "Same note."})["applied"] == [
            {"id": "comment-1"}
        ]
    assert len(ok(bridge, "read_comments")) == 2
    assert suggest(bridge, {"id": "comment-1", "type": "deleteBlock", "blockId": A3})["applied"]


def test_queue_receives_an_operation_once():
    class Counting(ReviewQueueBridge):
        calls = 0

        def apply_document_operations(self, batch):
            Counting.calls += 1
            return super().apply_document_operations(batch)

    bridge = Counting(reviewer())
    op = {"id": "q", "type": "replaceInBlock", "blockId": A1, "find": "on time", "replace": "promptly"}
    assert suggest(bridge, op)["queued"] == [{"id": "q"}]
    again = suggest(bridge, op)
    assert (
        again["replayed"] == [{"id": "q"}]
        and again["queued"] == []
        and again["receipts"][0]["operationId"] == "q"
    )
    assert Counting.calls == 1 and len(bridge.proposals()) == 1


# ----------------------------------------------------------------------------- operation-batch-safety
def test_a_later_operation_on_a_rewritten_block_is_refused():
    doc = reviewer()
    bridge = create_reviewer_bridge(doc)
    replace = {
        "id": "replace",
        "type": "replaceInBlock",
        "blockId": A2,
        "find": "30 days",
        "replace": "60 days",
    }
    delete = {"id": "delete", "type": "deleteBlock", "blockId": A2}
    summary = suggest(bridge, replace, delete)
    assert summary["applied"] == [{"id": "replace"}]
    [issue] = summary["issues"]
    assert issue["code"] == "overlappingOperation" and '"replace"' in issue["message"]
    assert '"replace"' in summary["skipped"][0]["reason"]
    doc.accept_all()
    texts = [b["text"] for b in ok(bridge, "read_document")]
    assert texts[:4] == [
        FIRST,
        "Payment is due within 60 days.",
        "Each party bears its own costs.",
        "Signed by the parties.",
    ]


# ----------------------------------------------------------------------------- operation-style-references
@pytest.mark.parametrize("style", ["NoSuchStyle", "TableGrid"])
def test_undefined_or_non_paragraph_style_is_skipped(style):
    doc = reviewer()
    bridge = create_reviewer_bridge(doc)
    before = state(bridge)
    ops = [
        {"type": "setBlockParagraphProperties", "blockId": A2, "properties": {"styleId": style}},
        {"type": "insertAfterBlock", "blockId": A4, "text": "Styled.", "styleId": style},
    ]
    summary = suggest(bridge, *ops)
    assert summary["applied"] == [] and [i["code"] for i in summary["issues"]] == ["missingStyle"] * 2
    assert all(i["recovery"] == "refreshDocument" for i in summary["issues"])
    assert all(f'"{style}"' in s["reason"] and "Heading2" in s["reason"] for s in summary["skipped"])
    assert state(bridge)[:3] == before[:3]
    assert DocxReviewer.from_bytes(doc.to_bytes()).read_document() == doc.read_document()


def test_defined_paragraph_style_applies():
    bridge = create_reviewer_bridge(reviewer())
    summary = suggest(
        bridge, {"type": "setBlockParagraphProperties", "blockId": A2, "properties": {"styleId": "Heading2"}}
    )
    assert len(summary["applied"]) == 1
    block = next(b for b in ok(bridge, "read_document") if b["blockId"] == A2)
    assert block["kind"] == "heading" and block["headingLevel"] == 2


# ----------------------------------------------------------------------------- operation-references (#1103)
NUMBERING_901 = (
    '<w:abstractNum w:abstractNumId="5"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
    '<w:lvlText w:val="%1."/></w:lvl></w:abstractNum><w:num w:numId="901"><w:abstractNumId w:val="5"/></w:num>'
)


def numbered(numbering: str | None) -> DocxReviewer:
    parts = {"styles": heading_styles()}
    if numbering is not None:
        parts["numbering"] = numbering
    return DocxReviewer.from_bytes(make_docx(p("First clause.", A1) + p("Last clause.", A2), **parts))


@pytest.mark.parametrize(
    "numbering", [None, NUMBERING_901], ids=["no numbering part", "other instances only"]
)
def test_undefined_numbering_reference_is_skipped_and_the_document_saves(numbering):
    doc = numbered(numbering)
    bridge = create_reviewer_bridge(doc)
    op = {
        "type": "insertAfterBlock",
        "blockId": A1,
        "text": "Numbered.",
        "numbering": {"kind": "reference", "numId": 1},
    }
    summary = suggest(bridge, op)
    assert [i["code"] for i in summary["issues"]] == ["missingNumbering"]
    assert "numId 1" in summary["skipped"][0]["reason"]
    assert [b["text"] for b in DocxReviewer.from_bytes(doc.to_bytes()).read_document()] == [
        "First clause.",
        "Last clause.",
    ]


def test_defined_numbering_reference_applies():
    doc = numbered(NUMBERING_901)
    bridge = create_reviewer_bridge(doc)
    op = {
        "type": "insertAfterBlock",
        "blockId": A1,
        "text": "Numbered.",
        "numbering": {"kind": "reference", "numId": 901},
    }
    assert len(suggest(bridge, op)["applied"]) == 1
    reread = DocxReviewer.from_bytes(doc.to_bytes()).read_document()
    inserted = next(b for b in reread if b["text"] == "Numbered.")
    assert inserted["listReference"] == {"numId": 901, "level": 0}
