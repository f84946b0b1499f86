"""No Qt signal's argument lands in a parameter that was meant to be left out.

A signal that carries a value (``clicked(bool)``, ``triggered(bool)``, ``toggled``,
``currentIndexChanged(int)``, ``textChanged(str)``...) connected to a slot with an optional
parameter fills that parameter: the chat's Send button once sent ``False`` as the message
(``send(text=None)``) and crashed. This scan reads every ``.connect(...)`` in ``reviewer_app/ui``
and fails on a slot whose first parameter is optional, so it silently receives the signal's
value: a method (found by name among the UI's functions) or a lambda.
A parameter whose name starts with ``_`` is a deliberate "ignore the signal's value" and passes;
connect a no-argument slot or a lambda otherwise.
"""

from __future__ import annotations

import ast
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


def _problems(trees: dict[Path, ast.Module]) -> list[str]:
    """Every ``.connect(slot)`` whose slot has a parameter the signal's value would fill."""
    optional = _optional_methods(trees)
    problems = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr != "connect" or not node.args:
                continue
            slot = node.args[0]
            where = f"{path.relative_to(REPO_ROOT)}:{node.lineno}: {ast.unparse(node)}"
            if isinstance(slot, ast.Lambda):
                name = _first_optional(slot.args, method=False)
                if name is not None:
                    problems.append(f"{where} — the lambda's {name}= gets the signal's value")
            elif isinstance(slot, ast.Attribute) and slot.attr in optional:
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
