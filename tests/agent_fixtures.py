"""What the agent session tests share: the sample contract, the clause they edit, one turn, freeing memory.

A test module brings the autouse fixture in by name (pytest finds fixtures only among a module's
own names): ``free_documents = agent_fixtures.free_documents``.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from typing import Any

import pytest

from reviewer_app.agent.session import AgentSession
from reviewer_app.agent.settings import AgentSettings
from tests.conftest import REPO_ROOT
from tests.fake_anthropic import collect

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
#: clause 1.2 of the sample: "… interpretation of this Agreement. … part of this Agreement … body of this Agreement."
CLAUSE = "0CA7A4E8"


@pytest.fixture(autouse=True)
def free_documents() -> Iterator[None]:
    """Open documents and finished sessions hold reference cycles: free them after each test
    rather than at some later full collection, so the suite's peak memory stays low."""
    yield
    gc.collect()


def run_turn(bridge: Any, settings: AgentSettings, text: str) -> tuple[list[Any], AgentSession]:
    """Send ``text`` in a new session and run the turn to its end: its events and the closed session."""

    async def go() -> tuple[list[Any], AgentSession]:
        async with AgentSession(bridge, settings) as session:
            return await collect(session, text), session

    return asyncio.run(go())
