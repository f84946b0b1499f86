"""Imports only go down: docx ← agent ← ui (design.md, "Layers").

The engine and the agent must run headless (CLI, CI, a server later), so neither may load
PySide6, and the engine must not know about the agent or the UI. Checked twice: dynamically,
by importing every module in a fresh interpreter, and statically, by reading every import
statement (which also catches imports inside functions).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

PACKAGE = REPO_ROOT / "reviewer_app"

#: Per layer, module prefixes its files may not import.
FORBIDDEN = {
    "docx": (
        "reviewer_app.agent",
        "reviewer_app.ui",
        "reviewer_app.app",
        "reviewer_app.cli",
        "PySide6",
        "shiboken6",
        "qasync",
        "anthropic",
    ),
    "agent": ("reviewer_app.ui", "reviewer_app.app", "PySide6", "shiboken6", "qasync"),
}

_PROBE = """
import importlib, json, pkgutil, sys
import reviewer_app.docx, reviewer_app.agent, reviewer_app.cli, reviewer_app.resources
loaded, failed = [], {}
for package in (reviewer_app.docx, reviewer_app.agent):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        try:
            importlib.import_module(info.name)
            loaded.append(info.name)
        except Exception as exc:
            failed[info.name] = f"{type(exc).__name__}: {exc}"
qt = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6"))
print(json.dumps({"loaded": loaded, "failed": failed, "qt": qt}))
"""


def test_headless_layers_load_no_qt() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["failed"] == {}, report["failed"]
    assert report["qt"] == [], f"Qt was loaded by a headless layer: {report['qt']}"
    assert "reviewer_app.docx.reviewer" in report["loaded"]


def _module_name(path: Path, root: Path) -> list[str]:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def imported_modules(path: Path, root: Path = REPO_ROOT) -> list[tuple[int, str]]:
    """``(line, absolute module name)`` for every import in ``path``, relative ones resolved.

    ``root`` is the folder that holds the top-level package (the module name comes from it).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = _module_name(path, root)
    package = module if path.name == "__init__.py" else module[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                if node.module:
                    found.append((node.lineno, ".".join([*base, node.module])))
                else:  # from .. import ui
                    found.extend((node.lineno, ".".join([*base, a.name])) for a in node.names)
            elif node.module:
                found.append((node.lineno, node.module))
                found.extend((node.lineno, f"{node.module}.{a.name}") for a in node.names)
    return found


def _violations(layer: str) -> list[str]:
    bad: list[str] = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for line, name in imported_modules(path):
            for prefix in FORBIDDEN[layer]:
                if name == prefix or name.startswith(prefix + "."):
                    bad.append(f"{path.relative_to(REPO_ROOT)}:{line} imports {name}")
    return bad


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_only_go_down(layer: str) -> None:
    assert _violations(layer) == []


def test_import_scanner_resolves_relative_imports(tmp_path: Path) -> None:
    """The static check must see ``from ..ui import x`` as an import of ``reviewer_app.ui``."""
    probe = tmp_path / "reviewer_app" / "docx" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("from ..ui import main_window\nfrom .. import agent\nfrom . import blocks\n")
    names = [name for _, name in imported_modules(probe, root=tmp_path)]
    assert names == ["reviewer_app.ui", "reviewer_app.agent", "reviewer_app.docx.blocks"]
