"""Tool profiles: what the model is given before the document, sized to the model's context.

``full``: the 17 tools (the contract's 16 and check_document) with their full descriptions and
every suggest_changes operation type (about 12k tokens before any document text; cheap on
Anthropic's API with prompt caching).
``compact``: the six tools a review needs, one-line descriptions, and suggest_changes cut, with
the tool contract's own host option (``operation_types``), to four operation types and the keys
they need, for a laptop's 7-8B model with a context of a few thousand tokens. ``pipeline``: no
tools at all; the document goes as Markdown and the model answers with edit JSON
(:mod:`.pipeline_turn`), for a model that cannot call tools.

``auto`` picks from the context window (:func:`choose_profile`): full when it is unknown or
large, compact when the compact preamble leaves room to read, else the pipeline.
"""

from __future__ import annotations

from typing import Any

from .context_budget import Budget, estimate_tokens
from .suggest_changes import SuggestChangesOptions, resolve_options
from .tool_descriptions import COMPACT_OPERATION_TYPES
from .tool_registry import REGISTRY
from .tools import get_tool_definitions

PROFILES = ("auto", "full", "compact", "pipeline")
#: the operation types the compact profile offers: enough to reword, rewrite, insert and delete
COMPACT_TYPES = ("replaceInBlock", "insertAfterBlock", "replaceBlock", "deleteBlock")
#: the keys a compact operation carries (the others exist, but a small model does better without)
_COMPACT_KEYS = ("type", "blockId", "find", "replace", "text", "comment")
#: the full profile from this window up (the full preamble is ~11k tokens)
FULL_PROFILE_MIN_CONTEXT = 32_768
#: the compact profile needs this much room for reads on top of its preamble
MIN_READ_ROOM = 1_500


def compact_options(options: SuggestChangesOptions | None) -> SuggestChangesOptions:
    """The host's options with the operation types cut to :data:`COMPACT_TYPES`."""
    resolved = resolve_options(options)
    return SuggestChangesOptions(
        operation_types=COMPACT_TYPES,
        review_meta="optional",
        max_operations=resolved.max_operations,
        document_version=resolved.document_version,
    )


def _compact_operations(schema: dict[str, Any]) -> None:
    """suggest_changes' schema with each operation cut to the compact keys and their bare names."""
    item = schema["properties"]["operations"]["items"]
    props = item["properties"]
    item["properties"] = {key: props[key] for key in _COMPACT_KEYS if key in props}
    for key, value in item["properties"].items():
        if key != "type":
            value.pop("description", None)
    item["properties"]["type"]["description"] = COMPACT_OPERATION_TYPES
    schema["properties"]["operations"].pop("description", None)


def compact_tool_definitions(options: SuggestChangesOptions | None = None) -> list[dict[str, Any]]:
    """The compact profile's definitions (provider-neutral, like :func:`.tools.get_tool_definitions`):
    the tools whose spec has a one-line description, with it."""
    cut = compact_options(options)
    out = []
    for spec in REGISTRY:
        if spec.compact_description is None:
            continue
        schema = spec.definition(cut)["inputSchema"]
        if spec.name == "suggest_changes":
            _compact_operations(schema)
        else:
            _drop_nested_descriptions(schema)
        out.append({"name": spec.name, "description": spec.compact_description, "inputSchema": schema})
    return out


def _drop_nested_descriptions(schema: dict[str, Any]) -> None:
    """Keep the property descriptions a model needs to fill a call; drop those of nested handles."""
    for value in (schema.get("properties") or {}).values():
        if isinstance(value, dict) and value.get("type") == "object":
            _strip(value)


def _strip(schema: Any) -> None:
    if isinstance(schema, dict):
        schema.pop("description", None)
        for value in schema.values():
            _strip(value)
    elif isinstance(schema, list):
        for value in schema:
            _strip(value)


def definitions_for(profile: str, options: SuggestChangesOptions | None) -> list[dict[str, Any]]:
    """The tool definitions of ``profile`` (``pipeline`` has none)."""
    if profile == "compact":
        return compact_tool_definitions(options)
    if profile == "pipeline":
        return []
    return get_tool_definitions(options)


def options_for(profile: str, options: SuggestChangesOptions | None) -> SuggestChangesOptions | None:
    """The suggest_changes options a profile's calls are checked with."""
    return compact_options(options) if profile == "compact" else options


def choose_profile(setting: str, context_window: int | None, max_tokens: int, compact_preamble: int) -> str:
    """The profile a session uses: the setting, or for ``auto`` the one the window affords."""
    if setting != "auto":
        return setting
    if context_window is None or context_window >= FULL_PROFILE_MIN_CONTEXT:
        return "full"
    if Budget(context_window, max_tokens).input_limit >= compact_preamble + MIN_READ_ROOM:
        return "compact"
    return "pipeline"


def preamble_tokens(system: str, tools: list[dict[str, Any]]) -> int:
    """Estimated tokens of what every request carries before the conversation."""
    return estimate_tokens(system) + (estimate_tokens(tools) if tools else 0)
