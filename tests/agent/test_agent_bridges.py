"""Bridges (contract §9, decision 6): the headless reviewer bridge, the review queue, a paged fake,
a host's own queue and a broken view (its failures become ``ok: false``).

Every bridge runs the reusable conformance suite; then each bridge's own promises are tested:
``revisionStamp`` for the reviewer bridge (bridges/reviewer.test), and for the review queue the
life of a proposal: queued after a dry run, listed, applied as a tracked change, refused when
stale, discarded, and kept across save and reopen.
"""

from __future__ import annotations

import io
import json
import os
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from reviewer_app.agent.bridge import OPTIONAL_MEMBERS, create_reviewer_bridge
from reviewer_app.agent.executor import execute_tool_call
from reviewer_app.agent.proposal_store import ProposalStore, default_store_directory, save_with_proposals
from reviewer_app.agent.review_queue import ReviewQueueBridge
from reviewer_app.agent.tools import TOOL_NAMES
from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.edit.stamp import RevisionStamp
from tests.bridge_conformance import (
    CHECKS,
    CLAUSE,
    COSTS,
    HEADING_1,
    LIABILITY,
    PAYMENT,
    PAYMENT_TEXT,
    SIGNED,
    UNSUPPORTED,
    PagedBridge,
    error,
    fixture_docx,
    fixture_reviewer,
    ok,
)

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
SECTION = {"type": "headingSection", "story": "main", "headingBlockId": HEADING_1, "headingLevel": 1}
BAD_RANGE = {
    "type": "textRange",
    "story": "main",
    "blockId": CLAUSE,
    "startOffset": 3,
    "endOffset": 3,
    "selectedTextHash": "h1",
}


def paged() -> PagedBridge:
    return PagedBridge(fixture_reviewer())


FACTORIES = {
    "tracked": lambda reviewer: create_reviewer_bridge(reviewer),
    "direct": lambda reviewer: create_reviewer_bridge(reviewer, mode="direct"),
    "queue": lambda reviewer: ReviewQueueBridge(reviewer),
    "paged": lambda reviewer: PagedBridge(reviewer),
}


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("kind", FACTORIES)
def test_conformance(kind, check):
    check(FACTORIES[kind])


# ----------------------------------------------------------------------------- reviewer bridge
def test_headless_bridge_has_no_live_members():
    bridge = create_reviewer_bridge(fixture_reviewer())
    absent = ("get_page_count", "get_page_text", "get_target_page", "get_selection_text")
    for name in (*absent, "scroll_to_block", "show_in_document"):
        assert not hasattr(bridge, name), name
    present = set(OPTIONAL_MEMBERS) - set(absent) - {"scroll_to_block", "show_in_document"}
    assert all(hasattr(bridge, name) for name in present)
    for tool, args, message in UNSUPPORTED.values():
        if tool not in ("list_stories", "read_story"):
            assert error(bridge, tool, args) == message


def test_unknown_mode_is_a_programmer_error():
    with pytest.raises(ValueError, match="Unknown document operation mode"):
        create_reviewer_bridge(fixture_reviewer(), mode="sideways")


def test_new_bridges_over_one_reviewer_share_the_session():
    reviewer = fixture_reviewer()
    assert create_reviewer_bridge(reviewer).replay_session is create_reviewer_bridge(reviewer).replay_session


def _xml(reviewer: DocxReviewer, part: str) -> etree._Element:
    with zipfile.ZipFile(io.BytesIO(reviewer.to_bytes())) as z:
        return etree.fromstring(z.read(part))


@pytest.mark.parametrize(
    "stamp", [RevisionStamp("2030-05-06T07:08:09Z", 5000), {"date": "2030-05-06T07:08:09Z", "idSeed": 5000}]
)
def test_revision_stamp_fixes_dates_and_ids_of_revisions_comments_and_replies(stamp):
    reviewer = fixture_reviewer()
    bridge = create_reviewer_bridge(reviewer, revision_stamp=stamp)
    op = {"type": "replaceInBlock", "blockId": PAYMENT, "find": "30 days", "replace": "60 days"}
    assert ok(bridge, "suggest_changes", {"operations": [op]})["applied"]
    assert ok(bridge, "add_comment", {"blockId": LIABILITY, "text": "Too low."})["applied"]
    assert ok(bridge, "reply_comment", {"commentId": "1", "text": "Agreed."}) == {"replied": True}
    body = _xml(reviewer, "word/document.xml")
    revisions = [el for el in body.iter(W + "ins", W + "del")]
    assert revisions and all(el.get(W + "date") == "2030-05-06T07:08:09Z" for el in revisions)
    assert all(int(el.get(W + "id")) > 5000 for el in revisions)
    comments = _xml(reviewer, "word/comments.xml").findall(W + "comment")
    assert len(comments) == 3  # the fixture's, the new one and the reply
    assert [c.get(W + "date") for c in comments[1:]] == ["2030-05-06T07:08:09Z"] * 2


