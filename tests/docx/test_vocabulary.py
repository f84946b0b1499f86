"""The engine's element sets are written once, in ``reviewer_app/docx/vocabulary.py``.

A module that spells the revision wrappers again can silently leave one out (a ``moveFrom``
treated as live text, a ``moveTo`` left behind by a resolve); this scan keeps the engine on the
named sets, whose docstrings say how each differs from its neighbours.
"""

from __future__ import annotations

import ast
from pathlib import Path

from reviewer_app.docx import vocabulary

DOCX = Path(vocabulary.__file__).parent
WRAPPER_NAMES = {"ins", "del", "moveFrom", "moveTo"}


def _wrapper_name(node: ast.AST) -> str | None:
    """``"del"`` for the expression ``W + "del"`` (any revision wrapper), else None."""
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Add)
        and isinstance(node.left, ast.Name)
        and node.left.id == "W"
        and isinstance(node.right, ast.Constant)
        and node.right.value in WRAPPER_NAMES
    ):
        return node.right.value
    return None


def _spelled_sets(tree: ast.AST) -> list[int]:
    """Lines where a collection lists only revision wrappers, two or more, by tag: the wrapper set
    or one of its named parts (``INSERTED``, ``DELETED``, ``MOVES``) written again. Mixed sets
    that hold a wrapper among other elements are facts of their own and are not flagged."""
    # ``_INS, _DEL = W + "ins", W + "del"`` names single tags to build elements with: not a set
    unpacked = {
        id(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Tuple)
    }
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and id(node) not in unpacked:
            names = [_wrapper_name(e) for e in node.elts]
        elif isinstance(node, ast.comprehension) and isinstance(node.iter, (ast.Tuple, ast.List)):
            names = [
                e.value if isinstance(e, ast.Constant) and e.value in WRAPPER_NAMES else None
                for e in node.iter.elts
            ]
        else:
            continue
        if len(names) >= 2 and None not in names:
            lines.append(node.iter.lineno if isinstance(node, ast.comprehension) else node.lineno)
    return lines


def test_no_engine_module_spells_the_revision_wrappers_again() -> None:
    found = {}
    for path in sorted(DOCX.rglob("*.py")):
        if path.name == "vocabulary.py":
            continue
        lines = _spelled_sets(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            found[str(path.relative_to(DOCX))] = lines
    assert found == {}
