"""The agent loop at its edges: budgets, stopping, server failures, badly formed calls.

Each budget of agent-loop.md is pinned at its edge (the 40th tool call runs, the 41st gets the
exact sentence; six live-view reads, then the tool is named; 16 round trips, then the turn is
cut and the user told why; an identical re-read answers ``{"unchanged": true}``). Stopping keeps
what ran and leaves the session ready; a 529 is retried by the SDK; a dropped or stalled stream
is retried once and then reported naming the server. Time-outs are fractions of a second here.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from reviewer_app.agent import create_reviewer_bridge
from reviewer_app.agent.bridge import ReviewerBridge
from reviewer_app.agent.session import CUT_BY_MAX_TOKENS, AgentSession
from reviewer_app.agent.turn_tools import TOOL_BUDGET_SPENT
from reviewer_app.docx import DocxReviewer
from tests import agent_fixtures
from tests.agent_fixtures import CLAUSE, SAMPLE
from tests.fake_anthropic import (
    FakeAnthropic,
    Status,
    collect,
    fast_settings,
    kinds,
    reply,
    result_text,
    tool,
    tool_results,
    unfence,
)

EDIT = {
    "type": "replaceInBlock",
    "blockId": CLAUSE,
    "find": "body of this Agreement",
    "replace": "body of this MSA",
}


free_documents = agent_fixtures.free_documents


def ours(reviewer: DocxReviewer) -> list[tuple[str, str]]:
    return sorted((c["type"], c["text"]) for c in reviewer.changes() if c["author"] == "Reviewer")


def session_for(server: FakeAnthropic, bridge: Any = None, **settings: Any) -> AgentSession:
    bridge = bridge if bridge is not None else create_reviewer_bridge(DocxReviewer.open(SAMPLE))
    return AgentSession(bridge, fast_settings(server, **settings))


def one_turn(
    script: list[Any], bridge: Any = None, **settings: Any
) -> tuple[list[Any], FakeAnthropic, AgentSession]:
    async def go(server: FakeAnthropic) -> tuple[list[Any], AgentSession]:
        async with session_for(server, bridge, **settings) as session:
            return await collect(session, "Do it."), session

    with FakeAnthropic(script) as server:
        events, session = asyncio.run(go(server))
    return events, server, session


# ----------------------------------------------------------------------------- stopping
def test_cancel_mid_stream_keeps_what_ran_and_accepts_the_next_message() -> None:
    reviewer = DocxReviewer.open(SAMPLE)
    script = [
        reply(tool("suggest_changes", {"operations": [EDIT]})),
        reply("word " * 300, chunk=5, delay_s=0.01),  # about three seconds if left to run
        reply("Fresh answer."),
    ]

    async def go(server: FakeAnthropic) -> tuple[list[Any], list[Any], float, AgentSession]:
        async with session_for(server, create_reviewer_bridge(reviewer)) as session:
            marks: list[float] = []

            def stop_at_first_text(event: Any) -> None:
                if event.kind == "text_delta" and not marks:
                    marks.append(time.perf_counter())
                    session.cancel()

            first = await collect(session, "Edit 1.2.", stop_at_first_text)
            elapsed = time.perf_counter() - marks[0]
            assert not session.busy and not session.cancel()
            second = await collect(session, "Continue, briefly.")
            return first, second, elapsed, session

    with FakeAnthropic(script) as server:
        first, second, elapsed, session = asyncio.run(go(server))
    done = first[-1]
    assert done.kind == "turn_done" and done.stop_reason == "cancelled" and done.note == "stopped by the user"
    assert [(r["name"], r["ok"]) for r in done.ran] == [("suggest_changes", True)]
    assert elapsed < 0.5  # the stream was closed, not read to its end (about 3 s)
    assert ours(reviewer) == [("deletion", "Agreement"), ("insertion", "MSA")]  # the change that ran stays
    assert second[-1].stop_reason == "end_turn"
    stopped = [e for e in session.transcript.entries if e["kind"] == "stopped"]
    assert stopped and stopped[0]["text"] == "stopped by the user"
    messages = server.requests[2].body["messages"]
    assert messages[-2]["role"] == "assistant" and messages[-2]["content"][0]["text"].startswith("word")
    texts = [b["text"] for b in messages[-1]["content"]]
    assert texts[-1] == "Continue, briefly." and "stopped your previous turn" in texts[-2]


def test_cancelling_the_task_does_the_same_bookkeeping() -> None:
    script = [reply("word " * 300, chunk=5, delay_s=0.01), reply("Again.")]

    async def go(server: FakeAnthropic) -> tuple[AgentSession, list[Any]]:
        async with session_for(server) as session:
            streaming = asyncio.Event()
            task = asyncio.create_task(collect(session, "Talk.", lambda e: streaming.set()))
            await streaming.wait()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert not session.busy and session.last_turn is not None
            return session, await collect(session, "Once more.")

    with FakeAnthropic(script) as server:
        session, after = asyncio.run(go(server))
    assert after[-1].stop_reason == "end_turn"
    entries = [e["kind"] for e in session.transcript.entries]
    assert "stopped" in entries and entries.count("turn_done") == 2
    assert len(server.requests) == 2


class SlowBridge(ReviewerBridge):
    """A bridge whose comment read takes a while (to stop a turn while a tool runs in a thread)."""

    def get_comments(self) -> list[dict[str, Any]]:
        time.sleep(0.4)
        return super().get_comments()


def test_stopping_while_a_tool_runs_keeps_its_result() -> None:
    bridge = SlowBridge(DocxReviewer.open(SAMPLE))
    script = [reply(tool("read_comments", {}), tool("read_changes", {})), reply("After.")]

    async def go(server: FakeAnthropic) -> tuple[list[Any], list[Any], AgentSession]:
        async with session_for(server, bridge, tools_in_thread=True) as session:
            loop = asyncio.get_running_loop()

            def stop_soon(event: Any) -> None:  # while read_comments is running (it takes 0.4 s)
                if event.kind == "tool_call" and event.name == "read_comments":
                    loop.call_later(0.1, session.cancel)

            first = await collect(session, "Comments?", stop_soon)
            return first, await collect(session, "Go on."), session

    with FakeAnthropic(script) as server:
        first, second, session = asyncio.run(go(server))
    assert first[-1].stop_reason == "cancelled"
    assert [(r["name"], r["ok"]) for r in first[-1].ran] == [("read_comments", True)]
    texts = [result_text(r) for r in tool_results(server.requests[1].body)]
    assert texts[0].startswith("<document-content") and texts[1] == "not run: stopped by the user"
    assert second[-1].stop_reason == "end_turn"


def test_a_call_stopped_as_it_is_announced_does_not_run() -> None:
    reviewer = DocxReviewer.open(SAMPLE)
    script = [reply(tool("suggest_changes", {"operations": [EDIT]})), reply("After.")]

    async def go(server: FakeAnthropic) -> list[Any]:
        async with session_for(server, create_reviewer_bridge(reviewer)) as session:
            first = await collect(session, "Edit.", lambda e: e.kind == "tool_call" and session.cancel())
            await collect(session, "Go on.")
            return first

    with FakeAnthropic(script) as server:
        first = asyncio.run(go(server))
    assert kinds(first) == ["tool_call", "turn_done"] and first[-1].ran == []
    assert ours(reviewer) == []
    (sent,) = tool_results(server.requests[1].body)
    assert result_text(sent) == "not run: stopped by the user" and sent["is_error"] is True


def test_one_turn_at_a_time() -> None:
    async def go(server: FakeAnthropic) -> None:
        async with session_for(server) as session:
            events = session.send("one")
            await events.__anext__()
            with pytest.raises(RuntimeError, match="already running"):
                await session.send("two").__anext__()
            await events.aclose()
            assert not session.busy

    with FakeAnthropic([reply("word " * 50, delay_s=0.01)]) as server:
        asyncio.run(go(server))


def test_leaving_after_turn_done_is_not_a_stop() -> None:
    async def go(server: FakeAnthropic) -> AgentSession:
        async with session_for(server) as session:
            async for event in session.send("Hi."):
                if event.kind == "turn_done":
                    break
            await collect(session, "Again.")
            return session

    with FakeAnthropic([reply("Hello."), reply("Hello again.")]) as server:
        session = asyncio.run(go(server))
    assert "stopped" not in [e["kind"] for e in session.transcript.entries]
    assert [b["text"] for b in server.requests[1].body["messages"][-1]["content"]] == ["Again."]


# ----------------------------------------------------------------------------- server failures
def test_529_then_success_is_retried_by_the_sdk() -> None:
    events, server, _ = one_turn([Status(529), reply("Fine.")])
    assert "error" not in kinds(events) and events[-1].stop_reason == "end_turn"
    assert len(server.requests) == 2


def test_persistent_529_ends_the_turn_naming_the_host() -> None:
    reviewer = DocxReviewer.open(SAMPLE)
    events, server, session = one_turn([Status(529), Status(529)], create_reviewer_bridge(reviewer))
    error = next(e for e in events if e.kind == "error")
    host = server.base_url.removeprefix("http://")
    assert error.message.startswith(f"the model server at {host} did not answer: HTTP 529")
    assert error.host == host and events[-1].stop_reason == "error"
    assert ours(reviewer) == []


def test_a_refused_request_says_so() -> None:
    events, _, _ = one_turn([Status(401, message="invalid x-api-key")])
    error = next(e for e in events if e.kind == "error")
    assert "refused the request: HTTP 401: invalid x-api-key" in error.message


def test_a_dropped_connection_is_retried_once() -> None:
    events, server, session = one_turn(
        [reply("This answer will be cut short", drop_after=6), reply("Whole answer.")]
    )
    assert "retry" in kinds(events) and events[-1].stop_reason == "end_turn"
    retry = next(e for e in events if e.kind == "retry")
    after = "".join(e.text for e in events[events.index(retry) :] if e.kind == "text_delta")
    assert after == "Whole answer." and retry.discarded.startswith("This answer")
    assert len(server.requests) == 2
    logged = next(e for e in session.transcript.entries if e["kind"] == "retry")
    assert logged["discarded"] == retry.discarded


def test_a_connection_dropped_twice_is_an_error_and_the_transcript_keeps_what_arrived() -> None:
    script = [reply("First try", drop_after=5), reply("Second try got this far", drop_after=6)]
    events, server, session = one_turn(script)
    error = next(e for e in events if e.kind == "error")
    assert error.message.startswith(
        f"the model server at {server.base_url.removeprefix('http://')} did not answer"
    )
    assert events[-1].stop_reason == "error"
    kept = [e for e in session.transcript.entries if e["kind"] == "assistant"]
    assert kept and kept[-1]["incomplete"] and kept[-1]["text"].startswith("Second try")


def test_a_stalled_stream_is_retried_after_the_idle_timeout() -> None:
    started = time.perf_counter()
    events, _, _ = one_turn([reply("Thinking about it", stall_after=4), reply("Done.")], idle_timeout_s=0.4)
    assert "retry" in kinds(events) and events[-1].stop_reason == "end_turn"
    assert time.perf_counter() - started < 5


def test_a_stream_that_stalls_twice_is_an_error() -> None:
    script = [reply("Hm", stall_after=3), reply("Hm again", stall_after=3)]
    events, server, _ = one_turn(script, idle_timeout_s=0.3)
    error = next(e for e in events if e.kind == "error")
    assert (
        error.message
        == f"the model server at {server.base_url.removeprefix('http://')} did not answer: no data for 0.3 s"
    )
    assert kinds(events).count("retry") == 1 and events[-1].stop_reason == "error"


# ----------------------------------------------------------------------------- budgets
def test_the_41st_tool_call_gets_the_budget_sentence() -> None:
    many = [tool("read_comments", {}) for _ in range(20)]
    script = [
        reply(*many),
        reply(*[tool("read_changes", {}) for _ in range(20)]),
        reply(tool("list_stories", {})),
        reply("Summary."),
    ]
    events, server, _ = one_turn(script)
    results = [e for e in events if e.kind == "tool_result"]
    assert len(results) == 41 and all(r.ok for r in results[:40])
    assert results[40].ok is False and results[40].error == TOOL_BUDGET_SPENT
    assert TOOL_BUDGET_SPENT == "tool budget for this turn is spent; summarize what you did and what remains"
    (sent,) = tool_results(server.requests[3].body)
    assert sent["is_error"] is True and result_text(sent) == TOOL_BUDGET_SPENT
    assert not any(b.get("is_error") for r in server.requests[1:3] for b in tool_results(r.body))
    assert events[-1].tool_calls == 41 and events[-1].stop_reason == "end_turn"


class LiveBridge(ReviewerBridge):
    """A bridge with a live view: ten pages and a selection."""

    def get_page_count(self) -> int:
        return 10

    def get_page_text(self, page: int) -> str:
        return f"text of page {page}"

    def get_selection_text(self) -> str:
        return "selected words"


def test_live_view_reads_are_capped_at_six_per_turn_naming_the_tool() -> None:
    bridge = LiveBridge(DocxReviewer.open(SAMPLE))
    pages = [tool("read_page", {"page": n}) for n in range(1, 6)]
    script = [
        reply(*pages, tool("read_selection", {}), tool("read_selection", {}), tool("read_page", {"page": 9})),
        reply("Enough."),
        reply(tool("read_page", {"page": 7})),
        reply("A new turn has a new budget."),
    ]

    async def go(server: FakeAnthropic) -> tuple[list[Any], list[Any]]:
        async with session_for(server, bridge) as session:
            return await collect(session, "Read."), await collect(session, "Again.")

    with FakeAnthropic(script) as server:
        first, second = asyncio.run(go(server))
    sent = tool_results(server.requests[1].body)
    assert [b.get("is_error", False) for b in sent] == [False] * 6 + [True, True]
    assert (
        result_text(sent[6])
        == "read_selection budget for this turn is spent; summarize what you did and what remains"
    )
    assert (
        result_text(sent[7])
        == "read_page budget for this turn is spent; summarize what you did and what remains"
    )
    assert all(e.ok for e in second if e.kind == "tool_result")


def test_the_turn_is_cut_after_16_round_trips_and_the_next_turn_continues() -> None:
    script: list[Any] = [reply(tool("find_text", {"query": f"clause {n}"})) for n in range(16)]
    script.append(reply("Carrying on."))

    async def go(server: FakeAnthropic) -> tuple[list[Any], list[Any]]:
        async with session_for(server) as session:
            return await collect(session, "Search everything."), await collect(session, "Go on.")

    with FakeAnthropic(script) as server:
        first, second = asyncio.run(go(server))
        requests_after_first = 16
    done = first[-1]
    assert done.stop_reason == "round_trip_limit" and done.round_trips == 16
    assert "16 model round trips" in (done.note or "")
    last = [e for e in first if e.kind == "tool_result"][-1]
    assert last.ok is False and last.error == "not run: this turn reached its limit of 16 model round trips"
    assert len(server.requests) == requests_after_first + 1 and second[-1].stop_reason == "end_turn"
    tail = server.requests[16].body["messages"][-1]["content"]
    assert tail[0]["type"] == "tool_result" and tail[-1]["text"] == "Go on."


def test_an_identical_re_read_answers_unchanged_until_the_document_changes() -> None:
    reviewer = DocxReviewer.open(SAMPLE)
    handle = next(s for s in reviewer.get_outline(9)["sections"] if s["headingBlockId"] == CLAUSE)["handle"]
    read = tool("read_section", {"handle": handle})
    script = [
        reply(read),
        reply(tool("read_section", {"handle": handle})),
        reply(tool("read_section", {"handle": handle, "maxBlocks": 5})),
        reply(tool("suggest_changes", {"operations": [EDIT]})),
        reply(tool("get_document_outline", {"maxDepth": 2})),
        reread_with_fresh_handle,
        reply("Done."),
    ]
    events, server, _ = one_turn(script, create_reviewer_bridge(reviewer))
    sent = [result_text(tool_results(r.body)[0]) for r in server.requests[1:]]
    assert sent[0].startswith("<document-content")
    assert sent[1] == '{"unchanged":true}'  # same call, same document: not the text again
    assert sent[2].startswith("<document-content")  # other arguments: a different read
    assert sent[5].startswith("<document-content") and "body of this MSA" in sent[5]
    flags = [e.unchanged for e in events if e.kind == "tool_result"]
    assert flags == [False, True, False, False, False, False]


def reread_with_fresh_handle(request: dict[str, Any]) -> Any:
    """After the edit the clause's heading text (so its handle) changed: take the new one."""
    outline = unfence(result_text(tool_results(request)[0]))
    section = next(s for s in outline["sections"] if s["headingBlockId"] == CLAUSE)
    return reply(tool("read_section", {"handle": section["handle"]}))


