"""The strict contract batch (§5.4): parse, sanitize and freeze what the engine will apply.

Everything the edit engine runs has passed :func:`parse_batch`, so handlers never re-check shapes:
a parsed :class:`Batch` is immutable and parsing it again returns it unchanged. Validation is
driven entirely by :mod:`.contract`'s key table, and every refusal names the offending path in
plain words (``operations[0].find: expected a string.``) because the agent layer shows these
messages to the model, which must be able to fix its call from the message alone.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypedDict

from . import contract
from .contract import describe, schema_types

#: Issues collected before giving up: enough to fix a call, bounded for a flood of garbage.
MAX_ISSUES = 50
JSON_SCHEMA_DRAFT = "http://json-schema.org/draft-07/schema#"
UNSUPPORTED_VERSION_MESSAGE = "Unsupported document operation contract version."

PathItem = str | int


class Issue(TypedDict):
    """One refusal: ``message`` is model-facing, ``path`` locates it (``["operations", 0, "find"]``)."""

    message: str
    path: list[PathItem]


class ContractError(ValueError):
    """A value is not a valid contract batch; ``issues`` lists every problem found (up to a bound)."""

    def __init__(self, issues: list[Issue]) -> None:
        self.issues = issues
        super().__init__(" ".join(issue["message"] for issue in issues))


class UnsupportedOperationVersionError(ContractError):
    """The batch declares a contract version this engine does not speak; nothing else is checked."""

    def __init__(self) -> None:
        super().__init__([{"message": UNSUPPORTED_VERSION_MESSAGE, "path": ["version"]}])


# ---- immutable results ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=True)
class Operation(Mapping[str, Any]):
    """One parsed operation. It is also a read-only mapping of its contract fields (``op["blockId"]``).

    ``fields`` holds the whole sanitized operation as the contract spells it (camelCase keys,
    ``id`` and ``type`` included); nested objects are read-only mappings and arrays are tuples, so
    nothing downstream can change an operation after it was validated and fingerprinted.
    """

    id: str
    type: str
    fields: Mapping[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    def __hash__(self) -> int:
        return hash(canonical_json(self))

    def to_dict(self) -> dict[str, Any]:
        """A plain, mutable JSON copy (dicts and lists), e.g. to build a new batch from."""
        return _thaw(self.fields)


@dataclass(frozen=True)
class Batch:
    """A parsed batch. ``precondition`` is a read-only mapping (``{"documentVersion": ...}``) or None.

    Built by :func:`parse_batch` only; a Batch made any other way (or via ``dataclasses.replace``,
    e.g. to stamp the bridge's mode) is validated again when it is parsed.
    """

    version: int
    operations: tuple[Operation, ...]
    mode: str = contract.DEFAULT_MODE
    atomic: bool = False
    dry_run: bool = False
    precondition: Mapping[str, str] | None = None
    _parsed: bool = field(default=False, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        return hash(canonical_json(self.to_dict()))

    def to_dict(self) -> dict[str, Any]:
        """The batch as contract JSON (defaults spelled out), which parses back to an equal Batch."""
        out: dict[str, Any] = {
            "version": self.version,
            "operations": [_thaw(op) for op in self.operations],
            "mode": self.mode,
            "atomic": self.atomic,
            "dryRun": self.dry_run,
        }
        if self.precondition is not None:
            out["precondition"] = _thaw(self.precondition)
        return out


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_thaw(v) for v in value]
    return value


# ---- strings and paths ----------------------------------------------------------------------------

_DIRTY = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
_SURROGATES = re.compile("[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]")
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def _join_surrogates(match: re.Match[str]) -> str:
    pair = match.group()
    if len(pair) == 2:  # a UTF-16 pair split into two code points: the character it spells
        return chr(0x10000 + ((ord(pair[0]) - 0xD800) << 10) + (ord(pair[1]) - 0xDC00))
    return "\ufffd"


def sanitize_text(text: str) -> str:
    """Drop C0 controls except tab/LF/CR; unpaired surrogates become U+FFFD (§5.4 [main]).

    Controls are invisible in Word and some are illegal in XML, and a lone surrogate cannot be
    written as UTF-8 at all: either would make the saved document unreadable. A surrogate *pair*
    held as two code points is joined into its character. Surrogates are handled before controls
    are dropped, so a control between two halves does not make them a pair.
    """
    if _DIRTY.search(text) is None:
        return text
    return _CONTROL.sub("", _SURROGATES.sub(_join_surrogates, text))


def format_path(path: list[PathItem] | tuple[PathItem, ...]) -> str:
    """``["operations", 0, "find"]`` → ``operations[0].find``; the root is ``$``."""
    text = ""
    for item in path:
        if isinstance(item, int):
            text += f"[{item}]"
        elif _IDENTIFIER.fullmatch(item):
            text += f".{item}" if text else item
        else:
            text += f"[{json.dumps(item)}]"
    return text or "$"


@functools.cache
def _pattern(pattern: str) -> re.Pattern[str]:
    # JSON Schema patterns are ECMAScript: "$" ends the string, while Python's also allows a final "\n"
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return re.compile(pattern)


# ---- the schema walker ----------------------------------------------------------------------------

_INVALID: Any = object()


def _same(value: Any, expected: Any) -> bool:
    """JSON equality: ``True`` is not ``1``, ``1.0`` is ``1``."""
    if isinstance(value, bool) or isinstance(expected, bool):
        return value is expected
    return value == expected and (isinstance(value, str) == isinstance(expected, str))


_PYTHON_TYPES: dict[str, type | tuple[type, ...]] = {
    "string": str,
    "boolean": bool,
    "object": Mapping,
    "array": (list, tuple),
}


def _coerce(value: Any, types: tuple[str, ...]) -> Any:
    """``value`` as the first JSON type in ``types`` it is, else _INVALID (integral floats → int)."""
    for kind in types:
        if kind in ("integer", "number") and not isinstance(value, bool):
            if isinstance(value, int):
                return value
            if isinstance(value, float) and math.isfinite(value) and (kind == "number" or value.is_integer()):
                return value if kind == "number" else int(value)
        elif isinstance(value, _PYTHON_TYPES.get(kind, ())):
            return value
    return _INVALID


def _in_bounds(value: int | float, schema: Mapping[str, Any]) -> bool:
    try:
        if "minimum" in schema and value < schema["minimum"]:
            return False
        if "maximum" in schema and value > schema["maximum"]:
            return False
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            return False
        if "multipleOf" in schema:
            ratio = value / schema["multipleOf"]
            return math.isfinite(ratio) and float(ratio).is_integer()
    except OverflowError:  # an integer too large for a float cannot be a sensible measurement
        return False
    return True


def _discriminator(shapes: list[Mapping[str, Any]]) -> str:
    """The property every branch pins with a ``const`` (``kind``): the contract's unions all have one."""
    first = shapes[0].get("properties", {})
    return next(
        k for k, p in first.items() if "const" in p and all("const" in s["properties"][k] for s in shapes)
    )


class _Checker:
    """Walks a value against a contract fragment, returning the sanitized copy and collecting issues."""

    def __init__(self) -> None:
        self.issues: list[Issue] = []

    @property
    def full(self) -> bool:
        return len(self.issues) >= MAX_ISSUES

    def fail(self, path: list[PathItem], reason: str) -> Any:
        if not self.full:
            self.issues.append({"message": f"{format_path(path)}: {reason}.", "path": list(path)})
        return _INVALID

    def check(self, value: Any, schema: Mapping[str, Any], path: list[PathItem]) -> Any:
        if "oneOf" in schema:
            return self._one_of(value, schema, path)
        if isinstance(value, str):
            value = sanitize_text(value)
        types = schema_types(schema)
        if value is None:
            if "null" in types or None in schema.get("enum", ()):
                return None
            return self.fail(path, "expected " + describe(schema))
        if types:
            value = _coerce(value, types)
            if value is _INVALID:
                return self.fail(path, "expected " + describe(schema))
        if ("const" in schema and not _same(value, schema["const"])) or (
            "enum" in schema and not any(_same(value, e) for e in schema["enum"])
        ):
            return self.fail(path, "expected " + describe(schema))
        if isinstance(value, str):
            if len(value) < schema.get("minLength", 0) or (
                "pattern" in schema and _pattern(schema["pattern"]).search(value) is None
            ):
                return self.fail(path, "expected " + describe(schema))
            if schema.get("x-normalize") == "hexColor":
                value = "#" + value.lstrip("#").upper()
            return value
        if isinstance(value, int | float) and not isinstance(value, bool):
            return value if _in_bounds(value, schema) else self.fail(path, "expected " + describe(schema))
        if isinstance(value, Mapping):
            return self._object(value, schema, path)
        if isinstance(value, list | tuple):
            return self._array(value, schema, path)
        return value

    def _object(self, value: Mapping[Any, Any], schema: Mapping[str, Any], path: list[PathItem]) -> Any:
        properties = schema.get("properties", {})
        out: dict[str, Any] = {}
        ok = True
        for key, item in value.items():
            if not isinstance(key, str) or key not in properties:
                if schema.get("additionalProperties", True) is False:
                    self.fail([*path, str(key)], "unexpected property")
                    ok = False
                else:
                    out[str(key)] = item
                continue
            result = self.check(item, properties[key], [*path, key])
            if result is _INVALID:
                ok = False
            else:
                out[key] = result
        for key in schema.get("required", ()):
            if key not in value:
                self.fail([*path, key], "is required")
                ok = False
        if not ok:
            return _INVALID
        if len(out) < schema.get("minProperties", 0):
            names = ", ".join(json.dumps(name) for name in properties)
            return self.fail(path, f"expected at least one of {names}")
        for later, earlier in schema.get("x-greaterThan", {}).items():
            if later in out and earlier in out and out[later] <= out[earlier]:
                return self.fail([*path, later], f"expected an integer greater than {earlier}")
        return out

    def _array(
        self, value: list[Any] | tuple[Any, ...], schema: Mapping[str, Any], path: list[PathItem]
    ) -> Any:
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", math.inf):
            return self.fail(path, "expected " + describe(schema))
        items = schema.get("items")
        if items is None:
            return list(value)
        out: list[Any] = []
        ok = True
        for index, item in enumerate(value):
            if self.full:
                return _INVALID
            result = self.check(item, items, [*path, index])
            ok = ok and result is not _INVALID
            out.append(result)
        if not ok:
            return _INVALID
        if schema.get("x-rectangular") and out:
            width = len(out[0])
            for index, row in enumerate(out):
                if len(row) != width:
                    return self.fail([*path, index], f"expected {width} cells, as many as the first row")
        return out

    def _one_of(self, value: Any, schema: Mapping[str, Any], path: list[PathItem]) -> Any:
        branches = schema["oneOf"]
        if value is None:
            if any(b.get("type") == "null" for b in branches):
                return None
            return self.fail(path, "expected " + describe(schema))
        shapes = [b for b in branches if b.get("type") != "null"]
        tag = _discriminator(shapes)  # every union in the contract is told apart by one tag
        if not isinstance(value, Mapping):
            return self.fail(path, "expected " + describe(schema))
        if tag not in value:
            return self.fail([*path, tag], "is required")
        raw = value[tag]
        wanted = sanitize_text(raw) if isinstance(raw, str) else raw
        for branch in shapes:
            if _same(wanted, branch["properties"][tag]["const"]):
                return self.check(value, branch, path)
        tags = [branch["properties"][tag]["const"] for branch in shapes]
        return self.fail([*path, tag], "expected " + describe({"enum": tags}))


def check_value(
    value: Any, schema: Mapping[str, Any], path: list[PathItem] | None = None
) -> tuple[Any, list[Issue]]:
    """Validate one value against a contract fragment: ``(sanitized copy, [])`` or ``(None, issues)``.

    For callers that validate a single contract shape outside a batch (the agent layer's range
    handles and preconditions), with the same sanitizing and messages as the batch parser.
    """
    checker = _Checker()
    result = checker.check(value, schema, list(path or []))
    return (None, checker.issues) if result is _INVALID else (result, [])


# ---- batches ----------------------------------------------------------------------------------------

_ENVELOPE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "version": {"type": "integer", "const": contract.CONTRACT_VERSION},
        "operations": {"type": "array"},
        "mode": {"type": "string", "enum": list(contract.MODES)},
        "atomic": {"type": "boolean"},
        "dryRun": {"type": "boolean"},
        "precondition": contract.BATCH_PRECONDITION_SCHEMA,
    },
    "required": ["version", "operations"],
    "additionalProperties": False,
}
#: Per type, the object schema the walker checks (cross-key ``oneOf`` rules are checked by hand).
_OPERATION_SCHEMAS: dict[str, dict[str, Any]] = {
    t: {k: v for k, v in contract.operation_type_schema(t, public=False).items() if k != "oneOf"}
    for t in contract.OPERATION_TYPES
}


