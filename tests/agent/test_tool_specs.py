"""One spec per tool (issue 18): a tool cannot exist without deciding whether its result is fenced,
every result that carries the document's words reaches the model fenced, and every tool has a line
in the chat.

The tools are read from the registry, never from a list copied here: a tool added tomorrow is
checked by these tests the day it is registered (and fails the first one until it is given an
example call below).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from reviewer_app.agent.executor import execute_tool_call
from reviewer_app.agent.session import AgentSession
from reviewer_app.agent.tool_registry import REGISTRY
from reviewer_app.agent.tool_spec import Fencing, Role, ToolRegistry, ToolSpec
from reviewer_app.docx import DocxReviewer
from reviewer_app.ui.chat.describe import TOOL_PHRASES, tool_phrase
from tests import agent_fixtures
from tests.agent_fixtures import CLAUSE, SAMPLE
from tests.bridge_conformance import PagedBridge
from tests.fake_anthropic import FakeAnthropic, collect, fast_settings, reply, result_text, tool, tool_results

free_documents = agent_fixtures.free_documents

#: a tool's fields other than its fencing decision
_REST: dict[str, Any] = {
    "name": "read_minutes",
    "description": "Read the minutes.",
    "input_schema": {"type": "object", "properties": {}, "additionalProperties": False},
    "handler": lambda bridge, args: {"text": "minutes"},
    "role": Role.READ,
    "summary": lambda result: "done",
}


# ----------------------------------------------------------------------------- the fencing decision
def test_a_spec_without_a_fencing_decision_cannot_be_made() -> None:
    with pytest.raises(TypeError, match="fencing"):
        ToolSpec(**_REST)  # type: ignore[call-arg]
    for undecided in (None, True, False, "document text"):
        with pytest.raises(TypeError, match="fencing"):
            ToolSpec(**_REST, fencing=undecided)  # type: ignore[arg-type]


def test_a_spec_without_a_fencing_decision_cannot_be_registered() -> None:
    spec = ToolSpec(**_REST, fencing=Fencing.DOCUMENT_TEXT)
    registry = ToolRegistry([spec])
    assert registry.names == ("read_minutes",)
    assert registry.named(fencing=Fencing.DOCUMENT_TEXT) == {"read_minutes"}
    undecided = ToolSpec(**{**_REST, "name": "read_agenda"}, fencing=Fencing.NONE)
    object.__setattr__(undecided, "fencing", None)  # a spec changed behind its constructor's back
    with pytest.raises(TypeError, match="fencing"):
        registry.register(undecided)
    with pytest.raises(TypeError, match="ToolSpec"):
        registry.register({"name": "read_agenda"})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="twice"):
        registry.register(spec)
    assert registry.names == ("read_minutes",)


# ----------------------------------------------------------------------------- fenced results
class LiveBridge(PagedBridge):
    """The reference live bridge, whose selection is the words of clause 1.2 (document text)."""

    def get_selection_text(self) -> str:
        return self.reviewer.snapshot().block(CLAUSE).text


def _examples(bridge: Any) -> dict[str, dict[str, Any]]:
    """One successful call per tool, against the sample contract."""
    outline = execute_tool_call("get_document_outline", {}, bridge)["result"]
    comment_id = bridge.get_comments()[0]["id"]
    return {
        "read_document": {},
        "get_document_outline": {},
        "read_section": {"handle": outline["sections"][1]["handle"]},
        "list_stories": {},
        "read_story": {"handle": {"type": "footnote", "noteId": 1}},
        "find_text": {"query": "Agreement"},
        "read_comments": {},
        "read_changes": {},
        "check_document": {},
        "add_comment": {"blockId": CLAUSE, "text": "Is this wide enough?"},
        "suggest_changes": {
            "operations": [
                {"type": "replaceInBlock", "blockId": CLAUSE, "find": "this Agreement", "replace": "x"}
            ]
        },
        "reply_comment": {"commentId": comment_id, "text": "Agreed."},
        "resolve_comment": {"commentId": comment_id, "reopen": True},
        "read_page": {"page": 1},
        "read_selection": {},
        "show_in_document": {"blockId": CLAUSE},
        "scroll_to_block": {"blockId": CLAUSE},
    }


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _shingles(text: str, n: int = 2) -> Iterator[tuple[str, ...]]:
    words = _words(text)
    return (tuple(words[i : i + n]) for i in range(len(words) - n + 1))


def _document_words(bridge: Any) -> set[tuple[str, ...]]:
    """Every pair of words written in the document: its blocks, notes, comments and changes."""
    texts = [block.text for block in bridge.reviewer.snapshot().blocks]
    texts += [story.get("text") or "" for story in bridge.list_stories()]
    texts += [c["text"] for c in bridge.get_comments()] + [c["text"] for c in bridge.get_changes()]
    return {shingle for text in texts for shingle in _shingles(text)}


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict | list):
        for item in value.values() if isinstance(value, dict) else value:
            yield from _strings(item)


def _carries_document_text(body: str, document: set[tuple[str, ...]]) -> bool:
    return any(shingle in document for text in _strings(json.loads(body)) for shingle in _shingles(text))


@dataclass
class EveryToolOnce:
    """One turn in which the scripted model called every registered tool once, in registry order."""

    bridge: LiveBridge
    events: list[Any]
    sent: list[dict[str, Any]]
    nonce: str


@pytest.fixture(scope="module")
def every_tool_once() -> EveryToolOnce:
    bridge = LiveBridge(DocxReviewer.open(SAMPLE))
    examples = _examples(bridge)
    assert list(examples) == list(REGISTRY.names), "give every registered tool an example call"
    calls = [tool(name, args) for name, args in examples.items()]

    async def go(server: FakeAnthropic) -> tuple[list[Any], AgentSession]:
        async with AgentSession(bridge, fast_settings(server)) as session:
            return await collect(session, "Use every tool once."), session

    with FakeAnthropic([reply(*calls), reply("Done.")]) as server:
        events, session = asyncio.run(go(server))
    sent = tool_results(server.requests[1].body)
    assert len(sent) == len(REGISTRY)
    return EveryToolOnce(bridge, events, sent, session.nonce)


def test_every_result_carrying_document_text_reaches_the_model_fenced(every_tool_once: EveryToolOnce) -> None:
    document = _document_words(every_tool_once.bridge)
    opening = f'<document-content nonce="{every_tool_once.nonce}">\n'
    closing = "\n</document-content>"
    for spec, result in zip(REGISTRY, every_tool_once.sent, strict=True):
        text = result_text(result)
        assert "is_error" not in result, (spec.name, text)
        fenced = text.startswith(opening) and text.endswith(closing)
        assert fenced == spec.fenced, spec.name
        body = text[len(opening) : -len(closing)] if fenced else text
        carries = _carries_document_text(body, document)
        assert carries <= fenced, f"{spec.name} returns the document's words unfenced"
        if spec.fencing is Fencing.DOCUMENT_TEXT:
            assert carries, f"{spec.name}'s example read no document text: the check proves nothing"


#: the chat's one line for each example call's result (counts from the sample contract)
SUMMARIES = {
    "read_document": r"\d+ blocks",
    "get_document_outline": r"\d+ sections",
    "read_section": r"\d+ blocks of “In this Agreement the following definitions apply:”",
    "list_stories": r"11 stories",
    "read_story": r"\d+ characters",
    "find_text": r"\d+ matches",
    "read_comments": r"4 comments",
    "read_changes": r"\d+ tracked changes",
    "check_document": r"\d+ findings",
    "add_comment": r"1 applied",
    "suggest_changes": r"1 skipped",
    "reply_comment": r"replied",
    "resolve_comment": r"reopened",
    "read_page": r"page 1",
    "read_selection": r"selection \(\d+ characters\)",
    "show_in_document": r"shown",
    "scroll_to_block": r"scrolled",
}


def test_every_tool_result_has_its_own_line_in_the_chat(every_tool_once: EveryToolOnce) -> None:
    assert list(SUMMARIES) == list(REGISTRY.names), "say what each registered tool's summary is"
    summaries = {e.name: e.summary for e in every_tool_once.events if e.kind == "tool_result"}
    for name, pattern in SUMMARIES.items():
        assert re.fullmatch(pattern, summaries[name]), (name, summaries[name])


# ----------------------------------------------------------------------------- the chat's phrase
@pytest.mark.parametrize("spec", list(REGISTRY), ids=lambda spec: spec.name)
def test_every_tool_has_a_phrase_of_its_own_in_the_chat(spec: ToolSpec) -> None:
    assert spec.name in TOOL_PHRASES
    phrase = tool_phrase(spec.name, {}, None)
    assert phrase and phrase != spec.name and "_" not in phrase
