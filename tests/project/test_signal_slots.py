"""No Qt signal's argument lands in a parameter that was meant to be left out.

A signal that carries a value (``clicked(bool)``, ``triggered(bool)``, ``toggled``,
``currentIndexChanged(int)``, ``textChanged(str)``...) connected to a slot with an optional
parameter fills that parameter: the chat's Send button once sent ``False`` as the message
(``send(text=None)``) and crashed. This scan reads every ``.connect(...)`` in ``reviewer_app/ui``
and fails on a slot whose first parameter is optional, so it silently receives the signal's
value: a method (the enclosing class's own for ``self.name``, else found by name among the
UI's functions) or a lambda.
A parameter whose name starts with ``_`` is a deliberate "ignore the signal's value" and passes;
connect a no-argument slot or a lambda otherwise.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import REPO_ROOT

UI = REPO_ROOT / "reviewer_app" / "ui"


def _first_optional(args: ast.arguments, *, method: bool) -> str | None:
    """The first positional parameter when it has a default (a signal's value fills it silently),
    unless it is named ``_...`` (the value taken on purpose and ignored). A slot whose first
    parameter is required takes the signal's value by design."""
    positional = [*args.posonlyargs, *args.args][1 if method else 0 :]
    if not positional or len(args.defaults) < len(positional):
        return None
    first = positional[0].arg
    return None if first.startswith("_") else first


def _trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(UI.rglob("*.py"))}


def _optional_methods(trees: dict[Path, ast.Module]) -> dict[str, list[str]]:
    """Method and function name → where it is defined with a parameter a signal could fill."""
    found: dict[str, list[str]] = {}
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                method = bool(node.args.args) and node.args.args[0].arg in ("self", "cls")
                name = _first_optional(node.args, method=method)
                if name is not None:
                    where = f"{path.relative_to(REPO_ROOT)}:{node.lineno} ({name}=...)"
                    found.setdefault(node.name, []).append(where)
    return found


def _own_methods(cls: ast.ClassDef) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """The methods a class defines itself: ``self.name`` in its body means one of these first."""
    return {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def _connects(
    node: ast.AST, owner: ast.ClassDef | None = None
) -> Iterator[tuple[ast.Call, ast.ClassDef | None]]:
    """Every ``.connect(slot)`` call under ``node``, with the class whose body it is in."""
    for child in ast.iter_child_nodes(node):
        inner = child if isinstance(child, ast.ClassDef) else owner
        is_call = isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
        if is_call and child.func.attr == "connect" and child.args:
            yield child, owner
        yield from _connects(child, inner)


def _problems(trees: dict[Path, ast.Module]) -> list[str]:
    """Every ``.connect(slot)`` whose slot has a parameter the signal's value would fill.

    ``self.name`` is judged by the enclosing class's own method of that name when it has one;
    any other attribute by every UI function of that name (a slot of another object)."""
    optional = _optional_methods(trees)
    problems = []
    for path, tree in trees.items():
        for node, owner in _connects(tree):
            slot = node.args[0]
            where = f"{path.relative_to(REPO_ROOT)}:{node.lineno}: {ast.unparse(node)}"
            if isinstance(slot, ast.Lambda):
                name = _first_optional(slot.args, method=False)
                if name is not None:
                    problems.append(f"{where} — the lambda's {name}= gets the signal's value")
                continue
            if not isinstance(slot, ast.Attribute):
                continue
            own = _own_methods(owner) if owner is not None else {}
            is_self = isinstance(slot.value, ast.Name) and slot.value.id == "self"
            if is_self and slot.attr in own:
                name = _first_optional(own[slot.attr].args, method=True)
                if name is not None:
                    problems.append(f"{where} — {slot.attr} takes ({name}=...)")
            elif slot.attr in optional:
                problems.append(f"{where} — {slot.attr} is defined at {', '.join(optional[slot.attr])}")
    return problems


def test_no_signal_is_connected_to_a_slot_with_an_optional_parameter() -> None:
    assert _problems(_trees()) == []


def test_the_scan_finds_the_send_button_bug() -> None:
    """The scan itself works: the very connection that crashed Send is caught, and a lambda like it."""
    tree = ast.parse(
        "class Dock:\n"
        "    def send(self, text=None): ...\n"
        "    def stop(self, _checked=False): ...\n"
        "    def wire(self):\n"
        "        self.send_button.clicked.connect(self.send)\n"
        "        self.stop_button.clicked.connect(self.stop)\n"
        "        self.action.triggered.connect(lambda path=None: open(path))\n"
        "        self.other.triggered.connect(lambda _checked=False, path=None: open(path))\n"
    )
    problems = _problems({UI / "example.py": tree})
    assert len(problems) == 2
    assert "connect(self.send)" in problems[0] and "(text=...)" in problems[0]
    assert "lambda path=None" in problems[1]


def test_a_class_s_own_slot_is_judged_by_its_own_definition() -> None:
    """``self.save`` in a class that defines ``save()`` is that method, not another class's
    ``save(path=None)``; a slot of another object is still judged by every method of its name."""
    tree = ast.parse(
        "class Controller:\n"
        "    def save(self, path=None): ...\n"
        "class Command:\n"
        "    def save(self): ...\n"
        "    def wire(self, controller):\n"
        "        self.timer.timeout.connect(self.save)\n"
        "        self.button.clicked.connect(controller.save)\n"
    )
    problems = _problems({UI / "example.py": tree})
    assert len(problems) == 1 and "connect(controller.save)" in problems[0]
