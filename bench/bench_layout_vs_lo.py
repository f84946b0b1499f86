"""Full layout + PDF of the corpus's largest files: ``reviewer pdf`` against LibreOffice, same run.

Issue 14's target: our wall time at most 0.6× LibreOffice's ``soffice --headless --convert-to pdf``
on the same files. The files are the three with the most pages in ``../shared/corpus`` (the
manifests' page counts: LibreOffice's for the contracts, the application's for the public corpus)
unless files are given. Each side runs as the user runs it, a fresh process per file, so both
pay their start-up: ``reviewer pdf FILE -o OUT`` and ``soffice --convert-to pdf``. LibreOffice gets
its own profile, made by a warm-up conversion that is not timed (a first start builds it, which
a user pays once). Each file runs ``--repeat`` times per side and the median counts. Printed:
per file the pages and both times, and the ratio of the sums.

    python bench/bench_layout_vs_lo.py [FILE.docx ...] [--repeat N] [--json OUT]
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
REVIEWER = Path(sys.executable).with_name("reviewer")
TARGET_RATIO = 0.6


def largest_files(count: int = 3) -> list[Path]:
    """The ``count`` corpus files with the most pages, by the manifests' page counts."""
    pages: dict[Path, int] = {}
    for manifest, column, folder in (
        (CORPUS / "contracts" / "MANIFEST.tsv", "libreoffice_pages", CORPUS / "contracts"),
        (CORPUS / "MANIFEST.tsv", "app_pages", CORPUS / "public"),
    ):
        if not manifest.exists():
            continue
        with manifest.open(newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                path = folder / row["file"]
                if path.exists() and (row.get(column) or "").isdigit():
                    pages[path] = int(row[column])
    return sorted(pages, key=lambda p: (-pages[p], p.name))[:count]


def _timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    return time.perf_counter() - start


def _pages(pdf: Path) -> int:
    out = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return next(int(line.split()[-1]) for line in out.splitlines() if line.startswith("Pages:"))


def run(files: list[Path], repeat: int) -> list[dict[str, object]]:
    soffice = shutil.which("soffice")
    if soffice is None:
        raise SystemExit("soffice (LibreOffice) is not on PATH")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        profile = f"-env:UserInstallation={(out / 'profile').as_uri()}"
        lo = [
            soffice,
            profile,
            "--headless",
            "--norestore",
            "--convert-to",
            "pdf",
            "--outdir",
            str(out / "lo"),
        ]
        _timed([*lo, str(files[0])])  # builds the profile: not timed
        for path in files:
            ours_pdf = out / f"{path.stem}.pdf"
            ours = [_timed([str(REVIEWER), "pdf", str(path), "-o", str(ours_pdf)]) for _ in range(repeat)]
            theirs = [_timed([*lo, str(path)]) for _ in range(repeat)]
            results.append(
                {
                    "file": path.name,
                    "pages_ours": _pages(ours_pdf),
                    "pages_libreoffice": _pages(out / "lo" / f"{path.stem}.pdf"),
                    "ours_s": statistics.median(ours),
                    "libreoffice_s": statistics.median(theirs),
                }
            )
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    files = args.files or largest_files()
    results = run(files, max(1, args.repeat))
    print(f"{'file':45} {'pages (ours/LO)':>16} {'ours s':>8} {'LO s':>8} {'ratio':>6}")
    for r in results:
        ratio = r["ours_s"] / r["libreoffice_s"]  # type: ignore[operator]
        pages = f"{r['pages_ours']}/{r['pages_libreoffice']}"
        print(f"{r['file']:45} {pages:>16} {r['ours_s']:8.2f} {r['libreoffice_s']:8.2f} {ratio:6.2f}")
    ours = sum(r["ours_s"] for r in results)  # type: ignore[misc]
    theirs = sum(r["libreoffice_s"] for r in results)  # type: ignore[misc]
    ratio = ours / theirs
    verdict = "meets ≤" if ratio <= TARGET_RATIO else "misses ≤"
    print(f"total: ours {ours:.2f} s, LO {theirs:.2f} s, ratio {ratio:.2f}: {verdict} {TARGET_RATIO}")
    if args.json:
        args.json.write_text(json.dumps({"files": results, "ratio": ratio}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
