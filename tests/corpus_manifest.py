"""The public corpus as its MANIFEST.tsv describes it, and LibreOffice's plain reading of its files.

The corpus tests of several engine modules (comments, revisions, numbering, pages) choose their
files by a manifest column and compare counts with it; they read it through here so the file's
layout is known in one place.
"""

from __future__ import annotations

import csv
import json
import subprocess
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from reviewer_app.docx.errors import DocxOpenError
from reviewer_app.docx.reviewer import DocxReviewer
from tests.conftest import CHECKERS, CORPUS, LO_PARALLEL, LO_TIMEOUT_S, SOFFICE

PUBLIC = CORPUS / "public"
MANIFEST = CORPUS / "MANIFEST.tsv"


def manifest(split: str | None = "public") -> dict[str, dict[str, str]]:
    """Manifest rows by file name, of one split (all rows for ``None``; empty without shared/)."""
    if not MANIFEST.is_file():
        return {}
    with MANIFEST.open(encoding="utf-8", newline="") as fh:
        rows = csv.DictReader(fh, delimiter="\t")
        return {row["file"]: row for row in rows if split is None or row["split"] == split}


def files_counting(*columns: str) -> list[str]:
    """Public files whose manifest counts something in any of ``columns`` (sorted names)."""
    return sorted(name for name, row in manifest().items() if any(row[c] not in ("", "0") for c in columns))


def open_or_skip(path: Path) -> DocxReviewer:
    """The file opened for review; a file refused at open by design (Strict OOXML...) is skipped."""
    try:
        return DocxReviewer.open(path)
    except DocxOpenError as exc:
        pytest.skip(f"{path.name} is refused at open: {exc}")


def _lo_plain_read(path: Path) -> dict[str, Any] | None:
    python = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else "python3"
    done = subprocess.run(
        [python, str(CHECKERS / "lo_inspect.py"), str(path), "--compact", "--no-accept-reject"],
        capture_output=True,
        text=True,
        timeout=LO_TIMEOUT_S,
        stdin=subprocess.DEVNULL,
    )
    return json.loads(done.stdout) if done.returncode == 0 else None


def lo_plain_readings(names: Iterable[str]) -> dict[str, dict[str, Any] | None]:
    """LibreOffice's reading of public files without its accept/reject passes (None: not loaded).

    For tests that compare only what LibreOffice shows as the file is: skipping the two extra
    passes halves the time of the largest corpus runs. Skips when LibreOffice is absent.
    """
    if not SOFFICE.exists() or not (CHECKERS / "lo_inspect.py").exists():
        pytest.skip(f"LibreOffice ({SOFFICE}) or the shared checkers are not available")
    names = list(names)
    with ThreadPoolExecutor(max_workers=LO_PARALLEL) as pool:
        readings = list(pool.map(lambda n: _lo_plain_read(PUBLIC / n), names))
    return dict(zip(names, readings, strict=True))
