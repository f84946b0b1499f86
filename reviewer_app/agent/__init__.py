"""The agent layer: tool definitions, the lenient parser, the executor, bridges and the tool loop.

No Qt here (a test imports this package in a bare interpreter and checks that PySide6 stays
unloaded): the same agent drives the desktop app, the CLI and headless tests, and the UI
talks to it only through bridges. ``anthropic`` is imported lazily, when a turn starts.
"""

from .bridge import AgentBridge, create_reviewer_bridge
from .events import AgentEvent
from .executor import execute_tool_call
from .review_queue import ReviewQueueBridge, create_review_queue_bridge
from .session import AgentSession
from .settings import AgentNotConfiguredError, AgentSettings
from .suggest_changes import (
    InvalidSuggestChangesOptionsError,
    SuggestChangesOptions,
    describe_suggest_changes_capabilities,
    parse_add_comment_input,
    parse_suggest_changes_input,
)
from .tools import TOOL_NAMES, get_tool_definitions, to_anthropic_tools, to_openai_tools

__all__ = [
    "TOOL_NAMES",
    "AgentBridge",
    "AgentEvent",
    "AgentNotConfiguredError",
    "AgentSession",
    "AgentSettings",
    "InvalidSuggestChangesOptionsError",
    "ReviewQueueBridge",
    "SuggestChangesOptions",
    "create_review_queue_bridge",
    "create_reviewer_bridge",
    "describe_suggest_changes_capabilities",
    "execute_tool_call",
    "get_tool_definitions",
    "parse_add_comment_input",
    "parse_suggest_changes_input",
    "to_anthropic_tools",
    "to_openai_tools",
]
