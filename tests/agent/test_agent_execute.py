"""The executor (contract §4, §5.7-§5.9, §7; execute.test in §11): every tool's arguments, exact
error strings, the full read → edit → comment flow, preconditions, version pins, caps, find_text,
bridge failures folded into ``ok: false``, and a property test: no JSON argument makes it raise.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reviewer_app.agent.bridge import ReviewerBridge, create_reviewer_bridge
from reviewer_app.agent.executor import execute_tool_call
from reviewer_app.agent.review_queue import ReviewQueueBridge
from reviewer_app.agent.suggest_changes import InvalidSuggestChangesOptionsError, SuggestChangesOptions
from reviewer_app.agent.tools import TOOL_NAMES
from reviewer_app.docx import DocxReviewer, hashing
from reviewer_app.docx.edit.contract import OPERATION_TYPES
from reviewer_app.docx.edit.skips import reason_for
from tests.bridge_conformance import (
    CLAUSE,
    HEADING_1,
    PAYMENT,
    SIGNED,
    PagedBridge,
    error,
    fixture_reviewer,
    ok,
)
from tests.docx_factory import heading_styles, make_docx, p

SECTION = {"type": "headingSection", "story": "main", "headingBlockId": HEADING_1, "headingLevel": 1}


def headless() -> ReviewerBridge:
    return create_reviewer_bridge(fixture_reviewer())


def paged() -> PagedBridge:
    return PagedBridge(fixture_reviewer())


def section_handle(bridge: Any) -> dict[str, Any]:
    return ok(bridge, "get_document_outline")["sections"][0]["handle"]


def bridge_with(*paragraphs: str) -> ReviewerBridge:
    body = "".join(p(text, f"{i + 1:08X}") for i, text in enumerate(paragraphs))
    return create_reviewer_bridge(DocxReviewer.from_bytes(make_docx(body, styles=heading_styles())))


# ----------------------------------------------------------------------------- dispatch
def test_unknown_tool_lists_the_valid_tools():
    assert error(headless(), "delete_everything") == (
        'Unknown tool "delete_everything". Valid tools: ' + ", ".join(TOOL_NAMES) + "."
    )
    assert execute_tool_call(None, {}, headless())["error"].startswith(
        'Unknown tool "None". Valid tools: read_document'
    )


def test_headless_bridge_reports_live_tools_unsupported_in_plain_language():
    bridge = headless()
    assert error(bridge, "read_page", {"page": 1}) == (
        "This editor surface does not support read_page (no live paginated view)."
    )
    assert (
        error(bridge, "read_selection")
        == "This editor surface does not support read_selection (no live selection)."
    )
    assert error(bridge, "scroll_to_block", {"blockId": CLAUSE}) == (
        "This editor surface does not support scroll_to_block (no live editor view)."
    )
    assert error(bridge, "show_in_document", {"blockId": CLAUSE}) == (
        "This editor surface does not support show_in_document (no live editor view)."
    )


LONG = "x" * 100_001
CAP = "is 100,001 characters, over the 100,000-character limit; shorten it or split it into multiple operations."
BAD_RANGE = {
    "type": "textRange",
    "story": "main",
    "blockId": CLAUSE,
    "startOffset": 3,
    "endOffset": 3,
    "selectedTextHash": "h1",
}
# fmt: off
ARGUMENT_ERRORS: list[tuple[str, Any, str]] = [
    ("get_document_outline", {"maxDepth": 0}, "get_document_outline's `maxDepth` must be an integer from 1 to 9."),
    ("get_document_outline", {"maxDepth": 10}, "get_document_outline's `maxDepth` must be an integer from 1 to 9."),
    ("get_document_outline", {"maxDepth": "3"}, "get_document_outline's `maxDepth` must be an integer from 1 to 9."),
    ("get_document_outline", {"maxDepth": 2.5}, "get_document_outline's `maxDepth` must be an integer from 1 to 9."),
    ("get_document_outline", {"maxDepth": True}, "get_document_outline's `maxDepth` must be an integer from 1 to 9."),
    ("read_section", "handle", "read_section expects a section `handle` from get_document_outline."),
    ("read_section", {}, "read_section requires a valid `handle` from get_document_outline."),
    ("read_section", {"handle": SECTION}, "read_section requires a valid `handle` from get_document_outline."),
    ("read_story", {}, "read_story requires a valid typed `handle` from list_stories."),
    ("read_story", {"handle": {"type": "header"}}, "read_story requires a valid typed `handle` from list_stories."),
    ("read_story", {"handle": {"type": "footnote", "noteId": 42}}, "The requested story was not found; run list_stories again."),
    ("find_text", ["query"], "find_text expects an object with a non-empty `query` string."),
    ("find_text", {}, "find_text requires a non-empty string `query`."),
    ("find_text", {"query": ""}, "find_text requires a non-empty string `query`."),
    ("find_text", {"query": 7}, "find_text requires a non-empty string `query`."),
    ("find_text", {"query": "q" * 1001}, "find_text's `query` is 1,001 characters, over the 1,000-character limit; shorten it."),
    ("find_text", {"query": "a", "matchCase": "yes"}, "find_text's `matchCase` must be a boolean when provided."),
    ("find_text", {"query": "a", "wholeWord": 1}, "find_text's `wholeWord` must be a boolean when provided."),
    ("find_text", {"query": "a", "scope": "document"}, "find_text's `scope` must be a document, section, page, or story scope."),
    ("find_text", {"query": "a", "scope": {"type": "chapter"}}, "find_text's `scope.type` must be document, section, page, or story."),
    ("find_text", {"query": "a", "scope": {}}, "find_text's `scope.type` must be document, section, page, or story."),
    ("find_text", {"query": "a", "scope": {"type": "section"}}, "find_text's section scope requires a handle from get_document_outline."),
    ("find_text", {"query": "a", "scope": {"type": "section", "handle": dict(SECTION, headingTextHash="h1")}}, "The scoped section is stale or missing; run get_document_outline again."),
    ("find_text", {"query": "a", "scope": {"type": "page"}}, "find_text's page scope requires an integer `page` >= 1."),
    ("find_text", {"query": "a", "scope": {"type": "page", "page": 0}}, "find_text's page scope requires an integer `page` >= 1."),
    ("find_text", {"query": "a", "scope": {"type": "page", "page": 1}}, "This editor surface cannot search by page without live pagination."),
    ("find_text", {"query": "a", "scope": {"type": "story"}}, "find_text's story scope requires a handle from list_stories."),
    ("find_text", {"query": "a", "scope": {"type": "story", "handle": {"type": "endnote", "noteId": 3}}}, "The scoped story was not found; run list_stories again."),
    ("read_comments", {"filter": "closed"}, 'read_comments\' `filter` must be one of "all", "open", "resolved" when provided.'),
    ("add_comment", "note", "add_comment expects an object with `blockId` and `text` strings."),
    ("add_comment", {"text": "a"}, "add_comment requires a non-empty string `blockId`."),
    ("add_comment", {"blockId": CLAUSE}, "add_comment requires a non-empty string `text`."),
    ("add_comment", {"blockId": CLAUSE, "text": LONG}, f"add_comment's `text` {CAP}"),
    ("add_comment", {"blockId": CLAUSE, "text": "a", "quote": 5}, "add_comment's `quote` must be a string when provided."),
    ("add_comment", {"blockId": CLAUSE, "text": "a", "quote": LONG}, f"add_comment's `quote` {CAP}"),
    ("add_comment", {"blockId": CLAUSE, "text": "a", "precondition": "h1"}, "add_comment's `precondition` must be an object when provided."),
    ("add_comment", {"blockId": CLAUSE, "text": "a", "precondition": {"blockTextHash": "H1"}}, "add_comment's `precondition.blockTextHash` must be a normalized block text hash, echoed from read_document / read_section / find_text."),
    ("suggest_changes", {}, "suggest_changes requires an `operations` array."),
    ("suggest_changes", {"operations": []}, "suggest_changes' `operations` array must not be empty."),
    ("suggest_changes", {"operations": [{"type": "deleteBlock", "blockId": CLAUSE}] * 51}, "suggest_changes' `operations` array has 51 entries, over the 50-operation limit; batch it across multiple suggest_changes calls."),
    ("suggest_changes", {"operations": [{"type": "replaceInBlock", "blockId": CLAUSE, "find": LONG, "replace": "a"}]}, f"operations[0].find {CAP}"),
    ("suggest_changes", {"operations": [{"type": "replaceInBlock", "blockId": CLAUSE, "find": "a", "replace": LONG}]}, f"operations[0].replace {CAP}"),
    ("suggest_changes", {"operations": [{"type": "insertAfterBlock", "blockId": CLAUSE, "text": LONG}]}, f"operations[0].text {CAP}"),
    ("suggest_changes", {"operations": [{"type": "deleteBlock", "blockId": CLAUSE, "comment": LONG}]}, f"operations[0].comment {CAP}"),
    ("reply_comment", 17, "reply_comment expects an object with `commentId` and `text` strings."),
    ("reply_comment", {"text": "a"}, "reply_comment requires a non-empty string `commentId`."),
    ("reply_comment", {"commentId": 1, "text": "a"}, "reply_comment requires a non-empty string `commentId`."),
    ("reply_comment", {"commentId": "1"}, "reply_comment requires a non-empty string `text`."),
    ("reply_comment", {"commentId": "1", "text": LONG}, f"reply_comment's `text` {CAP}"),
    ("reply_comment", {"commentId": "-1", "text": "a"}, "reply_comment's `commentId` must be a comment id from `read_comments`."),
    ("reply_comment", {"commentId": "1abc", "text": "a"}, "reply_comment's `commentId` must be a comment id from `read_comments`."),
    ("reply_comment", {"commentId": "999999", "text": "a"}, 'No comment with id "999999" was found.'),
    ("resolve_comment", ["1"], "resolve_comment expects an object with a `commentId` string."),
    ("resolve_comment", {}, "resolve_comment requires a non-empty string `commentId`."),
    ("resolve_comment", {"commentId": "1", "reopen": "yes"}, "resolve_comment's `reopen` must be a boolean when provided."),
    ("resolve_comment", {"commentId": "abc"}, "resolve_comment's `commentId` must be a comment id from `read_comments`."),
    ("resolve_comment", {"commentId": "9007199254740992"}, "resolve_comment's `commentId` must be a comment id from `read_comments`."),
    ("resolve_comment", {"commentId": "42"}, 'No comment with id "42" was found.'),
]
# fmt: on


@pytest.mark.parametrize(("tool", "args", "message"), ARGUMENT_ERRORS)
def test_argument_errors(tool, args, message):
    assert error(headless(), tool, args) == message


def test_read_section_errors_against_the_document():
    bridge = headless()
    handle = section_handle(bridge)
    assert error(bridge, "read_section", {"handle": handle, "maxBlocks": 201}) == (
        "read_section's `maxBlocks` must be an integer from 1 to 200."
    )
    assert error(bridge, "read_section", {"handle": handle, "afterBlockId": ""}) == (
        "read_section's `afterBlockId` must be a non-empty string when provided."
    )
    assert error(bridge, "read_section", {"handle": handle, "afterBlockId": SIGNED}) == (
        "read_section's `afterBlockId` is not part of this section."
    )
    gone = dict(handle, headingBlockId="7FFFFFF0")
    assert (
        error(bridge, "read_section", {"handle": gone})
        == "The section no longer exists; run get_document_outline again."
    )


# ----------------------------------------------------------------------------- the full flow
def test_full_flow_read_find_replace_changes_comment_reply_resolve():
    bridge = bridge_with(
        "Definitions", "Payment is due within 30 days of invoice.", "Each party bears its own costs."
    )
    blocks = ok(bridge, "read_document")
    assert [b["text"] for b in blocks][1] == "Payment is due within 30 days of invoice."
    found = ok(bridge, "find_text", {"query": "30 days"})
    assert found["truncated"] is False and found["totalMatches"] == len(found["matches"]) == 1
    target = found["matches"][0]["blockId"]
    summary = ok(
        bridge,
        "suggest_changes",
        {
            "operations": [
                {"type": "replaceInBlock", "blockId": target, "find": "30 days", "replace": "60 days"}
            ]
        },
    )
    [applied] = summary["applied"]
    assert applied["id"].startswith("op-") and applied["id"].endswith("-1")
    assert summary["receipts"] == [
        {
            "operationId": applied["id"],
            "operationIndex": 0,
            "affected": [{"type": "block", "story": "main", "blockId": target, "effect": "updated"}],
        }
    ]
    types = [c["type"] for c in ok(bridge, "read_changes")]
    assert types.count("insertion") >= 1 and types.count("deletion") >= 1
    commented = ok(bridge, "add_comment", {"blockId": target, "text": "Confirm 60 days with finance."})
    assert commented["applied"] == [{"id": "comment-1"}]
    affected = commented["receipts"][0]["affected"]
    assert affected[0] == {"type": "block", "story": "main", "blockId": target, "effect": "commented"}
    comment_id = next(t["commentId"] for t in affected if t["type"] == "comment")
    [comment] = ok(bridge, "read_comments")
    assert comment["id"] == comment_id and comment["resolved"] is False and comment["blockId"] == target
    assert ok(bridge, "reply_comment", {"commentId": comment_id, "text": "Finance agrees."}) == {
        "replied": True
    }
    assert ok(bridge, "read_comments")[0]["replies"][0]["text"] == "Finance agrees."
    assert "999999" in error(bridge, "reply_comment", {"commentId": "999999", "text": "x"})
    assert error(bridge, "reply_comment", {"commentId": f"{comment_id}abc", "text": "x"}) == (
        "reply_comment's `commentId` must be a comment id from `read_comments`."
    )
    assert ok(bridge, "resolve_comment", {"commentId": comment_id}) == {"resolved": True}
    assert len(ok(bridge, "read_comments", {"filter": "resolved"})) == 1
    assert ok(bridge, "read_comments", {"filter": "open"}) == []


def test_list_stories_handles_round_trip_into_read_story():
    bridge = headless()
    stories = ok(bridge, "list_stories")
    assert stories[0]["handle"] == {"type": "main"} and stories[0]["text"].startswith(
        f"[{HEADING_1}] (h1) Definitions"
    )
    for story in stories:
        assert ok(bridge, "read_story", {"handle": story["handle"]}) == story


def test_missing_block_skip_says_re_read_the_document():
    summary = ok(
        headless(),
        "suggest_changes",
        {"operations": [{"id": "x", "type": "deleteBlock", "blockId": "7FFFFFF0"}]},
    )
    assert summary["applied"] == [] and summary["receipts"] == []
    assert "re-read the document" in summary["skipped"][0]["reason"]
    assert summary["issues"][0]["code"] == "missingBlock"


class Recording(ReviewerBridge):
    """Records batches; ``before_apply`` simulates someone editing between snapshot and apply."""

    def __init__(self, reviewer: DocxReviewer, before_apply: Any = None) -> None:
        super().__init__(reviewer)
        self.batches: list[dict[str, Any]] = []
        self.before_apply = before_apply

    def apply_document_operations(self, batch):
        self.batches.append(batch)
        if self.before_apply is not None:
            hook, self.before_apply = self.before_apply, None
            hook(self.reviewer)
        return super().apply_document_operations(batch)


def _typist(reviewer: DocxReviewer) -> None:
    edit = {
        "id": "typed",
        "type": "replaceInBlock",
        "blockId": PAYMENT,
        "find": "invoice",
        "replace": "receipt",
    }
    reviewer.apply_operations({"version": 1, "operations": [edit]})


def test_precondition_is_stamped_from_a_fresh_snapshot_and_staleness_explained():
    reviewer = fixture_reviewer()
    bridge = Recording(reviewer, before_apply=_typist)
    expected = reviewer.snapshot().block(PAYMENT).text_hash
    op = {"type": "replaceInBlock", "blockId": PAYMENT, "find": "30 days", "replace": "60 days"}
    summary = ok(bridge, "suggest_changes", {"operations": [op]})
    [sent] = bridge.batches[0]["operations"]
    assert sent["precondition"] == {"blockTextHash": expected}
    assert bridge.batches[0]["mode"] == "tracked-changes"
    assert summary["issues"][0]["code"] == "preconditionFailed"
    assert summary["skipped"][0]["reason"].startswith(
        "the target block changed after the operation was prepared"
    )


def test_caller_precondition_is_honoured():
    reviewer = fixture_reviewer()
    bridge = Recording(reviewer)
    read_hash = next(b["blockTextHash"] for b in ok(bridge, "read_document") if b["blockId"] == PAYMENT)
    _typist(reviewer)  # the block changes after the model read it
    op = {"type": "replaceInBlock", "blockId": PAYMENT, "find": "30 days", "replace": "60 days"}
    stale = ok(
        bridge, "suggest_changes", {"operations": [dict(op, precondition={"blockTextHash": read_hash})]}
    )
    assert bridge.batches[-1]["operations"][0]["precondition"] == {"blockTextHash": read_hash}
    assert [i["code"] for i in stale["issues"]] == ["preconditionFailed"]
    fresh = ok(bridge, "suggest_changes", {"operations": [op]})  # a same-call stamp cannot see it
    assert len(fresh["applied"]) == 1


def test_unsupported_mode_is_explained():
    options = SuggestChangesOptions(operation_types=("replaceInBlock", "insertSignatureTable"))
    op = {"type": "insertSignatureTable", "blockId": SIGNED, "parties": [{"name": "Acme Ltd"}]}
    summary = ok(headless(), "suggest_changes", {"operations": [op]}, options)
    assert (
        summary["issues"][0]["code"] == "unsupportedMode" and summary["issues"][0]["recovery"] == "changeMode"
    )
    assert summary["skipped"][0]["reason"].startswith(
        "this operation does not support the requested mutation mode"
    )
    suggested = create_reviewer_bridge(fixture_reviewer(), mode="suggested")
    replace = {"type": "replaceInBlock", "blockId": PAYMENT, "find": "30", "replace": "45"}
    assert (
        ok(suggested, "suggest_changes", {"operations": [replace]})["issues"][0]["code"] == "unsupportedMode"
    )
    assert (
        len(
            ok(
                create_reviewer_bridge(fixture_reviewer(), mode="direct"),
                "suggest_changes",
                {"operations": [op]},
                options,
            )["applied"]
        )
        == 1
    )


def test_version_pin_needs_a_bridge_version():
    class NoVersion:
        def __init__(self, inner: ReviewerBridge) -> None:
            self.inner = inner

        def __getattr__(self, name: str) -> Any:
            if name == "get_document_version":
                raise AttributeError(name)
            return getattr(self.inner, name)

    options = SuggestChangesOptions(document_version="v1")
    args = {"documentVersion": "v1", "operations": [{"type": "deleteBlock", "blockId": PAYMENT}]}
    assert error(NoVersion(headless()), "suggest_changes", args, options) == (
        "This editor surface cannot verify `documentVersion`; it has no document version to compare against."
    )


def test_version_mismatch_skips_every_operation_and_a_match_applies():
    bridge = headless()
    ops = [{"type": "deleteBlock", "blockId": PAYMENT}, {"type": "deleteBlock", "blockId": SIGNED}]
    stale = SuggestChangesOptions(document_version="old")
    summary = ok(bridge, "suggest_changes", {"documentVersion": "old", "operations": ops}, stale)
    assert (
        summary["applied"] == [] and [i["code"] for i in summary["issues"]] == ["documentVersionMismatch"] * 2
    )
    assert [i["operationIndex"] for i in summary["issues"]] == [0, 1]
    assert all(
        s["reason"].startswith("the document changed after these edits were proposed")
        for s in summary["skipped"]
    )
    current = bridge.get_document_version()
    pinned = SuggestChangesOptions(document_version=current)
    assert (
        len(ok(bridge, "suggest_changes", {"documentVersion": current, "operations": ops}, pinned)["applied"])
        == 2
    )


def test_a_stale_version_pin_is_judged_by_the_engine_and_its_refusal_reaches_the_model():
    """The executor hands a pinned batch on; the engine alone compares the version, and its
    refusal is what the model reads, for every operation, even one the engine would otherwise
    refuse for its text (a character no Word document can hold)."""
    reviewer = fixture_reviewer()
    bridge = Recording(reviewer)
    before = reviewer.to_bytes()
    ops = [
        {"id": "pay-60", "type": "replaceInBlock", "blockId": PAYMENT, "find": "30", "replace": "60"},
        {"id": "odd", "type": "insertAfterBlock", "blockId": SIGNED, "text": "Net\uffff."},
    ]
    stale = SuggestChangesOptions(document_version="old")
    summary = ok(bridge, "suggest_changes", {"documentVersion": "old", "operations": ops}, stale)
    [sent] = bridge.batches
    assert sent["precondition"] == {"documentVersion": "old"}
    assert [op["id"] for op in sent["operations"]] == ["pay-60", "odd"]
    assert [(i["operationId"], i["code"], i["operationIndex"]) for i in summary["issues"]] == [
        ("pay-60", "documentVersionMismatch", 0),
        ("odd", "documentVersionMismatch", 1),
    ]
    assert summary["skipped"] == [
        {"id": op["id"], "reason": reason_for("documentVersionMismatch")} for op in ops
    ]
    assert summary["applied"] == [] and summary["receipts"] == []
    assert reviewer.to_bytes() == before
    # nothing was recorded for replay: the same ids sent again with the current version apply
    current = SuggestChangesOptions(document_version=bridge.get_document_version())
    again = ok(
        bridge,
        "suggest_changes",
        {"documentVersion": current.document_version, "operations": ops[:1]},
        current,
    )
    assert again["applied"] == [{"id": "pay-60"}] and again["replayed"] == []


def test_parser_normalizations_come_before_apply_time_ones():
    args = {
        "note": "x",
        "operations": [{"type": "insertAfterBlock", "blockId": SIGNED, "text": "One.\nTwo."}],
    }
    normalizations = ok(headless(), "suggest_changes", args)["normalizations"]
    assert normalizations[0] == {"path": "note", "message": "unknown argument `note` was ignored"}
    assert normalizations[1]["path"].endswith(".text") and "split into 2" in normalizations[1]["message"]


def test_invalid_options_are_a_programmer_error():
    with pytest.raises(InvalidSuggestChangesOptionsError):
        execute_tool_call(
            "suggest_changes", {"operations": []}, headless(), SuggestChangesOptions(max_operations=0)
        )


# ----------------------------------------------------------------------------- bridge failures


# ----------------------------------------------------------------------------- find_text
def test_find_text_occurrences_case_and_context():
    bridge = bridge_with("The fee and the FEE and the Fee.", "No match here.")
    found = ok(bridge, "find_text", {"query": "fee"})
    assert [m["occurrenceInBlock"] for m in found["matches"]] == [0, 1, 2]
    assert ok(bridge, "find_text", {"query": "fee", "matchCase": True})["totalMatches"] == 1
    match = found["matches"][1]
    assert match["range"]["startOffset"] == 16 and match["range"]["endOffset"] == 19
    assert match["range"]["selectedTextHash"] == hashing.text_hash("FEE")
    assert match["context"] == "The fee and the FEE and the Fee."


def test_find_text_truncates_at_200_with_the_true_total():
    bridge = bridge_with(*(["term " * 100] * 3))
    found = ok(bridge, "find_text", {"query": "term"})
    assert found["totalMatches"] == 300 and len(found["matches"]) == 200 and found["truncated"] is True


def test_whole_word_uses_unicode_boundaries():
    bridge = bridge_with("čas časopis účas 1čas čas_ (čas)", "cafe\u0301 cafe", "Straße straßen")
    assert [
        m["range"]["startOffset"]
        for m in ok(bridge, "find_text", {"query": "čas", "wholeWord": True})["matches"]
    ] == [0, 28]
    cafe = ok(bridge, "find_text", {"query": "cafe", "wholeWord": True})["matches"]
    assert [m["range"]["startOffset"] for m in cafe] == [6]
    assert ok(bridge, "find_text", {"query": "straße", "wholeWord": True})["totalMatches"] == 1


def test_whole_word_is_right_far_into_a_huge_block():
    bridge = bridge_with("lorem ipsum " * 8000 + "targets target.")
    found = ok(bridge, "find_text", {"query": "target", "wholeWord": True})
    assert found["totalMatches"] == 1 and found["matches"][0]["range"]["startOffset"] == 96000 + len(
        "targets "
    )


def test_section_and_story_scopes():
    bridge = headless()
    handle = section_handle(bridge)
    in_section = ok(
        bridge, "find_text", {"query": "supplier", "scope": {"type": "section", "handle": handle}}
    )
    assert [m["blockId"] for m in in_section["matches"]] == [CLAUSE]
    main = ok(
        bridge, "find_text", {"query": "supplier", "scope": {"type": "story", "handle": {"type": "main"}}}
    )
    assert main == ok(bridge, "find_text", {"query": "supplier"})
    note = {"type": "footnote", "noteId": 1}
    found = ok(bridge, "find_text", {"query": "legal", "scope": {"type": "story", "handle": note}})
    assert found["matches"] == [
        {
            "type": "story",
            "story": note,
            "startOffset": 14,
            "endOffset": 19,
            "occurrenceInStory": 0,
            "context": "Costs include legal fees.",
        }
    ]


# ----------------------------------------------------------------------------- no input makes it raise
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "query",
                    "scope",
                    "type",
                    "handle",
                    "page",
                    "blockId",
                    "text",
                    "operations",
                    "range",
                    "commentId",
                    "filter",
                    "maxDepth",
                    "find",
                    "replace",
                ]
            )
            | st.text(max_size=8),
            children,
            max_size=5,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(TOOL_NAMES), args=JSON)
def test_no_json_argument_makes_the_executor_raise(name, args):
    for bridge in BRIDGES.values():
        envelope = execute_tool_call(name, args, bridge)
        assert isinstance(envelope["ok"], bool)
        assert ("result" in envelope) if envelope["ok"] else isinstance(envelope["error"], str)


BRIDGES = {"headless": headless(), "paged": paged(), "queue": ReviewQueueBridge(fixture_reviewer())}


OPERATION = st.fixed_dictionaries(
    {"type": st.sampled_from(OPERATION_TYPES)},
    optional={
        "id": st.text(max_size=6),
        "blockId": st.sampled_from([CLAUSE, PAYMENT, SIGNED, "7FFFFFF0", ""]),
        "find": st.sampled_from(["Supplier", "30 days", "", "x"]),
        "replace": st.text(max_size=10),
        "text": st.text(max_size=30),
        "comment": JSON,
        "offset": st.integers(-2, 60),
        "range": JSON,
        "properties": JSON,
        "rows": JSON,
        "precondition": JSON,
        "numbering": JSON,
        "styleId": st.sampled_from(["Heading1", "NoSuchStyle", None]),
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operations=st.lists(OPERATION, min_size=1, max_size=4))
def test_near_valid_operations_never_make_the_executor_raise(operations):
    options = SuggestChangesOptions(operation_types=OPERATION_TYPES)
    for bridge in BRIDGES.values():
        envelope = execute_tool_call("suggest_changes", {"operations": operations}, bridge, options)
        assert isinstance(envelope["ok"], bool)
