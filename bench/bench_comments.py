"""Benchmark the comments panel on a contract with 2,000 comment threads (issue: opening was
quadratic — 2,000 comments took 26.6 s and 880 MB — and one reply cost 0.6 s).

The contract is written to a temporary folder by :mod:`bench.comments_contract` (the sample with
2,000 extra threads, 668 replies, 401 resolved; nothing large is committed). Each run opens it in
a fresh :class:`DocumentController` with the panel shown, as the app does, and prints medians:

- ``open+layout``: ``controller.open`` until the panel has laid out its rows and painted;
- ``panel (open)``: the panel's own share of that (rows to model, filter, layout of every row);
- ``reply``: a reply sent from an open reply box (Ctrl+Enter) until the panel has painted it;
- ``panel (reply)``: the panel's own share of that (the model's incremental update and layout).

The rest of each figure is the document engine's reading and writing of the comments part
(``DocxReviewer.comments()``, the comment dates, the reply itself), printed as ``engine ...``.
Targets: open+layout <= 2,000 ms; the panel's update for one edit <= 50 ms.

    python bench/bench_comments.py [--runs N] [--threads N]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from bench.comments_contract import write_commented_contract  # noqa: E402
from reviewer_app.docx import DocxReviewer  # noqa: E402
from reviewer_app.docx.comments import comment_dates  # noqa: E402
from reviewer_app.ui.comments_panel import CommentsPanel  # noqa: E402
from reviewer_app.ui.document_controller import DocumentController  # noqa: E402

TARGETS_MS = {"open+layout": 2000.0, "panel (reply)": 50.0}


def _timed(record: list[float], fn: Callable[..., object]) -> Callable[..., object]:
    """``fn`` that adds each call's milliseconds to ``record``."""

    def wrapper(*args: object) -> object:
        start = time.perf_counter()
        try:
            return fn(*args)
        finally:
            record.append((time.perf_counter() - start) * 1000)

    return wrapper


def one_run(app: QApplication, path: Path, store: Path) -> dict[str, float]:
    controller = DocumentController(author="Alex Lawyer", store_directory=store)
    panel = CommentsPanel(controller, page_of_block=lambda _block: 3)
    panel.resize(380, 900)
    panel.show()
    QTest.qWaitForWindowExposed(panel)
    shown: list[float] = []
    panel._rows_of = _timed(shown, panel._rows_of)  # type: ignore[method-assign]
    panel._show_rows = _timed(shown, panel._show_rows)  # type: ignore[method-assign]
    start = time.perf_counter()
    controller.open(path)
    panel.repaint()
    app.processEvents()
    figures = {"open+layout": (time.perf_counter() - start) * 1000, "panel (open)": sum(shown)}

    thread_id = panel.thread_ids()[len(panel.thread_ids()) // 2]
    panel.select_comment(thread_id)
    panel.open_reply(thread_id)
    composer = panel.reply_composer(thread_id)
    assert composer is not None
    QTest.keyClicks(composer.editor, "Agreed, subject to the cap per contract year.")
    shown.clear()
    start = time.perf_counter()
    QTest.keyClick(composer.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    panel.repaint()
    app.processEvents()
    figures["reply"] = (time.perf_counter() - start) * 1000
    figures["panel (reply)"] = sum(shown)
    row = panel.thread_row(thread_id)
    assert row is not None and row.replies and row.replies[-1].author == "Alex Lawyer", "reply not shown"
    panel.close()
    panel.deleteLater()
    controller.close()
    app.processEvents()
    return figures


def engine_reads(path: Path) -> dict[str, float]:
    """What the engine alone costs for the panel's reads of a freshly opened document."""
    start = time.perf_counter()
    reviewer = DocxReviewer.open(path)
    opened = time.perf_counter()
    reviewer.comments()
    listed = time.perf_counter()
    comment_dates(reviewer.document)
    dated = time.perf_counter()
    return {
        "engine open": (opened - start) * 1000,
        "engine comments()": (listed - opened) * 1000,
        "engine comment dates": (dated - listed) * 1000,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2000)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as folder:
        path = write_commented_contract(Path(folder) / "commented.docx", args.threads)
        runs = [one_run(app, path, Path(folder) / f"queue{n}") for n in range(args.runs)]
        runs_engine = [engine_reads(path) for _ in range(args.runs)]
        print(f"{args.threads} threads, median of {args.runs} runs")
        for name in runs[0]:
            value = statistics.median(run[name] for run in runs)
            target = TARGETS_MS.get(name)
            verdict = (
                ""
                if target is None
                else f"  (target <= {target:.0f} ms: {'ok' if value <= target else 'OVER'})"
            )
            print(f"  {name:22s} {value:8.1f} ms{verdict}")
        for name in runs_engine[0]:
            print(f"  {name:22s} {statistics.median(run[name] for run in runs_engine):8.1f} ms")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak memory            {peak:8.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
