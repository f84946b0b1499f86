"""Playbook review through the agent loop: record_finding, the run's turns, and the saved review.

The real ``anthropic`` client talks to the scripted server on 127.0.0.1; the scripted model
calls ``record_finding`` the way a model would, including wrong calls, and the tests check what
a lawyer relies on: every position is answered or listed as unanswered, a citation names a block
that exists and a quote that is in it, proposals and comments are linked to their findings, and
an internal note never reaches the saved .docx.
"""

from __future__ import annotations

import asyncio
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest

from reviewer_app.agent import create_review_queue_bridge, create_reviewer_bridge
from reviewer_app.agent.context_budget import estimate_tokens
from reviewer_app.agent.playbook.findings_store import FindingsStore
from reviewer_app.agent.playbook.model import Playbook, PlaybookReview, Position
from reviewer_app.agent.playbook.playbook_turn import TASK_SHARE, PlaybookRun, task_text
from reviewer_app.agent.playbook.record_finding import RECORD_FINDING
from reviewer_app.agent.session import AgentSession
from reviewer_app.agent.settings import AgentSettings
from reviewer_app.agent.tools import TOOL_NAMES
from reviewer_app.docx import DocxReviewer
from tests import agent_fixtures
from tests.checkers import schema_errors
from tests.fake_anthropic import (
    TEST_KEY,
    FakeAnthropic,
    fast_settings,
    reply,
    result_text,
    tool,
    tool_results,
)
from tests.playbook_fixtures import (
    LAW,
    LAW_TEXT,
    NDA,
    PLAYBOOK,
    PURPOSE_FALLBACK,
    TERM,
    USE,
    USE_TEXT,
    cite,
    finding,
)

free_documents = agent_fixtures.free_documents

ALL_THREE = [
    finding("term", "deviates", cite(TERM, "two (2) years after disclosure"), severity="high"),
    finding("purpose", "deviates", cite(USE, "for any purpose whatsoever")),
    finding("law", "meets", cite(LAW, "the laws of England and Wales")),
]


def _run(
    script: list[Any], bridge: Any = None, review: PlaybookReview | None = None, **settings: Any
) -> tuple[PlaybookRun, list[Any], FakeAnthropic, Any]:
    bridge = bridge or create_reviewer_bridge(DocxReviewer.from_bytes(NDA))
    review = review or PlaybookReview(PLAYBOOK)

    async def go(server: FakeAnthropic) -> tuple[PlaybookRun, list[Any]]:
        async with AgentSession(bridge, fast_settings(server, **settings)) as session:
            run = PlaybookRun(session, review)
            return run, [event async for event in run.events()]

    with FakeAnthropic(script) as server:
        run, events = asyncio.run(go(server))
    return run, events, server, bridge


def _errors(server: FakeAnthropic, request: int) -> list[str]:
    return [result_text(r) for r in tool_results(server.requests[request].body) if r.get("is_error")]


def test_a_full_run_records_every_finding_and_offers_the_tool_only_then() -> None:
    script = [
        reply("Reading.", tool("read_document", {})),
        reply("Recording.", *(tool(RECORD_FINDING, f) for f in ALL_THREE)),
        reply("Two positions deviate; governing law meets the playbook."),
    ]
    run, events, server, _ = _run(script)
    review = run.review
    assert {k: f.status for k, f in review.findings.items()} == {
        "term": "deviates",
        "purpose": "deviates",
        "law": "meets",
    }
    assert review.unanswered() == ()
    assert review.findings["term"].citations[0].block_id == TERM
    assert review.findings["law"].severity == "low"  # the position's own severity when none is given
    assert run.turns == 1 and run.stop_reason == "end_turn"
    tools = server.requests[0].body["tools"]
    assert [t["name"] for t in tools] == [*TOOL_NAMES, RECORD_FINDING]
    assert tools[-1]["input_schema"]["properties"]["positionId"]["enum"] == ["term", "purpose", "law"]
    task = server.requests[0].body["messages"][-1]["content"]
    task = task if isinstance(task, str) else task[-1]["text"]
    assert "positions 1-3 of 3" in task and '"Mutual NDA"' in task and "Two years from disclosure" in task
    last = json.loads(result_text(tool_results(server.requests[2].body)[-1]))
    assert last == {"recorded": "law", "status": "meets", "unanswered": []}
    results = [e for e in events if e.kind == "tool_result" and e.name == RECORD_FINDING]
    assert [r.ok for r in results] == [True, True, True]
    assert RECORD_FINDING not in run.session.host_tools  # a later chat turn does not see it


