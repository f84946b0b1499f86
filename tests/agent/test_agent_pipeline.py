"""The pipeline fallback: a model that never calls tools still reviews, through the edit JSON.

The scripted server answers like a small local model without tool support: prose with the
``{"modifications": [...]}`` JSON in a fenced block, or bare in the prose. The session sends
the sample contract as Markdown with ``<!-- b:N -->`` markers, turns each modification into
suggest_changes / add_comment calls (so the Review queue gets proposals, as tool calls would
make), shows each status, and sends what did not apply back for one repair round.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reviewer_app.agent import create_review_queue_bridge
from reviewer_app.agent.pipeline_turn import edit_json_in
from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.pipeline_edits import indexed_blocks
from tests import agent_fixtures
from tests.agent_fixtures import CLAUSE, SAMPLE, run_turn
from tests.fake_anthropic import FakeAnthropic, Status, fast_settings, reply, tool

NEXT = "316D27F2"  # clause 1.3: "A reference to a statute ..."


free_documents = agent_fixtures.free_documents


def _setup(tmp_path: Path) -> tuple[DocxReviewer, Any, dict[str, int]]:
    reviewer = DocxReviewer.open(SAMPLE)
    bridge = create_review_queue_bridge(reviewer, store_directory=tmp_path / "queue")
    index = {b.id: n for n, b in enumerate(indexed_blocks(reviewer))}
    return reviewer, bridge, index


def _user_text(body: dict[str, Any]) -> str:
    return "\n".join(b["text"] for m in body["messages"] if m["role"] == "user" for b in m["content"])


def test_fenced_edit_json_becomes_proposals_and_a_miss_gets_one_repair_round(tmp_path: Path) -> None:
    reviewer, bridge, index = _setup(tmp_path)
    before = reviewer.to_bytes()
    first = {
        "modifications": [
            {
                "blockIndex": index[CLAUSE],
                "originalContent": "body of this Agreement",
                "content": "body of this MSA",
                "basis": "Defined term.",
            },
            {"blockIndex": index[NEXT], "originalContent": "a statute as amended", "content": "x"},
            {"blockIndex": index[NEXT], "basis": "Check the statutes list."},
        ]
    }
    repaired = {
        "modifications": [
            {
                "blockIndex": index[NEXT],
                "originalContent": "A reference to a statute",
                "content": "A reference to a law",
            }
        ]
    }

    def repair(request: dict[str, Any]) -> Any:
        sent = _user_text(request)
        assert "[1] b:" in sent and "not found: originalContent is not in block" in sent
        return reply("Fixed the quote: " + json.dumps(repaired) + " That is all.")

    script = [reply("Two points.\n```json\n" + json.dumps(first, indent=1) + "\n```\n"), repair]
    with FakeAnthropic(script) as server:
        events, session = run_turn(bridge, fast_settings(server, tool_profile="pipeline"), "Say MSA in 1.2.")
    assert session.profile == "pipeline"
    sent = server.requests[0].body
    assert "tools" not in sent
    assert f"<!-- b:{index[CLAUSE]} id:{CLAUSE} -->" in sent["messages"][0]["content"][0]["text"]
    assert sent["messages"][0]["content"][0]["text"].startswith(f'<document-content nonce="{session.nonce}">')
    prose = "".join(e.text for e in events if e.kind == "text_delta")
    assert "Edits: 2 proposed, 1 not found." in prose  # Review mode: they wait in the queue
    assert "Edits: 1 proposed." in prose
    batches = [e for e in events if e.kind == "edit_batch"]
    assert [[row["status"] for row in b.operations] for b in batches] == [
        ["queued"],
        ["queued"],
        ["queued"],
    ]
    assert events[-1].kind == "turn_done" and events[-1].stop_reason == "end_turn"
    proposals = bridge.proposals()
    assert len(proposals) == 3 and reviewer.to_bytes() == before
    assert {p["operation"].get("replace") for p in proposals} >= {"body of this MSA", "A reference to a law"}


def test_a_server_without_tool_support_falls_back_to_the_pipeline(tmp_path: Path) -> None:
    _reviewer, bridge, index = _setup(tmp_path)
    edits = [
        {
            "blockIndex": index[CLAUSE],
            "originalContent": "body of this Agreement",
            "content": "body of this MSA",
        }
    ]
    script = [
        Status(400, message="registry.ollama.ai/library/gemma2:2b does not support tools"),
        reply("Here you are: " + json.dumps(edits)),
    ]
    with FakeAnthropic(script) as server:
        events, session = run_turn(bridge, fast_settings(server), "Say MSA in 1.2.")
    assert session.profile == "pipeline"
    assert "tools" in server.requests[0].body and "tools" not in server.requests[1].body
    assert not [e for e in events if e.kind == "error"]
    (proposal,) = bridge.proposals()
    assert proposal["operation"]["replace"] == "body of this MSA"


def test_twice_malformed_tool_calls_fall_back_to_the_pipeline(tmp_path: Path) -> None:
    _reviewer, bridge, index = _setup(tmp_path)
    bad = tool("read_section", '{"handle": {"type": ')  # arguments cut mid-JSON
    edits = {"modifications": [{"blockIndex": index[CLAUSE], "basis": "Consider 'MSA'."}]}
    script = [reply(bad), reply(bad), reply("```\n" + json.dumps(edits) + "\n```")]
    with FakeAnthropic(script) as server:
        events, session = run_turn(bridge, fast_settings(server), "Comment on 1.2.")
    assert session.profile == "pipeline" and "tools" not in server.requests[2].body
    (proposal,) = bridge.proposals()
    assert "MSA" in json.dumps(proposal)
    assert "Edits: 1 proposed." in "".join(e.text for e in events if e.kind == "text_delta")


def test_a_small_window_sends_as_much_of_the_document_as_fits(tmp_path: Path) -> None:
    _reviewer, bridge, _index = _setup(tmp_path)
    with FakeAnthropic([reply('Nothing to change: {"modifications": []}')], context_tokens=4096) as server:
        events, session = run_turn(bridge, fast_settings(server), "Review the parties.")
    assert session.profile == "pipeline"  # the compact tools would leave no room to read at 4,096
    assert server.sizes[0] + server.requests[0].body["max_tokens"] <= 4096
    assert "fit the model's context" in _user_text(server.requests[0].body)
    assert events[-1].stop_reason == "end_turn" and not bridge.proposals()


@pytest.mark.parametrize(
    "text",
    [
        'Sure.\n```json\n{"modifications": [{"blockIndex": 1, "content": "x"}]}\n```',
        'Sure. {"modifications": [{"blockIndex": 1, "content": "x"}]} Done.',
        'I changed {one thing}: [{"blockIndex": 1, "content": "x"}]',
    ],
)
def test_edit_json_is_found_in_prose(text: str) -> None:
    found = edit_json_in(text)
    entries = found["modifications"] if isinstance(found, dict) else found
    assert entries == [{"blockIndex": 1, "content": "x"}]


def test_prose_without_edit_json_is_an_answer() -> None:
    assert edit_json_in("The clause looks fine; I suggest no changes {none}.") is None
