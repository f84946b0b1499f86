"""Fixtures and a scripted turn shared by the chat dock tests (``test_chat_dock``, ``test_chat_session``).

``loop`` is a qasync loop over the test's QApplication (asyncio on Qt's loop, as in the app);
``make_dock`` opens a copy of the sample contract in a real DocumentController and PageView and
builds a ChatDock talking to the fake Anthropic server.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from reviewer_app.ui.chat import ChatDock
from reviewer_app.ui.document_controller import DocumentController
from reviewer_app.ui.pageview import PageView
from tests.conftest import REPO_ROOT
from tests.fake_anthropic import FakeAnthropic, Reply, fast_settings, reply, tool
from tests.qt_event_loop import qt_event_loop

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
#: definitions in clause 1.1 of the sample
LAW, BUSINESS_DAY, CHARGES = "7AB2984B", "005094C3", "52419690"


def three_edits() -> list[dict[str, Any]]:
    """Two replacements and a new definition, in clause 1.1."""
    return [
        {
            "type": "replaceInBlock",
            "blockId": LAW,
            "find": "laws, statutes, regulations and codes",
            "replace": "laws, statutes, regulations, codes",
            "comment": "Codes are listed separately elsewhere.",
            "area": "definitions",
            "severity": "low",
        },
        {
            "type": "replaceInBlock",
            "blockId": BUSINESS_DAY,
            "find": "a day other than a Saturday, Sunday or public holiday",
            "replace": "a day other than a Saturday or Sunday",
        },
        {
            "type": "insertAfterBlock",
            "blockId": CHARGES,
            "text": "“Change Control Procedure” means the procedure set out in Schedule 5;",
            "comment": "The term is used in clause 6 but never defined.",
        },
    ]


def three_edits_turn(final: str = "Three proposals wait for your review in clause 1.1.") -> list[Reply]:
    """A streamed answer that calls suggest_changes with :func:`three_edits`, then a summary."""
    intro = (
        "I propose **three** changes to clause 1.1:\n\n"
        "- *Applicable Law*: drop the stray “and”\n- *Business Day*: weekends only\n- a definition of *Change Control Procedure*"
    )
    return [reply(intro, tool("suggest_changes", {"operations": three_edits()}), chunk=7), reply(final)]


@pytest.fixture
def loop(qapp: Any) -> Iterator[asyncio.AbstractEventLoop]:
    """asyncio on Qt's loop, as the app runs it; closed after the test (see ``qt_event_loop``)."""
    with qt_event_loop() as event_loop:
        yield event_loop


@pytest.fixture
def server() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as fake:
        yield fake


@pytest.fixture
def document(tmp_path: Path) -> Path:
    copy = tmp_path / "contract.docx"
    shutil.copy(SAMPLE, copy)
    return copy


@pytest.fixture
def make_dock(
    qtbot: Any, loop: asyncio.AbstractEventLoop, server: FakeAnthropic, document: Path, tmp_path: Path
) -> Iterator[Callable[..., ChatDock]]:
    """``make_dock(mode="review", settings=None, path=document)``: a dock over an opened document."""
    docks: list[ChatDock] = []

    def make(mode: str = "review", settings: Any = None, path: Path = document) -> ChatDock:
        controller = DocumentController(author="Alex Lawyer", store_directory=tmp_path / "queue")
        view = PageView()
        view.resize(800, 1000)
        qtbot.addWidget(view)

        def show() -> None:
            if controller.reviewer is None:
                view.clear_document()
            else:
                view.show_document(controller.reviewer)
                view.finish_layout()

        controller.document_loaded.connect(show)
        dock = ChatDock(controller, view, settings or fast_settings(server), mode=mode)
        qtbot.addWidget(dock)
        dock.resize(440, 900)
        controller.open(path)
        docks.append(dock)
        return dock

    yield make
    for dock in docks:
        dock.chat.stop()
        if dock.chat.session is not None:
            with contextlib.suppress(Exception):
                loop.run_until_complete(dock.chat.session.aclose())
    docks.clear()
    gc.collect()
