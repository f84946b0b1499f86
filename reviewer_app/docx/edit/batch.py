"""The strict contract batch (§5.4): parse, sanitize and freeze what the engine will apply.

Everything the edit engine runs has passed :func:`parse_batch`, so handlers never re-check shapes:
a parsed :class:`Batch` is immutable and parsing it again returns it unchanged. Validation is
driven entirely by :mod:`.contract`'s key table, and every refusal names the offending path in
plain words (``operations[0].find: expected a string.``) because the agent layer shows these
messages to the model, which must be able to fix its call from the message alone.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from . import contract
from .contract import describe
from .schema import (
    INVALID,
    Checker,
    Issue,
    PathItem,
    coerce,
    same_value,
    sanitize_text,
)

JSON_SCHEMA_DRAFT = "http://json-schema.org/draft-07/schema#"
UNSUPPORTED_VERSION_MESSAGE = "Unsupported document operation contract version."


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


def _check_rules(checker: Checker, op: dict[str, Any], path: list[PathItem]) -> bool:
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


#: What a host batch may hold: the contract's operations and the host's own (a person's typing).
_HOST_SCHEMAS: dict[str, dict[str, Any]] = {**_OPERATION_SCHEMAS, **contract.HOST_OPERATION_SCHEMAS}


def _parse_operation(
    checker: Checker, raw: Any, index: int, seen: set[str], schemas: Mapping[str, dict[str, Any]]
) -> Operation | None:
    path: list[PathItem] = ["operations", index]
    if not isinstance(raw, Mapping):
        checker.fail(path, "expected an object")
        return None
    kind = raw.get("type")
    kind = sanitize_text(kind) if isinstance(kind, str) else None
    if kind not in schemas:
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
    clean = checker.check(raw, schemas[kind], path)
    raw_id = raw.get("id")
    op_id = (
        clean["id"] if clean is not INVALID else sanitize_text(raw_id) if isinstance(raw_id, str) else None
    )
    if op_id:
        if op_id in seen:
            clean = checker.fail([*path, "id"], "expected a unique operation id")
        seen.add(op_id)
    if clean is INVALID or not _check_rules(checker, clean, path):
        return None
    return Operation(id=clean["id"], type=kind, fields=_freeze(clean))


def _is_contract_version(value: Any) -> bool:
    return same_value(coerce(value, ("integer",)), contract.CONTRACT_VERSION)


def _parse(value: Any, schemas: Mapping[str, dict[str, Any]] = _OPERATION_SCHEMAS) -> Batch:
    if not isinstance(value, Mapping):
        raise ContractError([{"message": "$: expected an object.", "path": []}])
    if "version" in value and not _is_contract_version(value["version"]):
        raise UnsupportedOperationVersionError()
    checker = Checker()
    envelope = checker.check(value, _ENVELOPE_SCHEMA, [])
    operations: list[Operation] = []
    raw_operations = value.get("operations")
    if isinstance(raw_operations, list | tuple):
        seen: set[str] = set()
        for index, raw in enumerate(raw_operations):
            if checker.full:
                break
            op = _parse_operation(checker, raw, index, seen, schemas)
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


def parse_host_batch(value: Any) -> Batch:
    """Parse a batch the host wrote for a person's own editing: :func:`parse_batch` that also
    accepts the host operations (``typeText``). Never call it on the model's input: those
    operations are not part of the contract the model is offered."""
    return _parse(value, _HOST_SCHEMAS)


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
