"""Benchmark a person's and the agent's acts on the synthetic ~300-page contract.

Each figure is the median of several runs (milliseconds) of something the event loop waits for:
accepting or rejecting one change and the snapshot read after it, a Review-mode dry run and
the outline read after it, ``suggest_changes`` of three operations through the executor, the
controller's ``perform`` overhead (an act that changes nothing itself), accepting through the
controller, and undo / redo (each with the snapshot read after it).

    python bench/bench_acts.py [--runs N] [--json OUT]      (offscreen unless QT_QPA_PLATFORM says otherwise)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # the controller needs a Qt application, no display
from bench_reads import ensure_synthetic  # noqa: E402

from reviewer_app.agent.executor import execute_tool_call  # noqa: E402
from reviewer_app.agent.review_queue import ProposalStore, ReviewQueueBridge  # noqa: E402
from reviewer_app.docx.reviewer import DocxReviewer  # noqa: E402


def _ms(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def _replace_ops(reviewer: DocxReviewer, count: int, offset: int) -> list[dict[str, object]]:
    """``count`` replaceInBlock operations on long body paragraphs (their unique opening amended)."""
    blocks = [
        b
        for b in reviewer.snapshot().content_blocks()
        if len(b.text) > 80 and b.table is None and b.text.count(b.text[:24]) == 1
    ]
    ops = []
    for n, block in enumerate(blocks[offset * count : offset * count + count]):
        find = block.text[:24]
        ops.append(
            {"id": f"op-{offset}-{n}", "type": "replaceInBlock", "blockId": block.id, "find": find,
             "replace": find + " (amended)"}
        )  # fmt: skip
    return ops


def measure_engine(path: Path, runs: int) -> dict[str, float]:
    reviewer = DocxReviewer.open(path)
    reviewer.snapshot()
    changes = reviewer.changes()
    out: dict[str, list[float]] = {k: [] for k in ("accept", "accept_snapshot", "reject", "reject_snapshot")}
    for n in range(runs):
        out["accept"].append(_ms(lambda n=n: reviewer.accept_change(changes[2 * n]["id"])))
        out["accept_snapshot"].append(_ms(reviewer.snapshot))
        out["reject"].append(_ms(lambda n=n: reviewer.reject_change(changes[2 * n + 1]["id"])))
        out["reject_snapshot"].append(_ms(reviewer.snapshot))
    with tempfile.TemporaryDirectory() as store_dir:
        bridge = ReviewQueueBridge(reviewer, ProposalStore(None, Path(store_dir)))
        reviewer.get_outline()
        out["dry_run"], out["dry_run_outline"], out["suggest_3_ops"] = [], [], []
        for n in range(runs):
            ops = _replace_ops(reviewer, 1, n)
            batch = {"version": 1, "mode": "tracked-changes", "operations": ops}
            results: list[dict[str, object]] = []
            out["dry_run"].append(
                _ms(lambda b=batch, r=results: r.append(bridge.apply_document_operations(b)))
            )
            assert results[0]["status"] == "queued", results[0]
            out["dry_run_outline"].append(_ms(reviewer.get_outline))
            args = {"operations": _replace_ops(reviewer, 3, runs + n)}
            calls: list[dict[str, object]] = []
            out["suggest_3_ops"].append(
                _ms(lambda a=args, c=calls: c.append(execute_tool_call("suggest_changes", a, bridge)))
            )
            assert len(calls[0]["result"]["queued"]) == 3, calls[0]  # type: ignore[index]
    return {k: _median(v) for k, v in out.items()}


def measure_controller(path: Path, runs: int) -> dict[str, float]:
    from PySide6.QtGui import QGuiApplication

    from reviewer_app.ui.document_controller import DocumentController

    app = QGuiApplication.instance() or QGuiApplication([])
    with tempfile.TemporaryDirectory() as store_dir:
        controller = DocumentController(store_directory=Path(store_dir))
        controller.open(path)
        changes = controller.require().changes()
        out: dict[str, list[float]] = {k: [] for k in ("perform_overhead", "accept_via_controller")}
        for _ in range(runs):
            out["perform_overhead"].append(_ms(lambda: controller.perform("nothing", lambda _r: True)))
        controller.undo_stack.clear()
        for n in range(runs):
            out["accept_via_controller"].append(
                _ms(lambda n=n: (controller.accept_changes([changes[n]["id"]]), controller.snapshot()))
            )
        out["undo"], out["redo"] = [], []
        for _ in range(runs):
            out["undo"].append(_ms(lambda: (controller.undo_stack.undo(), controller.snapshot())))
        for _ in range(runs):
            out["redo"].append(_ms(lambda: (controller.undo_stack.redo(), controller.snapshot())))
        controller.close()
    del app
    return {k: _median(v) for k, v in out.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    path = ensure_synthetic()
    figures = {**measure_engine(path, args.runs), **measure_controller(path, args.runs)}
    for name, value in figures.items():
        print(f"{name:24} {value:8.1f} ms")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
