"""A whole review session in the real window, offscreen, against the fake model server.

ask → three proposal cards → apply two, discard one → accept one of opposing counsel's changes,
reject another → reply to a comment and resolve it → rewrite a paragraph by hand → save →
reopen in a new window: the text, changes, comments and conversation are as the person left
them, and LibreOffice reads the file with the changes and comments we wrote.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QPushButton

from reviewer_app.docx import DocxReviewer
from reviewer_app.ui.main_window import MainWindow
from tests import chat_fixtures
from tests.chat_fixtures import LAW, SAMPLE, three_edits_turn
from tests.checkers import schema_errors
from tests.fake_anthropic import FakeAnthropic, fast_settings, reply, tool

loop, server = chat_fixtures.loop, chat_fixtures.server

PRIYA = "Priya Shah (Harbour Bank counsel)"
ME = "Alex Lawyer"
PAYMENT_DELETION, PAYMENT_INSERTION = "thirty (30)", "forty-five (45)"


def _window(qtbot: Any, server: FakeAnthropic) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.services.settings.update(user_name=ME)
    window.chat.set_settings(fast_settings(server))
    window.files.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    window.show()
    return window


def _texts(reviewer: DocxReviewer) -> list[str]:
    return [b.text for b in reviewer.snapshot().content_blocks()]


@pytest.mark.libreoffice
def test_a_review_session_from_question_to_saved_file(
    qtbot: Any, loop: Any, server: FakeAnthropic, tmp_path: Path, lo_reading: Any
) -> None:
    path = tmp_path / "contract.docx"
    shutil.copy(SAMPLE, path)
    original_errors = schema_errors(path)
    window = _window(qtbot, server)
    assert window.open_path(path)
    window.page_view.finish_layout()
    controller = window.controller

    # ask: three proposals arrive as cards
    server.add(*three_edits_turn())
    loop.run_until_complete(window.chat.send("Tighten the definitions in clause 1.1."))
    (batch,) = window.chat.conversation.batches()
    law, business, inserted = batch.cards.values()
    assert [c.status.text() for c in (law, business, inserted)] == ["Proposed"] * 3
    # apply two, discard one
    qtbot.mouseClick(law.apply_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(business.apply_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(inserted.discard_button, Qt.MouseButton.LeftButton)
    assert [c.status.text() for c in (law, business, inserted)] == ["Applied", "Applied", "Discarded"]

    # the other side's changes: accept the payment deletion, reject the insertion
    panel = window.docks.redline
    changes = {c["text"]: c["id"] for c in controller.reviewer.changes() if c["author"] == PRIYA}
    assert panel.select_change(changes[PAYMENT_DELETION])
    panel.accept_selected()
    assert panel.select_change(changes[PAYMENT_INSERTION])
    panel.reject_selected()

    # reply to the indexation comment and resolve it, through the comments panel
    window.docks.comments_dock.raise_()
    comments = window.docks.comments
    viewport = comments.list_view.viewport()
    comments.select_comment("1005")  # as a click on its anchor in the page does
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=comments.action_rect("1005", "reply").center())
    composer = comments.reply_composer("1005")
    qtbot.keyClicks(composer.editor, "Agreed: cap at 3 per cent.")
    qtbot.keyClick(composer.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.mouseClick(
        viewport, Qt.MouseButton.LeftButton, pos=comments.action_rect("1005", "resolve").center()
    )

    # rewrite a paragraph by hand
    block = next(b for b in controller.snapshot().content_blocks() if "shall not affect" in b.text)
    editor = window.drafting.edit(block.id)
    editor.editor.setPlainText(block.text.replace("shall not affect", "do not affect", 1))
    qtbot.mouseClick(editor.findChild(QPushButton, "paragraphEditorApply"), Qt.MouseButton.LeftButton)

    assert window.isWindowModified()
    window.actions.save.trigger()
    assert not window.isWindowModified()
    expected_texts = _texts(controller.reviewer)
    expected_changes = [(c["type"], c["author"], c["text"]) for c in controller.reviewer.changes()]
    window.close()

    # reopen in a new window: document and conversation as they were left
    again = _window(qtbot, server)
    assert again.open_path(path)
    reviewer = again.controller.reviewer
    assert _texts(reviewer) == expected_texts
    assert [(c["type"], c["author"], c["text"]) for c in reviewer.changes()] == expected_changes
    authors = [c["author"] for c in reviewer.changes()]
    assert authors.count(PRIYA) == 12 and authors.count(ME) == 2
    assert authors.count(controller.agent_author) >= 2
    law_text = next(b.text for b in reviewer.snapshot().content_blocks() if b.id == LAW)
    assert "laws, statutes, regulations, codes" in law_text
    assert not any("Change Control Procedure" in t for t in _texts(reviewer))
    thread = next(c for c in reviewer.comments() if c["id"] == "1005")
    assert thread["resolved"] and [(r["author"], r["text"]) for r in thread["replies"]] == [
        (ME, "Agreed: cap at 3 per cent.")
    ]
    (restored,) = again.chat.conversation.batches()
    assert [c.status.text() for c in restored.cards.values()] == ["Applied", "Applied", "Discarded"]
    again.close()

    # the file: schema-valid as before, and LibreOffice sees our changes and comments
    assert schema_errors(path) <= original_errors
    reading = lo_reading(path, accept_reject=True)
    assert reading["load_ok"]
    assert reading["tracked_change_total"] == len(expected_changes)
    assert {c["author"] for c in reading["tracked_changes"]} == {PRIYA, ME, controller.agent_author}
    replies = [c for c in reading["comments"] if c["text"] == "Agreed: cap at 3 per cent."]
    assert replies and replies[0]["author"] == ME
    accepted = "\n".join(reading["accept_all"]["paragraphs"])
    assert "do not affect the interpretation" in accepted and "laws, statutes, regulations, codes" in accepted
    rejected = "\n".join(reading["reject_all"]["paragraphs"])
    assert "shall not affect the interpretation" in rejected


def test_the_agent_compares_only_with_a_version_the_person_offered(
    qtbot: Any, loop: Any, server: FakeAnthropic, tmp_path: Path, monkeypatch: Any
) -> None:
    """Agent ▸ Offer Another Version…: the chat's compare_with_version tool appears with that id."""
    older = tmp_path / "older.docx"
    shutil.copy(SAMPLE, older)
    reviewer = DocxReviewer.open(older)
    block = next(b for b in reviewer.read_document() if "undisputed invoice within" in b["text"])
    reviewer.apply_operations(
        {
            "version": 1,
            "mode": "direct",
            "operations": [
                {
                    "id": "o",
                    "type": "replaceInBlock",
                    "blockId": block["blockId"],
                    "find": "invoice",
                    "replace": "bill",
                }
            ],
        }
    )
    reviewer.save(older)
    current = tmp_path / "contract.docx"
    shutil.copy(SAMPLE, current)
    window = _window(qtbot, server)
    assert window.open_path(current)

    server.add(reply("Nothing to compare with yet."))
    loop.run_until_complete(window.chat.send("What changed?"))
    assert "compare_with_version" not in [t["name"] for t in server.bodies[-1]["tools"]]

    monkeypatch.setattr(window.files, "ask_open_path_titled", lambda title: str(older))
    window.actions.offer_version.trigger()
    server.add(
        reply("Let me compare.", tool("compare_with_version", {"versionId": "v1"})),
        reply("The other version says bill instead of invoice."),
    )
    loop.run_until_complete(window.chat.send("What changed in the older version?"))
    tools = {t["name"]: t for t in server.bodies[-2]["tools"]}
    assert tools["compare_with_version"]["input_schema"]["properties"]["versionId"]["enum"] == ["v1"]
    (result,) = server.last_results()
    text = json.dumps(result)
    assert "bill" in text and "invoice" in text
    assert str(older) not in text  # the model never sees the path
    window.close()
