"""When a model turns out not to call tools, the session switches it to the pipeline mid-turn and
says so: a ``profile_changed`` event the chat shows as a note line (also in a reopened
conversation) and ``reviewer agent`` prints."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

from reviewer_app.agent import create_review_queue_bridge
from reviewer_app.agent.events import PIPELINE_SWITCH_MESSAGES, ProfileChanged
from reviewer_app.agent.session import AgentSession
from reviewer_app.cli import main
from reviewer_app.docx import DocxReviewer
from reviewer_app.ui.chat.conversation_items import conversation_items
from tests.chat_fixtures import LAW, SAMPLE
from tests.fake_anthropic import FakeAnthropic, Status, collect, fast_settings, reply, tool
from tests.ui.test_local_model_walkthrough import NEW, edit_json_answer

NO_TOOLS = Status(400, message="registry.ollama.ai/library/gemma2:2b does not support tools")


def test_two_unreadable_tool_calls_switch_to_the_pipeline_and_the_user_is_told(qapp, tmp_path: Path) -> None:
    bridge = create_review_queue_bridge(DocxReviewer.open(SAMPLE), store_directory=tmp_path / "queue")
    bad = reply(tool("find_text", '{"query": {"text": '))  # arguments cut mid-JSON
    with FakeAnthropic([bad, bad, edit_json_answer]) as server:

        async def go() -> tuple[list[Any], AgentSession]:
            async with AgentSession(bridge, fast_settings(server)) as session:
                return await collect(session, "Tidy Applicable Law."), session

        events, session = asyncio.run(go())
    (switch,) = [e for e in events if isinstance(e, ProfileChanged)]
    assert (switch.profile, switch.reason) == ("pipeline", "bad_tool_format")
    assert switch.message == PIPELINE_SWITCH_MESSAGES["bad_tool_format"]
    assert "switched to plain edit JSON" in switch.message
    kinds = [e.kind for e in events]
    assert kinds.index("profile_changed") < kinds.index("edit_batch")  # told before the edits arrive
    (proposal,) = bridge.proposals()
    assert proposal["operation"]["blockId"] == LAW and proposal["operation"]["replace"] == NEW

    # the transcript keeps it, so a reopened conversation shows the same note line
    (logged,) = [e for e in session.transcript.entries if e["kind"] == "profile_changed"]
    assert logged["reason"] == "bad_tool_format"
    notes = [i.text for i in conversation_items(session.transcript.entries, {}, set()) if i.kind == "note"]
    assert notes == [switch.message]


def test_reviewer_agent_prints_the_switch(tmp_path: Path, capsys: Any) -> None:
    sample = tmp_path / "contract.docx"
    shutil.copyfile(SAMPLE, sample)
    with FakeAnthropic([NO_TOOLS, edit_json_answer]) as server:
        code = main(["agent", str(sample), "Tidy Applicable Law.", "--base-url", server.base_url])
    assert code == 0
    err = capsys.readouterr().err
    assert PIPELINE_SWITCH_MESSAGES["no_tools"] in err
    assert err.index("switched to plain edit JSON") < err.index("[applied] replaceInBlock")

    with FakeAnthropic([NO_TOOLS, edit_json_answer]) as server:
        main(["agent", str(sample), "Tidy Applicable Law.", "--base-url", server.base_url, "--json"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    (switch,) = [line for line in lines if line["kind"] == "profile_changed"]
    assert (switch["profile"], switch["reason"]) == ("pipeline", "no_tools")