def test_a_made_up_block_or_quote_is_refused_and_the_corrected_call_is_kept() -> None:
    bad_block = finding("purpose", "deviates", cite("1A0000FF", "for any purpose whatsoever"))
    bad_quote = finding("purpose", "deviates", cite(USE, "solely for the Purpose"))
    elsewhere = finding("purpose", "deviates", cite(TERM, "for any purpose whatsoever"))
    unknown = finding("non-compete", "missing")
    uncited = finding("term", "deviates")
    good = finding("purpose", "deviates", cite(USE, "for any  purpose whatsoever"))  # spacing differs
    script = [
        reply(
            "Recording.",
            tool(RECORD_FINDING, bad_block),
            tool(RECORD_FINDING, bad_quote),
            tool(RECORD_FINDING, elsewhere),
            tool(RECORD_FINDING, unknown),
            tool(RECORD_FINDING, uncited),
        ),
        reply("Correcting.", tool(RECORD_FINDING, good)),
        reply("Done."),
        reply("I cannot tell."),  # the second turn, for term and law, records nothing
    ]
    run, _, server, _ = _run(script, max_tool_calls=6)  # two positions a turn: one turn here
    errors = _errors(server, 1)
    assert len(errors) == 5
    assert 'no block "1A0000FF"' in errors[0]
    assert f"the quote is not in the text of block {USE}." in errors[1]
    assert USE_TEXT not in " ".join(errors)  # the refusal shows no document text
    assert f"That text is in block {USE}" in errors[2]
    assert 'no position "non-compete"' in errors[3] and "valid ids: term, purpose, law" in errors[3]
    assert "must cite the clause" in errors[4]
    assert all(e.startswith("finding not recorded: ") for e in errors)
    assert _errors(server, 2) == []
    assert list(run.review.findings) == ["purpose"]
    assert run.review.findings["purpose"].citations[0].quote == "for any  purpose whatsoever"
    # the turn answered one of its two positions; the next turn asked for the rest and got none
    assert run.turns == 2 and [p.id for p in run.review.unanswered()] == ["term", "law"]


def test_proposals_and_an_external_comment_are_linked_to_the_finding(tmp_path: Path) -> None:
    reviewer = DocxReviewer.from_bytes(NDA)
    bridge = create_review_queue_bridge(reviewer, store_directory=tmp_path / "queue")
    linked = finding(
        "purpose",
        "deviates",
        cite(USE, "for any purpose whatsoever"),
        proposalIds=["purpose-fallback"],
        comment="We need use limited to the Purpose.",
        commentAudience="external",
    )
    script = [
        reply("Proposing.", tool("suggest_changes", {"operations": [PURPOSE_FALLBACK]})),
        reply(
            "Recording.",
            tool(RECORD_FINDING, {**linked, "proposalIds": ["made-up-7"]}),
            tool(RECORD_FINDING, linked),
            tool(RECORD_FINDING, finding("law", "meets", cite(LAW, LAW_TEXT), comment="Fine as is.")),
        ),
        reply("Done."),
        reply("I cannot tell how long the obligations last."),  # the next turn, for the term
    ]
    run, events, server, _ = _run(script, bridge=bridge)
    assert 'no proposal "made-up-7" in the review queue' in _errors(server, 2)[0]
    proposals = bridge.proposals()
    comment = next(p for p in proposals if p["operation"]["type"] == "commentOnBlock")
    assert comment["operation"]["comment"]["text"] == "We need use limited to the Purpose."
    assert comment["operation"]["quote"] == "for any purpose whatsoever"
    purpose = run.review.findings["purpose"]
    assert purpose.proposal_ids == ("purpose-fallback", comment["id"])
    assert purpose.comment_audience == "external"
    law = run.review.findings["law"]
    assert (law.comment, law.comment_audience, law.proposal_ids) == ("Fine as is.", "internal", ())
    assert len(proposals) == 2  # the internal note queued nothing
    assert reviewer.comments() == []  # and nothing reached the document: both wait for a person
    batches = [e for e in events if e.kind == "edit_batch"]
    assert [(b.tool, [r["status"] for r in b.operations]) for b in batches] == [
        ("suggest_changes", ["queued"]),
        ("add_comment", ["queued"]),  # the card of the external comment
    ]


