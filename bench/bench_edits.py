"""Benchmark the edit engine against the edit-engine issue's targets.

On the synthetic ~300-page contract (see ``bench_reads.py``) it prints:
- a 50-operation ``replaceInBlock`` batch (tracked) applied, excluding save — target <= 50 ms;
- accept-all with 1,000 pending changes (made by applying 500 replacements) — target <= 200 ms;
- saving the edited document to bytes — target <= 300 ms.

    python bench/bench_edits.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_reads import ensure_synthetic  # noqa: E402
from reviewer_app.docx import DocxReviewer  # noqa: E402
from reviewer_app.docx.edit.resolve import accept_all  # noqa: E402

TARGETS_MS = {"batch50": 50.0, "accept_all_1000": 200.0, "save": 300.0}


def replacement_batch(reviewer: DocxReviewer, count: int) -> dict:
    """``count`` replaceInBlock operations on distinct long blocks, each changing one word."""
    ops = []
    for block in reviewer.read_document():
        words = block["text"].split()
        if len(words) < 12 or "[^" in block["text"] or block["text"].count(words[5]) != 1:
            continue
        ops.append(
            {
                "id": f"op{len(ops)}",
                "type": "replaceInBlock",
                "blockId": block["blockId"],
                "find": words[5],
                "replace": words[5].upper() + "X",
            }
        )
        if len(ops) == count:
            break
    return {"version": 1, "operations": ops}


def measure(path: Path, runs: int) -> dict[str, float | int]:
    """Median milliseconds of each measured step over ``runs`` fresh documents."""
    batch_ms, accept_ms, save_ms, applied, pending = [], [], [], [], 0
    for _ in range(runs):
        reviewer = DocxReviewer.open(path, author="Bench")
        reviewer.snapshot()
        batch = replacement_batch(reviewer, 50)
        start = time.perf_counter()
        result = reviewer.apply_operations(batch)
        batch_ms.append((time.perf_counter() - start) * 1000)
        applied.append(len(result["applied"]))

        start = time.perf_counter()
        reviewer.to_bytes()
        save_ms.append((time.perf_counter() - start) * 1000)

        busy = DocxReviewer.open(path, author="Bench")
        busy.apply_operations(replacement_batch(busy, 500))
        pending = len(busy.changes())  # 500 one-word replacements: about 1,000 changes
        start = time.perf_counter()
        accept_all(busy.document)
        accept_ms.append((time.perf_counter() - start) * 1000)
    return {
        "applied": min(applied),
        "pending": pending,
        "batch50": statistics.median(batch_ms),
        "accept_all_1000": statistics.median(accept_ms),
        "save": statistics.median(save_ms),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    path = ensure_synthetic()
    figures = measure(path, args.runs)
    print(f"file: {path.name}; operations applied per batch: {figures['applied']}")
    for key, target in TARGETS_MS.items():
        print(f"{key:18} {figures[key]:8.1f} ms   (target <= {target:.0f} ms)")
    print(f"accept_all_1000 accepted {figures['pending']} pending changes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
