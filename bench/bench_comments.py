"""Benchmark the comments panel on a contract with 2,000 comment threads (issue: opening was
quadratic — 2,000 comments took 26.6 s and 880 MB — and one reply cost 0.6 s).

The contract is written to a temporary folder by :mod:`bench.comments_contract` (the sample with
2,000 extra threads, 668 replies, 401 resolved; nothing large is committed). Each run opens it in
a fresh :class:`DocumentController` with the panel shown, as the app does, then makes several
edits of each kind through the panel's real controls, as a person would:

- ``open+layout``: ``controller.open`` until the panel has laid out its rows and painted;
- ``reply``: Ctrl+Enter in a thread's open reply box until the panel has painted the reply;
- ``resolve``: a click on a thread's Resolve button until the panel has painted it resolved;
- ``add``: Ctrl+Enter in the New comment box (on a selected passage) until the new thread is painted;
- ``delete``: a click on a thread's Delete button until the panel has painted the list without it.

Each edit is timed end to end (the document engine's write, its re-reading of the comments, the
panel's update, layout and paint) and printed as the median and the worst of every edit of that
kind in every run, in wall-clock time and in this process's CPU time (which other programs
loading the machine disturb less); ``panel`` is the panel's own share (rows to model, filter,
layout), the rest is the engine's. ``engine ...`` lines time the engine alone on a freshly opened document.
Targets: open+layout <= 2,000 ms; one edit, end to end, <= 50 ms.

    python bench/bench_comments.py [--runs N] [--edits N] [--threads N]
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
from reviewer_app.ui.comment_thread_model import ThreadRow  # noqa: E402
from reviewer_app.ui.comments_panel import CommentsPanel  # noqa: E402
from reviewer_app.ui.document_controller import DocumentController  # noqa: E402

TARGETS_MS = {"open+layout": 2000.0, "edit": 50.0}
KINDS = ("reply", "resolve", "add", "delete")
REPLY = "Agreed, subject to the cap per contract year."


def _timed(record: list[float], fn: Callable[..., object]) -> Callable[..., object]:
    """``fn`` that adds each call's milliseconds to ``record``."""

    def wrapper(*args: object) -> object:
        start = time.perf_counter()
        try:
            return fn(*args)
        finally:
            record.append((time.perf_counter() - start) * 1000)

    return wrapper


class Run:
    """One opened document with its panel, and the edits timed on it."""

    def __init__(self, app: QApplication, path: Path, store: Path) -> None:
        self.app = app
        self.controller = DocumentController(author="Alex Lawyer", store_directory=store)
        self.selection: tuple[str, int, int] | None = None
        self.panel = CommentsPanel(
            self.controller, page_of_block=lambda _block: 3, selection_provider=lambda: self.selection
        )
        self.panel.resize(380, 900)
        self.panel.show()
        QTest.qWaitForWindowExposed(self.panel)
        self.shown: list[float] = []
        self.panel._rows_of = _timed(self.shown, self.panel._rows_of)  # type: ignore[method-assign]
        self.panel._show_rows = _timed(self.shown, self.panel._show_rows)  # type: ignore[method-assign]
        start = time.perf_counter()
        self.controller.open(path)
        self.settle()
        self.open_ms = (time.perf_counter() - start) * 1000
        self.panel_open_ms = sum(self.shown)
        #: kind -> [(end to end, its CPU time, the panel's share)] in milliseconds
        self.edits: dict[str, list[tuple[float, float, float]]] = {kind: [] for kind in KINDS}

    def settle(self) -> None:
        self.panel.repaint()
        self.app.processEvents()

    def timed(self, kind: str, act: Callable[[], object]) -> None:
        self.shown.clear()
        start, cpu = time.perf_counter(), time.process_time()
        act()
        self.settle()
        wall = (time.perf_counter() - start) * 1000
        self.edits[kind].append((wall, (time.process_time() - cpu) * 1000, sum(self.shown)))

    def click(self, thread_id: str, action: str) -> Callable[[], None]:
        """A press and release on the thread's painted ``action`` button, shown and selected first."""
        self.panel.select_comment(thread_id)
        self.settle()
        rect = self.panel.action_rect(thread_id, action)
        assert rect is not None, f"no {action} button on thread {thread_id}"
        viewport = self.panel.list_view.viewport()
        return lambda: QTest.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())

    def reply(self, thread_id: str) -> None:
        self.panel.select_comment(thread_id)
        self.panel.open_reply(thread_id)
        composer = self.panel.reply_composer(thread_id)
        assert composer is not None
        QTest.keyClicks(composer.editor, REPLY)
        self.settle()
        ctrl_enter = Qt.KeyboardModifier.ControlModifier
        self.timed("reply", lambda: QTest.keyClick(composer.editor, Qt.Key.Key_Return, ctrl_enter))
        row = self.panel.thread_row(thread_id)
        assert row is not None and row.replies[-1].text == REPLY, "reply not shown"

    def resolve(self, thread_id: str) -> None:
        assert not self.row(thread_id).resolved
        self.timed("resolve", self.click(thread_id, "resolve"))
        assert self.row(thread_id).resolved, "resolve not shown"

    def add(self, block_id: str, text: str) -> None:
        block = self.controller.snapshot().block(block_id)
        assert block is not None
        self.selection = (block_id, 0, min(len(block.text), 12))
        QTest.mouseClick(self.panel.new_button, Qt.MouseButton.LeftButton)
        QTest.keyClicks(self.panel.new_composer.editor, text)
        self.settle()
        before = len(self.panel.thread_ids())
        ctrl_enter = Qt.KeyboardModifier.ControlModifier
        editor = self.panel.new_composer.editor
        self.timed("add", lambda: QTest.keyClick(editor, Qt.Key.Key_Return, ctrl_enter))
        assert len(self.panel.thread_ids()) == before + 1, "new comment not shown"

    def delete(self, thread_id: str) -> None:
        self.timed("delete", self.click(thread_id, "delete"))
        assert self.panel.thread_row(thread_id) is None, "deleted thread still shown"

    def row(self, thread_id: str) -> ThreadRow:
        row = self.panel.thread_row(thread_id)
        assert row is not None
        return row

    def close(self) -> None:
        self.panel.close()
        self.panel.deleteLater()
        self.controller.close()
        self.app.processEvents()


