"""Full layout + PDF of the corpus's largest files: ``reviewer pdf`` against LibreOffice, same run.

Issue 14's target: our wall time at most 0.6× LibreOffice's ``soffice --headless --convert-to pdf``
on the same files. The files are the three with the most pages in ``../shared/corpus`` unless files
are given: LibreOffice's page count for the contracts; for the public corpus the larger of the count
Word last saved (``app_pages``) and the size class (``pages_estimate``), since Word's saved count is
stale in the longest files (the 238-page book says 1; see tests/data/pageview_page_counts.tsv). Each
side runs as the user runs it, a fresh process per file, so both pay their start-up: ``reviewer pdf
FILE -o OUT`` and ``soffice --convert-to pdf``. LibreOffice gets its own profile, made by a warm-up
conversion that is not timed (a first start builds it, which a user pays once). Our side likewise
runs from compiled byte code, as an installed app does (pip compiles it on install): the byte code
is kept in the run's temporary folder, also where PYTHONDONTWRITEBYTECODE is set, and written by an
untimed first conversion. Each file runs ``--repeat`` times per side and the median counts. Printed:
per file the pages, both wall times and both CPU times (user + system of the process and its
children), and the ratios of the sums. The bench machine is shared: wall time there is not the
conversion's alone, CPU time is.

    python bench/bench_layout_vs_lo.py [FILE.docx ...] [--repeat N] [--json OUT]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
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
    for manifest, columns, folder in (
        (CORPUS / "contracts" / "MANIFEST.tsv", ("libreoffice_pages",), CORPUS / "contracts"),
        (CORPUS / "MANIFEST.tsv", ("app_pages", "pages_estimate"), CORPUS / "public"),
    ):
        if not manifest.exists():
            continue
        with manifest.open(newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                path = folder / row["file"]
                counts = [int(row[c]) for c in columns if (row.get(c) or "").isdigit()]
                if path.exists() and counts:
                    pages[path] = max(counts)
    return sorted(pages, key=lambda p: (-pages[p], p.name))[:count]


def _timed(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of ``command`` (CPU: user + system of it and the children it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600, env=env
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def _median(runs: list[tuple[float, float]], index: int) -> float:
    return statistics.median(run[index] for run in runs)


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
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(out / "pycache")
        _timed([*lo, str(files[0])])  # builds the profile: not timed
        _timed([str(REVIEWER), "pdf", str(files[0]), "-o", str(out / "warm.pdf")], env)  # compiles
        for path in files:
            ours_pdf = out / f"{path.stem}.pdf"
            ours = [
                _timed([str(REVIEWER), "pdf", str(path), "-o", str(ours_pdf)], env) for _ in range(repeat)
            ]
            theirs = [_timed([*lo, str(path)]) for _ in range(repeat)]
            results.append(
                {
                    "file": path.name,
                    "pages_ours": _pages(ours_pdf),
                    "pages_libreoffice": _pages(out / "lo" / f"{path.stem}.pdf"),
                    "ours_s": _median(ours, 0),
                    "libreoffice_s": _median(theirs, 0),
                    "ours_cpu_s": _median(ours, 1),
                    "libreoffice_cpu_s": _median(theirs, 1),
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
    print(f"load average {os.getloadavg()[0]:.2f} (2 cores shared: compare CPU where it is high)")
    header = ("pages (ours/LO)", "ours s", "LO s", "ratio", "ours cpu", "LO cpu", "ratio")
    print(f"{'file':45} {header[0]:>16} " + " ".join(f"{h:>8}" for h in header[1:]))
    for r in results:
        pages = f"{r['pages_ours']}/{r['pages_libreoffice']}"
        figures = (
            r["ours_s"],
            r["libreoffice_s"],
            r["ours_s"] / r["libreoffice_s"],  # type: ignore[operator]
            r["ours_cpu_s"],
            r["libreoffice_cpu_s"],
            r["ours_cpu_s"] / r["libreoffice_cpu_s"],  # type: ignore[operator]
        )
        print(f"{r['file']:45} {pages:>16} " + " ".join(f"{f:8.2f}" for f in figures))
    totals = {
        key: sum(r[key] for r in results)  # type: ignore[misc]
        for key in ("ours_s", "libreoffice_s", "ours_cpu_s", "libreoffice_cpu_s")
    }
    ratio = totals["ours_s"] / totals["libreoffice_s"]
    cpu_ratio = totals["ours_cpu_s"] / totals["libreoffice_cpu_s"]
    verdict = "meets ≤" if ratio <= TARGET_RATIO else "misses ≤"
    print(
        f"total: ours {totals['ours_s']:.2f} s, LO {totals['libreoffice_s']:.2f} s, ratio {ratio:.2f}: "
        f"{verdict} {TARGET_RATIO}; CPU ours {totals['ours_cpu_s']:.2f} s, LO "
        f"{totals['libreoffice_cpu_s']:.2f} s, ratio {cpu_ratio:.2f}"
    )
    if args.json:
        args.json.write_text(json.dumps({"files": results, "ratio": ratio, "cpu_ratio": cpu_ratio}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
