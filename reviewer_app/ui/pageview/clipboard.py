"""What Copy and Cut in the page view put on the clipboard, and what Paste finds there.

Copy puts the selected text twice: as plain text, which every other program reads, and as
Reviewer's own format (:data:`RUNS_MIME`, the paragraphs of runs :func:`copied_paragraphs`
reads from the document, each run with its formatting: font, size, colour, character style, bold
and the rest), which only a paste in Reviewer reads, so a term copied bold is pasted bold, as
Word pastes from Word. What
another program copied has no such format and is pasted as plain text.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QGuiApplication

from ...docx.edit.ops_paste import copied_paragraphs
from ...docx.snapshot import Snapshot
from ...docx.xmlutil import W
from .caret import Caret

#: Reviewer's own clipboard format:
#: ``{"version": 1, "paragraphs": [[{"text", "formatting", "rPr"}, ...], ...]}`` (``rPr`` optional)
RUNS_MIME = "application/x-reviewer-runs+json"
_VERSION = 1
_P = W + "p"


def copy_selection(view: Any) -> bool:
    """Put the page view's selection on the clipboard (False when nothing is selected)."""
    text = view.selection_text()
    if not text:
        return False
    reviewer = view.document_reviewer()
    snapshot = reviewer.snapshot() if reviewer is not None else None
    QGuiApplication.clipboard().setMimeData(selection_mime(text, view.selection_ends(), snapshot))
    return True


def selection_mime(text: str, ends: tuple[Caret, Caret] | None, snapshot: Snapshot | None) -> QMimeData:
    """The clipboard's content for a selection: ``text``, and its runs when its ends are known."""
    mime = QMimeData()
    mime.setText(text)
    parts = _parts(ends, snapshot) if ends is not None and snapshot is not None else None
    if parts:
        payload = {"version": _VERSION, "paragraphs": copied_paragraphs(parts)}
        mime.setData(RUNS_MIME, json.dumps(payload, ensure_ascii=False).encode("utf-8"))
    return mime


def _parts(ends: tuple[Caret, Caret], snapshot: Snapshot) -> list[Any] | None:
    """(block, start, end) of each paragraph the selection covers; None when an end is unknown."""
    first, last = ends
    start, end = snapshot.index_of(first.block_id), snapshot.index_of(last.block_id)
    if start is None or end is None or end < start:
        return None
    parts = []
    for block in snapshot.blocks[start : end + 1]:
        if block.element is None or block.element.tag != _P:
            continue
        a = first.offset if block.id == first.block_id else 0
        z = last.offset if block.id == last.block_id else len(block.text)
        parts.append((block, a, z))
    return parts


def pasted_paragraphs(mime: QMimeData | None) -> list[list[dict[str, Any]]] | None:
    """The paragraphs of runs Reviewer copied, or None for anything else (paste it as plain text).

    A payload that is not what this module writes (another version, damaged) is None too: the
    plain text beside it is pasted instead, so nothing the person copied is lost.
    """
    if mime is None or not mime.hasFormat(RUNS_MIME):
        return None
    try:
        payload = json.loads(bytes(mime.data(RUNS_MIME).data()).decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(payload, dict) or payload.get("version") != _VERSION:
        return None
    paragraphs = payload.get("paragraphs")
    if not isinstance(paragraphs, list) or not paragraphs:
        return None
    if not all(isinstance(p, list) and all(_is_run(r) for r in p) for p in paragraphs):
        return None
    return paragraphs


def _is_run(run: Any) -> bool:
    """A run as :func:`copied_paragraphs` writes it: its text, its formatting and (optional) its
    ``w:rPr`` as XML."""
    return (
        isinstance(run, dict)
        and isinstance(run.get("text"), str)
        and isinstance(run.get("formatting"), dict)
        and isinstance(run.get("rPr", ""), str)
    )
