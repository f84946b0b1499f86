"""The document-operation contract as data: one table of operation types, keys and value shapes.

Contract §5.4-§5.6. The strict parser (:mod:`.batch`), the model's JSON Schema, the agent layer's
lenient parser and the capability text are all derived from this module, so they cannot drift
apart: adding a key to an operation type here is the whole change. Value shapes are JSON-Schema
fragments (a draft-07 subset). A few rules JSON Schema cannot state are carried as ``x-`` keywords
(``x-greaterThan``, ``x-rectangular``, ``x-normalize``) that the parser enforces and
:func:`public_schema` strips before a schema leaves the process.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

#: The contract version a batch must declare (``version: 1``).
CONTRACT_VERSION = 1
#: Block text hashes (§2.3); the same grammar as :func:`reviewer_app.docx.hashing.is_text_hash`.
HASH_PATTERN = r"^h[0-9a-z]+$"
#: ``#?RRGGBB``: Word stores six hex digits; a leading ``#`` is accepted because models write CSS.
COLOR_PATTERN = r"^#?[0-9A-Fa-f]{6}$"
#: JavaScript's Number.MAX_SAFE_INTEGER: the contract's "safe int" bound for indentation.
MAX_SAFE_INTEGER = 2**53 - 1

#: How a failed ``pattern`` is explained: a regex means nothing to a lawyer's model.
PATTERN_PHRASES: MappingProxyType[str, str] = MappingProxyType(
    {
        HASH_PATTERN: 'a text hash ("h" followed by lowercase letters and digits, as read_document gives it)',
        COLOR_PATTERN: 'a hex color such as "#1F4E79"',
    }
)

MODES: tuple[str, ...] = ("direct", "tracked-changes", "suggested")
DEFAULT_MODE = "tracked-changes"
BATCH_MODES: tuple[str, ...] = ("best-effort", "atomic")
STORIES: tuple[str, ...] = ("main", "header", "footer", "footnote", "endnote")
#: Keys every operation may carry besides its own; ``suggestionId`` is host-only (hidden from the model).
COMMON_OPTIONAL_KEYS: tuple[str, ...] = ("severity", "area", "precondition", "suggestionId")
HOST_ONLY_KEYS: tuple[str, ...] = ("suggestionId",)

_MODE_SETS: dict[str, tuple[str, ...]] = {
    "all": ("direct", "tracked-changes", "suggested"),
    "tracked": ("direct", "tracked-changes"),
    "untracked": ("direct", "suggested"),
}
_INSERT = (
    "inheritFormatting pageBreakBefore styleId alignment moveId comment outlineLevel numbering spacing"
    " indentation lineBreakMode formattingScope hardPageBreak"
)
_PARA = "firstParagraphProperties secondParagraphProperties"
#: §5.5 and §5.6, one row per type in contract order: required keys, the type's own optional keys
#: (space-separated; the common optional keys are added by :attr:`OperationSpec.keys`), mode set.
_TABLE: tuple[tuple[str, str, str, str], ...] = (
    ("replaceInBlock", "blockId find replace", "comment", "all"),
    ("replaceRange", "range replace", "comment", "all"),
    ("commentOnRange", "range comment", "", "tracked"),
    ("formatRange", "range formatting", "", "all"),
    ("insertAfterBlock", "blockId text", _INSERT, "all"),
    ("insertBeforeBlock", "blockId text", _INSERT, "all"),
    ("replaceBlock", "blockId text", "preserveFormatting styleId comment", "all"),
    ("deleteBlock", "blockId", "moveId comment", "all"),
    ("splitBlock", "blockId offset", f"separator {_PARA}", "tracked"),
    ("mergeBlockWithNext", "blockId", "separator mergedParagraphProperties", "tracked"),
    ("setBlockParagraphProperties", "blockId properties", "", "tracked"),
    ("insertTable", "blockId rows", "position", "tracked"),
    ("deleteTable", "blockId", "", "tracked"),
    ("commentOnBlock", "blockId comment", "quote", "tracked"),
    ("insertSignatureTable", "blockId parties", "position comment", "untracked"),
    ("insertTableRow", "blockId", "position cellTexts", "all"),
    ("deleteTableRow", "blockId", "", "all"),
    ("insertTableColumn", "blockId", "position cellTexts", "all"),
    ("deleteTableColumn", "blockId", "", "all"),
    ("mergeTableCells", "blockId", "endBlockId rowCount", "tracked"),
    ("splitTableCell", "blockId", "", "tracked"),
)
#: One line per type for the tool description (the model picks operations from these).
_SUMMARIES: dict[str, str] = {
    "replaceInBlock": "Replace one exact, case-sensitive phrase that occurs once in a block.",
    "replaceRange": "Replace the text a find_text range handle selects.",
    "commentOnRange": "Attach a comment to the text a find_text range handle selects.",
    "formatRange": "Set bold, italic, underline, strike, font, size or color on a range.",
    "insertAfterBlock": "Insert new paragraphs after a block.",
    "insertBeforeBlock": "Insert new paragraphs before a block.",
    "replaceBlock": "Rewrite the whole text of a block.",
    "deleteBlock": "Delete a block.",
    "splitBlock": "Split a paragraph in two at a text offset.",
    "mergeBlockWithNext": "Join a paragraph with the paragraph after it.",
    "setBlockParagraphProperties": "Change a paragraph's style, outline level, numbering or layout.",
    "insertTable": "Insert a table of text after or before a block.",
    "deleteTable": "Delete the table that holds a block.",
    "commentOnBlock": "Attach a comment to a whole block.",
    "insertSignatureTable": "Insert a signature table for the named parties.",
    "insertTableRow": "Insert a table row after or before the row holding a block.",
    "deleteTableRow": "Delete the table row holding a block.",
    "insertTableColumn": "Insert a table column after or before the column holding a block.",
    "deleteTableColumn": "Delete the table column holding a block.",
    "mergeTableCells": "Merge a block's cell with cells up to an opposite corner, or down a number of rows.",
    "splitTableCell": "Split a merged table cell back into single cells.",
}
#: §5.5: ``suggestionId`` is "not accepted on commentOnRange" (a range comment is never a suggestion).
_WITHOUT_SUGGESTION_ID = ("commentOnRange",)


@dataclass(frozen=True)
class OperationSpec:
    """One row of the §5.5 table: what an operation type needs, may carry, and where it runs."""

    type: str
    required: tuple[str, ...]
    #: The type's own optional keys, then the common ones it takes.
    optional: tuple[str, ...]
    modes: tuple[str, ...]
    summary: str

    @property
    def keys(self) -> tuple[str, ...]:
        """Every key the type accepts besides ``id`` and ``type``: required first, then optional."""
        return self.required + self.optional


def _build_spec(type_: str, required: str, optional: str, modes: str) -> OperationSpec:
    skip = HOST_ONLY_KEYS if type_ in _WITHOUT_SUGGESTION_ID else ()
    common = tuple(k for k in COMMON_OPTIONAL_KEYS if k not in skip)
    return OperationSpec(
        type_, tuple(required.split()), tuple(optional.split()) + common, _MODE_SETS[modes], _SUMMARIES[type_]
    )


#: Per type, the §5.5 row; iteration order is contract order.
OPERATION_SPECS: MappingProxyType[str, OperationSpec] = MappingProxyType(
    {row[0]: _build_spec(*row) for row in _TABLE}
)
#: The 21 operation types in contract order (the order of the §5.5 table).
OPERATION_TYPES: tuple[str, ...] = tuple(OPERATION_SPECS)
REQUIRED_KEYS_BY_TYPE = MappingProxyType({t: s.required for t, s in OPERATION_SPECS.items()})
OPTIONAL_KEYS_BY_TYPE = MappingProxyType({t: s.optional for t, s in OPERATION_SPECS.items()})
#: Every key a type accepts besides ``id``/``type`` (FOLIO_DOCUMENT_OPERATION_KEYS_BY_TYPE).
KEYS_BY_TYPE = MappingProxyType({t: s.keys for t, s in OPERATION_SPECS.items()})
SUMMARY_BY_TYPE = MappingProxyType({t: s.summary for t, s in OPERATION_SPECS.items()})
#: §5.6: the modes each type can be applied in; anything else is skipped ``unsupportedMode``.
MODES_BY_TYPE = MappingProxyType({t: s.modes for t, s in OPERATION_SPECS.items()})
#: Decision 5: the default suggest_changes surface (the model comments through add_comment).
DEFAULT_SUGGEST_CHANGES_TYPES: tuple[str, ...] = tuple(
    t for t in OPERATION_TYPES if t not in ("commentOnBlock", "insertSignatureTable")
)

#: Operation-level rules beyond per-key shapes: exactly one of these keys must be present.
EXACTLY_ONE_OF: MappingProxyType[str, tuple[str, ...]] = MappingProxyType(
    {"mergeTableCells": ("endBlockId", "rowCount")}
)
#: ``hardPageBreak`` inserts an empty page-break run: it needs ``text: ""`` and excludes these keys.
HARD_PAGE_BREAK_EXCLUDES: tuple[str, ...] = ("pageBreakBefore", "lineBreakMode")
HARD_PAGE_BREAK_TEXT_REASON = (
    'omit hardPageBreak to insert text, or set text to "" to insert a hard page break'
)

# ---- value shapes ---------------------------------------------------------------------------------


def _int(minimum: int | None = None, maximum: int | None = None, **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer", **extra}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return schema


def _object(
    properties: dict[str, Any],
    required: tuple[str, ...] = (),
    min_properties: int = 0,
    nullable: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": ["object", "null"] if nullable else "object",
        **extra,
        "properties": properties,
    }
    if required:
        schema["required"] = list(required)
    if min_properties:
        schema["minProperties"] = min_properties
    schema["additionalProperties"] = False
    return schema


def _kind(kind: str, **properties: Any) -> dict[str, Any]:
    """One branch of a union told apart by its ``kind`` (numbering states, outline levels)."""
    required = ("kind",) + tuple(k for k, v in properties.items() if not v.pop("x-optional", False))
    return _object({"kind": {"const": kind}, **properties}, required)


_STRING = {"type": "string"}
_NON_EMPTY = {"type": "string", "minLength": 1}
_BOOLEAN = {"type": "boolean"}
_LEVEL = _int(0, 8)

ALIGNMENTS: tuple[str, ...] = (
    *("left", "center", "right", "both", "distribute"),
    *("mediumKashida", "highKashida", "lowKashida", "thaiDistribute"),
)
NUMBERING_KINDS: tuple[str, ...] = ("none", "inherit", "levelOnly", "reference", "newList")

ALIGNMENT_SCHEMA: dict[str, Any] = {
    "type": ["string", "null"],
    "enum": [*ALIGNMENTS, None],
    "description": "Paragraph alignment; null removes direct alignment so the style decides.",
}
STYLE_ID_SCHEMA: dict[str, Any] = {
    "type": ["string", "null"],
    "minLength": 1,
    "description": "A paragraph style id the document defines; null clears the style.",
}
SPACING_SCHEMA: dict[str, Any] = _object(
    {
        "spaceBefore": _int(0, description="Twips before the paragraph."),
        "spaceAfter": _int(0, description="Twips after the paragraph."),
        "lineSpacing": _int(description="240ths of a line with the auto rule, else twips."),
        "lineSpacingRule": {"type": "string", "enum": ["auto", "exact", "atLeast"]},
        "beforeAutospacing": _BOOLEAN,
        "afterAutospacing": _BOOLEAN,
    },
    min_properties=1,
    nullable=True,
    description="Paragraph spacing; null removes direct spacing.",
)
INDENTATION_SCHEMA: dict[str, Any] = _object(
    {
        "indentLeft": _int(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER),
        "indentRight": _int(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER),
        "indentFirstLine": _int(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER),
        "hangingIndent": _BOOLEAN,
    },
    min_properties=1,
    nullable=True,
    description="Paragraph indentation in twips; null removes direct indentation.",
)
OUTLINE_LEVEL_SCHEMA: dict[str, Any] = {
    "oneOf": [{"type": "null"}, _kind("heading", level=_int(0, 8)), _kind("bodyText")],
    "description": "Stated outline level: a heading level 0..8, body text, or null to remove it.",
}
NUMBERING_SCHEMA: dict[str, Any] = {
    "oneOf": [
        _kind("none"),
        _kind("inherit"),
        _kind("levelOnly", ilvl=_int(0, 8)),
        _kind("reference", numId=_int(1), ilvl={**_LEVEL, "x-optional": True}),
        _kind(
            "newList",
            format={"type": "string", "enum": ["bullet", "numbered"]},
            level={**_LEVEL, "x-optional": True},
        ),
    ],
    "description": (
        "none cancels numbering; inherit lets the style decide; levelOnly sets the list level; "
        "reference uses a defined numbering instance; newList starts a new bullet or numbered list."
    ),
}
PARAGRAPH_PROPERTIES_SCHEMA: dict[str, Any] = _object(
    {
        "styleId": STYLE_ID_SCHEMA,
        "outlineLevel": OUTLINE_LEVEL_SCHEMA,
        "numbering": NUMBERING_SCHEMA,
        "alignment": ALIGNMENT_SCHEMA,
        "spacing": SPACING_SCHEMA,
        "indentation": INDENTATION_SCHEMA,
    },
    min_properties=1,
)
FORMATTING_SCHEMA: dict[str, Any] = _object(
    {
        "bold": {"type": ["boolean", "null"]},
        "italic": {"type": ["boolean", "null"]},
        "underline": {"type": ["boolean", "null"]},
        "strike": {"type": ["boolean", "null"]},
        "fontFamily": {"type": ["string", "null"], "minLength": 1},
        "fontSizePt": {"type": ["number", "null"], "exclusiveMinimum": 0, "multipleOf": 0.5},
        "color": {"type": ["string", "null"], "pattern": COLOR_PATTERN, "x-normalize": "hexColor"},
    },
    min_properties=1,
    description="Character formatting to set; null clears a setting back to the style's.",
)
#: §3: the text range handle find_text returns, copied verbatim (also used by show_in_document).
RANGE_SCHEMA: dict[str, Any] = _object(
    {
        "type": {"const": "textRange"},
        "story": {"const": "main"},
        "blockId": _NON_EMPTY,
        "startOffset": _int(0),
        "endOffset": _int(1),
        "selectedTextHash": {"type": "string", "pattern": HASH_PATTERN},
    },
    ("type", "story", "blockId", "startOffset", "endOffset", "selectedTextHash"),
    description="A range handle exactly as find_text returned it.",
    **{"x-greaterThan": {"endOffset": "startOffset"}},
)
PRECONDITION_SCHEMA: dict[str, Any] = _object(
    {"blockTextHash": {"type": "string", "pattern": HASH_PATTERN}},
    ("blockTextHash",),
    description="The blockTextHash read with the block; the operation is skipped if the block changed.",
)
#: The strict contract's comment; the agent's tool schema offers a plain string and wraps it.
COMMENT_SCHEMA: dict[str, Any] = _object({"text": _STRING}, ("text",))
POSITION_SCHEMA: dict[str, Any] = {"type": "string", "enum": ["after", "before"]}

#: Per key, the shape of its value. ``id`` and ``type`` are handled by the batch parser itself.
KEY_SCHEMAS: MappingProxyType[str, dict[str, Any]] = MappingProxyType(
    {
        "blockId": {**_NON_EMPTY, "description": "A block id from read_document."},
        "range": RANGE_SCHEMA,
        "find": {**_STRING, "description": "Exact, case-sensitive text that occurs once in the block."},
        "replace": {**_STRING, "description": "The new text."},
        "text": {**_STRING, "description": "The paragraph text; one paragraph per line."},
        "comment": COMMENT_SCHEMA,
        "formatting": FORMATTING_SCHEMA,
        "quote": {**_STRING, "description": "The passage of the block the comment is about."},
        "inheritFormatting": _BOOLEAN,
        "pageBreakBefore": _BOOLEAN,
        "preserveFormatting": _BOOLEAN,
        "styleId": STYLE_ID_SCHEMA,
        "alignment": ALIGNMENT_SCHEMA,
        "moveId": {**_NON_EMPTY, "description": "Shared by a deleteBlock and an insertion to record a move."},
        "outlineLevel": OUTLINE_LEVEL_SCHEMA,
        "numbering": NUMBERING_SCHEMA,
        "spacing": SPACING_SCHEMA,
        "indentation": INDENTATION_SCHEMA,
        "lineBreakMode": {
            "type": "string",
            "enum": ["paragraph", "inline"],
            "description": "paragraph (default): one paragraph per line; inline: one paragraph.",
        },
        "formattingScope": {
            "type": "string",
            "enum": ["firstParagraph", "allParagraphs"],
            "description": "Which inserted paragraphs get styleId, numbering and paragraph formatting.",
        },
        "hardPageBreak": _object(
            {"clear": {"type": "string", "enum": ["none", "left", "right", "all"]}},
            description='Insert a hard page break (requires text "").',
        ),
        "offset": _int(0, description="Where to split: an offset strictly inside the block's text."),
        "separator": {**_STRING, "description": "Text removed at a split, or put between merged paragraphs."},
        "firstParagraphProperties": PARAGRAPH_PROPERTIES_SCHEMA,
        "secondParagraphProperties": PARAGRAPH_PROPERTIES_SCHEMA,
        "mergedParagraphProperties": PARAGRAPH_PROPERTIES_SCHEMA,
        "properties": PARAGRAPH_PROPERTIES_SCHEMA,
        "rows": {
            "type": "array",
            "minItems": 1,
            "x-rectangular": True,
            "items": {"type": "array", "minItems": 1, "items": _STRING},
            "description": "Table rows, each a list of cell texts; every row has the same number of cells.",
        },
        "position": POSITION_SCHEMA,
        "parties": {
            "type": "array",
            "items": _object({"name": _STRING, "signatory": _STRING, "title": _STRING}, ("name",)),
        },
        "cellTexts": {"type": "array", "items": _STRING, "description": "Texts of the new cells, in order."},
        "endBlockId": {**_NON_EMPTY, "description": "A block in the opposite corner cell of the merge."},
        "rowCount": _int(2, description="How many rows to merge downwards, starting at blockId's cell."),
        "severity": {"type": "string", "enum": ["low", "medium", "high"]},
        "area": {**_STRING, "description": "A short review area label."},
        "precondition": PRECONDITION_SCHEMA,
        "suggestionId": _NON_EMPTY,
    }
)
#: Operation ids are non-empty: they name an operation for the whole document session (§5.8).
ID_SCHEMA: dict[str, Any] = {**_NON_EMPTY, "description": "A caller-chosen id, unique in the batch."}
BATCH_PRECONDITION_SCHEMA: dict[str, Any] = _object({"documentVersion": _NON_EMPTY}, ("documentVersion",))

# ---- host operations ------------------------------------------------------------------------------
#: Operations only the host issues, for a person's own editing in the page (typing, Backspace,
#: Delete, paste): never offered to the model, not in :data:`OPERATION_TYPES`, and accepted only by
#: :func:`~.batch.parse_host_batch`. ``typeText`` replaces ``length`` characters at ``offset`` with
#: ``text`` character by character (no word diff: a typed letter inside a word is one letter).
HOST_OPERATION_SCHEMAS: MappingProxyType[str, dict[str, Any]] = MappingProxyType(
    {
        "typeText": _object(
            {
                "id": ID_SCHEMA,
                "type": {"const": "typeText"},
                "blockId": KEY_SCHEMAS["blockId"],
                "offset": _int(0, description="Where the typed text goes (a clean-text offset)."),
                "length": _int(0, description="How many characters from offset the text replaces."),
                "text": {**_STRING, "description": "The typed text (may be empty: a deletion)."},
                "endBlockId": {
                    **KEY_SCHEMAS["blockId"],
                    "description": "A later paragraph where the replaced text ends (instead of length).",
                },
                "endOffset": _int(0, description="Where in endBlockId the replaced text ends."),
            },
            ("id", "type", "blockId", "offset", "text"),
        ),
        "setListLevel": _object(
            {
                "id": ID_SCHEMA,
                "type": {"const": "setListLevel"},
                "blockId": KEY_SCHEMAS["blockId"],
                "level": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "maximum": 8,
                    "description": "The list level to put the paragraph at; null takes its number away.",
                },
            },
            ("id", "type", "blockId", "level"),
        ),
        "pasteRuns": _object(
            {
                "id": ID_SCHEMA,
                "type": {"const": "pasteRuns"},
                "blockId": KEY_SCHEMAS["blockId"],
                "offset": _int(0, description="Where the pasted text goes (a clean-text offset)."),
                "length": _int(0, description="How many characters from offset the paste replaces."),
                "endBlockId": {
                    **KEY_SCHEMAS["blockId"],
                    "description": "A later paragraph where the replaced text ends (instead of length).",
                },
                "endOffset": _int(0, description="Where in endBlockId the replaced text ends."),
                "paragraphs": {
                    "type": "array",
                    "minItems": 1,
                    "description": "The pasted paragraphs, each a list of runs with their formatting.",
                    "items": {
                        "type": "array",
                        "items": _object(
                            {
                                "text": _STRING,
                                "formatting": FORMATTING_SCHEMA,
                                "rPr": {**_STRING, "description": "The copied run's w:rPr as XML."},
                            },
                            ("text",),
                        ),
                    },
                },
            },
            ("id", "type", "blockId", "offset", "paragraphs"),
        ),
    }
)
HOST_MODES_BY_TYPE = MappingProxyType(
    {
        "typeText": _MODE_SETS["tracked"],
        "setListLevel": _MODE_SETS["tracked"],
        "pasteRuns": _MODE_SETS["tracked"],
    }
)


def modes_of(type_: str) -> tuple[str, ...]:
    """The modes an operation type (a contract or a host one) can be applied in."""
    return MODES_BY_TYPE.get(type_) or HOST_MODES_BY_TYPE[type_]


# ---- value shapes in words ------------------------------------------------------------------------


def schema_types(schema: Mapping[str, Any]) -> tuple[str, ...]:
    kind = schema.get("type", ())
    return (kind,) if isinstance(kind, str) else tuple(kind)


def _number_phrase(noun: str, schema: Mapping[str, Any]) -> str:
    low, high, above = schema.get("minimum"), schema.get("maximum"), schema.get("exclusiveMinimum")
    if low is not None and high is not None:
        text = f"{noun} from {low} to {high}"
    else:
        parts = [
            f"{op} {bound}" for op, bound in ((">=", low), (">", above), ("<=", high)) if bound is not None
        ]
        text = f"{noun} {' and '.join(parts)}" if parts else noun
    if "multipleOf" in schema:
        text += f" in steps of {schema['multipleOf']}"
    return text


def describe(schema: Mapping[str, Any]) -> str:
    """What a value of ``schema`` looks like, in words (``an integer >= 0``, ``one of "a", "b"``)."""
    if "oneOf" in schema:
        branches = schema["oneOf"]
        shapes = sorted({describe(b) for b in branches if b.get("type") != "null"})
        text = " or ".join(shapes)
        return text + " or null" if any(b.get("type") == "null" for b in branches) else text
    if "const" in schema:
        return json.dumps(schema["const"])
    types = schema_types(schema)
    nullable = "null" in types
    if "enum" in schema:
        values = [json.dumps(v) for v in schema["enum"] if v is not None]
        text = values[0] if len(values) == 1 else "one of " + ", ".join(values)
        return text + (", or null" if nullable or None in schema["enum"] else "")
    kind = next((t for t in types if t != "null"), None)
    if kind == "string":
        if "pattern" in schema:
            text = PATTERN_PHRASES.get(schema["pattern"], f"a string matching {schema['pattern']}")
        else:
            text = "a non-empty string" if schema.get("minLength", 0) >= 1 else "a string"
    elif kind in ("integer", "number"):
        text = _number_phrase("an integer" if kind == "integer" else "a number", schema)
    elif kind == "boolean":
        text = "true or false"
    elif kind == "array":
        text = "a non-empty array" if schema.get("minItems", 0) >= 1 else "an array"
        item_kind = next(iter(schema_types(schema.get("items", {}))), None)
        if item_kind in ("string", "array", "object"):
            text += f" of {item_kind}s"
    elif kind == "object":
        text = "an object"
    else:
        text = "a valid value"
    return text + " or null" if nullable else text


def capabilities() -> dict[str, Any]:
    """§5.4's capability record, freshly built so a caller may change its copy."""
    return {
        "version": CONTRACT_VERSION,
        "operationTypes": list(OPERATION_TYPES),
        "modes": list(MODES),
        "modesByOperationType": {t: list(m) for t, m in MODES_BY_TYPE.items()},
        "batchModes": list(BATCH_MODES),
        "dryRun": True,
        "preconditions": ["blockTextHash"],
        "batchPreconditions": ["documentVersion"],
        "stories": list(STORIES),
    }


