"""Playbook files: the YAML a lawyer writes by hand, read strictly, with errors that say where.

The format is documented in ``docs/playbook-format.md``. A playbook is edited by people who are
not programmers, so a mistake must be reported as a person would point at it: the file, the
line and the field (``mutual-nda.yaml, line 14, field "severity" of position "term": ...``),
never a traceback or a silently ignored key. That is why the file is read with
``yaml.compose`` (the node tree keeps every value's line) instead of ``safe_load``, which would
also keep the last of two equal keys without a word. Only the safe loader and dumper are used:
a playbook is data and can never construct Python objects.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .model import SEVERITIES, Playbook, Position

#: Top-level fields: required first, then optional.
PLAYBOOK_REQUIRED: tuple[str, ...] = ("name", "contract_type", "positions")
PLAYBOOK_OPTIONAL: tuple[str, ...] = ("description",)
#: Fields of one position: required first, then optional.
POSITION_REQUIRED: tuple[str, ...] = ("id", "title", "question", "standard")
POSITION_OPTIONAL: tuple[str, ...] = ("fallbacks", "unacceptable", "guidance", "severity", "model_clause")
#: A position id is what the model names in ``record_finding``: short, no spaces.
POSITION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
DEFAULT_SEVERITY = "medium"
_NULL_TAG = "tag:yaml.org,2002:null"


class PlaybookError(ValueError):
    """A playbook that cannot be used, with where the problem is.

    ``source`` is the file (or the name given to :func:`parse_playbook`), ``line`` is 1-based
    (None when the problem is the whole file), ``field`` a path such as ``positions[2].severity``
    (empty for the whole file) and ``problem`` the sentence saying what is wrong.
    """

    def __init__(
        self, source: str, problem: str, *, line: int | None = None, field: str = "", where: str = ""
    ):
        self.source = source
        self.line = line
        self.field = field
        self.problem = problem
        place = source if line is None else f"{source}, line {line}"
        super().__init__(f"{place}: {where}: {problem}" if where else f"{place}: {problem}")


@dataclass(frozen=True, slots=True)
class _Context:
    """Where a node sits, to name it in an error: the file, the field path and its words."""

    source: str
    field: str = ""
    where: str = ""

    def fail(self, node: Node | None, problem: str) -> PlaybookError:
        line = node.start_mark.line + 1 if node is not None else None
        return PlaybookError(self.source, problem, line=line, field=self.field, where=self.where)

    def child(self, name: str, owner: str = "") -> _Context:
        path = f"{self.field}.{name}" if self.field else name
        words = f'field "{name}" of {owner}' if owner else f'field "{name}"'
        return _Context(self.source, path, words)


def load_playbook(path: str | Path) -> Playbook:
    """Read and validate the playbook file at ``path``; :class:`PlaybookError` says what is wrong."""
    path = Path(path)
    return parse_playbook(read_playbook_text(path), path.name, location=str(path))


def read_playbook_text(path: Path) -> str:
    """The text of a playbook file (UTF-8, a byte-order mark allowed), or a :class:`PlaybookError`."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise PlaybookError(path.name, f"cannot be read ({exc.strerror or exc})") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PlaybookError(
            path.name, "is not a text file (a playbook is YAML text, saved as UTF-8)"
        ) from None


def parse_playbook(text: str, source: str = "playbook", *, location: str | None = None) -> Playbook:
    """Validate playbook YAML ``text``; ``source`` names it in errors, ``location`` is kept as its source."""
    context = _Context(source)
    if not text.strip():
        raise PlaybookError(source, "is empty (a playbook needs name, contract_type and positions)")
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        raise PlaybookError(source, f"is not valid YAML ({exc.problem or exc.context})", line=line) from None
    except yaml.YAMLError as exc:
        raise PlaybookError(source, f"is not valid YAML ({exc})") from None
    if root is None or _is_null(root):
        raise PlaybookError(source, "is empty (a playbook needs name, contract_type and positions)")
    if not isinstance(root, MappingNode):
        raise context.fail(
            root, "is not a playbook: expected fields such as name:, contract_type: and positions:"
        )
    fields = _fields(root, context, PLAYBOOK_REQUIRED, PLAYBOOK_OPTIONAL, "")
    positions_node = fields["positions"]
    positions_context = context.child("positions")
    if not isinstance(positions_node, SequenceNode):
        raise positions_context.fail(
            positions_node, "expected a list of positions (each item starting with -)"
        )
    if not positions_node.value:
        raise positions_context.fail(positions_node, "the playbook has no positions")
    positions: list[Position] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(positions_node.value):
        position = _position(item, _Context(source, f"positions[{index}]", f"position {index + 1}"))
        if position.id in seen:
            where = _Context(source, f"positions[{index}].id", f'field "id" of position {index + 1}')
            raise where.fail(
                _value(item, "id"), f'"{position.id}" is already the id of position {seen[position.id] + 1}'
            )
        seen[position.id] = index
        positions.append(position)
    return Playbook(
        name=_text(fields["name"], context.child("name")),
        contract_type=_text(fields["contract_type"], context.child("contract_type")),
        description=_optional_text(fields.get("description"), context.child("description")),
        positions=tuple(positions),
        source=location or source,
    )


