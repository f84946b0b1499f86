"""Benchmark the engine's reads against the foundation issue's targets.

For the synthetic ~300-page contract (generated on first run) and the largest corpus files it
prints: open + snapshot time, python-docx's open + every paragraph's text on the same file and
the ratio, in wall and in CPU time (best of interleaved runs, so a burst of load hits both
alike), ``find_text``, outline and ``read_section`` times (medians), re-snapshot time after a
one-block change, and peak memory against the uncompressed XML size.

Each file is measured in a fresh subprocess so peak RSS belongs to that file alone.

    python bench/bench_reads.py [FILE.docx ...] [--runs N] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "public"
SYNTHETIC = ROOT / "bench" / "out" / "synthetic-msa-300p.docx"
LARGEST = [
    "eigenpal_issue-68-large.docx",
    "dxo_WC-BodyBookmarks-After.docx",
    "docx4j_Docx4j_GettingStarted.docx",
    "dxo_NVCA-Model-COI.docx",
]
TARGETS = {"open_ratio": 1.0, "read_ms": 20.0, "resnapshot_ms": 5.0, "memory_ratio": 8.0}


def ensure_synthetic() -> Path:
    """Generate the synthetic contract once (the generator is deterministic)."""
    if not SYNTHETIC.exists():
        SYNTHETIC.parent.mkdir(parents=True, exist_ok=True)
        generator = ROOT / "resources" / "samples" / "generate_contract.py"
        subprocess.run([sys.executable, str(generator), str(SYNTHETIC), "--scale", "20"], check=True)
    return SYNTHETIC


def _median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _interleaved_min_ms(first, second, runs: int) -> tuple[float, float, float, float]:
    """Best wall and CPU times of two rivals measured alternately, so a burst of load hits both
    alike: (first wall, second wall, first CPU, second CPU). On a shared machine the CPU time
    is the engine's own cost; the wall time also holds the other processes' turns."""
    a, b, a_cpu, b_cpu = [], [], [], []
    for _ in range(runs):
        for fn, wall, cpu in ((first, a, a_cpu), (second, b, b_cpu)):
            start, start_cpu = time.perf_counter(), time.process_time()
            fn()
            wall.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
    return min(a), min(b), min(a_cpu), min(b_cpu)


def measure(path: Path, runs: int) -> dict[str, float | str]:
    """All figures for one file (runs inside the child process)."""
    import docx
    from docx.text.paragraph import Paragraph

    from reviewer_app.docx import DocxReviewer

    baseline_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    def ours() -> DocxReviewer:
        reviewer = DocxReviewer.open(path)
        reviewer.snapshot()
        return reviewer

    def python_docx() -> None:
        document = docx.Document(str(path))
        for p in document.element.body.iter(
            "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}p"
        ):
            _ = Paragraph(p, document).text

    # peak memory first: RSS is a high-water mark, so python-docx must not have run yet
    reviewer = ours()
    snapshot = reviewer.snapshot()
    reviewer.get_outline(9)
    reviewer.find_text("the")
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - baseline_rss
    open_ms, pydocx_ms, open_cpu_ms, pydocx_cpu_ms = _interleaved_min_ms(ours, python_docx, runs)
    outline_ms = _median_ms(lambda: reviewer.get_outline(3), runs * 4)
    find_ms = _median_ms(lambda: reviewer.find_text("the"), runs * 4)
    sections = reviewer.get_outline(9)["sections"]
    section_ms = (
        _median_ms(lambda: reviewer.read_section(sections[len(sections) // 2]["handle"]), runs * 4)
        if sections
        else float("nan")
    )
    target = next(
        b
        for b in snapshot.blocks[len(snapshot.blocks) // 2 :]
        if b.normalized
        and not b.structural_boundaries
        and not b.has_field_chars
        and b.element is not None
        and b.element.find(".//{*}t") is not None
    )
    t_element = target.element.find(".//{*}t")

    def one_block_change() -> None:
        t_element.text = (t_element.text or "") + " x"
        reviewer.document.paragraphs_changed([target.element])
        reviewer.snapshot()

    resnapshot_ms = _median_ms(one_block_change, runs * 4)
    with zipfile.ZipFile(path) as z:
        xml_bytes = sum(i.file_size for i in z.infolist() if i.filename.endswith((".xml", ".rels")))
    return {
        "file": path.name,
        "blocks": len(snapshot.blocks),
        "xml_mb": xml_bytes / 1e6,
        "open_snapshot_ms": open_ms,
        "python_docx_ms": pydocx_ms,
        "open_ratio": open_ms / pydocx_ms,
        "open_snapshot_cpu_ms": open_cpu_ms,
        "python_docx_cpu_ms": pydocx_cpu_ms,
        "open_cpu_ratio": open_cpu_ms / pydocx_cpu_ms,
        "find_text_ms": find_ms,
        "outline_ms": outline_ms,
        "read_section_ms": section_ms,
        "resnapshot_ms": resnapshot_ms,
        "peak_mb": peak_kb / 1024,
        "memory_ratio": (peak_kb * 1024) / xml_bytes,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.child, args.runs)))
        return 0
    files = args.files or [ensure_synthetic(), *(CORPUS / n for n in LARGEST)]
    rows = []
    for path in files:
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(path), "--runs", str(args.runs)],
            check=True,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        rows.append(json.loads(out.stdout))
    header = (
        f"{'file':36} {'blocks':>6} {'XML MB':>7} {'open+snap':>9} {'py-docx':>8} {'ratio':>6} "
        f"{'CPU':>7} {'py-docx':>8} {'ratio':>6} "
        f"{'find':>6} {'outline':>7} {'section':>7} {'re-snap':>7} {'peak MB':>7} {'mem x':>6}"
    )
    print(header)
    for r in rows:
        print(
            f"{r['file'][:36]:36} {r['blocks']:>6} {r['xml_mb']:>7.1f} {r['open_snapshot_ms']:>8.0f}ms "
            f"{r['python_docx_ms']:>6.0f}ms {r['open_ratio']:>6.2f} "
            f"{r['open_snapshot_cpu_ms']:>5.0f}ms {r['python_docx_cpu_ms']:>6.0f}ms "
            f"{r['open_cpu_ratio']:>6.2f} "
            f"{r['find_text_ms']:>4.1f}ms "
            f"{r['outline_ms']:>5.1f}ms {r['read_section_ms']:>5.1f}ms {r['resnapshot_ms']:>5.2f}ms "
            f"{r['peak_mb']:>7.0f} {r['memory_ratio']:>6.1f}"
        )
    print(
        f"targets: open+snapshot <= {TARGETS['open_ratio']}x python-docx; "
        f"each read <= {TARGETS['read_ms']} ms; "
        f"re-snapshot <= {TARGETS['resnapshot_ms']} ms; peak memory <= {TARGETS['memory_ratio']}x XML"
    )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
