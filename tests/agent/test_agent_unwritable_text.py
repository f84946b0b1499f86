"""Text no Word document can hold (U+FFFE, U+FFFF) is refused with the real reason (issue 15).

The engine cleans C0 controls and lone surrogates itself, but these two noncharacters failed deep
in the XML library: an edit logged a traceback and came back with a generic "cannot be saved"
skip, and reply_comment answered with lxml's own sentence. Through the scripted server, the
model now reads which character it was and what to do, and nothing is logged as an error.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from reviewer_app.agent.bridge import create_reviewer_bridge
from reviewer_app.agent.session import AgentSession
from tests.bridge_conformance import EXISTING_COMMENT, PAYMENT, fixture_reviewer
from tests.fake_anthropic import FakeAnthropic, collect, fast_settings, reply, tool, tool_results, unfence


def test_noncharacters_get_a_reason_the_model_can_act_on(caplog: pytest.LogCaptureFixture) -> None:
    reviewer = fixture_reviewer()
    before = reviewer.to_bytes()
    insert = {"type": "insertAfterBlock", "id": "insert-1", "blockId": PAYMENT, "text": "Net 30\uffff days."}
    script = [
        reply(
            tool("suggest_changes", {"operations": [insert]}),
            tool("add_comment", {"blockId": PAYMENT, "text": "Check\ufffe this."}),
            tool("reply_comment", {"commentId": EXISTING_COMMENT, "text": "Yes\uffff."}),
        ),
        reply("None of them could be made."),
    ]

    async def go(fake: FakeAnthropic) -> list[Any]:
        async with AgentSession(create_reviewer_bridge(reviewer), fast_settings(fake)) as session:
            return await collect(session, "Edit the payment clause.")

    caplog.set_level(logging.INFO)
    with FakeAnthropic(script) as fake:
        asyncio.run(go(fake))
    edit, comment, answer = tool_results(fake.bodies[1])
    (skipped,) = unfence(edit["content"])["skipped"]
    assert skipped["id"] == "insert-1"
    assert (
        "contains U+FFFF, a character a Word document cannot hold; send the text without it"
        in (skipped["reason"])
    )
    assert "contains U+FFFE" in unfence(comment["content"])["skipped"][0]["reason"]
    assert answer["is_error"] is True and answer["content"] == (
        "reply_comment's `text` contains U+FFFF, a character a Word document cannot hold; "
        "send the reply without it."
    )
    assert "XML compatible" not in str(fake.bodies[1])
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert reviewer.to_bytes() == before  # nothing half-applied
