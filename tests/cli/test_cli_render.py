"""``reviewer pdf`` and ``reviewer render``, run as a user runs them: the real CLI in a subprocess."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from tests.cli_runner import run_reviewer_without_display
from tests.conftest import REPO_ROOT

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
SAMPLE_PAGES = 17


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    if not SAMPLE.exists():
        pytest.skip("the sample contract is missing")
    copy = tmp_path / "contract.docx"
    shutil.copy(SAMPLE, copy)
    return copy


def _pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", data))


def test_pdf_has_one_page_per_laid_out_page(sample: Path, tmp_path: Path) -> None:
    out = tmp_path / "redline.pdf"
    done = run_reviewer_without_display("pdf", str(sample), "-o", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    assert _pdf_pages(data) == SAMPLE_PAGES
    assert f"wrote {SAMPLE_PAGES} page(s)" in done.stdout
    accepted = tmp_path / "clean.pdf"
    done = run_reviewer_without_display(
        "pdf", str(sample), "-o", str(accepted), "--markup", "none", "--no-comments", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert _pdf_pages(accepted.read_bytes()) >= SAMPLE_PAGES - 1


def test_render_writes_the_chosen_pages_as_pngs(sample: Path, tmp_path: Path) -> None:
    folder = tmp_path / "pages"
    done = run_reviewer_without_display(
        "render", str(sample), "--pages", "1-3,17", "-o", str(folder), "--dpi", "48", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in folder.glob("*.png"))
    assert written == ["page-1.png", "page-17.png", "page-2.png", "page-3.png"]
    image = QImage(str(folder / "page-1.png"))
    assert not image.isNull()
    assert 390 <= image.height() <= 580  # an A4 or Letter page at 48 dpi
    assert f"wrote 4 of {SAMPLE_PAGES} page(s)" in done.stdout


def test_unreadable_files_and_bad_arguments_exit_2(sample: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"not a zip file")
    done = run_reviewer_without_display("pdf", str(broken), "-o", str(tmp_path / "x.pdf"), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith('reviewer: "') and "cannot be opened" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "x.pdf").exists()
    missing = run_reviewer_without_display(
        "render", str(tmp_path / "none.docx"), "-o", str(tmp_path / "p"), cwd=tmp_path
    )
    assert missing.returncode == 2 and "no such file" in missing.stderr
    beyond = run_reviewer_without_display(
        "render", str(sample), "--pages", "40", "-o", str(tmp_path / "p"), cwd=tmp_path
    )
    assert beyond.returncode == 2 and "there is no page 40" in beyond.stderr
    no_output = run_reviewer_without_display("pdf", str(sample), cwd=tmp_path)
    assert no_output.returncode == 2 and "needs -o" in no_output.stderr
    bad_pages = run_reviewer_without_display(
        "render", str(sample), "--pages", "3-1", "-o", str(tmp_path / "p"), cwd=tmp_path
    )
    assert bad_pages.returncode == 2


_LOADED_PROBE = """
import sys
from reviewer_app.cli import main
code = main(["pdf", sys.argv[1], "-o", sys.argv[2]])
print(code, *sorted(m for m in sys.modules if m.startswith(("PySide6.QtWidgets", "reviewer_app"))))
"""


def test_pdf_starts_without_the_window_or_the_checks(sample: Path, tmp_path: Path) -> None:
    """Every conversion pays its start-up: ``reviewer pdf`` loads the layout and the painter, not
    the window's widgets (QtWidgets, the page view's caret and clipboard), the contract checks
    or the lock file's machinery (only the edit commands look for a window holding the file)."""
    done = subprocess.run(
        [sys.executable, "-c", _LOADED_PROBE, str(sample), str(tmp_path / "out.pdf")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    code, *loaded = done.stdout.splitlines()[-1].split()
    assert code == "0", done.stderr
    assert "reviewer_app.ui.pageview.paint" in loaded
    unwanted = (
        "PySide6.QtWidgets",
        "reviewer_app.ui.pageview.view",
        "reviewer_app.docx.checks",
        "reviewer_app.docx.doc_lock",
    )
    assert [m for m in loaded if m.startswith(unwanted)] == []
