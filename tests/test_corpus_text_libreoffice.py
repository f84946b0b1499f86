"""Every block's accepted-view text equals what LibreOffice shows after Accept All.

LibreOffice is the independent reader: it opens each corpus file, accepts all changes, and its
paragraph texts are compared with our blocks (deleted paragraph marks joined, as accepting
does). Blank paragraphs are left out on both sides: LibreOffice drops empty section-break
paragraphs and folds vertically merged cells, which are layout, not text. The few files where
the readers genuinely differ are named with the reason in ``data/lo_text_differences.tsv``.
"""

from __future__ import annotations

import csv
import difflib
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.hashing import normalize_text

pytestmark = [pytest.mark.libreoffice, pytest.mark.corpus]

_DIFFERENCES = Path(__file__).parent / "data" / "lo_text_differences.tsv"
_MARKER = re.compile(r"\\\[\\\^e?\d+\\\]")


def _known_differences() -> dict[str, set[tuple[str, str]]]:
    table: dict[str, set[tuple[str, str]]] = {}
    with _DIFFERENCES.open(encoding="utf-8") as fh:
        rows = csv.reader((line for line in fh if not line.startswith("#")), delimiter="\t")
        for name, ours, theirs, _why in rows:
            table.setdefault(name, set()).add((ours, theirs))
    return table


KNOWN = _known_differences()


def accepted_paragraphs(reviewer: DocxReviewer) -> list[str]:
    """Our blocks as accepting all changes lays them out: a deleted mark joins the next block."""
    out: list[str] = []
    carry = ""
    for block in reviewer.snapshot().blocks:
        if block.kind == "diagnostic":
            continue
        if block.mark_deleted:
            carry += block.text
            continue
        out.append(carry + block.text)
        carry = ""
    if carry:
        out.append(carry)
    return [t for t in (normalize_text(p) for p in out) if t]


def _same(ours: str, theirs: str) -> bool:
    """Equal, allowing our ``[^N]`` note markers where LibreOffice shows the note's number."""
    if ours == theirs:
        return True
    return re.fullmatch(_MARKER.sub(".{0,6}?", re.escape(ours)), theirs) is not None


def differences(ours: list[str], theirs: list[str]) -> set[tuple[str, str]]:
    """Mismatched stretches as (our first text, their first text), 40 characters each."""
    found: set[tuple[str, str]] = set()
    matcher = difflib.SequenceMatcher(None, theirs, ours, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        if op == "replace" and i2 - i1 == j2 - j1:
            for a, b in zip(ours[j1:j2], theirs[i1:i2], strict=True):
                if not _same(a, b):
                    found.add((a[:40], b[:40]))
            continue
        found.add(((ours[j1] if j2 > j1 else "")[:40], (theirs[i1] if i2 > i1 else "")[:40]))
    return found


def test_every_corpus_file_reads_like_libreoffice(public_corpus_files, lo_reading):
    with ThreadPoolExecutor(max_workers=2) as pool:  # two soffice processes at a time
        list(pool.map(lambda f: lo_reading(f, accept_reject=True), public_corpus_files))
    mismatched: dict[str, set[tuple[str, str]]] = {}
    compared = 0
    for path in public_corpus_files:
        reading = lo_reading(path, accept_reject=True)
        expected = KNOWN.get(path.name, set())
        if not reading.get("load_ok"):
            assert ("-", "-") in expected, f"LibreOffice could not load {path.name}: {reading.get('error')}"
            continue
        ours = accepted_paragraphs(DocxReviewer.open(path))
        theirs = [t for t in (normalize_text(p) for p in reading["accept_all"]["paragraphs"]) if t]
        compared += len(ours)
        found = differences(ours, theirs)
        if ("*", "*") in expected:
            assert found, f"{path.name} is listed as differing but now agrees: update the table"
            continue
        if found != expected:
            mismatched[path.name] = found ^ expected
    assert not mismatched, f"block text differs from LibreOffice beyond the known table: {mismatched}"
    assert compared > 10_000  # the corpus holds well over ten thousand non-blank paragraphs
