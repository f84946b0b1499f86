"""``suggest_changes``: host options, the generated tool schema, capability text and the parser (§5.1-5.3).

Everything here is derived from the operation key table in
:mod:`reviewer_app.docx.edit.contract`: the keys the schema offers, the keys the parser keeps,
the per-type lines of the description. A host narrows the surface with
:class:`SuggestChangesOptions` and passes the same options to the tool definitions and to the
executor, so what the model is shown and what the parser accepts cannot drift apart.

The parser is a lenient front door over the strict contract parser, not a second one: it undoes
the slips models commonly make (arguments sent as a JSON string, ``kind`` for ``type``, a key
that belongs to another operation type), records each as a normalization the model is told
about, enforces this surface's limits and options, and then hands the batch to
:func:`reviewer_app.docx.edit.batch.parse_batch`. Every failure is a plain-language string meant
to go back to the model verbatim.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from reviewer_app.docx.edit import contract
from reviewer_app.docx.edit.batch import ContractError, parse_batch
from reviewer_app.docx.edit.schema import format_path
from reviewer_app.docx.hashing import is_text_hash

from .tool_descriptions import (
    AGGREGATE_TEXT_LIMIT,
    CELL_TEXTS_LIMIT,
    COMMENT_DESCRIPTION,
    OPERATION_ID_DESCRIPTION,
    TEXT_FIELD_LIMIT,
    capability_text,
    key_users_note,
    type_description,
)

DEFAULT_MAX_OPERATIONS = 50
MAX_OPERATIONS_LIMIT = 200
REVIEW_META_MODES: tuple[str, ...] = ("optional", "required")
#: §5.3 step 4: the string fields capped per operation, in the order they are checked.
CAPPED_FIELDS: tuple[str, ...] = ("find", "replace", "text", "quote", "styleId", "area")
PARTY_FIELDS: tuple[str, ...] = ("name", "signatory", "title")
TOP_LEVEL_KEYS: tuple[str, ...] = ("operations", "documentVersion")
#: The id add_comment's single operation carries (§4.8); add_comment is never replayed.
ADD_COMMENT_OPERATION_ID = "comment-1"

REQUIRES_OPERATIONS = "suggest_changes requires an `operations` array."
EMPTY_OPERATIONS = "suggest_changes' `operations` array must not be empty."
REQUIRES_VERSION = (
    "suggest_changes requires `documentVersion`: copy the current document version from the tool schema."
)
ADD_COMMENT_EXPECTS = "add_comment expects an object with `blockId` and `text` strings."
ADD_COMMENT_BLOCK_ID = "add_comment requires a non-empty string `blockId`."
ADD_COMMENT_TEXT = "add_comment requires a non-empty string `text`."
ADD_COMMENT_QUOTE = "add_comment's `quote` must be a string when provided."
ADD_COMMENT_PRECONDITION = "add_comment's `precondition` must be an object when provided."
ADD_COMMENT_HASH = (
    "add_comment's `precondition.blockTextHash` must be a normalized block text hash, "
    "echoed from read_document / read_section / find_text."
)


def over_limit_message(label: str, length: int) -> str:
    """The per-field cap message; ``label`` is the field as the model wrote it."""
    return (
        f"{label} is {length:,} characters, over the {TEXT_FIELD_LIMIT:,}-character limit; "
        "shorten it or split it into multiple operations."
    )


# ---- options ----------------------------------------------------------------------------------------


class InvalidSuggestChangesOptionsError(ValueError):
    """A host configured suggest_changes wrongly: a programmer error that never reaches the model."""

    def __init__(self, option: str, why: str) -> None:
        self.option = option
        self.why = why
        super().__init__(f"Invalid suggest_changes option `{option}`: {why}.")


@dataclass(frozen=True)
class SuggestChangesOptions:
    """How a host narrows suggest_changes for one surface (§5.1); checked by :func:`resolve_options`.

    ``operation_types``: a non-empty subset of the contract's types (None = the default surface);
    ``review_meta``: ``"required"`` makes every operation carry ``severity`` and ``area``;
    ``max_operations``: 1..200 per call; ``document_version``: pin the batch to this version.
    """

    operation_types: tuple[str, ...] | None = None
    review_meta: Literal["optional", "required"] = "optional"
    max_operations: int = DEFAULT_MAX_OPERATIONS
    document_version: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.operation_types, list):  # a list would make the options unhashable
            object.__setattr__(self, "operation_types", tuple(self.operation_types))


@dataclass(frozen=True)
class ResolvedOptions:
    """Validated options: types deduplicated and in contract order."""

    operation_types: tuple[str, ...]
    review_meta: str
    max_operations: int
    document_version: str | None

    @property
    def meta_required(self) -> bool:
        return self.review_meta == "required"


def _resolve_types(types: Any) -> tuple[str, ...]:
    if types is None:
        return contract.DEFAULT_SUGGEST_CHANGES_TYPES
    if isinstance(types, str | bytes | Mapping) or not isinstance(types, Iterable):
        raise InvalidSuggestChangesOptionsError("operation_types", "expected a sequence of operation types")
    wanted = list(types)
    if not wanted:
        raise InvalidSuggestChangesOptionsError("operation_types", "must name at least one operation type")
    for kind in wanted:
        if not isinstance(kind, str) or kind not in contract.OPERATION_SPECS:
            raise InvalidSuggestChangesOptionsError(
                "operation_types", f"{kind!r} is not a document operation type"
            )
    return tuple(t for t in contract.OPERATION_TYPES if t in wanted)


def resolve_options(options: Any = None) -> ResolvedOptions:
    """Validate ``options`` (None, :class:`SuggestChangesOptions`, or a mapping of its fields).

    Raises :class:`InvalidSuggestChangesOptionsError` naming the option; hosts call this (through
    the tool definitions) when they configure a surface, long before a model is involved.
    """
    if isinstance(options, ResolvedOptions):
        options = SuggestChangesOptions(**dataclasses.asdict(options))
    elif isinstance(options, Mapping):
        fields = {f.name for f in dataclasses.fields(SuggestChangesOptions)}
        for key in options:
            if key not in fields:
                raise InvalidSuggestChangesOptionsError(str(key), "is not a suggest_changes option")
        options = SuggestChangesOptions(**options)
    elif options is None:
        options = SuggestChangesOptions()
    elif not isinstance(options, SuggestChangesOptions):
        raise InvalidSuggestChangesOptionsError("options", "expected SuggestChangesOptions or None")
    if options.review_meta not in REVIEW_META_MODES:
        raise InvalidSuggestChangesOptionsError("review_meta", 'must be "optional" or "required"')
    limit = options.max_operations
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_OPERATIONS_LIMIT:
        raise InvalidSuggestChangesOptionsError(
            "max_operations", f"must be an integer from 1 to {MAX_OPERATIONS_LIMIT}"
        )
    version = options.document_version
    if version is not None and (not isinstance(version, str) or not version):
        raise InvalidSuggestChangesOptionsError(
            "document_version", "must be a non-empty string when provided"
        )
    return ResolvedOptions(_resolve_types(options.operation_types), options.review_meta, limit, version)


# ---- the generated schema ---------------------------------------------------------------------------


def union_keys(types: Iterable[str]) -> tuple[str, ...]:
    """Every key the given types accept (table order, first type first), without host-only keys."""
    keys: dict[str, None] = {}
    for kind in types:
        keys.update((k, None) for k in contract.KEYS_BY_TYPE[kind] if k not in contract.HOST_ONLY_KEYS)
    return tuple(keys)


def conservative(schema: Any) -> Any:
    """``const`` spelled as a one-value ``enum`` with its type: providers with a JSON-Schema subset
    (OpenAPI-3.0 style) know ``enum`` but not ``const``."""
    if isinstance(schema, list):
        return [conservative(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: conservative(v) for k, v in schema.items() if k != "const"}
    if "const" in schema:
        value = schema["const"]
        kinds = {str: "string", bool: "boolean", int: "integer", float: "number", type(None): "null"}
        if type(value) in kinds:
            out.setdefault("type", kinds[type(value)])
        out["enum"] = [value]
    return out


_COMMENT_TOOL_SCHEMA = {"type": "string", "description": COMMENT_DESCRIPTION}
_ID_TOOL_SCHEMA = {"type": "string", "minLength": 1, "description": OPERATION_ID_DESCRIPTION}


def _key_schema(key: str, types: tuple[str, ...]) -> dict[str, Any]:
    schema = dict(_COMMENT_TOOL_SCHEMA) if key == "comment" else contract.key_json_schema(key)
    note = key_users_note(key, types)
    if note:
        schema["description"] = f"{schema['description']} {note}" if schema.get("description") else note
    return schema


def _hard_page_break_rule(types: tuple[str, ...], keys: tuple[str, ...]) -> list[dict[str, Any]] | None:
    """§5.2 [main]: no ``hardPageBreak``, or one on an insert with ``text: ""`` and no conflicting key."""
    inserts = [t for t in types if "hardPageBreak" in contract.KEYS_BY_TYPE[t]]
    if not inserts:
        return None
    branch: dict[str, Any] = {
        "required": ["hardPageBreak", "text"],
        "properties": {"type": {"type": "string", "enum": inserts}, "text": {"type": "string", "enum": [""]}},
    }
    excluded = [k for k in contract.HARD_PAGE_BREAK_EXCLUDES if k in keys]
    if excluded:
        branch["not"] = {"anyOf": [{"required": [k]} for k in excluded]}
    return [{"not": {"required": ["hardPageBreak"]}}, branch]


def operation_item_schema(options: Any = None) -> dict[str, Any]:
    """The schema of one operation on this surface: the allowed types' keys, flattened into one object."""
    resolved = resolve_options(options)
    types = resolved.operation_types
    keys = union_keys(types)
    properties: dict[str, Any] = {
        "type": {"type": "string", "enum": list(types), "description": type_description(types)},
        "id": dict(_ID_TOOL_SCHEMA),
    }
    properties.update((key, _key_schema(key, types)) for key in keys)
    item: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": ["type", "severity", "area"] if resolved.meta_required else ["type"],
        "additionalProperties": False,
    }
    rule = _hard_page_break_rule(types, keys)
    if rule:
        item["oneOf"] = rule
    return conservative(item)