def _check_rules(checker: _Checker, op: dict[str, Any], path: list[PathItem]) -> bool:
    """§5.5's cross-key rules: one merge endpoint; hardPageBreak's text and exclusions."""
    before = len(checker.issues)
    choices = contract.EXACTLY_ONE_OF.get(op["type"])
    if choices and sum(key in op for key in choices) != 1:
        checker.fail(path, "expected exactly one of " + " or ".join(json.dumps(k) for k in choices))
    if "hardPageBreak" in op:
        here = [*path, "hardPageBreak"]
        if op.get("text") != "":
            checker.fail(here, contract.HARD_PAGE_BREAK_TEXT_REASON)
        for key in contract.HARD_PAGE_BREAK_EXCLUDES:
            if key in op:
                checker.fail(here, f"cannot combine hardPageBreak with {key}")
    return len(checker.issues) == before


def _parse_operation(checker: _Checker, raw: Any, index: int, seen: set[str]) -> Operation | None:
    path: list[PathItem] = ["operations", index]
    if not isinstance(raw, Mapping):
        checker.fail(path, "expected an object")
        return None
    kind = raw.get("type")
    kind = sanitize_text(kind) if isinstance(kind, str) else None
    if kind not in contract.OPERATION_SPECS:
        reason = (
            "is required"
            if "type" not in raw
            else "expected " + describe({"enum": list(contract.OPERATION_TYPES)})
        )
        checker.fail([*path, "type"], reason)
        if "id" not in raw:
            checker.fail([*path, "id"], "is required")
        else:
            checker.check(raw["id"], contract.ID_SCHEMA, [*path, "id"])
        return None
    clean = checker.check(raw, _OPERATION_SCHEMAS[kind], path)
    raw_id = raw.get("id")
    op_id = (
        clean["id"] if clean is not _INVALID else sanitize_text(raw_id) if isinstance(raw_id, str) else None
    )
    if op_id:
        if op_id in seen:
            clean = checker.fail([*path, "id"], "expected a unique operation id")
        seen.add(op_id)
    if clean is _INVALID or not _check_rules(checker, clean, path):
        return None
    return Operation(id=clean["id"], type=kind, fields=_freeze(clean))


