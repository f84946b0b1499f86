"""The host-side chat tool ``compare_with_version``, end to end through the agent loop.

The real ``anthropic`` client talks to the scripted fake server; the session offers the tool only
when the host has versions the user picked, the model names a version by the host's id and gets
the §10 diff lines fenced with the session's nonce, and a path (or any id the host did not offer)
is refused with the tool's sentence and nothing is opened.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from reviewer_app.agent import create_review_queue_bridge, create_reviewer_bridge
from reviewer_app.agent.host_tools import (
    COMPARE_WITH_VERSION,
    UNKNOWN_VERSION,
    VersionChoice,
    compare_with_version_tool,
)
from reviewer_app.agent.session import AgentSession
from reviewer_app.agent.tools import TOOL_NAMES
from reviewer_app.agent.turn_tools import TOOL_BUDGET_SPENT
from reviewer_app.docx import DocxReviewer
from tests.docx_factory import make_docx, p
from tests.fake_anthropic import FakeAnthropic, collect, fast_settings, reply, result_text, tool, tool_results

CURRENT = make_docx(p("Alpha beta paragraph here.") + p("Gamma clause stays."))
OTHER = make_docx(p("Alpha beta clause here.") + p("Gamma clause stays.") + p("A new closing line."))
DIFF = (
    "Version diff: 1 added, 0 deleted, 1 modified, 0 format-changed, 0 moved, 1 unchanged\n"
    "~ [seq-0001] modified: Alpha beta [-paragraph-]{+clause+} here.\n"
    "+ [seq-0003] added: A new closing line."
)


def _run(script: list[Any], versions: list[VersionChoice], bridge: Any = None, **settings: Any) -> Any:
    bridge = bridge or create_reviewer_bridge(DocxReviewer.from_bytes(CURRENT))
    host = [compare_with_version_tool(lambda: versions)]

    async def go(server: FakeAnthropic) -> tuple[list[Any], AgentSession]:
        session = AgentSession(bridge, fast_settings(server, **settings), host_tools=host)
        async with session:
            return await collect(session, "What did the other side change?"), session

    with FakeAnthropic(script) as server:
        events, session = asyncio.run(go(server))
    return events, server, session


def test_the_model_compares_with_the_picked_version_and_gets_fenced_diff_lines(tmp_path: Path) -> None:
    other = tmp_path / "counterparty.docx"
    other.write_bytes(OTHER)
    versions = [VersionChoice("v1", "Counterparty draft of 3 May", other)]
    script = [
        reply("Comparing.", tool(COMPARE_WITH_VERSION, {"versionId": "v1"})),
        reply("They changed one word and added a line."),
    ]
    events, server, session = _run(script, versions)
    first = server.requests[0].body
    assert [t["name"] for t in first["tools"]] == [*TOOL_NAMES, COMPARE_WITH_VERSION]
    offered = first["tools"][-1]
    assert offered["input_schema"]["properties"]["versionId"]["enum"] == ["v1"]
    assert "Counterparty draft of 3 May" in offered["description"]
    assert str(other) not in str(first)  # the source never reaches the model
    sent = tool_results(server.requests[1].body)[0]
    assert "is_error" not in sent
    assert result_text(sent) == f'<document-content nonce="{session.nonce}">\n{DIFF}\n</document-content>'
    results = [e for e in events if e.kind == "tool_result"]
    assert [(r.name, r.ok) for r in results] == [(COMPARE_WITH_VERSION, True)]
    assert results[0].summary == DIFF.split("\n")[0]
    assert events[-1].kind == "turn_done" and events[-1].tool_calls == 1


def test_a_path_or_an_unoffered_id_is_refused_and_nothing_is_opened(tmp_path: Path) -> None:
    secret = tmp_path / "secret.docx"
    secret.write_bytes(OTHER)
    versions = [VersionChoice("v1", "Signed version", make_docx(p("Signed text.")))]
    script = [
        reply(tool(COMPARE_WITH_VERSION, {"versionId": str(secret)})),
        reply(tool(COMPARE_WITH_VERSION, {"versionId": "v2"})),
        reply("I can only compare with the version you offered."),
    ]
    events, server, _session = _run(script, versions)
    for index, given in ((1, str(secret)), (2, "v2")):
        sent = tool_results(server.requests[index].body)[0]
        assert sent["is_error"] is True
        assert result_text(sent) == UNKNOWN_VERSION.format(offered='"v1"', given=given)
    assert [e.ok for e in events if e.kind == "tool_result"] == [False, False]


def test_the_tool_is_absent_when_no_version_is_offered() -> None:
    script = [reply("There is no other version to compare with.")]
    _events, server, _session = _run(script, [])
    assert [t["name"] for t in server.requests[0].body["tools"]] == list(TOOL_NAMES)


def test_host_tool_calls_count_in_the_turns_tool_budget() -> None:
    versions = [VersionChoice("v1", "Other", OTHER)]
    script = [
        reply(
            tool(COMPARE_WITH_VERSION, {"versionId": "v1"}), tool(COMPARE_WITH_VERSION, {"versionId": "v1"})
        ),
        reply("Done."),
    ]
    events, server, _session = _run(script, versions, max_tool_calls=1)
    first, second = tool_results(server.requests[1].body)
    assert "is_error" not in first
    assert second["is_error"] is True and result_text(second) == TOOL_BUDGET_SPENT
    assert events[-1].tool_calls == 2


def test_review_mode_compares_the_documents_accepted_text(tmp_path: Path) -> None:
    pending = DocxReviewer.from_bytes(CURRENT, author="Someone")
    block = pending.snapshot().blocks[0]
    op = {"id": "x", "type": "replaceInBlock", "blockId": block.id, "find": "paragraph", "replace": "clause"}
    assert pending.apply_operations({"version": 1, "operations": [op]})["skipped"] == []
    bridge = create_review_queue_bridge(pending, store_directory=tmp_path)
    script = [reply(tool(COMPARE_WITH_VERSION, {"versionId": "v1"})), reply("One line was added.")]
    _events, server, session = _run(script, [VersionChoice("v1", "Other", OTHER)], bridge=bridge)
    text = result_text(tool_results(server.requests[1].body)[0])
    assert "Version diff: 1 added, 0 deleted, 0 modified, 0 format-changed, 0 moved, 2 unchanged" in text