def suggest_changes_input_schema(options: Any = None) -> dict[str, Any]:
    """The suggest_changes input schema for these options (§5.2); a fresh dict on every call."""
    resolved = resolve_options(options)
    properties: dict[str, Any] = {}
    required = ["operations"]
    if resolved.document_version is not None:
        properties["documentVersion"] = {
            "type": "string",
            "enum": [resolved.document_version],
            "description": "The document version these edits are made against; copy this value exactly.",
        }
        required.append("documentVersion")
    properties["operations"] = {
        "type": "array",
        "description": "The edits, each addressing the document as you last read it.",
        "minItems": 1,
        "maxItems": resolved.max_operations,
        "items": operation_item_schema(resolved),
    }
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def describe_suggest_changes_capabilities(options: Any = None) -> str:
    """The capability lines of the suggest_changes description, reusable in a system prompt."""
    resolved = resolve_options(options)
    return capability_text(
        resolved.operation_types,
        max_operations=resolved.max_operations,
        meta_required=resolved.meta_required,
        pinned=resolved.document_version is not None,
    )


# ---- the parser -------------------------------------------------------------------------------------


class _Refusal(Exception):
    """Stops the parse; ``str()`` is the model-facing message (callers get ``{"ok": False}``)."""


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # NaN/Infinity: Python's json accepts them, JSON does not


