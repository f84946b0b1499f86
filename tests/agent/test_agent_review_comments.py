"""Review mode is review for comment threads too (issue 15): replies and resolves wait as proposals.

A document can tell the model to "resolve every comment"; in Review mode a model that obeys must
get no further than the queue. Driven through the scripted Messages server: the headless review
queue (the ``reviewer agent --mode review`` path), and the app's chat, where the person applies a
reply and a resolve with the card's own Apply button.
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import Qt

from reviewer_app.agent.review_queue import ReviewQueueBridge
from reviewer_app.agent.session import AgentSession
from tests import chat_fixtures
from tests.bridge_conformance import EXISTING_COMMENT, fixture_reviewer
from tests.fake_anthropic import FakeAnthropic, collect, fast_settings, reply, tool, tool_results, unfence

loop, server, document, make_dock = (
    chat_fixtures.loop,
    chat_fixtures.server,
    chat_fixtures.document,
    chat_fixtures.make_dock,
)

REPLY = "Agreed; clause 4 covers it."


def thread(comments: list[dict[str, Any]], comment_id: str) -> dict[str, Any]:
    return next(c for c in comments if c["id"] == comment_id)


def test_review_queue_holds_replies_and_resolves_until_they_are_applied(tmp_path: Any) -> None:
    reviewer = fixture_reviewer()
    bridge = ReviewQueueBridge(reviewer, store_directory=tmp_path / "queue")
    before = reviewer.comments()
    script = [
        reply(
            "Resolving every comment, as the document asks.",
            tool("reply_comment", {"commentId": EXISTING_COMMENT, "text": REPLY}),
            tool("resolve_comment", {"commentId": EXISTING_COMMENT}),
        ),
        reply("Both wait for your review."),
    ]

    async def go(fake: FakeAnthropic) -> list[Any]:
        async with AgentSession(bridge, fast_settings(fake)) as session:
            return await collect(session, "Deal with the comments.")

    with FakeAnthropic(script) as fake:
        events = asyncio.run(go(fake))
    assert reviewer.comments() == before  # nothing replied, nothing resolved
    results = [unfence(r["content"]) for r in tool_results(fake.bodies[1])]
    assert [r["queued"] for r in results] == [
        [{"id": f"reply-{EXISTING_COMMENT}"}],
        [{"id": f"resolve-{EXISTING_COMMENT}"}],
    ]
    batches = [e for e in events if e.kind == "edit_batch"]
    assert [[row["status"] for row in b.operations] for b in batches] == [["queued"], ["queued"]]
    assert [p["operation"]["type"] for p in bridge.proposals()] == ["replyComment", "resolveComment"]

    outcomes = bridge.apply_proposals()
    assert [o["status"] for o in outcomes] == ["applied", "applied"]
    after = thread(reviewer.comments(), EXISTING_COMMENT)
    assert after["resolved"] is True and [r["text"] for r in after["replies"]] == [REPLY]
    assert bridge.proposals() == []


def test_chat_cards_apply_a_reply_and_a_resolve_only_when_clicked(
    loop: Any, make_dock: Any, server: FakeAnthropic, qtbot: Any
) -> None:
    server.add(
        reply(
            tool("reply_comment", {"commentId": "1005", "text": REPLY}),
            tool("resolve_comment", {"commentId": "1007"}),
            tool("resolve_comment", {"commentId": "1013"}),
        ),
        reply("Three proposals wait for your review."),
    )
    dock = make_dock(mode="review")
    controller = dock.chat.controller
    before = controller.reviewer.comments()
    loop.run_until_complete(dock.send("Resolve every comment."))
    assert controller.reviewer.comments() == before
    assert len(controller.review_bridge.proposals()) == 3

    reply_card, resolve_1007, resolve_1013 = [
        next(iter(batch.cards.values())) for batch in dock.conversation.batches()
    ]
    assert reply_card.title.text() == "Reply to comment" and reply_card.status.text() == "Proposed"
    assert REPLY in reply_card.redline.text() and "Priya Shah" in reply_card.redline.text()
    assert reply_card.where.text()  # the clause the comment sits on
    assert resolve_1007.title.text() == "Resolve comment"
    for card in (reply_card, resolve_1007, resolve_1013):
        assert card.apply_button.isVisibleTo(card) and card.discard_button.isVisibleTo(card)

    qtbot.mouseClick(reply_card.apply_button, Qt.MouseButton.LeftButton)
    replies = thread(controller.reviewer.comments(), "1005")["replies"]
    assert [(r["author"], r["text"]) for r in replies] == [(controller.agent_author, REPLY)]
    assert reply_card.status.text() == "Applied"

    qtbot.mouseClick(resolve_1007.apply_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(resolve_1013.discard_button, Qt.MouseButton.LeftButton)
    comments = controller.reviewer.comments()
    assert thread(comments, "1007")["resolved"] is True
    assert thread(comments, "1013")["resolved"] is False
    assert controller.review_bridge.proposals() == []
