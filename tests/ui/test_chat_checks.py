"""An agent batch's cards say what the batch did to the contract checks, the findings it
introduced and those it cleared: at once in Direct mode, and as its proposals are applied in
Review mode; a reopened conversation says it again.

Real parts as in ``test_chat_dock``: the ``anthropic`` client against the fake server, a
DocumentController over a copy of the sample contract, a PageView and qasync.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from tests import chat_fixtures
from tests.chat_fixtures import BUSINESS_DAY
from tests.fake_anthropic import FakeAnthropic, reply, tool

loop, server, document, make_dock = (
    chat_fixtures.loop,
    chat_fixtures.server,
    chat_fixtures.document,
    chat_fixtures.make_dock,
)
DATED = "57343CA1"  # "Dated\t[●] 2025"
EDITS = [
    {
        "type": "replaceInBlock",
        "blockId": BUSINESS_DAY,
        "find": "a Saturday, Sunday or public holiday",
        "replace": "[insert excluded days]",
    },
    {"type": "replaceInBlock", "blockId": DATED, "find": "[●]", "replace": "1 March"},
]


def test_a_direct_batch_card_says_what_it_introduced_and_cleared(
    loop: Any, make_dock: Any, server: FakeAnthropic
) -> None:
    server.add(reply(tool("suggest_changes", {"operations": EDITS})), reply("Done."))
    dock = make_dock()
    dock.set_mode("direct")
    loop.run_until_complete(dock.send("Date the agreement and leave the excluded days open."))
    (batch,) = dock.conversation.batches()
    assert batch.checks.isVisibleTo(batch)
    assert batch.checks.text() == (
        "Checks: introduced 1 placeholder: [insert excluded days]; cleared 1 placeholder: [●]"
    )
    artifacts = Path(__file__).resolve().parents[1] / "_artifacts"
    artifacts.mkdir(exist_ok=True)
    assert batch.grab().save(str(artifacts / "chat_batch_checks.png"))
    (entry,) = [e for e in dock.chat.session.transcript.entries if e.get("kind") == "edit_batch"]
    assert [f["subject"] for f in entry["checks"]["introduced"]] == ["[insert excluded days]"]
    dock.chat.controller.save()
    (restored,) = make_dock(mode="direct").conversation.batches()  # the document opened again
    assert restored.checks.text() == batch.checks.text()


def test_a_review_batch_says_what_it_did_to_the_checks_once_applied(
    loop: Any, make_dock: Any, server: FakeAnthropic, qtbot: Any
) -> None:
    server.add(reply(tool("suggest_changes", {"operations": EDITS})), reply("Two proposals."))
    dock = make_dock()
    loop.run_until_complete(dock.send("Date the agreement and leave the excluded days open."))
    (batch,) = dock.conversation.batches()
    assert not batch.checks.isVisibleTo(batch)  # proposals change nothing until applied
    excluded, dated = batch.cards.values()
    qtbot.mouseClick(dated.apply_button, Qt.MouseButton.LeftButton)
    assert batch.checks.text() == "Checks: cleared 1 placeholder: [●]"
    qtbot.mouseClick(excluded.apply_button, Qt.MouseButton.LeftButton)
    assert batch.checks.isVisibleTo(batch)
    assert batch.checks.text() == (
        "Checks: introduced 1 placeholder: [insert excluded days]; cleared 1 placeholder: [●]"
    )
    dock.chat.controller.save()
    (restored,) = make_dock().conversation.batches()  # the document opened again
    assert restored.checks.text() == batch.checks.text()