def _decode_json(value: Any, opener: str) -> Any:
    """A JSON text that starts with ``opener`` (after whitespace), decoded; None when it is not one."""
    if not isinstance(value, str) or not value.lstrip().startswith(opener):
        return None
    try:
        return json.loads(value, parse_constant=_no_constants)
    except (ValueError, RecursionError):
        return None


def new_nonce() -> str:
    """The per-call part of minted ids; 48 random bits keep ids unique across a session's calls."""
    return secrets.token_hex(6)


class _Parse:
    def __init__(self, options: ResolvedOptions) -> None:
        self.options = options
        self.normalizations: list[dict[str, str]] = []

    def note(self, path: str, message: str) -> None:
        self.normalizations.append({"path": path, "message": message})

    def operation(self, raw: Any, index: int) -> dict[str, Any]:
        """Step 1 and 2 for one operation: decode leniently, then require an allowed type."""
        decoded = _decode_json(raw, "{")
        if isinstance(decoded, dict):
            raw = decoded
            self.note(f"operations[{index}]", "operation was supplied as a JSON string")
        if not isinstance(raw, Mapping):
            raise _Refusal(f"operations[{index}] must be an object.")
        op = dict(raw)
        if "type" not in op and isinstance(op.get("kind"), str):
            op["type"] = op.pop("kind")
            self.note(f"operations[{index}].kind", "`kind` was read as `type`")
        kind = op.get("type")
        types = self.options.operation_types
        if not isinstance(kind, str) or kind not in types:
            raise _Refusal(f"operations[{index}].type must be one of {', '.join(types)}.")
        accepted = {"id", "type", *union_keys([kind])}
        for key in [k for k in op if k not in accepted]:
            del op[key]
            self.note(
                format_path(["operations", index, str(key)]),
                f"`{key}` does not apply to {kind} and was ignored",
            )
        return op

    def operations(self, args: Mapping[Any, Any]) -> list[dict[str, Any]]:
        raw = args.get("operations")
        decoded = _decode_json(raw, "[")
        if isinstance(decoded, list):
            raw = decoded
            self.note("operations", "`operations` was supplied as a JSON string")
        if not isinstance(raw, list | tuple):
            raise _Refusal(REQUIRES_OPERATIONS)
        if not raw:
            raise _Refusal(EMPTY_OPERATIONS)
        limit = self.options.max_operations
        if len(raw) > limit:
            raise _Refusal(
                f"suggest_changes' `operations` array has {len(raw):,} entries, over the {limit:,}-operation "
                "limit; batch it across multiple suggest_changes calls."
            )
        return [self.operation(item, index) for index, item in enumerate(raw)]