def _position(node: Node, context: _Context) -> Position:
    if not isinstance(node, MappingNode):
        raise context.fail(node, "expected a position with fields such as id:, title:, question:, standard:")
    id_node = _value(node, "id")
    identified = context
    if isinstance(id_node, ScalarNode) and POSITION_ID.fullmatch(id_node.value):
        identified = _Context(context.source, context.field, f'position "{id_node.value}"')
    fields = _fields(node, identified, POSITION_REQUIRED, POSITION_OPTIONAL, identified.where)
    owner = identified.where

    def text(name: str) -> str:
        return _text(fields[name], identified.child(name, owner))

    def optional(name: str) -> str:
        return _optional_text(fields.get(name), identified.child(name, owner))

    position_id = text("id")
    if not POSITION_ID.fullmatch(position_id):
        raise identified.child("id", owner).fail(
            id_node,
            f'"{position_id}" is not a usable id: use letters, digits, ".", "-" or "_", no spaces '
            "(at most 64 characters)",
        )
    severity = optional("severity").lower() or DEFAULT_SEVERITY
    if severity not in SEVERITIES:
        raise identified.child("severity", owner).fail(
            fields["severity"], f'"{fields["severity"].value}" is not a severity: use high, medium or low'
        )
    return Position(
        id=position_id,
        title=text("title"),
        question=text("question"),
        standard=text("standard"),
        fallbacks=_fallbacks(fields.get("fallbacks"), identified.child("fallbacks", owner)),
        unacceptable=optional("unacceptable"),
        guidance=optional("guidance"),
        severity=severity,
        model_clause=optional("model_clause"),
    )


def _fields(
    node: MappingNode, context: _Context, required: tuple[str, ...], optional: tuple[str, ...], owner: str
) -> dict[str, Node]:
    """The mapping's values by key; unknown, repeated and missing keys are errors."""
    known = required + optional
    found: dict[str, Node] = {}
    for key_node, value_node in node.value:
        key = key_node.value if isinstance(key_node, ScalarNode) else ""
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f' (did you mean "{close[0]}"?)' if close else f" (the fields are: {', '.join(known)})"
            where = f" in {owner}" if owner else ""
            path = f"{context.field}.{key}" if context.field else key
            raise _Context(context.source, path).fail(key_node, f'unknown field "{key}"{where}{hint}')
        if key in found:
            raise context.child(key, owner).fail(key_node, "is given twice")
        found[key] = value_node
    for key in required:
        if key not in found:
            where = f" in {owner}" if owner else ""
            path = f"{context.field}.{key}" if context.field else key
            raise _Context(context.source, path).fail(node, f'required field "{key}" is missing{where}')
    return found


def _value(node: MappingNode, key: str) -> Node | None:
    return next((v for k, v in node.value if isinstance(k, ScalarNode) and k.value == key), None)


def _is_null(node: Node) -> bool:
    return isinstance(node, ScalarNode) and node.tag == _NULL_TAG


def _text(node: Node, context: _Context) -> str:
    """A required text: a scalar, not empty (numbers and dates are kept as written)."""
    value = _optional_text(node, context)
    if not value:
        raise context.fail(node, "is empty")
    return value


def _optional_text(node: Node | None, context: _Context) -> str:
    if node is None or _is_null(node):
        return ""
    if not isinstance(node, ScalarNode):
        kind = "a list" if isinstance(node, SequenceNode) else "a set of fields"
        raise context.fail(node, f"expected text, found {kind}")
    return node.value.strip()


def _fallbacks(node: Node | None, context: _Context) -> tuple[str, ...]:
    """Fallbacks in the order the firm would concede them; one text is one fallback."""
    if node is None or _is_null(node):
        return ()
    if isinstance(node, ScalarNode):
        return (_text(node, context),)
    if not isinstance(node, SequenceNode):
        raise context.fail(node, "expected a list of fallback positions (each item starting with -)")
    out = []
    for index, item in enumerate(node.value):
        item_context = _Context(
            context.source, f"{context.field}[{index}]", f"{context.where}, item {index + 1}"
        )
        out.append(_text(item, item_context))
    return tuple(out)


class _PlaybookDumper(yaml.SafeDumper):
    """Writes multi-line texts as ``|`` blocks and indents list items under their key, so a
    dumped playbook reads like a hand-written one."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def _represent_text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_PlaybookDumper.add_representer(str, _represent_text)


def dump_playbook(playbook: Playbook) -> str:
    """``playbook`` as YAML in the documented format (empty optional fields left out).

    Used to keep a playbook imported from a .docx table as a file the lawyer can then edit;
    :func:`parse_playbook` reads it back to the same positions.
    """
    data: dict[str, object] = {"name": playbook.name, "contract_type": playbook.contract_type}
    if playbook.description:
        data["description"] = playbook.description
    data["positions"] = [_position_data(p) for p in playbook.positions]
    return yaml.dump(data, Dumper=_PlaybookDumper, sort_keys=False, allow_unicode=True, width=100)


def _position_data(position: Position) -> dict[str, object]:
    out: dict[str, object] = {
        "id": position.id,
        "title": position.title,
        "question": position.question,
        "standard": position.standard,
    }
    if position.fallbacks:
        out["fallbacks"] = list(position.fallbacks)
    for name in ("unacceptable", "guidance"):
        if getattr(position, name):
            out[name] = getattr(position, name)
    out["severity"] = position.severity
    if position.model_clause:
        out["model_clause"] = position.model_clause
    return out
