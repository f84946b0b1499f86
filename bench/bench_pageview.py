"""Benchmark the page view on the ~300-page synthetic contract against issue 6's targets.

Prints, for ``bench/out/synthetic-msa-300p.docx`` (generated on first run) or the files given:

* first page: open + snapshot + layout of the first page + painting it (target ≤ 1.0 s);
* full layout: the whole document laid out in slices from the event loop (target ≤ 2.5 s), and
  the largest gap between ticks of a 10 ms QTimer meanwhile (target ≤ 100 ms), in wall time and
  in the main thread's CPU time (on a busy machine the wall gap mostly measures other processes);
* one page painted at 100 % (median of 20; target ≤ 16 ms);
* re-render after accepting one tracked change: ``accept_change`` then the view's ``refresh``
  with the touched block (what ``DocumentController.document_changed`` triggers: comments
  re-read, only that block rebuilt, highlights and geometry updated) and letting Qt re-lay it
  out (target ≤ 50 ms).

    python bench/bench_pageview.py [FILE.docx ...] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer  # noqa: E402

from reviewer_app.app import create_application  # noqa: E402
from reviewer_app.docx.reviewer import DocxReviewer  # noqa: E402
from reviewer_app.ui.pageview.layout import PagedLayout  # noqa: E402
from reviewer_app.ui.pageview.render import render_page_image  # noqa: E402
from reviewer_app.ui.pageview.view import PageView  # noqa: E402

TARGETS_MS = {
    "first_page": 1000.0,
    "full_layout": 2500.0,
    "max_gap": 100.0,
    "paint_page": 16.0,
    "rerender": 50.0,
}


def first_page_ms(path: Path) -> tuple[float, float, float]:
    """Open, snapshot, lay out until page 1 is complete, paint it.

    Returns (wall ms, CPU ms, of which open + snapshot wall ms): the CPU figure is what the
    machine spent, the wall figure what a user waits (inflated when other processes compete).
    """
    start, cpu = time.perf_counter(), time.process_time()
    reviewer = DocxReviewer.open(path)
    snapshot = reviewer.snapshot()
    opened = time.perf_counter()
    layout = PagedLayout(reviewer, "all", snapshot)
    while not layout.done and layout.page_count() < 2:
        layout.step(0.025)
    render_page_image(layout, 0, dpi=96)
    layout.close()
    return (
        (time.perf_counter() - start) * 1000,
        (time.process_time() - cpu) * 1000,
        (opened - start) * 1000,
    )


def full_layout_ms(path: Path) -> tuple[float, float, float, float, int, PageView]:
    """Lay out through the view's own event-loop slices; measure the 10 ms timer's largest gap.

    Returns (wall ms, CPU ms, largest gap ms, largest gap in the main thread's CPU time ms, pages,
    view): on a machine other processes keep busy the wall gap mostly measures them, while the
    CPU gap is the work the window could not interrupt.
    """
    reviewer = DocxReviewer.open(path)
    snapshot = reviewer.snapshot()
    view = PageView()
    view.resize(1000, 800)
    ticks: list[tuple[float, float]] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append((time.perf_counter(), time.thread_time())))
    loop = QEventLoop()
    view.layout_finished.connect(loop.quit)
    timer.start()
    clock = QElapsedTimer()
    clock.start()
    cpu = time.process_time()
    ticks.append((time.perf_counter(), time.thread_time()))
    view.show_document(reviewer, snapshot)
    if not view.is_laid_out():
        loop.exec()
    elapsed = clock.nsecsElapsed() / 1e6
    cpu_ms = (time.process_time() - cpu) * 1000
    ticks.append((time.perf_counter(), time.thread_time()))
    timer.stop()
    wall_gaps = [(b[0] - a[0]) * 1000 for a, b in zip(ticks, ticks[1:], strict=False)]
    cpu_gaps = [(b[1] - a[1]) * 1000 for a, b in zip(ticks, ticks[1:], strict=False)]
    return elapsed, cpu_ms, max(wall_gaps, default=0.0), max(cpu_gaps, default=0.0), view.page_count(), view


def paint_page_ms(layout: PagedLayout, runs: int = 20) -> float:
    """Median time to paint one middle page at 100 % (96 dpi) with the view's painter."""
    number = layout.page_count() // 2
    render_page_image(layout, number, dpi=96)  # warm the glyph caches once
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        render_page_image(layout, number, dpi=96)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def rerender_ms(view: PageView) -> tuple[float, float, str]:
    """Accept the first tracked change inside one paragraph; refresh the view with that block.

    Returns (accept_change ms, re-render ms, block id): accepting is the engine's work, the
    re-render (the view's refresh: rebuilding the block and Qt re-laying it out) is the page view's.
    """
    layout = view.paged_layout()
    assert layout is not None
    reviewer = layout.reviewer
    for change in reviewer.changes():
        block_id = change.get("blockId")
        if change.get("type") not in ("insertion", "deletion") or block_id not in layout.by_id:
            continue
        start = time.perf_counter()
        if not reviewer.accept_change(change["id"]):
            continue
        accepted = time.perf_counter()
        view.refresh(reviewer, frozenset({block_id}))
        layout.docs[layout.by_id[block_id].doc_index].page_count()  # Qt re-lays the block out
        done = time.perf_counter()
        if view.paged_layout() is layout:  # re-rendered in place, not laid out again
            return (accepted - start) * 1000, (done - accepted) * 1000, block_id
    return float("nan"), float("nan"), ""


