"""The agent's 17 tools in the order the model is offered them, and every list derived from them.

§4.16's registry order: the listed order, except that show_in_document precedes scroll_to_block;
check_document (issue 17, the contract checks) is Reviewer's addition, read with the other reads.
A tool is added by declaring its :class:`~.tool_spec.ToolSpec` (:mod:`.tool_specs_read`,
:mod:`.tool_specs_act`) and listing it here; nothing else names it, so nothing can be forgotten.
"""

from __future__ import annotations

from typing import Any

from . import tool_specs_act as act
from . import tool_specs_read as read
from .tool_spec import Fencing, Role, ToolRegistry
from .tool_summaries import generic

REGISTRY = ToolRegistry(
    (
        read.READ_DOCUMENT,
        read.GET_DOCUMENT_OUTLINE,
        read.READ_SECTION,
        read.LIST_STORIES,
        read.READ_STORY,
        read.FIND_TEXT,
        read.READ_COMMENTS,
        read.READ_CHANGES,
        read.CHECK_DOCUMENT,
        act.ADD_COMMENT,
        act.SUGGEST_CHANGES,
        act.REPLY_COMMENT,
        act.RESOLVE_COMMENT,
        read.READ_PAGE,
        read.READ_SELECTION,
        act.SHOW_IN_DOCUMENT,
        act.SCROLL_TO_BLOCK,
    )
)

TOOL_NAMES: tuple[str, ...] = REGISTRY.names
#: results carrying the document's text: fenced, and left out when a conversation is restored
DOCUMENT_TEXT_TOOLS = REGISTRY.named(fencing=Fencing.DOCUMENT_TEXT)
#: edits whose results can quote the document: fenced, and kept when a conversation is restored
EDIT_RESULT_TOOLS = REGISTRY.named(fencing=Fencing.EDIT_RESULT)
#: reads of the live view, counted against their own per-turn budget
LIVE_READS = REGISTRY.named(roles=(Role.LIVE_READ,))
#: tools that act on comment threads: in Review mode they queue proposals with cards, like edits
COMMENT_TOOLS = REGISTRY.named(roles=(Role.COMMENT_ACTION,))
#: tools whose calls can produce edit cards (the comment tools only in Review mode)
EDIT_TOOLS = REGISTRY.named(roles=(Role.EDIT, Role.COMMENT_ACTION))
#: the compact profile's tools, in registry order: those with a one-line description
COMPACT_TOOLS: tuple[str, ...] = tuple(s.name for s in REGISTRY if s.compact_description is not None)


def summarize(name: str, result: Any) -> str:
    """One line for the chat's tool card (never the document text itself, beyond a heading)."""
    spec = REGISTRY.get(name)
    return spec.summary(result) if spec is not None else generic(result)
