"""Checking values against the contract's JSON-Schema fragments, with model-readable reasons.

The same fragments generate the schema the model sees, so the walker here and that schema
cannot drift apart; each failure becomes an :class:`Issue` whose message names the path in
plain words (``operations[0].find: expected a string.``).
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Mapping
from typing import Any, TypedDict

from .contract import describe, schema_types

#: Issues collected before giving up: enough to fix a call, bounded for a flood of garbage.
MAX_ISSUES = 50

PathItem = str | int


class Issue(TypedDict):
    """One refusal: ``message`` is model-facing, ``path`` locates it (``["operations", 0, "find"]``)."""

    message: str
    path: list[PathItem]


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

INVALID: Any = object()


def same_value(value: Any, expected: Any) -> bool:
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


def coerce(value: Any, types: tuple[str, ...]) -> Any:
    """``value`` as the first JSON type in ``types`` it is, else INVALID (integral floats → int)."""
    for kind in types:
        if kind in ("integer", "number") and not isinstance(value, bool):
            if isinstance(value, int):
                return value
            if isinstance(value, float) and math.isfinite(value) and (kind == "number" or value.is_integer()):
                return value if kind == "number" else int(value)
        elif isinstance(value, _PYTHON_TYPES.get(kind, ())):
            return value
    return INVALID


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


class Checker:
    """Walks a value against a contract fragment, returning the sanitized copy and collecting issues."""

    def __init__(self) -> None:
        self.issues: list[Issue] = []

    @property
    def full(self) -> bool:
        return len(self.issues) >= MAX_ISSUES

    def fail(self, path: list[PathItem], reason: str) -> Any:
        if not self.full:
            self.issues.append({"message": f"{format_path(path)}: {reason}.", "path": list(path)})
        return INVALID

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
            value = coerce(value, types)
            if value is INVALID:
                return self.fail(path, "expected " + describe(schema))
        if ("const" in schema and not same_value(value, schema["const"])) or (
            "enum" in schema and not any(same_value(value, e) for e in schema["enum"])
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
            if result is INVALID:
                ok = False
            else:
                out[key] = result
        for key in schema.get("required", ()):
            if key not in value:
                self.fail([*path, key], "is required")
                ok = False
        if not ok:
            return INVALID
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
                return INVALID
            result = self.check(item, items, [*path, index])
            ok = ok and result is not INVALID
            out.append(result)
        if not ok:
            return INVALID
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
            if same_value(wanted, branch["properties"][tag]["const"]):
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
    checker = Checker()
    result = checker.check(value, schema, list(path or []))
    return (None, checker.issues) if result is INVALID else (result, [])
