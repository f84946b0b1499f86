"""Imports only go down: docx ← agent ← ui (design.md, "Layers"), and only the window loads Qt.

The engine and the agent must run headless (CLI, CI, a server later), so neither may load
PySide6, and the engine must not know about the agent or the UI. The command line (``cli/``)
and the self-test (``selftest/``) sit beside the UI: they use the engine and the agent, and
reach the window only from the few functions that start it or paint pages, so ``reviewer read``
on a server never loads Qt. Checked twice: dynamically, by importing every headless module in a
fresh interpreter, and statically, by reading every import statement, including those inside
functions, and knowing which function each one is in.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

PACKAGE = REPO_ROOT / "reviewer_app"

QT = ("PySide6", "shiboken6", "qasync")

#: Per layer, module prefixes its files may not import anywhere, not even inside a function.
FORBIDDEN = {
    "docx": (
        "reviewer_app.agent",
        "reviewer_app.ui",
        "reviewer_app.app",
        "reviewer_app.cli",
        "reviewer_app.selftest",
        *QT,
        "anthropic",
    ),
    "agent": ("reviewer_app.ui", "reviewer_app.app", "reviewer_app.cli", "reviewer_app.selftest", *QT),
}

#: Modules outside ``ui/`` that belong to the window: they import Qt and the UI at module level,
#: so headless code may load them only from an entry point below.
WINDOW_SIDE = {
    "reviewer_app/app.py": "creates the QApplication and the main window",
    "reviewer_app/selftest/document_checks.py": "--self-test opens the sample in the real window",
    "reviewer_app/selftest/launch_probe.py": "the launch benchmark waits for the first painted page",
}

#: The only functions outside ``ui/`` and WINDOW_SIDE that may import Qt, the UI or a
#: window-side module, always inside the function, so nothing loads Qt before they run.
ENTRY_POINTS = {
    ("reviewer_app/cli/main.py", "run_app"): "`reviewer [FILE]` starts the desktop app",
    ("reviewer_app/cli/main.py", "main"): "--self-test and --exit-on-first-paint start it offscreen",
    ("reviewer_app/cli/render.py", "_start_qt"): "`pdf` and `render` paint with the page view",
    ("reviewer_app/cli/render.py", "run_render_command"): "`pdf` and `render` lay out and paint pages",
    ("reviewer_app/selftest/runner.py", "start_qt"): "the self-test starts the app offscreen",
    ("reviewer_app/selftest/runner.py", "_document_checks"): "then opens the sample in the window",
    ("reviewer_app/selftest/environment_checks.py", "_config_folder"): "the UI's settings folder",
    ("reviewer_app/selftest/environment_checks.py", "_state_folder"): "the UI's recovery folder",
    ("reviewer_app/selftest/environment_checks.py", "_log_folder"): "the UI's log folder",
    ("reviewer_app/selftest/report.py", "versions"): "the report names the Qt it ran on",
}

_PROBE = """
import importlib, json, pkgutil, sys
import reviewer_app.docx, reviewer_app.agent, reviewer_app.cli, reviewer_app.selftest, reviewer_app.resources
window_side = set(json.loads(sys.argv[1]))
loaded, failed = [], {}
for package in (reviewer_app.docx, reviewer_app.agent, reviewer_app.cli, reviewer_app.selftest):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if info.name in window_side:
            continue
        try:
            importlib.import_module(info.name)
            loaded.append(info.name)
        except Exception as exc:
            failed[info.name] = f"{type(exc).__name__}: {exc}"
