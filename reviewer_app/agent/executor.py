"""``execute_tool_call``: run one of the 17 tools against a bridge (contract §4, §5.7-§5.9, §7).

The executor is synchronous and never raises for anything a model can cause: every expected
refusal is ``{"ok": False, "error": <plain sentence>}`` meant to be shown to the model as is,
and it is the one place that catches an exception a bridge raises (a live view that is not
mounted, a malformed batch) and folds it into the same envelope with the exception's message.
Only a programmer error, host options that are themselves invalid, is raised, so it is found
in development instead of being explained to a model that cannot fix it.

Which handler runs is the tool's spec's (:mod:`.tool_registry`): the reads are in
:mod:`.executor_reads`, the edits and navigation in :mod:`.executor_edits`. An agent turn uses
:func:`run_tool_call`, which also hands on where each edit went (the engine's revision ids, the
queue's proposal ids): the chat's cards need them and the model is never sent them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from ..docx.edit.outcome import BatchOutcome
from .executor_edits import EditResult
from .executor_reads import ToolError
from .suggest_changes import InvalidSuggestChangesOptionsError, SuggestChangesOptions, resolve_options
from .tool_registry import REGISTRY, TOOL_NAMES

log = logging.getLogger(__name__)


def _error_message(error: BaseException) -> str:
    message = str(error)
    return message if message else type(error).__name__


@dataclass(frozen=True)
class ToolRun:
    """One call's envelope (all the model is sent) and, for an edit, where each operation went."""

    envelope: dict[str, Any]
    #: the tracked changes or proposal of each applied or queued operation (None: not an edit)
    outcome: BatchOutcome | None = None


def execute_tool_call(
    name: str, args: Any, bridge: Any, options: SuggestChangesOptions | None = None
) -> dict[str, Any]:
    """Run tool ``name`` with the model's ``args`` against ``bridge``.

    Returns ``{"ok": True, "result": ...}`` or ``{"ok": False, "error": "<sentence>"}``. ``options``
    (the same object given to :func:`~reviewer_app.agent.tools.get_tool_definitions`) shapes
    ``suggest_changes``; invalid options raise :class:`InvalidSuggestChangesOptionsError`.
    """
    return run_tool_call(name, args, bridge, options).envelope


def run_tool_call(name: str, args: Any, bridge: Any, options: SuggestChangesOptions | None = None) -> ToolRun:
    """:func:`execute_tool_call`, keeping an edit's :class:`BatchOutcome` beside its envelope."""
    spec = REGISTRY.get(name) if isinstance(name, str) else None
    if spec is None:
        unknown = f'Unknown tool "{name}". Valid tools: {", ".join(TOOL_NAMES)}.'
        return ToolRun({"ok": False, "error": unknown})
    if spec.takes_options and options is not None:
        resolve_options(options)  # a host's mistake surfaces here, never as a message to the model
    try:
        result = spec.run(bridge, args, options)
    except ToolError as refusal:
        return ToolRun({"ok": False, "error": str(refusal)})
    except InvalidSuggestChangesOptionsError:
        raise
    except Exception as error:  # a bridge failure is data for the model, never a crash of the turn
        log.info("tool %s failed in the bridge: %s", name, type(error).__name__)
        return ToolRun({"ok": False, "error": _error_message(error)})
    if isinstance(result, EditResult):
        return ToolRun({"ok": True, "result": result.summary}, result.outcome)
    return ToolRun({"ok": True, "result": result})
