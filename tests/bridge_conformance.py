"""A reusable conformance suite for agent bridges (contract §9), run through ``execute_tool_call``.

Every check takes a *bridge factory*: a callable that receives a fresh :class:`DocxReviewer`
over the suite's fixture contract and returns the bridge to test over it (the headless bridge,
the review queue, or the desktop page view's live bridge). Each check asserts the behaviour the
bridge *claims*: a member it has must work as the contract says, and a member it lacks must make
its tool answer with the contract's exact "unsupported" sentence, never an exception. Changes may
land (``applied``) or wait for a person (``queued``); both are accepted where the contract does.

    from tests.bridge_conformance import run_conformance
    run_conformance(lambda reviewer: make_my_bridge(reviewer))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reviewer_app.agent.bridge import OPTIONAL_MEMBERS, REQUIRED_MEMBERS, ReviewerBridge, member
from reviewer_app.agent.executor import execute_tool_call
from reviewer_app.agent.suggest_changes import SuggestChangesOptions
from reviewer_app.docx import DocxReviewer, hashing
from reviewer_app.docx.edit.contract import MODES
from tests.docx_factory import heading_styles, make_docx, p

BridgeFactory = Callable[[DocxReviewer], Any]

# ----------------------------------------------------------------------------- the fixture
HEADING_1 = "10000001"
CLAUSE = "10000002"  # carries comment 1
PAYMENT = "10000003"
HEADING_2 = "10000004"  # a second level-1 heading
LIABILITY = "10000005"
COSTS = "10000006"  # ends with a footnote reference
CELL_A = "10000007"
CELL_B = "10000008"
CELL_C = "10000009"
CELL_D = "1000000A"
SIGNED = "1000000B"
CLAUSE_TEXT = "The Supplier delivers the goods on time."
PAYMENT_TEXT = "Payment is due within 30 days of invoice."
LIABILITY_TEXT = "The Supplier's liability is capped at the fees paid."
EXISTING_COMMENT = "1"


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def _cell(text: str, para_id: str) -> str:
    return f'<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>{p(text, para_id)}</w:tc>'


def fixture_docx() -> bytes:
    """A small contract with two headings, a table, a comment, a header and a footnote."""
    commented = (
        '<w:commentRangeStart w:id="1"/>'
        + _run(CLAUSE_TEXT)
        + '<w:commentRangeEnd w:id="1"/>'
        + '<w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:commentReference w:id="1"/></w:r>'
    )
    footnoted = _run("Each party bears its own costs.") + '<w:r><w:footnoteReference w:id="1"/></w:r>'
    body = "".join(
        (
            p("Definitions", HEADING_1, '<w:pStyle w:val="Heading1"/>'),
            p(para_id=CLAUSE, runs=commented),
            p(PAYMENT_TEXT, PAYMENT),
            p("Liability", HEADING_2, '<w:pStyle w:val="Heading1"/>'),
            p(LIABILITY_TEXT, LIABILITY),
            p(para_id=COSTS, runs=footnoted),
            '<w:tbl><w:tblPr><w:tblW w:w="4000" w:type="dxa"/></w:tblPr>'
            '<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid>'
            f"<w:tr>{_cell('Party', CELL_A)}{_cell('Role', CELL_B)}</w:tr>"
            f"<w:tr>{_cell('Acme', CELL_C)}{_cell('Supplier', CELL_D)}</w:tr></w:tbl>",
            p("Signed by the parties.", SIGNED),
        )
    )
    comment = (
        '<w:comment w:id="1" w:author="Ann" w:initials="A" w:date="2024-01-02T03:04:05Z">'
        '<w:p w14:paraId="20000001"><w:r><w:annotationRef/></w:r>'
        + _run("Is on time defined?")
        + "</w:p></w:comment>"
    )
    footnotes = (
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
        '<w:footnote w:id="1"><w:p>' + _run("Costs include legal fees.") + "</w:p></w:footnote>"
    )
    return make_docx(
        body,
        styles=heading_styles(),
        comments=comment,
        header=p("Master Services Agreement — Confidential"),
        footnotes=footnotes,
    )


def fixture_reviewer(author: str = "Reviewer AI") -> DocxReviewer:
    return DocxReviewer.from_bytes(fixture_docx(), author=author)


# ----------------------------------------------------------------------------- helpers
def call(bridge: Any, name: str, args: Any = None, options: Any = None) -> dict[str, Any]:
    """Run a tool; the envelope must always be well formed (the executor never raises)."""
    envelope = execute_tool_call(name, {} if args is None else args, bridge, options)
    assert isinstance(envelope, dict) and isinstance(envelope.get("ok"), bool), envelope
    if envelope["ok"]:
        assert "result" in envelope, envelope
    else:
        assert isinstance(envelope.get("error"), str) and envelope["error"], envelope
    return envelope


def ok(bridge: Any, name: str, args: Any = None, options: Any = None) -> Any:
    envelope = call(bridge, name, args, options)
    assert envelope["ok"], envelope
    return envelope["result"]


def error(bridge: Any, name: str, args: Any = None, options: Any = None) -> str:
    envelope = call(bridge, name, args, options)
    assert not envelope["ok"], envelope
    return envelope["error"]


def landed(summary: dict[str, Any]) -> list[str]:
    """Ids of operations that landed or wait for review (the contract treats both as success)."""
    return [e["id"] for e in summary["applied"]] + [e["id"] for e in summary["queued"]]


UNSUPPORTED: dict[str, tuple[str, dict[str, Any], str]] = {
    "get_page_text": (
        "read_page",
        {"page": 1},
        "This editor surface does not support read_page (no live paginated view).",
    ),
    "get_selection_text": (
        "read_selection",
        {},
        "This editor surface does not support read_selection (no live selection).",
    ),
    "scroll_to_block": (
        "scroll_to_block",
        {"blockId": CLAUSE},
        "This editor surface does not support scroll_to_block (no live editor view).",
    ),
    "show_in_document": (
        "show_in_document",
        {"blockId": CLAUSE},
        "This editor surface does not support show_in_document (no live editor view).",
    ),
    "list_stories": ("list_stories", {}, "This editor surface does not support story discovery."),
    "read_story": (
        "read_story",
        {"handle": {"type": "main"}},
        "This editor surface does not support story reads.",
    ),
    "get_target_page": (
        "find_text",
        {"query": "Supplier", "scope": {"type": "page", "page": 1}},
        "This editor surface cannot search by page without live pagination.",
    ),
}


# ----------------------------------------------------------------------------- a reference live bridge
class PagedBridge(ReviewerBridge):
    """A stand-in for the page view's live bridge (three content blocks per page, a fixed selection),
    so the page, selection and navigation paths of the executor are tested without Qt."""

    def _pages(self) -> dict[str, int]:
        blocks = self.reviewer.snapshot().content_blocks()
        return {b.id: i // 3 + 1 for i, b in enumerate(blocks)}

    def get_target_page(self, target: dict[str, Any]) -> int | None:
        return self._pages().get(target.get("blockId", ""))

    def get_page_count(self) -> int:
        return max(self._pages().values())

    def get_page_text(self, page: int) -> str | None:
        snapshot = self.reviewer.snapshot()
        return "\n".join(snapshot.block(i).text for i, p in self._pages().items() if p == page)

    def get_selection_text(self) -> str:
        return "the goods"

    def scroll_to_block(self, block_id: str) -> bool:
        return block_id in self._pages()

    def show_in_document(self, target: dict[str, Any]) -> bool:
        return target.get("blockId") in self._pages()


# ----------------------------------------------------------------------------- checks
def check_members(factory: BridgeFactory) -> None:
    """Required members are callable; optional ones are absent or usable (a mode is a contract mode)."""
    bridge = factory(fixture_reviewer())
    for name in REQUIRED_MEMBERS:
        assert callable(getattr(bridge, name, None)), name
    for name in OPTIONAL_MEMBERS:
        value = member(bridge, name)
        if name == "document_operation_mode":
            assert value is None or value in MODES, value
        else:
            assert value is None or callable(value), name


def check_unsupported_members(factory: BridgeFactory) -> None:
    """Each capability the bridge lacks makes its tool answer with the exact unsupported sentence."""
    bridge = factory(fixture_reviewer())
    for name, (tool, args, message) in UNSUPPORTED.items():
        if member(bridge, name) is None:
            assert error(bridge, tool, args) == message, tool


def check_read_document(factory: BridgeFactory) -> None:
    bridge = factory(fixture_reviewer())
    blocks = ok(bridge, "read_document")
    by_id = {b["blockId"]: b for b in blocks}
    assert by_id[CLAUSE]["text"] == CLAUSE_TEXT
    assert by_id[HEADING_1]["kind"] == "heading" and by_id[HEADING_1]["headingLevel"] == 1
    assert by_id[COSTS]["text"] == "Each party bears its own costs.[^1]"
    for block in blocks:
        assert block["blockTextHash"] == hashing.block_text_hash(block["text"])
        assert block["text"].strip(), "read_document shows content blocks only"
    assert [b["blockId"] for b in blocks][:3] == [HEADING_1, CLAUSE, PAYMENT]


def check_outline_and_sections(factory: BridgeFactory) -> None:
    bridge = factory(fixture_reviewer())
    outline = ok(bridge, "get_document_outline")
    assert [s["text"] for s in outline["sections"]] == ["Definitions", "Liability"]
    assert outline["totalSections"] == 2 and outline["truncated"] is False
    has_pages = member(bridge, "get_target_page") is not None
    for section in outline["sections"]:
        assert ("page" in section) == has_pages or not has_pages
    handle = outline["sections"][0]["handle"]
    first = ok(bridge, "read_section", {"handle": handle, "maxBlocks": 1})
    assert first["blocks"][0]["blockId"] == HEADING_1 and first["truncated"] is True
    rest = ok(bridge, "read_section", {"handle": handle, "afterBlockId": first["nextAfterBlockId"]})
    assert [b["blockId"] for b in rest["blocks"]] == [CLAUSE, PAYMENT] and rest["truncated"] is False
    stale = dict(handle, headingTextHash="h1")
    assert error(bridge, "read_section", {"handle": stale}) == (
        "The section heading changed; run get_document_outline again for a fresh handle."
    )


def check_find_text(factory: BridgeFactory) -> None:
    bridge = factory(fixture_reviewer())
    found = ok(bridge, "find_text", {"query": "supplier"})
    assert found["totalMatches"] == 3 and found["truncated"] is False
    assert {m["blockId"] for m in found["matches"]} == {CLAUSE, LIABILITY, CELL_D}
    assert ok(bridge, "find_text", {"query": "supplier", "matchCase": True})["totalMatches"] == 0
    match = found["matches"][0]
    assert match["range"]["blockId"] == match["blockId"] and match["occurrenceInBlock"] == 0
    if member(bridge, "show_in_document") is not None:
        assert isinstance(ok(bridge, "show_in_document", {"range": match["range"]})["shown"], bool)
    if member(bridge, "get_target_page") is not None:
        paged = ok(bridge, "find_text", {"query": "supplier", "scope": {"type": "page", "page": 1}})
        assert all(m["page"] == 1 for m in paged["matches"])


def check_stories(factory: BridgeFactory) -> None:
    bridge = factory(fixture_reviewer())
    if member(bridge, "list_stories") is None:
        return
    stories = ok(bridge, "list_stories")
    assert stories[0]["handle"] == {"type": "main"}
    kinds = [s["handle"]["type"] for s in stories]
    assert "header" in kinds and "footnote" in kinds
    if member(bridge, "read_story") is not None:
        for story in stories:
            assert ok(bridge, "read_story", {"handle": story["handle"]}) == story
        note = next(s for s in stories if s["handle"]["type"] == "footnote")
        found = ok(
            bridge, "find_text", {"query": "legal", "scope": {"type": "story", "handle": note["handle"]}}
        )
        assert found["matches"][0]["type"] == "story" and "blockId" not in found["matches"][0]
        missing = {"type": "footnote", "noteId": 99}
        assert error(bridge, "read_story", {"handle": missing}) == (
            "The requested story was not found; run list_stories again."
        )


def check_comments(factory: BridgeFactory) -> None:
    bridge = factory(fixture_reviewer())
    comments = ok(bridge, "read_comments")
    assert [c["id"] for c in comments] == [EXISTING_COMMENT]
    assert comments[0]["blockId"] == CLAUSE and comments[0]["resolved"] is False
    if member(bridge, "queues_comment_actions") is True:
        check_queued_comment_actions(bridge)
        return
    assert ok(bridge, "reply_comment", {"commentId": EXISTING_COMMENT, "text": "Yes: clause 1.4."}) == {
        "replied": True
    }
    assert [r["text"] for r in ok(bridge, "read_comments")[0]["replies"]] == ["Yes: clause 1.4."]
    assert error(bridge, "reply_comment", {"commentId": "999999", "text": "x"}) == (
        'No comment with id "999999" was found.'
    )
    assert error(bridge, "reply_comment", {"commentId": f"{EXISTING_COMMENT}abc", "text": "x"}) == (
        "reply_comment's `commentId` must be a comment id from `read_comments`."
    )
    assert ok(bridge, "resolve_comment", {"commentId": EXISTING_COMMENT}) == {"resolved": True}
    assert len(ok(bridge, "read_comments", {"filter": "resolved"})) == 1
    assert ok(bridge, "read_comments", {"filter": "open"}) == []
    assert ok(bridge, "resolve_comment", {"commentId": EXISTING_COMMENT, "reopen": True}) == {
        "resolved": False
    }
    assert len(ok(bridge, "read_comments", {"filter": "open"})) == 1


def check_queued_comment_actions(bridge: Any) -> None:
    """Review mode: a reply and a resolve wait as proposals; the thread is untouched until applied."""
    before = ok(bridge, "read_comments")
    replied = ok(bridge, "reply_comment", {"commentId": EXISTING_COMMENT, "text": "Yes: clause 1.4."})
    assert replied["queued"] == [{"id": f"reply-{EXISTING_COMMENT}"}] and replied["applied"] == []
    resolved = ok(bridge, "resolve_comment", {"commentId": EXISTING_COMMENT})
    assert resolved["queued"] == [{"id": f"resolve-{EXISTING_COMMENT}"}]
    assert ok(bridge, "read_comments") == before
    assert error(bridge, "reply_comment", {"commentId": "999999", "text": "x"}) == (
        'No comment with id "999999" was found.'
    )
    assert error(bridge, "reply_comment", {"commentId": f"{EXISTING_COMMENT}abc", "text": "x"}) == (
        "reply_comment's `commentId` must be a comment id from `read_comments`."
    )


def check_add_comment(factory: BridgeFactory) -> None:
    bridge = factory(fixture_reviewer())
    summary = ok(bridge, "add_comment", {"blockId": PAYMENT, "text": "Check 30 days.", "quote": "30 days"})
    assert landed(summary) == ["comment-1"] and summary["skipped"] == []
    assert summary["receipts"][0]["operationId"] == "comment-1"
    assert {"type": "block", "story": "main", "blockId": PAYMENT, "effect": "commented"} in summary[
        "receipts"
    ][0]["affected"]
    again = ok(bridge, "add_comment", {"blockId": PAYMENT, "text": "Second note."})
    assert landed(again) == ["comment-1"] and again["replayed"] == [], "add_comment is never replayed"


def check_suggest_changes(factory: BridgeFactory) -> None:
    bridge = factory(fixture_reviewer())
    op = {
        "id": "pay-60",
        "type": "replaceInBlock",
        "blockId": PAYMENT,
        "find": "30 days",
        "replace": "60 days",
    }
    summary = ok(bridge, "suggest_changes", {"operations": [op]})
    assert landed(summary) == ["pay-60"] and summary["skipped"] == [] and summary["replayed"] == []
    assert summary["receipts"] == [
        {
            "operationId": "pay-60",
            "operationIndex": 0,
            "affected": [{"type": "block", "story": "main", "blockId": PAYMENT, "effect": "updated"}],
        }
    ]
    if summary["applied"] and member(bridge, "document_operation_mode") != "direct":
        types = {c["type"] for c in ok(bridge, "read_changes")}
        assert {"insertion", "deletion"} <= types
    missing = ok(bridge, "suggest_changes", {"operations": [dict(op, id="gone", blockId="7FFFFFF0")]})
    assert missing["skipped"][0]["id"] == "gone" and "re-read the document" in missing["skipped"][0]["reason"]
    assert missing["receipts"] == [] and landed(missing) == []


def check_replay(factory: BridgeFactory) -> None:
    bridge = factory(fixture_reviewer())
    op = {
        "id": "cap",
        "type": "replaceInBlock",
        "blockId": LIABILITY,
        "find": "fees paid",
        "replace": "fees payable",
    }
    first = ok(bridge, "suggest_changes", {"operations": [op]})
    again = ok(bridge, "suggest_changes", {"operations": [op]})
    assert again["replayed"] == [{"id": "cap"}] and landed(again) == [] and again["skipped"] == []
    assert again["receipts"] == first["receipts"]
    message = error(bridge, "suggest_changes", {"operations": [dict(op, replace="fees due")]})
    assert message == (
        'operations[0].id "cap" already names a different operation this document applied. '
        "Give a new operation a new id, or omit ids to have them generated."
    )


def check_version_pin(factory: BridgeFactory) -> None:
    bridge = factory(fixture_reviewer())
    options = SuggestChangesOptions(document_version="not-the-current-version")
    op = {"type": "replaceInBlock", "blockId": PAYMENT, "find": "30", "replace": "45"}
    args = {"documentVersion": "not-the-current-version", "operations": [op]}
    get_version = member(bridge, "get_document_version")
    if get_version is None:
        assert error(bridge, "suggest_changes", args, options) == (
            "This editor surface cannot verify `documentVersion`; it has no document version to compare against."
        )
        return
    summary = ok(bridge, "suggest_changes", args, options)
    assert landed(summary) == [] and len(summary["skipped"]) == 1
    assert summary["issues"][0]["code"] == "documentVersionMismatch"
    assert summary["issues"][0]["recovery"] == "refreshDocument"
    current = get_version()
    pinned = SuggestChangesOptions(document_version=current)
    matched = ok(bridge, "suggest_changes", {"documentVersion": current, "operations": [op]}, pinned)
    assert len(landed(matched)) == 1


def check_navigation(factory: BridgeFactory) -> None:
    bridge = factory(fixture_reviewer())
    if member(bridge, "scroll_to_block") is not None:
        assert isinstance(ok(bridge, "scroll_to_block", {"blockId": CLAUSE})["scrolled"], bool)
    if member(bridge, "show_in_document") is not None:
        assert isinstance(ok(bridge, "show_in_document", {"blockId": CLAUSE})["shown"], bool)
        assert ok(bridge, "show_in_document", {"blockId": "7FFFFFF0"})["shown"] is False
    if member(bridge, "get_page_text") is not None:
        page = ok(bridge, "read_page", {"page": 1})
        assert page["page"] == 1 and isinstance(page["text"], str)
        if "totalPages" in page:
            beyond = page["totalPages"] + 1
            assert error(bridge, "read_page", {"page": beyond}) == (
                f"read_page's `page` ({beyond:,}) exceeds the document's page count ({page['totalPages']:,})."
            )
    if member(bridge, "get_selection_text") is not None:
        assert isinstance(ok(bridge, "read_selection")["text"], str)


CHECKS: tuple[Callable[[BridgeFactory], None], ...] = (
    check_members,
    check_unsupported_members,
    check_read_document,
    check_outline_and_sections,
    check_find_text,
    check_stories,
    check_comments,
    check_add_comment,
    check_suggest_changes,
    check_replay,
    check_version_pin,
    check_navigation,
)


def run_conformance(factory: BridgeFactory) -> None:
    """Run every check against bridges ``factory`` makes (each check on a fresh fixture)."""
    for check in CHECKS:
        check(factory)