qt = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6"))
print(json.dumps({"loaded": loaded, "failed": failed, "qt": qt}))
"""


def _dotted(relative_path: str) -> str:
    return relative_path.removesuffix(".py").replace("/", ".")


def test_headless_modules_load_no_qt() -> None:
    window_side = json.dumps([_dotted(path) for path in WINDOW_SIDE])
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, window_side],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["failed"] == {}, report["failed"]
    assert report["qt"] == [], f"Qt was loaded by a headless module: {report['qt']}"
    for module in ("reviewer_app.docx.reviewer", "reviewer_app.cli.render", "reviewer_app.selftest.runner"):
        assert module in report["loaded"]


@dataclass(frozen=True)
class Import:
    """One imported module name, where it is written, and the function it is written in."""

    line: int
    name: str
    function: str | None  # None: runs when the module is imported


def _module_name(path: Path, root: Path) -> list[str]:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def scoped_imports(path: Path, root: Path = REPO_ROOT) -> list[Import]:
    """Every import in ``path`` as an absolute module name, with its enclosing function.

    ``root`` is the folder that holds the top-level package (the module name comes from it).
    The function is the outermost ``def`` around the import (``Class.method`` for a method),
    since that is what runs before the import does.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = _module_name(path, root)
    package = module if path.name == "__init__.py" else module[:-1]
    found: list[Import] = []

    def names(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [alias.name for alias in node.names]
        if node.level:
            base = package[: len(package) - (node.level - 1)]
            if node.module:
                return [".".join([*base, node.module])]
            return [".".join([*base, alias.name]) for alias in node.names]  # from .. import ui
        if node.module:
            return [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        return []

    def visit(node: ast.AST, scope: list[str], function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                found.extend(Import(child.lineno, name, function) for name in names(child))
            elif isinstance(child, ast.ClassDef):
                visit(child, [*scope, child.name], function)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                qualname = ".".join([*scope, child.name])
                visit(child, [*scope, child.name], function or qualname)
            else:
                visit(child, scope, function)

    visit(tree, [], None)
    return sorted(found, key=lambda found_import: found_import.line)


def imported_modules(path: Path, root: Path = REPO_ROOT) -> list[tuple[int, str]]:
    """``(line, absolute module name)`` for every import in ``path``, relative ones resolved."""
    return [(found.line, found.name) for found in scoped_imports(path, root)]


def _matches(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def _relative(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def _violations(layer: str) -> list[str]:
    bad: list[str] = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for line, name in imported_modules(path):
            if _matches(name, FORBIDDEN[layer]):
                bad.append(f"{path.relative_to(REPO_ROOT)}:{line} imports {name}")
    return bad


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_only_go_down(layer: str) -> None:
    assert _violations(layer) == []


def window_imports(
    package: Path,
    folders: tuple[str, ...],
    targets: tuple[str, ...],
    window_side: dict[str, str] = WINDOW_SIDE,
    entry_points: dict[tuple[str, str], str] = ENTRY_POINTS,
) -> tuple[list[str], set[tuple[str, str]]]:
    """Imports of ``targets`` in ``folders`` of ``package`` outside the window side and entry points.

    Returns the offending imports (``path:line imports name``) and the entry points that were
    used, so a test can also tell when an allowance is no longer needed.
    """
    root = package.parent
    bad: list[str] = []
    used: set[tuple[str, str]] = set()
    for folder in folders:
        for path in sorted((package / folder).rglob("*.py") if folder else package.glob("*.py")):
            relative = _relative(path, root)
            if relative in window_side or relative.startswith(f"{package.name}/ui/"):
                continue
            for found in scoped_imports(path, root):
                if not _matches(found.name, targets):
                    continue
                key = (relative, found.function or "")
                if found.function is not None and key in entry_points:
                    used.add(key)
                else:
                    where = f"in {found.function}()" if found.function else "at module level"
                    bad.append(f"{relative}:{found.line} imports {found.name} {where}")
    return bad, used


#: Everything that counts as "the window" for a headless module.
WINDOW = ("reviewer_app.ui", *(_dotted(path) for path in WINDOW_SIDE), *QT)
EVERY_FOLDER = ("", "docx", "agent", "cli", "selftest")


def test_only_the_ui_imports_qt() -> None:
    """Outside ``ui/`` and the window side, PySide6 is imported only inside an entry point."""
    bad, _ = window_imports(PACKAGE, EVERY_FOLDER, QT)
    assert bad == []


def test_cli_and_selftest_reach_the_window_only_from_their_entry_points() -> None:
    """The CLI and the self-test use the engine and the agent; the UI only where the app starts."""
    bad, _ = window_imports(PACKAGE, ("cli", "selftest"), WINDOW)
    assert bad == []


def test_every_entry_point_allowance_is_still_needed() -> None:
    _, used = window_imports(PACKAGE, EVERY_FOLDER, WINDOW)
    assert set(ENTRY_POINTS) - used == set()
    assert all((PACKAGE.parent / path).is_file() for path in WINDOW_SIDE)


def test_cli_imports_the_agent_only_when_a_command_runs() -> None:
    """``reviewer read`` must not pay for the agent (and ``anthropic``) it does not use."""
    bad = [
        f"{_relative(path, REPO_ROOT)}:{found.line} imports {found.name}"
        for path in sorted((PACKAGE / "cli").rglob("*.py"))
        for found in scoped_imports(path)
        if found.function is None and _matches(found.name, ("reviewer_app.agent", "anthropic"))
    ]
    assert bad == []


def test_import_scanner_resolves_relative_imports(tmp_path: Path) -> None:
    """The static check must see ``from ..ui import x`` as an import of ``reviewer_app.ui``."""
    probe = tmp_path / "reviewer_app" / "docx" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("from ..ui import main_window\nfrom .. import agent\nfrom . import blocks\n")
    names = [name for _, name in imported_modules(probe, root=tmp_path)]
    assert names == ["reviewer_app.ui", "reviewer_app.agent", "reviewer_app.docx.blocks"]


def test_the_window_rule_sees_imports_inside_functions_and_methods(tmp_path: Path) -> None:
    """A Qt import hidden in a method, or the UI reached from the wrong function, is caught."""
    package = tmp_path / "reviewer_app"
    (package / "cli").mkdir(parents=True)
    (package / "cli" / "main.py").write_text(
        "def run_app():\n    from ..ui import main_window\n\n"
        "def run_read():\n    from ..ui import main_window\n\n"
        "class Printer:\n    def show(self):\n        import PySide6.QtWidgets\n"
    )
    allowed = {("reviewer_app/cli/main.py", "run_app"): "starts the app"}
    bad, used = window_imports(package, ("cli",), WINDOW, window_side={}, entry_points=allowed)
    assert bad == [
        "reviewer_app/cli/main.py:5 imports reviewer_app.ui in run_read()",
        "reviewer_app/cli/main.py:9 imports PySide6.QtWidgets in Printer.show()",
    ]
    assert used == {("reviewer_app/cli/main.py", "run_app")}
