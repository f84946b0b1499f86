"""LibreOffice's PDF of small generated documents, read back word by word by poppler.

Page-view tests that hold a layout rule to LibreOffice's (where a page breaks, where a body line
starts) convert their documents here, in one ``soffice`` run with its own profile, so a test
does not depend on the user's LibreOffice settings.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

#: skips a test where LibreOffice or poppler, which make the reference, are not installed
NEEDS_LIBREOFFICE = pytest.mark.skipif(
    shutil.which("soffice") is None or shutil.which("pdftotext") is None,
    reason="LibreOffice and poppler make the reference",
)


def libreoffice_boxes(paths: list[Path], out: Path, flag: str = "-bbox") -> list[str]:
    """Poppler's word boxes (``pdftotext`` with ``flag``) of LibreOffice's PDF of each of ``paths``."""
    subprocess.run(
        ["soffice", f"-env:UserInstallation=file://{out / 'profile'}", "--headless"]
        + ["--convert-to", "pdf", "--outdir", str(out)]
        + [str(path) for path in paths],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return [
        subprocess.run(
            ["pdftotext", flag, str(out / f"{path.stem}.pdf"), "-"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        for path in paths
    ]


def libreoffice_tops(path: Path, out: Path, word: str) -> list[float]:
    """Per page of LibreOffice's PDF, the top (pt) of the first word starting with ``word``."""
    boxes = libreoffice_boxes([path], out, "-bbox-layout")[0]
    pattern = rf'<word xMin="[\d.]+" yMin="([\d.]+)"[^>]*>{word}\w*</word>'
    return [min(float(y) for y in re.findall(pattern, page)) for page in boxes.split("<page ")[1:]]
