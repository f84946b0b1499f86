"""The desktop app's agent bridge: conformance, Review vs Direct mode, pages, selection, show_in_document.

Real parts throughout: a DocumentController over the engine, a PageView laid out offscreen, and
tool calls through the executor, so what is tested is what the agent session gets.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reviewer_app.agent.bridge import member
from reviewer_app.ui.document_controller import DocumentController
from reviewer_app.ui.live_bridge import LiveEditorBridge
from reviewer_app.ui.pageview import PageView
from tests.bridge_conformance import PAYMENT, call, ok, run_conformance
from tests.conftest import REPO_ROOT

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"


def _live(qtbot, tmp_path: Path, mode: str, data: bytes, path: str | None = None) -> LiveEditorBridge:
    """A controller holding ``data``, a page view following it, and the bridge over both."""
    controller = DocumentController(author="Alex Lawyer", store_directory=tmp_path / "queue")
    view = PageView()
    qtbot.addWidget(view)
    view.resize(900, 700)
    controller.document_loaded.connect(lambda: view.show_document(controller.reviewer))
    controller.document_changed.connect(lambda touched: view.refresh(controller.reviewer, touched))
    controller.open_bytes(data, path)
    view.finish_layout()
    return LiveEditorBridge(controller, view, mode)


@pytest.mark.parametrize("mode", ["review", "direct"])
def test_conformance(qtbot, tmp_path: Path, mode: str) -> None:
    run_conformance(lambda reviewer: _live(qtbot, tmp_path, mode, reviewer.to_bytes()))


def _pay_60() -> dict:
    op = {
        "id": "pay-60",
        "type": "replaceInBlock",
        "blockId": PAYMENT,
        "find": "30 days",
        "replace": "60 days",
    }
    return {"operations": [op]}


def test_review_mode_queues_and_leaves_the_document_alone(qtbot, tmp_path: Path) -> None:
    from tests.bridge_conformance import fixture_docx

    bridge = _live(qtbot, tmp_path, "review", fixture_docx())
    refreshed: list[int] = []
    bridge.proposals_changed = lambda: refreshed.append(1)
    changed: list[object] = []
    bridge.controller.document_changed.connect(changed.append)
    summary = ok(bridge, "suggest_changes", _pay_60())
    assert summary["queued"] == [{"id": "pay-60"}] and summary["applied"] == []
    assert changed == [] and bridge.controller.undo_stack.count() == 0
    assert "30 days" in bridge.controller.snapshot().block(PAYMENT).text
    assert [p["operationId"] for p in bridge.controller.review_bridge.proposals()] == ["pay-60"]
    assert refreshed == [1]


def test_direct_mode_is_one_undo_step_under_the_agents_name(qtbot, tmp_path: Path) -> None:
    from tests.bridge_conformance import fixture_docx

    bridge = _live(qtbot, tmp_path, "direct", fixture_docx())
    controller = bridge.controller
    summary = ok(bridge, "suggest_changes", _pay_60())
    assert [a["id"] for a in summary["applied"]] == ["pay-60"]
    assert controller.undo_stack.count() == 1
    authors = {c["author"] for c in controller.reviewer.changes()}
    assert authors == {controller.agent_author}
    # the page view followed: page text reads the accepted text of the new insertion
    assert "60 days" in "".join(bridge.get_page_text(p) for p in range(1, bridge.get_page_count() + 1))
    controller.undo_stack.undo()
    assert controller.reviewer.changes() == []
    # undo replaced the reviewer: the bridge reads the restored document, and replay still holds
    assert "30 days" in ok(bridge, "read_document")[2]["text"]
    again = ok(bridge, "suggest_changes", _pay_60())
    assert again["replayed"] == [{"id": "pay-60"}]


def test_mode_switch_and_agent_reply_is_undoable(qtbot, tmp_path: Path) -> None:
    from tests.bridge_conformance import EXISTING_COMMENT, fixture_docx

    bridge = _live(qtbot, tmp_path, "review", fixture_docx())
    with pytest.raises(ValueError):
        bridge.mode = "auto"
    bridge.mode = "direct"
    assert member(bridge, "document_operation_mode") == "tracked-changes"
    assert ok(bridge, "reply_comment", {"commentId": EXISTING_COMMENT, "text": "Yes."}) == {"replied": True}
    controller = bridge.controller
    reply = controller.reviewer.comments()[0]["replies"][0]
    assert reply["author"] == controller.agent_author
    # the page view re-rendered the commented block and re-read the balloons' text
    assert [c.text for c in bridge.view.paged_layout().thread(EXISTING_COMMENT)][-1] == "Yes."
    assert controller.undo_stack.count() == 1
    controller.undo_stack.undo()
    assert controller.reviewer.comments()[0]["replies"] == []


# ----------------------------------------------------------------------------- on the sample contract
@pytest.fixture
def sample_bridge(qtbot, tmp_path: Path) -> LiveEditorBridge:
    if not SAMPLE.exists():
        pytest.skip("the sample contract is missing")
    copy = tmp_path / "contract.docx"
    shutil.copy(SAMPLE, copy)
    return _live(qtbot, tmp_path, "review", copy.read_bytes(), str(copy))


def test_read_page_of_every_page_gives_the_document_text_in_order(sample_bridge: LiveEditorBridge) -> None:
    count = ok(sample_bridge, "read_page", {"page": 1})["totalPages"]
    assert count == 17
    pages = [ok(sample_bridge, "read_page", {"page": n})["text"] for n in range(1, count + 1)]
    joined = "".join("\n".join(pages).split())
    document = "".join("".join(b.text for b in sample_bridge.snapshot().content_blocks()).split())
    assert joined == document
    message = call(sample_bridge, "read_page", {"page": count + 1})["error"]
    assert message == f"read_page's `page` ({count + 1}) exceeds the document's page count ({count})."


def test_show_in_document_lands_a_middle_block_in_the_viewport(sample_bridge: LiveEditorBridge) -> None:
    view = sample_bridge.view
    blocks = sample_bridge.snapshot().content_blocks()
    middle = blocks[len(blocks) // 2]
    page = sample_bridge.get_target_page({"type": "block", "story": "main", "blockId": middle.id})
    assert page is not None and page > 3
    assert ok(sample_bridge, "show_in_document", {"blockId": middle.id}) == {"shown": True}
    y = view._block_y(middle.id) - view.verticalScrollBar().value()
    assert 0 <= y < view.viewport().height()
    assert view.current_page() + 1 in (page, page - 1, page + 1)
    assert sample_bridge.get_target_page() == view.current_page() + 1


def test_show_in_document_with_a_find_range_and_a_stale_one(sample_bridge: LiveEditorBridge) -> None:
    found = ok(sample_bridge, "find_text", {"query": "Harbour Bank"})
    match = found["matches"][-1]
    assert ok(sample_bridge, "show_in_document", {"range": match["range"]}) == {"shown": True}
    view = sample_bridge.view
    assert view._focus and view._focus[0][2] - view._focus[0][1] == len("Harbour Bank")
    stale = dict(match["range"], selectedTextHash="h00000000")
    assert ok(sample_bridge, "show_in_document", {"range": stale}) == {"shown": False}


def test_read_selection_reads_what_the_person_selected(sample_bridge: LiveEditorBridge) -> None:
    view = sample_bridge.view
    assert ok(sample_bridge, "read_selection") == {"text": ""}
    block = next(b for b in sample_bridge.snapshot().content_blocks() if len(b.text) > 40)
    assert view.set_selection(block.id, 5, 25)
    assert ok(sample_bridge, "read_selection") == {"text": block.text[5:25]}
    assert view.selection_range() == (block.id, 5, 25)
