"""The building blocks of the tools' input schemas: objects, strings, integers and the handles.

The schemas keep to a conservative JSON-Schema subset (``type: "object"``, ``properties``,
``required``, ``enum``, ``additionalProperties: false``, plain arrays, and a few bounds and
patterns) so providers with a restricted dialect accept them unchanged. The executor checks every
argument again with plain-language messages: a provider need not enforce these schemas for the
tools to be safe. Each tool's own schema is in its spec (:mod:`.tool_specs_read`,
:mod:`.tool_specs_act`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from reviewer_app.docx.edit import contract

from .codecs import MAX_HEADING_LEVEL, MIN_HEADING_LEVEL, STORY_TYPES
from .suggest_changes import conservative

#: find_text's query cap (§4.5); the executor enforces it with its own message.
MAX_QUERY_CHARS = 1000
MAX_OUTLINE_DEPTH = 9
MAX_SECTION_BLOCKS = 200


def object_schema(
    properties: dict[str, Any], required: Iterable[str] = (), description: str = ""
) -> dict[str, Any]:
    """A closed object (``additionalProperties: false``): a misspelt key is flagged, never ignored."""
    schema: dict[str, Any] = {"type": "object"}
    if description:
        schema["description"] = description
    schema["properties"] = properties
    if required:
        schema["required"] = list(required)
    schema["additionalProperties"] = False
    return schema


def string_schema(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", **extra, "description": description}


def integer_schema(
    description: str, minimum: int | None = None, maximum: int | None = None
) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer", "description": description}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return schema


HASH = {"type": "string", "pattern": contract.HASH_PATTERN}
BLOCK_ID = string_schema("A block id copied from read_document, read_section or find_text.")
COMMENT_ID = string_schema("A comment id copied from read_comments.", pattern="^[0-9]+$")

_SECTION_PROPERTIES: dict[str, Any] = {
    "type": {"type": "string", "enum": ["headingSection"]},
    "story": {"type": "string", "enum": ["main"]},
    "headingBlockId": {"type": "string"},
    "headingTextHash": dict(HASH),
    "headingLevel": {"type": "integer", "minimum": MIN_HEADING_LEVEL, "maximum": MAX_HEADING_LEVEL},
}
SECTION_HANDLE_SCHEMA = object_schema(
    _SECTION_PROPERTIES,
    tuple(_SECTION_PROPERTIES),
    "A section handle, copied exactly from get_document_outline.",
)
_STORY_PROPERTIES: dict[str, Any] = {
    "type": {"type": "string", "enum": list(STORY_TYPES)},
    "relationshipId": {"type": "string", "description": "For a header or footer."},
    "noteId": {"type": "integer", "description": "For a footnote or endnote."},
}
STORY_HANDLE_SCHEMA = object_schema(
    _STORY_PROPERTIES, ("type",), "A story handle, copied exactly from list_stories."
)
#: find_text's scope handle: the union of the story and section handle properties (§4.5).
SCOPE_HANDLE_SCHEMA = object_schema(
    {
        **_STORY_PROPERTIES,
        **_SECTION_PROPERTIES,
        "type": {"type": "string", "enum": [*STORY_TYPES, "headingSection"]},
    },
    ("type",),
    "For a section scope, a handle from get_document_outline; for a story scope, one from list_stories.",
)
RANGE_HANDLE_SCHEMA: dict[str, Any] = conservative(contract.public_schema(contract.RANGE_SCHEMA))