def _is_contract_version(value: Any) -> bool:
    return _same(_coerce(value, ("integer",)), contract.CONTRACT_VERSION)


def _parse(value: Any) -> Batch:
    if not isinstance(value, Mapping):
        raise ContractError([{"message": "$: expected an object.", "path": []}])
    if "version" in value and not _is_contract_version(value["version"]):
        raise UnsupportedOperationVersionError()
    checker = _Checker()
    envelope = checker.check(value, _ENVELOPE_SCHEMA, [])
    operations: list[Operation] = []
    raw_operations = value.get("operations")
    if isinstance(raw_operations, list | tuple):
        seen: set[str] = set()
        for index, raw in enumerate(raw_operations):
            if checker.full:
                break
            op = _parse_operation(checker, raw, index, seen)
            if op is not None:
                operations.append(op)
    if checker.issues:
        raise ContractError(checker.issues)
    precondition = envelope.get("precondition")
    batch = Batch(
        version=contract.CONTRACT_VERSION,
        operations=tuple(operations),
        mode=envelope.get("mode", contract.DEFAULT_MODE),
        atomic=envelope.get("atomic", False),
        dry_run=envelope.get("dryRun", False),
        precondition=None if precondition is None else _freeze(precondition),
    )
    object.__setattr__(batch, "_parsed", True)
    return batch


