"""The 17 agent tools as provider-neutral definitions, and their Anthropic / OpenAI shapes (§1, §4).

A definition is ``{"name", "description", "inputSchema"}``. The schemas keep to a conservative
JSON-Schema subset (``type: "object"``, ``properties``, ``required``, ``enum``,
``additionalProperties: false``, plain arrays, and a few bounds and patterns) so providers
with a restricted dialect accept them unchanged; ``suggest_changes``' schema is generated
from the contract's key table by :mod:`.suggest_changes`. The executor checks every argument
again with plain-language messages: a provider need not enforce these schemas for the tools
to be safe.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from reviewer_app.docx.checks import KINDS
from reviewer_app.docx.edit import contract

from .codecs import MAX_HEADING_LEVEL, MIN_HEADING_LEVEL, STORY_TYPES
from .suggest_changes import conservative, describe_suggest_changes_capabilities, suggest_changes_input_schema
from .tool_descriptions import DESCRIPTIONS, SUGGEST_CHANGES_BASE, TEXT_CAP

#: §4.16, in registry order: the listed order, except that show_in_document precedes scroll_to_block;
#: check_document (issue 17, the contract checks) is Reviewer's addition, read with the other reads.
TOOL_NAMES: tuple[str, ...] = (
    "read_document",
    "get_document_outline",
    "read_section",
    "list_stories",
    "read_story",
    "find_text",
    "read_comments",
    "read_changes",
    "check_document",
    "add_comment",
    "suggest_changes",
    "reply_comment",
    "resolve_comment",
    "read_page",
    "read_selection",
    "show_in_document",
    "scroll_to_block",
)
#: find_text's query cap (§4.5); the executor enforces it with its own message.
MAX_QUERY_CHARS = 1000
MAX_OUTLINE_DEPTH = 9
MAX_SECTION_BLOCKS = 200


def _object(
    properties: dict[str, Any], required: Iterable[str] = (), description: str = ""
) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object"}
    if description:
        schema["description"] = description
    schema["properties"] = properties
    if required:
        schema["required"] = list(required)
    schema["additionalProperties"] = False
    return schema


def _string(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", **extra, "description": description}


def _integer(description: str, minimum: int | None = None, maximum: int | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer", "description": description}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return schema


_HASH = {"type": "string", "pattern": contract.HASH_PATTERN}
_BLOCK_ID = _string("A block id copied from read_document, read_section or find_text.")
_COMMENT_ID = _string("A comment id copied from read_comments.", pattern="^[0-9]+$")

_SECTION_PROPERTIES: dict[str, Any] = {
    "type": {"type": "string", "enum": ["headingSection"]},
    "story": {"type": "string", "enum": ["main"]},
    "headingBlockId": {"type": "string"},
    "headingTextHash": dict(_HASH),
    "headingLevel": {"type": "integer", "minimum": MIN_HEADING_LEVEL, "maximum": MAX_HEADING_LEVEL},
}
SECTION_HANDLE_SCHEMA = _object(
    _SECTION_PROPERTIES,
    tuple(_SECTION_PROPERTIES),
    "A section handle, copied exactly from get_document_outline.",
)
_STORY_PROPERTIES: dict[str, Any] = {
    "type": {"type": "string", "enum": list(STORY_TYPES)},
    "relationshipId": {"type": "string", "description": "For a header or footer."},
    "noteId": {"type": "integer", "description": "For a footnote or endnote."},
}
STORY_HANDLE_SCHEMA = _object(
    _STORY_PROPERTIES, ("type",), "A story handle, copied exactly from list_stories."
)
#: find_text's scope handle: the union of the story and section handle properties (§4.5).
SCOPE_HANDLE_SCHEMA = _object(
    {
        **_STORY_PROPERTIES,
        **_SECTION_PROPERTIES,
        "type": {"type": "string", "enum": [*STORY_TYPES, "headingSection"]},
    },
    ("type",),
    "For a section scope, a handle from get_document_outline; for a story scope, one from list_stories.",
)
RANGE_HANDLE_SCHEMA: dict[str, Any] = conservative(contract.public_schema(contract.RANGE_SCHEMA))

_INPUT_SCHEMAS: dict[str, dict[str, Any]] = {
    "read_document": _object({}),
    "get_document_outline": _object(
        {"maxDepth": _integer("Deepest heading level to list (default 3).", 1, MAX_OUTLINE_DEPTH)}
    ),
    "read_section": _object(
        {
            "handle": SECTION_HANDLE_SCHEMA,
            "maxBlocks": _integer("Most blocks to return (default 100).", 1, MAX_SECTION_BLOCKS),
            "afterBlockId": _string("Continue after this block: the nextAfterBlockId of the previous call."),
        },
        ("handle",),
    ),
    "list_stories": _object({}),
    "read_story": _object({"handle": STORY_HANDLE_SCHEMA}, ("handle",)),
    "find_text": _object(
        {
            "query": _string(f"The literal text to find, at most {MAX_QUERY_CHARS:,} characters."),
            "matchCase": {
                "type": "boolean",
                "description": "Match upper and lower case exactly (default false).",
            },
            "wholeWord": {"type": "boolean", "description": "Only match whole words (default false)."},
            "scope": _object(
                {
                    "type": {"type": "string", "enum": ["document", "section", "page", "story"]},
                    "handle": SCOPE_HANDLE_SCHEMA,
                    "page": _integer("For a page scope: a page number as laid out in Reviewer.", 1),
                },
                ("type",),
                "Where to search (default: the whole document).",
            ),
        },
        ("query",),
    ),
    "read_comments": _object(
        {"filter": {"type": "string", "enum": ["all", "open", "resolved"], "description": "Default all."}}
    ),
    "read_changes": _object({}),
    "check_document": _object(
        {
            "kinds": {
                "type": "array",
                "items": {"type": "string", "enum": list(KINDS)},
                "description": "Only these kinds of finding (default: every kind).",
            }
        }
    ),
    "add_comment": _object(
        {
            "blockId": _BLOCK_ID,
            "text": _string(f"The comment. {TEXT_CAP}"),
            "quote": _string(f"Optional: the passage of the block the comment is about. {TEXT_CAP}"),
            "precondition": _object(
                {"blockTextHash": {**_HASH, "description": "The block's blockTextHash as you read it."}},
                ("blockTextHash",),
            ),
        },
        ("blockId", "text"),
    ),
    "reply_comment": _object(
        {"commentId": _COMMENT_ID, "text": _string(f"The reply. {TEXT_CAP}")}, ("commentId", "text")
    ),
    "resolve_comment": _object(
        {
            "commentId": _COMMENT_ID,
            "reopen": {"type": "boolean", "description": "true reopens a resolved thread (default false)."},
        },
        ("commentId",),
    ),
    "read_page": _object({"page": _integer("A page number as laid out in Reviewer.", 1)}, ("page",)),
    "read_selection": _object({}),
    "show_in_document": _object(
        {
            "blockId": _BLOCK_ID,
            "range": {**RANGE_HANDLE_SCHEMA, "description": "A range copied from find_text."},
        }
    ),
    "scroll_to_block": _object({"blockId": _BLOCK_ID}, ("blockId",)),
}


def suggest_changes_description(options: Any = None) -> str:
    """The suggest_changes description: the base rules, then this surface's capability lines."""
    return f"{SUGGEST_CHANGES_BASE}\n\n{describe_suggest_changes_capabilities(options)}"


def _build(options: Any) -> list[dict[str, Any]]:
    definitions = []
    for name in TOOL_NAMES:
        if name == "suggest_changes":
            description = suggest_changes_description(options)
            schema = suggest_changes_input_schema(options)
        else:
            description, schema = DESCRIPTIONS[name], copy.deepcopy(_INPUT_SCHEMAS[name])
        definitions.append({"name": name, "description": description, "inputSchema": schema})
    return definitions


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