def _texts(op: Mapping[str, Any], index: int) -> Iterator[tuple[str, str]]:
    """Step 4's capped strings of one operation, in order; refuses an over-long ``cellTexts``."""
    for name in CAPPED_FIELDS:
        if isinstance(op.get(name), str):
            yield name, op[name]
    comment = op.get("comment")
    if isinstance(comment, str):
        yield "comment", comment
    elif isinstance(comment, Mapping) and isinstance(comment.get("text"), str):
        yield "comment.text", comment["text"]
    cells = op.get("cellTexts")
    if isinstance(cells, list | tuple):
        if len(cells) > CELL_TEXTS_LIMIT:
            many = f"{len(cells):,} entries, over the {CELL_TEXTS_LIMIT}-cell limit"
            raise _Refusal(f"operations[{index}].cellTexts has {many}.")
        yield from ((f"cellTexts[{k}]", c) for k, c in enumerate(cells) if isinstance(c, str))
    rows = op.get("rows")  # insertTable's cells are text too: the aggregate budget must see them
    if isinstance(rows, list | tuple):
        for r, row in enumerate(rows):
            if isinstance(row, list | tuple):
                yield from ((f"rows[{r}][{c}]", t) for c, t in enumerate(row) if isinstance(t, str))
    parties = op.get("parties")
    if isinstance(parties, list | tuple):
        for k, party in enumerate(parties):
            if isinstance(party, Mapping):
                yield from (
                    (f"parties[{k}].{f}", party[f]) for f in PARTY_FIELDS if isinstance(party.get(f), str)
                )


def _check_texts(operations: list[dict[str, Any]]) -> None:
    total = 0
    for index, op in enumerate(operations):
        for label, text in _texts(op, index):
            if len(text) > TEXT_FIELD_LIMIT:
                raise _Refusal(over_limit_message(f"operations[{index}].{label}", len(text)))
            total += len(text)
            if total > AGGREGATE_TEXT_LIMIT:
                raise _Refusal(
                    f"operations[{index}] pushes suggest_changes' combined text over the "
                    f"{AGGREGATE_TEXT_LIMIT:,}-character aggregate limit across all operations; "
                    "split the edit across multiple suggest_changes calls."
                )


def _check_review_meta(operations: list[dict[str, Any]]) -> None:
    for index, op in enumerate(operations):
        if op.get("severity") is None:
            raise _Refusal(
                f'operations[{index}].severity is required on this surface ("low", "medium", or "high").'
            )
        area = op.get("area")
        if area is None or (isinstance(area, str) and not area.strip()):
            raise _Refusal(
                f"operations[{index}].area is required on this surface: a short review area label."
            )