def public_schema(fragment: Any) -> Any:
    """A deep copy of ``fragment`` without the parser-only ``x-`` keywords, safe to hand a provider."""
    if isinstance(fragment, dict):
        return {k: public_schema(v) for k, v in fragment.items() if not k.startswith("x-")}
    if isinstance(fragment, list):
        return [public_schema(v) for v in fragment]
    return copy.copy(fragment)


def key_json_schema(key: str) -> dict[str, Any]:
    """The public JSON Schema of one operation key's value (KeyError for keys no type accepts)."""
    return public_schema(ID_SCHEMA if key == "id" else KEY_SCHEMAS[key])


def operation_type_schema(type_: str, *, public: bool = True) -> dict[str, Any]:
    """The object schema of one operation type: its keys, ``id``/``type`` required, nothing else.

    Cross-key rules JSON Schema can state are included for schema readers (the parser enforces
    them with plain-language messages): exactly one merge endpoint; hardPageBreak's constraints.
    """
    spec = OPERATION_SPECS[type_]
    properties: dict[str, Any] = {"id": ID_SCHEMA, "type": {"const": type_}}
    properties.update({key: KEY_SCHEMAS[key] for key in spec.keys})
    schema: dict[str, Any] = {
        "type": "object",
        "description": spec.summary,
        "properties": properties,
        "required": ["id", "type", *spec.required],
        "additionalProperties": False,
    }
    if type_ in EXACTLY_ONE_OF:
        schema["oneOf"] = [{"required": [key]} for key in EXACTLY_ONE_OF[type_]]
    elif "hardPageBreak" in spec.keys:
        schema["oneOf"] = [
            {"not": {"required": ["hardPageBreak"]}},
            {
                "required": ["hardPageBreak"],
                "properties": {"text": {"const": ""}},
                "not": {"anyOf": [{"required": [key]} for key in HARD_PAGE_BREAK_EXCLUDES]},
            },
        ]
    return public_schema(schema) if public else copy.deepcopy(schema)
