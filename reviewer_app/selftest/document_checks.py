"""The self-test's checks that need Qt: the sample through the real window parts and the agent.

Each check drives the same objects the app uses (the :class:`DocumentController`, the
:class:`PageView`, the :class:`LiveEditorBridge`, the tool executor, :class:`AgentSession` with
the real ``anthropic`` client), so a bundle that lacks a Qt plugin, a data file, a hidden import
or the SSL/HTTP stack fails here, on the IT department's machine, instead of in front of a
lawyer. Nothing is saved: the sample is opened from the install and every change is rejected.

Import this module only after ``QT_QPA_PLATFORM`` is decided (the runner does): PySide6 reads
it when the first QApplication is made.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from ..agent.events import ErrorEvent, ToolResult, TurnDone
from ..agent.executor import execute_tool_call
from ..agent.session import AgentSession
from ..agent.settings import AgentSettings
from ..resources import sample_contract_path
from ..ui.document_controller import DocumentController
from ..ui.live_bridge import LiveEditorBridge
from ..ui.pageview import PageView
from .report import CheckFailed, Outcome
from .scripted_model_server import FakeAnthropic, collect, reply, tool

#: The name the self-test's own tracked change carries, should anyone ever see it.
SELFTEST_AUTHOR = "Reviewer self-test"
#: Sent as the API key: the scripted server checks nothing, the client insists on one.
SELFTEST_API_KEY = "selftest"
#: The replacement written (then rejected) by the edit check.
REPLACEMENT = "SELFTESTWORD"
#: Words at least this long are candidates for the edit's ``find`` (short ones repeat too often).
_WORD = re.compile(r"[A-Za-z]{6,}")
#: Seconds the agent turn may wait for the scripted server (it answers within milliseconds).
_AGENT_TIMEOUT_S = 10.0
#: The page view's size while laying out: a normal window's document area.
_VIEW_SIZE = (900, 1100)


class DocumentChecks:
    """The sample opened in a controller and a page view, and the checks run against it in order."""

    def __init__(self, store_directory: Path) -> None:
        """``store_directory``: where the review queue may write (a temporary folder, not the user's)."""
        self.controller = DocumentController(author=SELFTEST_AUTHOR, store_directory=store_directory)
        self.view = PageView()
        self.view.resize(*_VIEW_SIZE)
        self.bridge = LiveEditorBridge(self.controller, self.view)

    def close(self) -> None:
        """Let Qt free the view now rather than at interpreter exit, after the QApplication."""
        self.view.deleteLater()

    # ------------------------------------------------------------------ the checks
    def open_sample(self) -> Outcome:
        """Find the bundled sample and open it with the engine."""
        path = sample_contract_path()
        reviewer = self.controller.open(path)
        blocks = len(reviewer.snapshot().content_blocks())
        changes, comments = len(reviewer.changes()), len(reviewer.comments())
        if not blocks:
            raise CheckFailed(f"the sample at {path} opened with no content")
        return Outcome(f"{path.name}: {blocks} blocks, {changes} tracked changes, {comments} comments")

    def layout(self) -> Outcome:
        """Lay the whole sample out in pages, as the window does (fonts, text layout, painting)."""
        reviewer = self.controller.require()
        self.view.show_document(reviewer)
        self.view.finish_layout()
        pages = self.view.page_count()
        if pages < 1:
            raise CheckFailed("the page view laid the sample out on no pages")
        self.view.grab()  # paints the first page: image formats and fonts are loaded here
        return Outcome(f"{pages} pages")

    def read_page(self) -> Outcome:
        """``read_page(1)`` through the tool executor and the live bridge (the agent's page read)."""
        outcome = execute_tool_call("read_page", {"page": 1}, self.bridge)
        if not outcome["ok"]:
            raise CheckFailed(f"read_page refused: {outcome['error']}")
        text = outcome["result"].get("text", "")
        if not text.strip():
            raise CheckFailed("read_page(1) returned no text")
        total = outcome["result"].get("totalPages")
        return Outcome(f"page 1 of {total}: {len(text)} characters")

    def edit_and_reject(self) -> Outcome:
        """One replaceInBlock through the controller, then rejected: the text must come back."""
        controller = self.controller
        block_id, original, word = _editable_block(controller.require())
        before = {change["id"] for change in controller.require().changes()}
        batch = {
            "version": 1,
            "mode": "tracked-changes",
            "operations": [
                {
                    "id": "selftest-1",
                    "type": "replaceInBlock",
                    "blockId": block_id,
                    "find": word,
                    "replace": REPLACEMENT,
                }
            ],
        }
        result = controller.apply_operations("self-test edit", batch)
        if result.get("status") != "committed" or not result.get("applied"):
            raise CheckFailed(
                f"the operation was not applied: {result.get('status')} {result.get('skipped')}"
            )
        edited = _block_text(controller, block_id)
        if REPLACEMENT not in edited:
            raise CheckFailed(f"block {block_id} does not show the replacement after the edit")
        added = [change["id"] for change in controller.require().changes() if change["id"] not in before]
        if not added:
            raise CheckFailed("the edit left no tracked change to reject")
        rejected = controller.reject_changes(added)
        restored = _block_text(controller, block_id)
        if restored != original:
            raise CheckFailed(f"block {block_id} did not return to its original text after the rejection")
        left = {change["id"] for change in controller.require().changes()}
        if left != before:
            raise CheckFailed("the tracked changes after the rejection differ from those before the edit")
        return Outcome(
            f"block {block_id}: {len(added)} tracked change(s) made, {rejected} rejected, text restored"
        )

    def agent_turn(self) -> Outcome:
        """One turn of the real agent loop against the scripted model server on 127.0.0.1."""
        script = [reply(tool("get_document_outline", {})), reply("Self-test turn complete.")]
        with FakeAnthropic(script) as server:
            settings = AgentSettings(
                base_url=server.base_url,
                api_key=SELFTEST_API_KEY,
                model="selftest-model",
                idle_timeout_s=_AGENT_TIMEOUT_S,
                connect_timeout_s=_AGENT_TIMEOUT_S,
                max_retries=0,
                retry_backoff_s=0.01,
            )
            events = asyncio.run(asyncio.wait_for(self._one_turn(settings), _AGENT_TIMEOUT_S))
            requests = len(server.requests)
            host = server.base_url.removeprefix("http://")
        errors = [event.message for event in events if isinstance(event, ErrorEvent)]
        if errors:
            raise CheckFailed(f"the agent turn failed: {errors[0]}")
        results = [event for event in events if isinstance(event, ToolResult)]
        if not results or not all(result.ok for result in results):
            raise CheckFailed(f"the tool call did not succeed: {[r.error for r in results]}")
        done = [event for event in events if isinstance(event, TurnDone)]
        if not done or done[-1].stop_reason != "end_turn":
            stop = done[-1].stop_reason if done else "no turn_done"
            raise CheckFailed(f"the turn ended with {stop} instead of end_turn")
        return Outcome(f"{requests} requests to {host}, {results[0].name} ran, turn ended normally")

    async def _one_turn(self, settings: AgentSettings) -> list[Any]:
        async with AgentSession(self.bridge, settings, document_name="sample-msa.docx") as session:
            return await collect(session, "Self-test: read the outline.")


def _block_text(controller: DocumentController, block_id: str) -> str:
    block = controller.snapshot().block(block_id)
    if block is None:
        raise CheckFailed(f"block {block_id} disappeared")
    return block.text


def _editable_block(reviewer: Any) -> tuple[str, str, str]:
    """(block id, its text, a word found once in it) for a paragraph free of changes and comments."""
    busy = {item.get("blockId") for item in [*reviewer.changes(), *reviewer.comments()]}
    for block in reviewer.snapshot().content_blocks():
        if block.id in busy or block.kind == "diagnostic" or block.table is not None:
            continue
        for word in _WORD.findall(block.text):
            if block.text.count(word) == 1:
                return block.id, block.text, word
    raise CheckFailed("the sample has no paragraph without tracked changes to edit")
