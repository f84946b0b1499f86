"""Every block's accepted-view text equals what LibreOffice shows after Accept All.

LibreOffice is the independent reader: it opens each corpus file, accepts all changes, and its
paragraph texts are compared with our blocks (deleted paragraph marks joined, as accepting
does). Blank paragraphs are left out on both sides: LibreOffice drops empty section-break
paragraphs and folds vertically merged cells, which are layout, not text. The few files where
the readers genuinely differ are named with the reason in ``data/lo_text_differences.tsv``.
"""

from __future__ import annotations

import difflib
import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from datetime import date

import pytest

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.hashing import normalize_text
from tests.conftest import run_lo_inspect
from tests.lo_known_differences import read_rows, today_formats, with_today_as_token

pytestmark = [pytest.mark.libreoffice, pytest.mark.corpus]

_MARKER = re.compile(r"\\\[\\\^e?\d+\\\]")


_ROWS = read_rows("lo_text_differences.tsv")
KNOWN: dict[str, set[tuple[str, str]]] = {}
for _name, _ours, _theirs, _why in _ROWS:
    KNOWN.setdefault(_name, set()).add((_ours, _theirs))
#: LibreOffice shows DATE fields as the day it ran; the table writes that day as a token.
TODAY_FORMATS = today_formats(_ROWS)


def libreoffice_paragraphs(
    paragraphs: list[str], formats: set[str], days: list[date] | None = None
) -> list[str]:
    """LibreOffice's non-blank paragraphs, normalised, with the day it ran (one of ``days``,
    by default the session's) written as a token."""
    texts = (normalize_text(p) for p in paragraphs)
    return [with_today_as_token(t, formats, days) for t in texts if t]


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
        theirs = libreoffice_paragraphs(reading["accept_all"]["paragraphs"], TODAY_FORMATS)
        compared += len(ours)
        found = differences(ours, theirs)
        if ("*", "*") in expected:
            assert found, f"{path.name} is listed as differing but now agrees: update the table"
            continue
        if found != expected:
            mismatched[path.name] = found ^ expected
    assert not mismatched, f"block text differs from LibreOffice beyond the known table: {mismatched}"
    assert compared > 10_000  # the corpus holds well over ten thousand non-blank paragraphs


def test_date_fields_compare_on_another_day(public_corpus_files, lo_reading):
    """The known-differences table holds whatever day LibreOffice runs on: LibreOffice run
    with its clock set to another day shows that day, and the comparison still agrees."""
    faketime = shutil.which("faketime")
    if faketime is None:
        pytest.skip("faketime is not installed (bash .ci/run installs it)")
    other_day = date(2031, 3, 4)
    dated = [
        p
        for p in public_corpus_files
        if p.name in {"pt_CA012-fldSimple.docx", "pt_HC031-Complicated-Document.docx"}
    ]
    assert len(dated) == 2 and TODAY_FORMATS
    for path in dated:
        reading = run_lo_inspect(path, clock=(faketime, f"{other_day.isoformat()} 10:00:00"))
        theirs = libreoffice_paragraphs(reading["accept_all"]["paragraphs"], TODAY_FORMATS, [other_day])
        assert any(
            other_day.strftime(fmt) in "".join(reading["accept_all"]["paragraphs"]) for fmt in TODAY_FORMATS
        )
        assert differences(accepted_paragraphs(DocxReviewer.open(path)), theirs) == KNOWN[path.name]