def one_run(app: QApplication, path: Path, store: Path, edits: int) -> Run:
    run = Run(app, path, store)
    ids = run.panel.thread_ids()
    open_ids = [i for i in ids[len(ids) // 2 :] if not run.row(i).resolved]
    blocks = [b.id for b in run.controller.snapshot().blocks if len(b.text) > 20]
    # each kind in a row, as a person answers one thread after another: the first edit after
    # another kind of act pays for reading what that act changed, and is the worst figure
    for n in range(edits):
        run.reply(open_ids[3 * n])
    for n in range(edits):
        run.resolve(open_ids[3 * n + 1])
    for n in range(edits):
        run.delete(open_ids[3 * n + 2])
    for n in range(edits):
        run.add(blocks[(7 * n + 5) % len(blocks)], f"New point {n + 1} on this wording.")
    run.close()
    return run


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


def _verdict(name: str, value: float) -> str:
    target = TARGETS_MS.get(name)
    return "" if target is None else f"  (target <= {target:.0f} ms: {'ok' if value <= target else 'OVER'})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--edits", type=int, default=5, help="edits of each kind per run")
    parser.add_argument("--threads", type=int, default=2000)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as folder:
        path = write_commented_contract(Path(folder) / "commented.docx", args.threads)
        runs = [one_run(app, path, Path(folder) / f"queue{n}", args.edits) for n in range(args.runs)]
        runs_engine = [engine_reads(path) for _ in range(args.runs)]
    print(f"{args.threads} threads, {args.runs} runs, {args.edits} edits of each kind per run")
    value = statistics.median(run.open_ms for run in runs)
    print(f"  {'open+layout':22s} {value:8.1f} ms median{_verdict('open+layout', value)}")
    print(f"  {'panel (open)':22s} {statistics.median(run.panel_open_ms for run in runs):8.1f} ms median")
    for kind in KINDS:
        timings = [edit for run in runs for edit in run.edits[kind]]
        total, cpu, panel = (sorted(t[n] for t in timings) for n in range(3))
        median = statistics.median(total)
        print(
            f"  {kind + ' (end to end)':22s} {median:8.1f} ms median, {total[-1]:6.1f} worst"
            f"{_verdict('edit', median)}; CPU {statistics.median(cpu):5.1f} median,"
            f" {cpu[-1]:5.1f} worst; panel {statistics.median(panel):5.1f} median"
        )
    for name in runs_engine[0]:
        print(f"  {name:22s} {statistics.median(run[name] for run in runs_engine):8.1f} ms")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak memory            {peak:8.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
