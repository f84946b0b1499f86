"""OpenAI-compatible servers: the same loop over ``/v1/chat/completions`` with streamed tool calls.

A scripted chat-completions server on 127.0.0.1 reads the outline, a section and makes an edit
through tool calls; the session runs them as with the Messages API, the Review queue gets the
proposal, tool results go back fenced as ``role: "tool"`` messages, and the server's own error
text reaches the user.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reviewer_app.agent import create_review_queue_bridge
from reviewer_app.agent.settings import AgentSettings
from reviewer_app.docx import DocxReviewer
from tests import agent_fixtures
from tests.agent_fixtures import CLAUSE, SAMPLE, run_turn
from tests.fake_anthropic import unfence
from tests.fake_openai import FakeOpenAI, OAReply, tool_messages

free_documents = agent_fixtures.free_documents


def _settings(server: FakeOpenAI, **overrides: Any) -> AgentSettings:
    values: dict[str, Any] = {
        "base_url": server.base_url,
        "api_key": "local-key",
        "model": "qwen2.5-7b-instruct",
        "api_style": "openai",
        "idle_timeout_s": 3.0,
        "connect_timeout_s": 3.0,
        "retry_backoff_s": 0.01,
        "max_retries": 0,
    }
    return AgentSettings(**{**values, **overrides})


def _last_result(body: dict[str, Any]) -> Any:
    return unfence(tool_messages(body)[0]["content"])


def test_a_review_turn_over_chat_completions_ends_in_a_proposal(tmp_path: Path) -> None:
    reviewer = DocxReviewer.open(SAMPLE)
    bridge = create_review_queue_bridge(reviewer, store_directory=tmp_path / "queue")

    def section(body: dict[str, Any]) -> OAReply:
        outline = _last_result(body)
        handle = next(s["handle"] for s in outline["sections"] if s["headingBlockId"] == CLAUSE)
        return OAReply("Reading 1.2.", [("read_section", {"handle": handle})])

    def edit(body: dict[str, Any]) -> OAReply:
        block = _last_result(body)["blocks"][0]
        op = {"type": "replaceInBlock", "blockId": block["blockId"], "find": "body of this Agreement"}
        return OAReply("", [("suggest_changes", {"operations": [{**op, "replace": "body of this MSA"}]})])

    script = [
        OAReply("", [("get_document_outline", {"maxDepth": 2})]),
        section,
        edit,
        OAReply("Proposed “body of this MSA” in clause 1.2."),
    ]
    with FakeOpenAI(script) as server:
        events, session = run_turn(bridge, _settings(server, tool_profile="compact"), "In 1.2, say MSA.")
    assert [e.kind for e in events].count("tool_call") == 3
    assert events[-1].kind == "turn_done" and events[-1].stop_reason == "end_turn"
    assert "Proposed" in "".join(e.text for e in events if e.kind == "text_delta")
    first = server.requests[0]
    assert first["messages"][0]["role"] == "system" and first["stream"] is True
    assert {t["function"]["name"] for t in first["tools"]} == {
        "read_document",
        "get_document_outline",
        "read_section",
        "find_text",
        "add_comment",
        "suggest_changes",
    }
    assert server.headers[0]["authorization"] == "Bearer local-key"
    sent = server.requests[1]["messages"]
    assert sent[-2]["tool_calls"][0]["function"]["name"] == "get_document_outline"
    assert sent[-1]["content"].startswith(f'<document-content nonce="{session.nonce}">')
    (proposal,) = bridge.proposals()
    assert (
        proposal["operation"]["blockId"] == CLAUSE and proposal["operation"]["replace"] == "body of this MSA"
    )


def test_the_servers_refusal_reaches_the_user_with_what_to_do(tmp_path: Path) -> None:
    bridge = create_review_queue_bridge(DocxReviewer.open(SAMPLE), store_directory=tmp_path / "queue")
    with FakeOpenAI([OAReply("never")], context_tokens=4096) as server:
        events, _session = run_turn(bridge, _settings(server, tool_profile="full"), "Review it.")
    (error,) = [e for e in events if e.kind == "error"]
    assert "HTTP 400: the request exceeds the available context size" in error.message
    assert "--ctx-size" in error.message


def test_a_small_window_over_chat_completions_stays_under_it(tmp_path: Path) -> None:
    bridge = create_review_queue_bridge(DocxReviewer.open(SAMPLE), store_directory=tmp_path / "queue")
    script = [
        OAReply("", [("find_text", {"query": "Agreement"})]),
        OAReply("Read the matches that fit."),
    ]
    with FakeOpenAI(script, context_tokens=8192) as server:
        events, session = run_turn(bridge, _settings(server, context_window=8192), "Find the term.")
    assert session.profile == "compact"
    assert events[-1].stop_reason == "end_turn"
    assert all(
        size + body["max_tokens"] <= 8192 for size, body in zip(server.sizes, server.requests, strict=True)
    )
    assert _last_result(server.requests[1])["cutToFitContext"]
