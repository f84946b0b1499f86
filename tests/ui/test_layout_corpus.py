"""Our pages against LibreOffice's, word by word, on the contracts and the public corpus.

Issue 14's targets, for every contracts file: word recall ≥ 0.995 (the share of LibreOffice's words
our PDF has: clipped, hidden or unsearchable text lowers it) and no word off the paper; over the set:
median same-page share ≥ 0.95, median line agreement ≥ 0.90, page count within one of LibreOffice's.
Not every file reaches them yet, so the test holds each file to the level it has reached
(``tests/data/layout_contracts.tsv``, which also says why a file is below target, where LibreOffice
rather than our layout is the cause) and the set to its medians: a change that loses ground fails.
The public corpus (``../shared/corpus/public``, files up to :data:`PUBLIC_MAX_PAGES` pages) is held
to its medians.

The judge is ``../shared/checkers/layout_compare.py`` (poppler reads both PDFs). LibreOffice's PDFs
are made once per run, two soffice processes at a time, in a temporary folder; ours come from the
same code as ``reviewer pdf``. The table printed (``pytest -s``) is the one to quote.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage, QPainter

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.render import render_pdf
from tests.conftest import CHECKERS, LO_PARALLEL, LO_TIMEOUT_S, SOFFICE, corpus_files
from tests.lo_known_differences import read_rows

pytestmark = [pytest.mark.libreoffice, pytest.mark.corpus]

CONTRACTS = corpus_files("contracts")
PUBLIC = corpus_files("public")
#: Contracts whose first pages are rendered beside LibreOffice's for a person to look at.
SIDE_BY_SIDE = (
    "oa_common-paper-mutual-nda.docx",
    "oa_bonterms-mutual-nda.docx",
    "oa_common-paper-order-form.docx",
    "oa_common-paper-order-form-with-sla.docx",
    "oa_common-paper-partnership-agreement.docx",
    "oa_common-paper-data-processing-agreement.docx",
)
#: Levels over the contracts reached now (issue 14 targets: 0.95 and 0.90).
MEDIAN_SAME_PAGE_FLOOR = 0.995
MEDIAN_LINE_MATCH_FLOOR = 0.94
#: Levels over the public corpus reached now: (median recall, median same-page, median line agreement).
PUBLIC_MEDIAN_FLOORS = (0.999, 0.995, 0.99)
#: Files LibreOffice lays out on more pages are left out of the public run: the word comparison is
#: quadratic (a 300-page book takes layout_compare.py four minutes).
PUBLIC_MAX_PAGES = 60


def _floors() -> dict[str, dict[str, float]]:
    """file -> the levels it is held to (see the table's header)."""
    return {
        row[0]: {
            "word_recall": float(row[1]),
            "same_page": float(row[2]),
            "line_match": float(row[3]),
            "off_page_words": float(row[4]),
            "page_difference": float(row[5]),
        }
        for row in read_rows("layout_contracts.tsv")
    }


def _libreoffice_pdfs(files: list[Path], out: Path) -> dict[str, Path]:
    """LibreOffice's PDF of each file, made by :data:`LO_PARALLEL` soffice processes with own profiles."""
    groups = [files[i::LO_PARALLEL] for i in range(LO_PARALLEL)]
    running = []
    for number, group in enumerate(g for g in groups if g):
        profile = (out / f"profile-{number}").as_uri()
        command = [str(SOFFICE), f"-env:UserInstallation={profile}", "--headless", "--norestore"]
        command += ["--convert-to", "pdf", "--outdir", str(out), *map(str, group)]
        running.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    for process in running:
        process.wait(timeout=LO_TIMEOUT_S)
    return {f.name: out / (f.stem + ".pdf") for f in files}


def _compare(docx: Path, ours: Path, theirs: Path) -> dict[str, object]:
    command = [sys.executable, str(CHECKERS / "layout_compare.py"), str(docx), "--ours", str(ours)]
    done = subprocess.run(
        [*command, "--lo", str(theirs), "--json"], capture_output=True, text=True, timeout=300, check=True
    )
    return json.loads(done.stdout)


def _table(results: dict[str, dict[str, object]]) -> str:
    lines = [f"{'file':54} recall same_page line_match off_page pages (ours/LO)"]
    for name, r in results.items():
        pages = r["pages"]
        lines.append(
            f"{name:54} {r['word_recall']:6.3f} {r['same_page']:9.3f} {r['line_match']:10.3f} "
            f"{r['off_page_words']:8d} {pages['ours']:5d}/{pages['libreoffice']}"  # type: ignore[index]
        )
    return "\n".join(lines)


def _pdf_pages(pdf: Path) -> int:
    done = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    return int(next(line.split()[1] for line in done.stdout.splitlines() if line.startswith("Pages:")))


def _results(
    files: list[Path], folder: Path, every: bool = True, max_pages: int | None = None
) -> dict[str, dict[str, object]]:
    """layout_compare's figures for each file; ``every``: LibreOffice must convert each one;
    ``max_pages``: files LibreOffice lays out on more pages are left out."""
    if not files:
        pytest.skip("the corpus folder is not there")
    if not SOFFICE.exists():
        pytest.skip(f"LibreOffice is not installed ({SOFFICE})")
    theirs = _libreoffice_pdfs(files, folder / "libreoffice")
    results: dict[str, dict[str, object]] = {}
    for docx in files:
        if not theirs[docx.name].exists():
            assert not every, f"LibreOffice made no PDF of {docx.name}"
            continue
        if max_pages is not None and _pdf_pages(theirs[docx.name]) > max_pages:
            continue
        ours = folder / (docx.stem + ".pdf")
        render_pdf(DocxReviewer.open(docx), ours)
        results[docx.name] = _compare(docx, ours, theirs[docx.name])
    print("\n" + _table(results))
    return results


def _median(results: dict[str, dict[str, object]], key: str) -> float:
    return statistics.median(float(r[key]) for r in results.values())  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def contract_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the contracts' PDFs are written: ours as NAME.pdf, LibreOffice's in libreoffice/."""
    return tmp_path_factory.mktemp("contracts")


@pytest.fixture(scope="module")
def contract_results(qapp, contract_folder: Path) -> dict[str, dict[str, object]]:
    return _results(CONTRACTS, contract_folder)


def test_every_contract_keeps_its_level(contract_results: dict[str, dict[str, object]]) -> None:
    floors = _floors()
    assert set(floors) == set(contract_results), "tests/data/layout_contracts.tsv names every contract"
    lost = []
    for name, result in contract_results.items():
        floor = floors[name]
        pages = result["pages"]
        measured = {
            "word_recall": result["word_recall"],
            "same_page": result["same_page"],
            "line_match": result["line_match"],
            "off_page_words": result["off_page_words"],
            "page_difference": abs(pages["ours"] - pages["libreoffice"]),  # type: ignore[index]
        }
        for key, value in measured.items():
            worse = value > floor[key] if key in ("off_page_words", "page_difference") else value < floor[key]
            if worse:
                lost.append(f"{name}: {key} {value} (held at {floor[key]})")
    assert lost == []


def test_the_set_keeps_its_medians(contract_results: dict[str, dict[str, object]]) -> None:
    assert _median(contract_results, "same_page") >= MEDIAN_SAME_PAGE_FLOOR
    assert _median(contract_results, "line_match") >= MEDIAN_LINE_MATCH_FLOOR


def test_the_public_corpus_keeps_its_medians(qapp, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Every public file LibreOffice can convert (it gives up on one) and lays out on at most
    :data:`PUBLIC_MAX_PAGES` pages: the medians may not fall.

    71 files: median recall, same-page share and line agreement are all 1.0 now (52 files reach
    recall 0.995). Right-to-left files score low for a reason of the checker's own (poppler splits
    their words in Qt's PDFs into letters, see ../shared/checkers/README.md), Chinese ones because
    no CJK font is installed here (Qt then draws and writes nothing for those characters), and a
    DATE field because LibreOffice recomputes it; the medians are not moved by them.
    """
    results = _results(PUBLIC, tmp_path_factory.mktemp("public"), every=False, max_pages=PUBLIC_MAX_PAGES)
    assert len(results) >= len(PUBLIC) - 5
    medians = tuple(_median(results, key) for key in ("word_recall", "same_page", "line_match"))
    assert all(value >= floor for value, floor in zip(medians, PUBLIC_MEDIAN_FLOORS, strict=True)), medians


def _side_by_side(ours: Path, theirs: Path, pages: int, target: Path) -> QImage:
    """Our first ``pages`` pages (left) beside LibreOffice's (right), rendered by poppler at 40 dpi."""
    columns = []
    for pdf in (ours, theirs):
        prefix = target.parent / f"{target.stem}-{pdf.parent.name}"
        subprocess.run(["pdftoppm", "-r", "40", "-png", "-l", str(pages), str(pdf), str(prefix)], check=True)
        columns.append([QImage(str(p)) for p in sorted(prefix.parent.glob(prefix.name + "-*.png"))])
    width = sum(max(i.width() for i in column) for column in columns) + 20
    height = max(sum(i.height() + 10 for i in column) for column in columns)
    sheet = QImage(width, height, QImage.Format.Format_RGB32)
    sheet.fill(QColor("#808080"))
    painter = QPainter(sheet)
    x = 0
    for column in columns:
        y = 0
        for image in column:
            painter.drawImage(x, y, image)
            y += image.height() + 10
        x += max(i.width() for i in column) + 20
    painter.end()
    for column_files in target.parent.glob(target.stem + "-*.png"):
        column_files.unlink()
    sheet.save(str(target))
    return sheet


def test_first_pages_beside_libreoffices_for_a_look(
    contract_results: dict[str, dict[str, object]], contract_folder: Path, artifacts_dir: Path
) -> None:
    """Pages 1-2 of six contracts, ours left, LibreOffice's right, in tests/_artifacts/layout/ to look at."""
    folder = artifacts_dir / "layout"
    folder.mkdir(exist_ok=True)
    for name in SIDE_BY_SIDE:
        stem = Path(name).stem
        ours, theirs = contract_folder / f"{stem}.pdf", contract_folder / "libreoffice" / f"{stem}.pdf"
        sheet = _side_by_side(ours, theirs, 2, folder / f"{stem}.png")
        assert sheet.width() > 2 * sheet.height() // 3  # two columns of pages
