"""A laptop's model: a small context window, learned from the server, that every request must fit.

The scripted server behaves like llama.cpp or Ollama with a window of N tokens: it reports N on
``/props`` or ``/api/show`` and refuses a request whose estimated size plus ``max_tokens`` is
over N with the error text those servers return. The session learns N, picks the compact tool
profile, cuts reads to the room left, and drives a review turn to proposals on the sample
contract without one refusal; told nothing, it passes the server's refusal on with what to do.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from reviewer_app.agent import create_review_queue_bridge
from reviewer_app.agent.context_budget import estimate_tokens, fit_result
from reviewer_app.agent.model_info import from_llama_props, from_ollama_show
from reviewer_app.agent.session import AgentSession
from reviewer_app.agent.tool_registry import COMPACT_TOOLS
from reviewer_app.docx import DocxReviewer
from tests import agent_fixtures
from tests.agent_fixtures import CLAUSE, SAMPLE, run_turn
from tests.fake_anthropic import (
    FakeAnthropic,
    collect,
    fast_settings,
    reply,
    result_text,
    tool,
    tool_results,
    unfence,
)

free_documents = agent_fixtures.free_documents


def _result(request: dict[str, Any]) -> Any:
    return unfence(result_text(tool_results(request)[0]))


def _review_flow() -> list[Any]:
    def section(request: dict[str, Any]) -> Any:
        outline = _result(request)
        first = outline["sections"][0]  # a long section: its read must be cut to the room left
        return reply(tool("read_section", {"handle": first["handle"], "maxBlocks": 200}))

    def whole_body(request: dict[str, Any]) -> Any:
        read = _result(request)
        assert read["truncated"] and "fit the model's context window" in read["cutToFitContext"]
        return reply(tool("find_text", {"query": "body of this Agreement"}))

    def edit(request: dict[str, Any]) -> Any:
        (match,) = _result(request)["matches"]
        op = {"type": "replaceInBlock", "blockId": match["blockId"], "find": "body of this Agreement"}
        return reply(tool("suggest_changes", {"operations": [{**op, "replace": "body of this MSA"}]}))

    return [
        reply(tool("get_document_outline", {"maxDepth": 1})),
        section,
        whole_body,
        edit,
        reply("Proposed: clause 1.2 says “body of this MSA”."),
    ]


@pytest.mark.parametrize("style", ["llama.cpp", "ollama"])
def test_a_small_window_is_learned_and_every_request_fits(tmp_path: Path, style: str) -> None:
    reviewer = DocxReviewer.open(SAMPLE)
    bridge = create_review_queue_bridge(reviewer, store_directory=tmp_path / "queue")
    with FakeAnthropic(_review_flow(), context_tokens=8192, context_style=style) as server:
        events, session = run_turn(bridge, fast_settings(server), "In 1.2, say MSA.")
    assert [e.kind for e in events if e.kind in ("error", "turn_done")] == ["turn_done"]
    assert session.context_window == 8192 and session.profile == "compact"
    assert {t["name"] for t in server.requests[0].body["tools"]} == set(COMPACT_TOOLS)
    assert len(server.sizes) == 5
    assert all(
        size + r.body["max_tokens"] <= 8192 for size, r in zip(server.sizes, server.requests, strict=True)
    )
    (proposal,) = bridge.proposals()
    assert proposal["operation"]["blockId"] == CLAUSE
    assert proposal["operation"]["replace"] == "body of this MSA"


@pytest.mark.parametrize(
    ("style", "said"),
    [
        ("llama.cpp", "the request exceeds the available context size"),
        ("ollama", "prompt too long; exceeded max context length"),
    ],
)
def test_a_refusal_for_size_says_what_to_do(tmp_path: Path, style: str, said: str) -> None:
    bridge = create_review_queue_bridge(DocxReviewer.open(SAMPLE), store_directory=tmp_path / "queue")
    script = [reply("never sent")]
    with FakeAnthropic(script, context_tokens=8192, context_style=style, advertise_context=False) as server:
        events, session = run_turn(bridge, fast_settings(server), "Review clause 1.")
    assert session.profile == "full"  # nothing said how small the model is
    (error,) = [e for e in events if e.kind == "error"]
    assert said in error.message
    assert (
        "Settings ▸ Model" in error.message and "num_ctx" in error.message and "--ctx-size" in error.message
    )
    assert events[-1].kind == "turn_done" and events[-1].stop_reason == "error"


def test_a_window_too_small_for_any_request_is_named_before_anything_is_sent(tmp_path: Path) -> None:
    bridge = create_review_queue_bridge(DocxReviewer.open(SAMPLE), store_directory=tmp_path / "queue")
    with FakeAnthropic([reply("never sent")], context_tokens=1024) as server:
        events, _session = run_turn(bridge, fast_settings(server, tool_profile="compact"), "Review clause 1.")
    assert server.requests == []
    (error,) = [e for e in events if e.kind == "error"]
    assert error.message.startswith("This model's context is 1,024 tokens; Reviewer needs at least ")
    needed = int(error.message.split("at least ")[1].split(" ")[0].replace(",", ""))
    assert needed > 1024
    assert "num_ctx" in error.message


def test_old_reads_are_left_out_when_the_history_outgrows_the_window(tmp_path: Path) -> None:
    bridge = create_review_queue_bridge(DocxReviewer.open(SAMPLE), store_directory=tmp_path / "queue")

    def read(request: dict[str, Any]) -> Any:
        return reply(tool("find_text", {"query": "Agreement"}))

    script = [read, reply("First look done."), read, reply("Second look done."), read, reply("Done.")]

    async def go(server: FakeAnthropic) -> list[list[Any]]:
        settings = fast_settings(server, tool_profile="compact")
        async with AgentSession(bridge, settings) as session:
            return [await collect(session, text) for text in ("one", "two", "three")]

    with FakeAnthropic(script, context_tokens=8192) as server:
        turns = asyncio.run(go(server))
    assert [turn[-1].stop_reason for turn in turns] == ["end_turn"] * 3, [
        e for t in turns for e in t if e.kind == "error"
    ]
    assert all(size + 2048 <= 8192 for size in server.sizes)
    last = server.requests[-1].body["messages"]
    contents = [b.get("content") for m in last if isinstance(m["content"], list) for b in m["content"]]
    assert any(isinstance(c, str) and c.startswith("[This result was left out") for c in contents)


def test_servers_report_their_window() -> None:
    assert from_llama_props({"default_generation_settings": {"n_ctx": 8192}}).context_window == 8192
    ollama = {"model_info": {"qwen2.context_length": 32768}, "parameters": "num_ctx 16384\nstop x"}
    assert from_ollama_show(ollama).context_window == 16384
    # no num_ctx in the model file: Ollama runs its default window, not the trained length
    assert from_ollama_show({"model_info": {"qwen2.context_length": 32768}}).context_window == 4096
    assert from_ollama_show({"capabilities": ["completion"]}).calls_tools is False


def test_a_cut_read_says_where_to_continue() -> None:
    blocks = [{"blockId": f"B{i}", "text": "word " * 40} for i in range(100)]
    result = {"blocks": blocks, "truncated": False}
    cut = fit_result(result, 1000)
    assert estimate_tokens(json.dumps(cut)) <= 1000
    kept = len(cut["blocks"])
    assert 0 < kept < 100 and cut["truncated"] and cut["nextAfterBlockId"] == f"B{kept - 1}"


@pytest.mark.parametrize("style", ["llama.cpp", "ollama"])
def test_check_model_reports_the_window(style: str) -> None:
    from reviewer_app.agent.connection_check import check_connection

    with FakeAnthropic([reply("OK")], context_tokens=8192, context_style=style) as server:
        report = asyncio.run(check_connection(fast_settings(server)))
    source = "llama.cpp n_ctx" if style == "llama.cpp" else "Ollama num_ctx"
    assert report.ok and f"Context window: 8,192 tokens ({source})." in report.message
