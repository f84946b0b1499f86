"""The text of a PDF the app wrote, as a reader's copy and paste gets it (poppler's pdftotext)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def pdf_text(pdf: Path) -> str:
    """Every page's text in reading order; skips the test where pdftotext is not installed."""
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    done = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True)
    return done.stdout