def build_all_ms(reviewer: DocxReviewer) -> tuple[float, float]:
    """The whole layout in one call, as read_page, renders and the CLI do before the view is done.

    Returns (wall ms, CPU ms); the snapshot is taken inside, as those callers do.
    """
    start, cpu = time.perf_counter(), time.process_time()
    PagedLayout(reviewer, "all").build_all()
    return (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000


def measure(path: Path) -> dict[str, float | int | str]:
    first, first_cpu, opened = first_page_ms(path)
    full, full_cpu, gap, cpu_gap, pages, view = full_layout_ms(path)
    layout = view.paged_layout()
    assert layout is not None
    paint = paint_page_ms(layout)
    accept, rerender, block = rerender_ms(view)
    at_once, at_once_cpu = build_all_ms(DocxReviewer.open(path))
    return {
        "file": path.name,
        "pages": pages,
        "first_page_ms": round(first, 1),
        "first_page_cpu_ms": round(first_cpu, 1),
        "open_snapshot_ms": round(opened, 1),
        "full_layout_ms": round(full, 1),
        "full_layout_cpu_ms": round(full_cpu, 1),
        "build_all_ms": round(at_once, 1),
        "build_all_cpu_ms": round(at_once_cpu, 1),
        "max_gap_ms": round(gap, 1),
        "max_gap_cpu_ms": round(cpu_gap, 1),
        "paint_page_ms": round(paint, 2),
        "accept_change_ms": round(accept, 2),
        "rerender_ms": round(rerender, 2),
        "rerender_block": block,
    }


def median_of(runs: list[dict[str, float | int | str]]) -> dict[str, float | int | str]:
    """The median of every figure over several runs (one noisy run says little)."""
    out = dict(runs[0])
    for key, value in runs[0].items():
        if isinstance(value, float):
            out[key] = round(statistics.median(float(r[key]) for r in runs), 2)
    return out


def _verdict(value: float, target: float) -> str:
    return "ok" if value <= target else "OVER"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument("--runs", type=int, default=3, help="runs per file; medians are printed")
    args = parser.parse_args(argv)
    app = create_application()  # the app's own set-up (fonts, names)
    files = args.files
    if not files:
        from bench_reads import ensure_synthetic

        files = [ensure_synthetic()]
    results = []
    for path in files:
        figures = median_of([measure(path) for _ in range(max(1, args.runs))])
        results.append(figures)
        print(f"{figures['file']}: {figures['pages']} pages (median of {args.runs} runs)")
        for key, target in (
            ("first_page_ms", "first_page"),
            ("full_layout_ms", "full_layout"),
            ("max_gap_ms", "max_gap"),
            ("paint_page_ms", "paint_page"),
            ("rerender_ms", "rerender"),
        ):
            value = float(figures[key])
            verdict = _verdict(value, TARGETS_MS[target])
            print(f"  {key:19} {value:9.1f} ms   target ≤ {TARGETS_MS[target]:.0f} ms   {verdict}")
        for key, note in (
            ("first_page_cpu_ms", "CPU time of the first page"),
            (
                "open_snapshot_ms",
                "of the first page: the engine's open + snapshot",
            ),
            ("full_layout_cpu_ms", "CPU time of the full layout"),
            (
                "max_gap_cpu_ms",
                "the largest gap in the main thread's CPU time: what other processes took is not in it",
            ),
            ("build_all_ms", "the whole layout in one call (read_page before the view is done)"),
            ("build_all_cpu_ms", "CPU time of that call"),
            ("accept_change_ms", "the engine's accept_change, before the re-render"),
        ):
            print(f"  {key:19} {float(figures[key]):9.1f} ms   ({note})")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