def test_revision_stamp_makes_output_repeatable():
    def run() -> bytes:
        reviewer = fixture_reviewer()
        bridge = create_reviewer_bridge(reviewer, revision_stamp=RevisionStamp("2030-01-01T00:00:00Z", 7))
        op = {"id": "a", "type": "insertAfterBlock", "blockId": PAYMENT, "text": "New clause."}
        ok(bridge, "suggest_changes", {"operations": [op]})
        ok(bridge, "add_comment", {"blockId": CLAUSE, "text": "Why?"})
        return _xml(reviewer, "word/document.xml")

    assert etree.tostring(run()) == etree.tostring(run())


# ----------------------------------------------------------------------------- review queue
PAY_60 = {
    "id": "pay-60",
    "type": "replaceInBlock",
    "blockId": PAYMENT,
    "find": "30 days",
    "replace": "60 days",
}


def _texts(bridge: Any) -> list[str]:
    return [b["text"] for b in ok(bridge, "read_document")]


def test_queue_holds_applicable_operations_as_proposals():
    bridge = ReviewQueueBridge(fixture_reviewer())
    before = _texts(bridge)
    version = bridge.get_document_version()
    bad = {"id": "bad", "type": "replaceInBlock", "blockId": PAYMENT, "find": "90 days", "replace": "x"}
    summary = ok(bridge, "suggest_changes", {"operations": [bad, PAY_60]})
    assert summary["queued"] == [{"id": "pay-60"}] and summary["applied"] == []
    assert [s["id"] for s in summary["skipped"]] == ["bad"]
    assert summary["issues"][0]["code"] == "missingFind" and summary["issues"][0]["operationIndex"] == 0
    assert summary["receipts"] == [
        {
            "operationId": "pay-60",
            "operationIndex": 1,
            "affected": [{"type": "block", "story": "main", "blockId": PAYMENT, "effect": "updated"}],
        }
    ]
    assert _texts(bridge) == before and ok(bridge, "read_changes") == []
    assert bridge.get_document_version() == version, "a dry run does not count as a change"
    [proposal] = bridge.proposals()
    assert proposal["id"] == "pay-60" and proposal["status"] == "queued"
    assert proposal["operation"]["precondition"] == {"blockTextHash": proposal["blockTextHash"]}
    assert proposal["targetBlockId"] == PAYMENT


def test_applied_proposal_becomes_a_tracked_change():
    bridge = ReviewQueueBridge(fixture_reviewer())
    ok(bridge, "suggest_changes", {"operations": [PAY_60]})
    outcome = bridge.apply_proposal("pay-60")
    assert outcome["status"] == "applied" and outcome["receipt"]["operationId"] == "pay-60"
    assert {c["type"] for c in ok(bridge, "read_changes")} == {"insertion", "deletion"}
    # the tracked changes it became, so the person can accept or reject exactly those later
    assert set(outcome["revisionIds"]) == {c["id"] for c in bridge.reviewer.changes()}
    assert "Payment is due within 60 days of invoice." in _texts(bridge)
    assert bridge.proposals() == []
    assert bridge.apply_proposal("pay-60") == {"id": "pay-60", "status": "missing"}