def test_an_internal_note_never_reaches_the_saved_file(tmp_path: Path, lo_reading: Any) -> None:
    reviewer = DocxReviewer.from_bytes(NDA)
    script = [
        reply(
            "Recording.",
            tool(
                RECORD_FINDING,
                finding(
                    "term",
                    "deviates",
                    cite(TERM, "two (2) years"),
                    comment="Three years is our standard.",
                    commentAudience="external",
                ),
            ),
            tool(
                RECORD_FINDING,
                finding("law", "meets", cite(LAW, LAW_TEXT), comment="INTERNAL: client accepts any UK law."),
            ),
            tool(  # the term's answer corrected: its comment, already in the document, is not made twice
                RECORD_FINDING,
                finding(
                    "term",
                    "deviates",
                    cite(TERM, "two (2) years after disclosure"),
                    comment="Three years is our standard.",
                    commentAudience="external",
                    severity="medium",
                ),
            ),
        ),
        reply("Done."),
        reply("The purpose clause is unclear to me."),
    ]
    run, _, _, _ = _run(script, bridge=create_reviewer_bridge(reviewer))
    assert run.review.findings["term"].severity == "medium"
    out = tmp_path / "reviewed.docx"
    reviewer.save(out)
    store = FindingsStore()
    store.save(run.review, out)
    with zipfile.ZipFile(out) as package:
        everything = b"".join(package.read(name) for name in package.namelist())
    assert b"Three years is our standard." in everything
    assert b"INTERNAL" not in everything and b"UK law" not in everything
    assert schema_errors(out) == 0
    lo = lo_reading(out)
    assert [(c["text"], c["anchor_text"]) for c in lo["comments"]] == [
        ("Three years is our standard.", "two (2) years")
    ]
    assert store.load(out).findings["law"].comment == "INTERNAL: client accepts any UK law."
    assert not any(re.search(r"playbook", p.name) for p in tmp_path.iterdir())  # kept in the data folder


def test_a_long_playbook_is_worked_in_turns_and_each_turn_names_its_positions() -> None:
    answers = {f["positionId"]: f for f in ALL_THREE}

    def answer_the_task(request: dict[str, Any]) -> Any:
        content = request["messages"][-1]["content"]
        task = content if isinstance(content, str) else content[-1]["text"]
        asked = re.findall(r'"id":"([a-z]+)"', task)
        return reply("Recording.", *(tool(RECORD_FINDING, answers[i]) for i in asked))

    script = [answer_the_task, reply("First part done."), answer_the_task, reply("Second part done.")]
    run, events, server, _ = _run(script, max_tool_calls=6)  # 6 calls afford two positions a turn
    assert run.turns == 2 and run.review.unanswered() == ()
    tasks = [
        r.body["messages"][-1]["content"] for r in server.requests if r.body["messages"][-1]["role"] == "user"
    ]
    texts = [t if isinstance(t, str) else t[-1].get("text", "") for t in tasks]
    assert any("positions 1-2 of 3 are below; 1 more follow" in t for t in texts)
    assert any("positions 3-3 of 3 are below." in t for t in texts)
    assert sum(1 for e in events if e.kind == "turn_done") == 2


