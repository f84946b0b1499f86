"""The chat dock as a lawyer uses it: ask, watch the answer stream, act on each edit card.

Real parts throughout: the ``anthropic`` client against the fake Messages server on loopback,
a :class:`DocumentController` over a copy of the sample contract, a real :class:`PageView`, and
qasync running asyncio on Qt's loop (turns are driven with ``loop.run_until_complete``).
Stopping, errors, the no-model banner and reopening are in ``test_chat_session.py``.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.outline import section_handle
from reviewer_app.ui.chat import ChatDock
from reviewer_app.ui.chat.conversation_items import ToolLineData
from reviewer_app.ui.chat.message_view import ConversationView
from tests import chat_fixtures
from tests.chat_fixtures import BUSINESS_DAY, LAW, SAMPLE, three_edits_turn
from tests.fake_anthropic import FakeAnthropic, reply, tool

loop, server, document, make_dock = (
    chat_fixtures.loop,
    chat_fixtures.server,
    chat_fixtures.document,
    chat_fixtures.make_dock,
)


def _block_text(dock: ChatDock, block_id: str) -> str:
    return dock.chat.controller.snapshot().block(block_id).text


def test_streamed_answer_and_three_proposed_cards(
    loop: Any, make_dock: Any, server: FakeAnthropic, qtbot: Any
) -> None:
    server.add(*three_edits_turn())
    dock = make_dock()
    task = dock.send("Tighten the definitions in clause 1.1.")
    assert task is not None
    assert not dock.send_button.isEnabled() and dock.stop_button.isEnabled()
    loop.run_until_complete(task)
    assert dock.send_button.isEnabled() and not dock.stop_button.isEnabled()

    answers = dock.conversation.answers()
    assert "I propose **three** changes" in answers[0].markdown
    assert answers[-1].markdown.startswith("Three proposals")
    assert "propose three changes" in answers[0].text()  # rendered: no Markdown markers left
    assert "Applicable Law: drop" in answers[0].text()
    lines = [line.text() for line in dock.conversation.tool_lines()]
    assert len(lines) == 1 and lines[0].startswith("✓ Suggested 3 changes · 3 queued · ")
    assert lines[0].endswith(" ms")

    (batch,) = dock.conversation.batches()
    cards = list(batch.cards.values())
    assert [c.status.text() for c in cards] == ["Proposed"] * 3
    assert [c.title.text() for c in cards] == ["Replace text", "Replace text", "Insert paragraph after"]
    first = cards[0]
    # a word-level redline: only " and" is struck, only "," is new
    redline = first.redline.text()
    assert redline.startswith("laws, statutes, regulations<s ") and redline.endswith("</u> codes")
    assert '"> and</s>' in redline and '">,</u>' in redline
    assert first.where.text().startswith("1.1 In this Agreement") and "page 2" in first.where.text()
    assert first.why.text() == "Why: Codes are listed separately elsewhere. (definitions · low)"
    for card in cards:
        assert card.apply_button.isVisibleTo(card) and card.discard_button.isVisibleTo(card)
        assert card.show_button.isVisibleTo(card) and not card.accept_button.isVisibleTo(card)
    assert batch.apply_all.isVisibleTo(batch) and batch.heading.text() == "3 proposals waiting for you"
    # Review mode: nothing touched the document yet
    assert "laws, statutes, regulations and codes" in _block_text(dock, LAW)
    assert len(dock.chat.controller.review_bridge.proposals()) == 3


def test_apply_two_discard_one(loop: Any, make_dock: Any, server: FakeAnthropic, qtbot: Any) -> None:
    server.add(*three_edits_turn())
    dock = make_dock()
    loop.run_until_complete(dock.send("Tighten the definitions."))
    controller = dock.chat.controller
    (batch,) = dock.conversation.batches()
    law, business, inserted = batch.cards.values()

    qtbot.mouseClick(law.apply_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(business.apply_button, Qt.MouseButton.LeftButton)
    assert law.status.text() == "Applied" and business.status.text() == "Applied"
    assert not law.apply_button.isVisibleTo(law) and not law.discard_button.isVisibleTo(law)
    assert controller.undo_stack.count() == 2  # one undo entry per Apply
    assert "laws, statutes, regulations, codes" in _block_text(dock, LAW)
    agent_changes = [c for c in controller.reviewer.changes() if c["author"] == controller.agent_author]
    assert {c["blockId"] for c in agent_changes} == {LAW, BUSINESS_DAY}

    qtbot.mouseClick(inserted.discard_button, Qt.MouseButton.LeftButton)
    assert inserted.status.text() == "Discarded" and not inserted.show_button.isVisibleTo(inserted)
    assert controller.review_bridge.proposals() == []
    assert controller.undo_stack.count() == 2  # discarding changes nothing in the document
    texts = [b.text for b in controller.snapshot().content_blocks()]
    assert not any("Change Control Procedure" in text for text in texts)
    # the two applied proposals are tracked changes now, waiting for Accept or Reject
    assert batch.heading.text() == "2 tracked changes to accept or reject"
    assert not batch.apply_all.isVisibleTo(batch) and batch.accept_all.isVisibleTo(batch)


def test_apply_all_is_one_undo_step_and_show_names_the_block(
    loop: Any, make_dock: Any, server: FakeAnthropic, qtbot: Any
) -> None:
    server.add(*three_edits_turn())
    dock = make_dock()
    loop.run_until_complete(dock.send("Tighten the definitions."))
    (batch,) = dock.conversation.batches()
    shown: list[str] = []
    dock.show_block.connect(shown.append)
    qtbot.mouseClick(next(iter(batch.cards.values())).show_button, Qt.MouseButton.LeftButton)
    assert shown == [LAW]
    qtbot.mouseClick(batch.apply_all, Qt.MouseButton.LeftButton)
    assert [c.status.text() for c in batch.cards.values()] == ["Applied"] * 3
    assert dock.chat.controller.undo_stack.count() == 1


def test_an_applied_proposal_can_be_accepted_or_rejected_and_follows_undo(
    loop: Any, make_dock: Any, server: FakeAnthropic, qtbot: Any
) -> None:
    """After Apply, a Review card holds the tracked changes it became: Accept/Reject act on them.
    Undoing the Apply puts the proposal back in the queue and the card back to Apply/Discard."""
    server.add(*three_edits_turn())
    dock = make_dock()
    loop.run_until_complete(dock.send("Tighten the definitions."))
    controller = dock.chat.controller
    (batch,) = dock.conversation.batches()
    law, business, _inserted = batch.cards.values()
    qtbot.mouseClick(law.apply_button, Qt.MouseButton.LeftButton)
    assert law.status.text() == "Applied" and law.accept_button.isVisibleTo(law)
    agent_changes = {c["id"] for c in controller.reviewer.changes() if c["author"] == controller.agent_author}
    assert agent_changes and set(law.card.revision_ids) == agent_changes

    def queued() -> set[str]:
        return {p["id"] for p in controller.review_bridge.proposals() if p["status"] == "queued"}

    controller.undo_stack.undo()
    qtbot.waitUntil(lambda: law.status.text() == "Proposed", timeout=2000)
    assert law.apply_button.isVisibleTo(law) and not law.accept_button.isVisibleTo(law)
    assert law.card.proposal_id in queued()
    assert not [c for c in controller.reviewer.changes() if c["author"] == controller.agent_author]
    controller.undo_stack.redo()
    qtbot.waitUntil(lambda: law.status.text() == "Applied", timeout=2000)
    assert law.card.proposal_id not in queued()
    # undone again, the proposal applies again from its card: new tracked changes, one undo step
    controller.undo_stack.undo()
    qtbot.waitUntil(lambda: law.status.text() == "Proposed", timeout=2000)
    qtbot.mouseClick(law.apply_button, Qt.MouseButton.LeftButton)
    assert law.status.text() == "Applied" and law.card.proposal_id not in queued()
    assert set(law.card.revision_ids) == {
        c["id"] for c in controller.reviewer.changes() if c["author"] == controller.agent_author
    }

    qtbot.mouseClick(law.reject_button, Qt.MouseButton.LeftButton)
    assert law.status.text() == "Rejected"
    assert _block_text(dock, LAW) == dict(_original_texts())[LAW]
    qtbot.mouseClick(business.apply_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(business.accept_button, Qt.MouseButton.LeftButton)
    assert business.status.text() == "Accepted"
    assert "a day other than a Saturday or Sunday" in _block_text(dock, BUSINESS_DAY)
    assert not [c for c in controller.reviewer.changes() if c["author"] == controller.agent_author]


def test_direct_mode_card_rejects_the_change_it_made(
    loop: Any, make_dock: Any, server: FakeAnthropic, qtbot: Any
) -> None:
    server.add(*three_edits_turn())
    dock = make_dock()
    dock.set_mode("direct")
    assert dock.mode_box.currentData() == "direct"
    assert "tracked changes" in dock.mode_hint.text()
    assert dock.chat.session.review_mode is False
    controller = dock.chat.controller
    before = controller.reviewer.changes()
    loop.run_until_complete(dock.send("Tighten the definitions."))
    (batch,) = dock.conversation.batches()
    law, business, inserted = batch.cards.values()
    assert [c.status.text() for c in batch.cards.values()] == ["Applied"] * 3
    assert law.accept_button.isVisibleTo(law) and law.reject_button.isVisibleTo(law)
    assert not law.apply_button.isVisibleTo(law) and batch.accept_all.isVisibleTo(batch)
    assert "laws, statutes, regulations, codes" in _block_text(dock, LAW)
    assert controller.undo_stack.count() == 1  # the agent's batch is one undo step

    qtbot.mouseClick(law.reject_button, Qt.MouseButton.LeftButton)
    assert law.status.text() == "Rejected" and not law.reject_button.isVisibleTo(law)
    assert _block_text(dock, LAW) == dict(_original_texts())[LAW]
    assert "a day other than a Saturday or Sunday" in _block_text(dock, BUSINESS_DAY)  # the other stays
    qtbot.mouseClick(business.accept_button, Qt.MouseButton.LeftButton)
    assert business.status.text() == "Accepted"
    qtbot.mouseClick(inserted.reject_button, Qt.MouseButton.LeftButton)
    assert [c["id"] for c in controller.reviewer.changes()] == [c["id"] for c in before]
    assert dict(_original_texts()).keys() == {b.id for b in controller.snapshot().content_blocks()}

    controller.undo_stack.undo()  # undo the last reject: that card offers Accept and Reject again
    qtbot.waitUntil(lambda: inserted.status.text() == "Applied", timeout=2000)
    assert inserted.accept_button.isVisibleTo(inserted) and business.status.text() == "Accepted"


def _original_texts() -> list[tuple[str, str]]:
    snapshot = DocxReviewer.open(SAMPLE).snapshot()
    return [(b.id, b.text) for b in snapshot.content_blocks()]


def test_each_tool_call_keeps_its_own_line_once_the_call_is_over(qtbot: Any) -> None:
    """The controller lets go of a call's data when its result is shown; the next call's data may
    then sit where it was (a flaky test once saw 2 lines for 3 calls). Every call keeps its line,
    and a result whose start was never seen gets a line of its own, not an earlier call's."""
    view = ConversationView()
    qtbot.addWidget(view)
    for n in range(3):
        line = ToolLineData("find_text", {"query": f"term {n}"})
        view.add_tool(line)
        line.ok, line.summary = True, f"{n} matches"
        view.update_tool(line)
        del line
    unseen = ToolLineData("find_text", {"query": "late term"})
    unseen.ok = True
    view.update_tool(unseen)
    texts = [widget.text() for widget in view.tool_lines()]
    assert len(texts) == 4
    assert all(
        f"“{query}”" in text
        for query, text in zip(("term 0", "term 1", "term 2", "late term"), texts, strict=True)
    )


def test_tool_lines_name_the_section_the_search_and_errors(
    loop: Any, make_dock: Any, server: FakeAnthropic
) -> None:
    dock = make_dock()
    heading = dock.chat.controller.snapshot().block("0CA7A4E8")
    handle = section_handle(heading)
    server.add(
        reply("Looking.", tool("find_text", {"query": "indemnity"})),
        reply(
            tool("read_section", {"handle": handle}),
            tool("read_section", {"handle": {**handle, "headingTextHash": "hbad"}}),
        ),
        reply("Done."),
    )
    loop.run_until_complete(dock.send("Where is the indemnity?"))
    search, section, stale = (line.text() for line in dock.conversation.tool_lines())
    assert search.startswith("✓ Searched “indemnity” · ") and "match" in search
    assert section.startswith("✓ Read section 1.2 · 1 block of “Clause, Schedule")
    assert stale.startswith("✗ Read a section: The section heading changed")
    assert [a.markdown for a in dock.conversation.answers()] == ["Looking.", "Done."]