def test_stale_proposal_is_refused_then_discarded():
    reviewer = fixture_reviewer()
    queue = ReviewQueueBridge(reviewer)
    ok(queue, "suggest_changes", {"operations": [PAY_60]})
    edit = {"type": "replaceInBlock", "blockId": PAYMENT, "find": "invoice", "replace": "receipt"}
    ok(create_reviewer_bridge(reviewer), "suggest_changes", {"operations": [edit]})
    changes = ok(queue, "read_changes")
    assert queue.apply_proposal("pay-60") == {"id": "pay-60", "status": "stale"}
    assert ok(queue, "read_changes") == changes, "nothing of a stale proposal is applied"
    assert queue.proposals()[0]["status"] == "stale"
    assert queue.apply_proposal("pay-60")["status"] == "stale"
    assert queue.discard_proposal("pay-60") is True and queue.proposals() == []
    assert queue.discard_proposal("pay-60") is False


def test_proposals_queued_together_apply_together():
    bridge = ReviewQueueBridge(fixture_reviewer())
    insert = {
        "id": "after",
        "type": "insertAfterBlock",
        "blockId": PAYMENT,
        "text": "Late payment bears interest.",
    }
    ok(bridge, "suggest_changes", {"operations": [PAY_60, insert]})
    outcomes = bridge.apply_proposals()
    assert [o["status"] for o in outcomes] == ["applied", "applied"]
    texts = _texts(bridge)
    assert (
        texts[texts.index("Payment is due within 60 days of invoice.") + 1] == "Late payment bears interest."
    )


def test_discarded_proposal_leaves_the_document_alone():
    bridge = ReviewQueueBridge(fixture_reviewer())
    ok(bridge, "suggest_changes", {"operations": [PAY_60]})
    assert bridge.discard_proposal("pay-60")
    assert PAYMENT_TEXT in _texts(bridge) and ok(bridge, "read_changes") == []


def test_every_add_comment_gets_its_own_proposal():
    bridge = ReviewQueueBridge(fixture_reviewer())
    ok(bridge, "add_comment", {"blockId": PAYMENT, "text": "One."})
    ok(bridge, "add_comment", {"blockId": PAYMENT, "text": "Two."})
    assert [p["id"] for p in bridge.proposals()] == ["comment-1", "comment-1#2"]
    assert [o["status"] for o in bridge.apply_proposals()] == ["applied", "applied"]
    assert len(ok(bridge, "read_comments")) == 3


def test_surface_with_nothing_editable_skips_everything():
    editable = False
    bridge = ReviewQueueBridge(fixture_reviewer(), editable=lambda: editable)
    summary = ok(bridge, "suggest_changes", {"operations": [PAY_60]})
    assert summary["queued"] == [] and [i["code"] for i in summary["issues"]] == ["documentNotEditable"]
    assert summary["skipped"][0]["reason"].startswith("the document is not open for editing right now")
    assert bridge.proposals() == []
    editable = True
    assert ok(bridge, "suggest_changes", {"operations": [PAY_60]})["queued"] == [{"id": "pay-60"}]