def _with_ids(operations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Step 6: keep supplied ids, mint the rest (unique across calls), wrap string comments."""
    for index, op in enumerate(operations):
        if "id" in op and (not isinstance(op["id"], str) or not op["id"]):
            raise _Refusal(f"operations[{index}].id must be a non-empty string when provided.")
    supplied = {op["id"] for op in operations if "id" in op}
    nonce = new_nonce()
    while any(f"op-{nonce}-{i + 1}" in supplied for i in range(len(operations))):
        nonce = new_nonce()
    out = []
    for index, op in enumerate(operations):
        built: dict[str, Any] = {"id": op.get("id", f"op-{nonce}-{index + 1}"), "type": op["type"]}
        for key, value in op.items():
            if key not in ("id", "type"):
                built[key] = {"text": value} if key == "comment" and isinstance(value, str) else value
        out.append(built)
    return out


def _contract_error(error: ContractError) -> str:
    """Step 7's rendering: the strict parser's messages already read ``operations[0].find: ...``."""
    return " ".join(issue["message"] for issue in error.issues)


def parse_suggest_changes_input(args: Any, options: Any = None) -> dict[str, Any]:
    """Validate a suggest_changes call (§5.3): ``{"ok": True, "operations", "precondition"?,
    "normalizations"}`` or ``{"ok": False, "error"}``. Never raises for any argument value; bad
    ``options`` raise :class:`InvalidSuggestChangesOptionsError` (a host bug, not a model error)."""
    resolved = resolve_options(options)
    state = _Parse(resolved)
    try:
        decoded = _decode_json(args, "{")
        if isinstance(decoded, dict):
            args = decoded
            state.note("$", "arguments were supplied as a JSON string")
        if not isinstance(args, Mapping):
            raise _Refusal(REQUIRES_OPERATIONS)
        for key in args:
            if key not in TOP_LEVEL_KEYS:
                state.note(format_path([str(key)]), f"unknown argument `{key}` was ignored")
        if resolved.document_version is None and "documentVersion" in args:
            state.note("documentVersion", "`documentVersion` is not pinned on this surface and was ignored")
        operations = state.operations(args)
        batch: dict[str, Any] = {"version": contract.CONTRACT_VERSION}
        if resolved.document_version is not None:
            version = args.get("documentVersion")
            if not isinstance(version, str) or not version:
                raise _Refusal(REQUIRES_VERSION)
            batch["precondition"] = {"documentVersion": version}
        _check_texts(operations)
        if resolved.meta_required:
            _check_review_meta(operations)
        batch["operations"] = _with_ids(operations)
        try:
            parsed = parse_batch(batch)
        except ContractError as error:
            raise _Refusal(_contract_error(error)) from None
    except _Refusal as refusal:
        return {"ok": False, "error": str(refusal)}
    result: dict[str, Any] = {"ok": True, "operations": [op.to_dict() for op in parsed.operations]}
    if parsed.precondition is not None:
        result["precondition"] = dict(parsed.precondition)
    result["normalizations"] = state.normalizations
    return result


def parse_add_comment_input(args: Any) -> dict[str, Any]:
    """Validate an add_comment call (§4.8) into one ``commentOnBlock`` operation with id ``comment-1``:
    ``{"ok": True, "operation"}`` or ``{"ok": False, "error"}``; never raises."""
    if not isinstance(args, Mapping):
        return {"ok": False, "error": ADD_COMMENT_EXPECTS}
    block_id, text = args.get("blockId"), args.get("text")
    if not isinstance(block_id, str) or not block_id:
        return {"ok": False, "error": ADD_COMMENT_BLOCK_ID}
    if not isinstance(text, str) or not text:
        return {"ok": False, "error": ADD_COMMENT_TEXT}
    if len(text) > TEXT_FIELD_LIMIT:
        return {"ok": False, "error": over_limit_message("add_comment's `text`", len(text))}
    op: dict[str, Any] = {
        "id": ADD_COMMENT_OPERATION_ID,
        "type": "commentOnBlock",
        "blockId": block_id,
        "comment": {"text": text},
    }
    if "quote" in args:
        quote = args["quote"]
        if not isinstance(quote, str):
            return {"ok": False, "error": ADD_COMMENT_QUOTE}
        if len(quote) > TEXT_FIELD_LIMIT:
            return {"ok": False, "error": over_limit_message("add_comment's `quote`", len(quote))}
        op["quote"] = quote
    if "precondition" in args:
        precondition = args["precondition"]
        if not isinstance(precondition, Mapping):
            return {"ok": False, "error": ADD_COMMENT_PRECONDITION}
        if not is_text_hash(precondition.get("blockTextHash")):
            return {"ok": False, "error": ADD_COMMENT_HASH}
        op["precondition"] = {"blockTextHash": precondition["blockTextHash"]}
    try:
        parsed = parse_batch({"version": contract.CONTRACT_VERSION, "operations": [op]})
    except ContractError as error:
        return {"ok": False, "error": _contract_error(error)}
    return {"ok": True, "operation": parsed.operations[0].to_dict()}