def test_stop_keeps_what_was_recorded(tmp_path: Path) -> None:
    reviewer = DocxReviewer.from_bytes(NDA)
    bridge = create_reviewer_bridge(reviewer)
    saved: list[int] = []
    script = [
        reply("Recording.", *(tool(RECORD_FINDING, f) for f in ALL_THREE)),
        reply("never sent"),
    ]

    async def go(server: FakeAnthropic) -> PlaybookRun:
        async with AgentSession(bridge, fast_settings(server)) as session:
            run = PlaybookRun(session, PlaybookReview(PLAYBOOK), save=lambda r: saved.append(len(r.findings)))
            async for event in run.events():
                if event.kind == "tool_result" and event.name == RECORD_FINDING:
                    session.cancel()  # the user presses Stop after the first finding
            return run

    with FakeAnthropic(script) as server:
        run = asyncio.run(go(server))
    assert list(run.review.findings) == ["term"]
    assert [p.id for p in run.review.unanswered()] == ["purpose", "law"]
    assert run.stop_reason == "cancelled" and run.turns == 1 and saved == [1]


def test_the_saved_review_belongs_to_its_document(tmp_path: Path) -> None:
    run, _, _, _ = _run([reply("Recording.", *(tool(RECORD_FINDING, f) for f in ALL_THREE)), reply("Done.")])
    review = run.review
    review.record(review.findings["law"].overridden("deviates", "Client wants Delaware."))
    store = FindingsStore()
    document = tmp_path / "nda.docx"
    file = store.save(review, document, "docId:ABC")
    assert file.name.endswith(".playbook.json") and file.parent.name == "transcripts"
    back = store.load(document, "docId:ABC")
    assert back is not None and back.playbook == PLAYBOOK
    assert back.findings == review.findings
    assert back.findings["law"].effective_status == "deviates"
    assert store.load(document, "docId:OTHER") is None  # another document saved over the path
    file.write_text("{not json", encoding="utf-8")
    assert store.load(document, "docId:ABC") is None


@pytest.mark.parametrize("status", ["missing", "not_applicable"])
def test_silence_needs_no_citation(status: str) -> None:
    script = [
        reply("Recording.", tool(RECORD_FINDING, finding("law", status))),
        reply("Done."),
        reply("No more."),
    ]
    run, _, _, _ = _run(script)
    assert run.review.findings["law"].status == status


def test_a_small_context_window_gives_each_turn_fewer_positions() -> None:
    positions = tuple(
        Position(
            id=f"p{i}", title=f"Position {i}", question="What does it say? " * 10, standard="Standard. " * 30
        )
        for i in range(12)
    )
    review = PlaybookReview(Playbook("Long playbook", "NDA", positions))
    bridge = create_reviewer_bridge(DocxReviewer.from_bytes(NDA))

    def run_with(window: int) -> PlaybookRun:
        settings = AgentSettings(
            base_url="http://127.0.0.1:9", api_key=TEST_KEY, model="m", context_window=window
        )
        return PlaybookRun(AgentSession(bridge, settings), review)

    small, large = run_with(8192), run_with(200_000)
    assert len(large.next_chunk()) == 12  # all of them: 40 tool calls afford 13 positions
    chunk = small.next_chunk()
    assert 1 <= len(chunk) < 12
    assert estimate_tokens(task_text(review, chunk)) <= small.session.budget.input_limit * TASK_SHARE
    assert (
        estimate_tokens(task_text(review, positions[: len(chunk) + 1]))
        > small.session.budget.input_limit * TASK_SHARE
    )