# ----------------------------------------------------------------------------- badly formed calls
def test_malformed_tool_json_is_an_error_result_not_an_exception() -> None:
    reviewer = DocxReviewer.open(SAMPLE)
    script = [reply("Editing.", tool("suggest_changes", raw_json='{"operations": [,]}')), reply("Sorry.")]
    events, server, _ = one_turn(script, create_reviewer_bridge(reviewer))
    (sent,) = tool_results(server.requests[1].body)
    assert sent["is_error"] is True and "not valid JSON" in result_text(sent)
    assert events[-1].stop_reason == "end_turn" and ours(reviewer) == []


def test_a_call_cut_by_max_tokens_is_not_run() -> None:
    reviewer = DocxReviewer.open(SAMPLE)
    cut = reply(tool("suggest_changes", {"operations": [EDIT]}), stop_reason="max_tokens")
    events, server, _ = one_turn([cut, reply("I will send smaller calls.")], create_reviewer_bridge(reviewer))
    (sent,) = tool_results(server.requests[1].body)
    assert result_text(sent) == CUT_BY_MAX_TOKENS and sent["is_error"] is True
    assert ours(reviewer) == []


def test_a_badly_formed_operation_gets_the_parsers_message() -> None:
    script = [
        reply(tool("suggest_changes", {"operations": [{"type": "replaceInBlock", "blockId": CLAUSE}]})),
        reply("Oops."),
    ]
    events, server, _ = one_turn(script)
    (sent,) = tool_results(server.requests[1].body)
    assert sent["is_error"] is True and result_text(sent).startswith("operations[0]")
    batch = next(e for e in events if e.kind == "edit_batch")
    assert batch.error == result_text(sent) and batch.operations[0]["status"] == "rejected"
    assert json.loads(json.dumps(batch.to_dict()))["kind"] == "edit_batch"
