"""The 17 agent tools as provider-neutral definitions, and their Anthropic / OpenAI shapes (§1, §4).

A definition is ``{"name", "description", "inputSchema"}``, read from the tool's spec
(:mod:`.tool_registry`); ``suggest_changes``' description and schema depend on the host's
options and are generated from the contract's key table by :mod:`.suggest_changes`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from .tool_registry import REGISTRY, TOOL_NAMES
from .tool_specs_act import suggest_changes_description


def _build(options: Any) -> list[dict[str, Any]]:
    return [spec.definition(options) for spec in REGISTRY]


#: The default definitions: get_tool_definitions() returns this very list. Do not mutate it.
DEFAULT_TOOL_DEFINITIONS: list[dict[str, Any]] = _build(None)


def get_tool_definitions(options: Any = None) -> list[dict[str, Any]]:
    """The 17 tool definitions in registry order.

    ``options`` are the suggest_changes options (:class:`.suggest_changes.SuggestChangesOptions`,
    a mapping of its fields, or None); pass the same ones to the executor. Without options the
    same list object is returned every time (cheap to call per turn); with options a fresh list
    is built, and invalid options raise ``InvalidSuggestChangesOptionsError``.
    """
    return DEFAULT_TOOL_DEFINITIONS if options is None else _build(options)


def to_anthropic_tools(definitions: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``[{"name", "description", "input_schema"}]`` for the Anthropic Messages API (schemas copied)."""
    return [
        {
            "name": d["name"],
            "description": d["description"],
            "input_schema": copy.deepcopy(d["inputSchema"]),
        }
        for d in definitions
    ]


def to_openai_tools(definitions: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``[{"type": "function", "function": {"name", "description", "parameters"}}]`` (schemas copied)."""
    return [
        {
            "type": "function",
            "function": {
                "name": d["name"],
                "description": d["description"],
                "parameters": copy.deepcopy(d["inputSchema"]),
            },
        }
        for d in definitions
    ]


__all__ = [
    "DEFAULT_TOOL_DEFINITIONS",
    "TOOL_NAMES",
    "get_tool_definitions",
    "suggest_changes_description",
    "to_anthropic_tools",
    "to_openai_tools",
]