def parse_batch(value: Any) -> Batch:
    """Parse a contract batch (a mapping, usually decoded JSON) into a frozen :class:`Batch`.

    Raises :class:`UnsupportedOperationVersionError` for a ``version`` other than 1 (before
    anything else is looked at: another version's fields mean other things), else
    :class:`ContractError` with every issue found. A Batch this function returned is returned
    unchanged, so layers may parse defensively without paying for it twice.
    """
    if isinstance(value, Batch):
        return value if value._parsed else _parse(value.to_dict())
    return _parse(value)


def validate_batch(value: Any) -> dict[str, Any]:
    """The Standard-Schema form: ``{"value": Batch}`` or ``{"issues": [...]}``; it never raises.

    Hosts validate untrusted input with it; any failure, even one this module did not foresee,
    comes back as an issue instead of an exception.
    """
    try:
        return {"value": parse_batch(value)}
    except ContractError as error:
        return {"issues": [{"message": i["message"], "path": list(i["path"])} for i in error.issues]}
    except Exception:  # hostile input (a mapping whose methods raise, ...) is still just invalid input
        return {"issues": [{"message": "$: could not be read as a document operation batch.", "path": []}]}


def operation_json_schema() -> dict[str, Any]:
    """FOLIO_DOCUMENT_OPERATION_JSON_SCHEMA: one object schema per type (``oneOf``), ``id`` required."""
    return {
        "$schema": JSON_SCHEMA_DRAFT,
        "oneOf": [contract.operation_type_schema(t) for t in contract.OPERATION_TYPES],
    }


def batch_json_schema() -> dict[str, Any]:
    """FOLIO_DOCUMENT_OPERATION_BATCH_JSON_SCHEMA: the §5.4 envelope with operations per type."""
    schema = contract.public_schema(_ENVELOPE_SCHEMA)
    schema["properties"]["operations"]["items"] = {
        "oneOf": [contract.operation_type_schema(t) for t in contract.OPERATION_TYPES]
    }
    return {"$schema": JSON_SCHEMA_DRAFT, **schema}


def _canonical(value: Any) -> Any:
    if isinstance(value, Batch):
        return _canonical(value.to_dict())
    if isinstance(value, Mapping):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)  # JSON has one number type: 12.0 and 12 are the same value (JavaScript prints 12)
    return value


def canonical_json(value: Any) -> str:
    """Keys sorted at every level, arrays in order, compact: equal operations give equal strings.

    The replay ledger (§5.8) fingerprints operations with it, so a resent operation whose keys
    arrive in another order, or whose number is written ``12.0``, is still recognised.
    """
    return json.dumps(
        _canonical(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