def test_queue_survives_save_and_reopen(tmp_path: Path):
    path = tmp_path / "msa.docx"
    path.write_bytes(fixture_docx())
    bridge = ReviewQueueBridge(DocxReviewer.open(path))
    ok(bridge, "suggest_changes", {"operations": [PAY_60]})
    bridge.reviewer.save(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["msa.docx"], "no sidecar beside the document"
    reopened = ReviewQueueBridge(DocxReviewer.open(path))
    assert [p["id"] for p in reopened.proposals()] == ["pay-60"]
    assert reopened.apply_proposal("pay-60")["status"] == "applied"
    save_with_proposals(reopened.reviewer, reopened.store, tmp_path / "msa-v2.docx")
    assert ReviewQueueBridge(DocxReviewer.open(path)).proposals() == []


def test_queue_follows_save_as(tmp_path: Path):
    path = tmp_path / "msa.docx"
    path.write_bytes(fixture_docx())
    bridge = ReviewQueueBridge(DocxReviewer.open(path))
    ok(bridge, "suggest_changes", {"operations": [PAY_60]})
    save_with_proposals(bridge.reviewer, bridge.store, tmp_path / "renamed.docx")
    assert ReviewQueueBridge(DocxReviewer.open(path)).proposals() == []
    moved = ReviewQueueBridge(DocxReviewer.open(tmp_path / "renamed.docx"))
    assert [p["id"] for p in moved.proposals()] == ["pay-60"]


def test_store_lives_in_the_user_data_folder_and_tolerates_damage(tmp_path: Path):
    path = tmp_path / "msa.docx"
    path.write_bytes(fixture_docx())
    store = ProposalStore(path)
    assert store.file is not None and store.file.parent == default_store_directory()
    bridge = ReviewQueueBridge(DocxReviewer.open(path), store)
    ok(bridge, "suggest_changes", {"operations": [PAY_60]})
    data = json.loads(store.file.read_text(encoding="utf-8"))
    assert data["document"] == str(path.resolve()) and data["proposals"][0]["id"] == "pay-60"
    store.file.write_text("{not json", encoding="utf-8")
    assert ProposalStore(path).proposals == []
    assert ProposalStore(None).file is None


def test_opening_a_queue_removes_what_killed_writes_left_and_keeps_the_queue(tmp_path: Path):
    """A queue written half-way by a killed process leaves a temporary file in the private
    folder; the next open removes it (and an older version's ``.queue-*.json``), never a file a
    write running now, or another document's queue, still needs."""
    path = tmp_path / "msa.docx"
    path.write_bytes(fixture_docx())
    bridge = ReviewQueueBridge(DocxReviewer.open(path))
    ok(bridge, "suggest_changes", {"operations": [PAY_60]})
    file = bridge.store.file
    assert file is not None
    folder = file.parent
    killed = [folder / f".{file.name}.ab12cd34.tmp", folder / ".queue-k2j3h4g5.json"]
    running = [folder / f".{file.name}.zz12cd34.tmp", folder / ".queue-zz12cd34.json"]
    other_document = folder / ".0123456789abcdef0123456789abcdef.json.ab12cd34.tmp"
    for leftover in [*killed, *running, other_document]:
        leftover.write_bytes(b'{"version": 1, "propos')
    long_ago = time.time() - 300
    for leftover in [*killed, other_document]:
        os.utime(leftover, (long_ago, long_ago))
    assert [p["id"] for p in ProposalStore(path).proposals] == ["pay-60"]
    assert [f.exists() for f in killed] == [False, False]
    assert all(f.exists() for f in [*running, other_document])


def test_queue_receives_a_resent_operation_once():
    reviewer = fixture_reviewer()
    bridge = ReviewQueueBridge(reviewer)
    ok(bridge, "suggest_changes", {"operations": [PAY_60]})
    assert ok(bridge, "suggest_changes", {"operations": [PAY_60]})["replayed"] == [{"id": "pay-60"}]
    # a new session (the app reopened the document, the ledger is gone): the queue still holds one
    fresh_queue = ReviewQueueBridge(reviewer, bridge.store)
    again = fresh_queue.apply_document_operations({"version": 1, "operations": [PAY_60]})
    assert [p["id"] for p in bridge.proposals()] == ["pay-60"]
    # the resend names the proposal already waiting, so its card still reaches that proposal
    assert again["queued"] == [{"id": "pay-60", "proposalId": "pay-60"}]


def test_a_queued_entry_names_its_proposal_even_when_its_id_was_taken():
    bridge = ReviewQueueBridge(fixture_reviewer())
    first = bridge.apply_document_operations({"version": 1, "operations": [PAY_60]})
    other = dict(PAY_60, find="invoice", replace="bill")
    second = bridge.apply_document_operations({"version": 1, "operations": [other]})
    assert [first["queued"], second["queued"]] == [
        [{"id": "pay-60", "proposalId": "pay-60"}],
        [{"id": "pay-60", "proposalId": "pay-60#2"}],
    ]
    assert [p["id"] for p in bridge.proposals()] == ["pay-60", "pay-60#2"]


def test_queue_honours_the_version_pin_without_a_dry_run_bump():
    from reviewer_app.agent.suggest_changes import SuggestChangesOptions

    bridge = ReviewQueueBridge(fixture_reviewer())
    current = bridge.get_document_version()
    options = SuggestChangesOptions(document_version=current)
    args = {"documentVersion": current, "operations": [PAY_60]}
    assert execute_tool_call("suggest_changes", args, bridge, options)["result"]["queued"] == [
        {"id": "pay-60"}
    ]
    second = {
        "documentVersion": current,
        "operations": [dict(PAY_60, id="other", find="invoice", replace="bill")],
    }
    assert execute_tool_call("suggest_changes", second, bridge, options)["result"]["queued"] == [
        {"id": "other"}
    ]


def test_queueing_a_table_edit_keeps_the_pinned_version(tmp_path: Path):
    """A dry run that rolls a table back re-reads the document, yet its content is as it was: the
    version the model pinned still holds, so its next pinned call is queued too."""
    from reviewer_app.agent.suggest_changes import SuggestChangesOptions

    reviewer = DocxReviewer.open(Path(__file__).parents[2] / "resources" / "samples" / "sample-msa.docx")
    bridge = ReviewQueueBridge(reviewer, ProposalStore(None, tmp_path))
    cell = next(b for b in reviewer.snapshot().content_blocks() if b.table is not None)
    current, cache_version = bridge.get_document_version(), reviewer.document.version
    options = SuggestChangesOptions(document_version=current)
    row = {"type": "insertTableRow", "id": "row", "blockId": cell.id}
    assert ok(bridge, "suggest_changes", {"documentVersion": current, "operations": [row]}, options)[
        "queued"
    ] == [{"id": "row"}]
    assert reviewer.document.version > cache_version  # the rolled-back table was read again
    assert bridge.get_document_version() == reviewer.document_version() == current
    again = {"documentVersion": current, "operations": [dict(row, id="row-2", position="before")]}
    assert ok(bridge, "suggest_changes", again, options)["queued"] == [{"id": "row-2"}]


# ----------------------------------------------------------------------------- live and custom bridges
# fmt: off
PAGED_ERRORS: list[tuple[str, Any, str]] = [
    ("read_page", {}, "read_page requires an integer `page` >= 1."),
    ("read_page", {"page": 0}, "read_page requires an integer `page` >= 1."),
    ("read_page", {"page": 1.5}, "read_page requires an integer `page` >= 1."),
    ("read_page", {"page": 99}, "read_page's `page` (99) exceeds the document's page count (4)."),
    ("find_text", {"query": "a", "scope": {"type": "page", "page": 5}}, "find_text's page (5) exceeds the document's page count (4)."),
    ("scroll_to_block", {}, "scroll_to_block requires a non-empty string `blockId`."),
    ("scroll_to_block", {"blockId": ""}, "scroll_to_block requires a non-empty string `blockId`."),
    ("show_in_document", "x", "show_in_document expects exactly one of `blockId` or `range`."),
    ("show_in_document", {}, "show_in_document requires exactly one of `blockId` or `range`."),
    ("show_in_document", {"blockId": CLAUSE, "range": BAD_RANGE}, "show_in_document requires exactly one of `blockId` or `range`."),
    ("show_in_document", {"blockId": 5}, "show_in_document's `blockId` must be a non-empty string."),
    ("show_in_document", {"range": BAD_RANGE}, "show_in_document's `range` must be copied from find_text."),
]
# fmt: on


@pytest.mark.parametrize(("tool", "args", "message"), PAGED_ERRORS)
def test_live_argument_errors(tool, args, message):
    assert error(paged(), tool, args) == message


def test_numbers_in_messages_have_thousands_separators():
    class Big(PagedBridge):
        def get_page_count(self) -> int:
            return 1234

    bridge = Big(fixture_reviewer())
    assert error(bridge, "read_page", {"page": 5000}) == (
        "read_page's `page` (5,000) exceeds the document's page count (1,234)."
    )
    assert error(bridge, "find_text", {"query": "a", "scope": {"type": "page", "page": 5000}}) == (
        "find_text's page (5,000) exceeds the document's page count (1,234)."
    )


class HostQueue:
    """A host's own queue bridge (not built on the review queue): it speaks the core result form."""

    document_operation_mode = "tracked-changes"

    def __init__(self) -> None:
        self.reviewer = fixture_reviewer()
        self.batches: list[dict[str, Any]] = []

    def snapshot(self):
        return self.reviewer.snapshot()

    def apply_document_operations(self, batch):
        self.batches.append(batch)
        first, second, third = (op["id"] for op in batch["operations"])
        return {
            "version": 1,
            "status": "queued",
            "applied": [],
            "queued": [{"id": first}],
            "skipped": [
                {"id": second, "reason": "missingBlock", "message": "no such block"},
                {"id": third, "reason": "hostSaysNo"},
            ],
            "issues": [],
            "receipts": [{"operationId": first, "operationIndex": 0, "affected": []}],
            "undoHandle": None,
        }

    def get_comments(self):
        return []

    def get_changes(self):
        return []

    def reply_to_comment(self, comment_id, text):
        return False

    def resolve_comment(self, comment_id, resolved):
        return False


def test_custom_queue_bridges_get_stamping_and_plain_reasons():
    bridge = HostQueue()
    ops = [
        {"id": "a", "type": "deleteBlock", "blockId": PAYMENT, "severity": "high", "area": "Payment"},
        {"id": "b", "type": "deleteBlock", "blockId": CLAUSE},
        {"id": "c", "type": "deleteBlock", "blockId": SIGNED},
    ]
    summary = ok(bridge, "suggest_changes", {"operations": ops})
    sent = bridge.batches[0]["operations"]
    assert sent[0]["precondition"] == {"blockTextHash": bridge.reviewer.snapshot().block(PAYMENT).text_hash}
    assert (sent[0]["severity"], sent[0]["area"]) == ("high", "Payment"), "review metadata passes through"
    assert summary["queued"] == [{"id": "a"}] and summary["receipts"][0]["operationId"] == "a"
    assert summary["skipped"] == [
        {
            "id": "b",
            "reason": "blockId not found; re-read the document (read_document or find_text) and retry with a fresh block id. (no such block)",
        },
        {"id": "c", "reason": "hostSaysNo"},
    ]
    assert ok(bridge, "suggest_changes", {"operations": ops[:1]})["replayed"] == [{"id": "a"}]
    assert len(bridge.batches) == 1, "a queued operation is sent to the host once"


class Broken:
    """A live view that is not mounted: every member raises."""

    def __getattr__(self, name: str) -> Any:
        def fail(*args: Any) -> Any:
            raise RuntimeError("The editor view is not mounted; no snapshot is available yet.")

        return fail


@pytest.mark.parametrize("tool", [t for t in TOOL_NAMES if t != "read_changes"])
def test_bridge_exceptions_become_errors(tool):
    args = {
        "read_section": {"handle": dict(SECTION, headingTextHash="h1")},
        "read_story": {"handle": {"type": "main"}},
        "find_text": {"query": "a"},
        "add_comment": {"blockId": CLAUSE, "text": "a"},
        "suggest_changes": {"operations": [{"type": "deleteBlock", "blockId": CLAUSE}]},
        "reply_comment": {"commentId": "1", "text": "a"},
        "resolve_comment": {"commentId": "1"},
        "read_page": {"page": 1},
        "scroll_to_block": {"blockId": CLAUSE},
        "show_in_document": {"blockId": CLAUSE},
    }.get(tool, {})
    assert error(Broken(), tool, args) == "The editor view is not mounted; no snapshot is available yet."


def test_read_changes_never_errors():
    assert ok(Broken(), "read_changes") == []
    assert ok(object(), "read_changes") == []


def test_page_scope_uses_the_real_page_mapping_and_exposes_page():
    bridge = paged()
    found = ok(bridge, "find_text", {"query": "supplier", "scope": {"type": "page", "page": 1}})
    assert [m["blockId"] for m in found["matches"]] == [CLAUSE] and found["matches"][0]["page"] == 1
    assert found["totalMatches"] == 1
    everywhere = ok(bridge, "find_text", {"query": "supplier"})
    assert [m["page"] for m in everywhere["matches"]] == [1, 2, 4]
    outline = ok(bridge, "get_document_outline")
    assert [s["page"] for s in outline["sections"]] == [1, 2]


def test_show_in_document_accepts_a_block_or_a_range():
    bridge = paged()
    match = ok(bridge, "find_text", {"query": "costs"})["matches"][0]
    assert match["blockId"] == COSTS
    assert ok(bridge, "show_in_document", {"range": match["range"]}) == {"shown": True}
    assert ok(bridge, "show_in_document", {"blockId": COSTS}) == {"shown": True}
    assert ok(bridge, "scroll_to_block", {"blockId": "7FFFFFF0"}) == {"scrolled": False}
    assert ok(bridge, "read_selection") == {"text": "the goods"}
    assert ok(bridge, "read_page", {"page": 1})["totalPages"] == 4
