"""Every test makes its asyncio-on-Qt loop with ``tests/qt_event_loop.py``.

A qasync loop made and closed anywhere else keeps its Qt timer in a reference cycle, and Python's
collector may destroy it on a model server's thread: the suite then crashes later, in another
test (see that module's docstring). This keeps new tests from bringing the crash back.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO_ROOT

TESTS = REPO_ROOT / "tests"
MAKER = TESTS / "qt_event_loop.py"
LOOP_CLASSES = ("QEventLoop", "QSelectorEventLoop")


def _names_qasync_loop(node: ast.AST) -> bool:
    """``qasync.QEventLoop`` (or its selector variant), or an import of it from qasync."""
    if isinstance(node, ast.Attribute):
        return node.attr in LOOP_CLASSES and isinstance(node.value, ast.Name) and node.value.id == "qasync"
    if isinstance(node, ast.ImportFrom):
        return node.module == "qasync" and any(alias.name in LOOP_CLASSES for alias in node.names)
    return False


def _qasync_loops_made(path: Path) -> list[int]:
    """Lines of ``path`` that name qasync's QEventLoop."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.lineno for node in ast.walk(tree) if _names_qasync_loop(node)]


def test_tests_make_qasync_loops_only_through_the_shared_maker() -> None:
    elsewhere = {
        str(path.relative_to(REPO_ROOT)): lines
        for path in sorted(TESTS.rglob("*.py"))
        if path != MAKER and "_artifacts" not in path.parts and (lines := _qasync_loops_made(path))
    }
    assert elsewhere == {}, "use tests.qt_event_loop.qt_event_loop() (or the chat fixtures' loop)"
    assert _qasync_loops_made(MAKER), "the scan must see the maker's own qasync.QEventLoop"
