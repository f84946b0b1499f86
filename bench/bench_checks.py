"""Contract checks on the synthetic ~300-page contract: opening it, a full check, and a re-check
after a one-block edit, which re-reads only the edited block.

Targets (issue 17): full check ≤ 1 s, re-check after a one-block edit ≤ 50 ms. Opening the
file is the reading engine's work (bench/bench_reads.py) and is shown apart.
Run: ``.venv/bin/python bench/bench_checks.py``
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_reads import ensure_synthetic  # noqa: E402
from reviewer_app.docx import DocxReviewer  # noqa: E402
from reviewer_app.docx.checks import Checker, check_reviewer  # noqa: E402


def _timed(fn, runs: list[tuple[float, float]]):
    """``fn()``, appending its wall and CPU milliseconds to ``runs``; CPU time tells the engine's
    cost apart from waiting on a machine other processes keep busy."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    runs.append(((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000))
    return result


def _open(path: Path) -> DocxReviewer:
    reviewer = DocxReviewer.open(path)
    reviewer.snapshot()
    return reviewer


def main() -> int:
    path = ensure_synthetic()
    opens: list[tuple[float, float]] = []
    checks: list[tuple[float, float]] = []
    for _ in range(3):
        opened = _timed(lambda: _open(path), opens)
        _timed(lambda: check_reviewer(opened), checks)  # noqa: B023 (called at once)
    reviewer = DocxReviewer.open(path)
    checker = Checker()
    checker.check(reviewer.snapshot(), reviewer.document.body)
    block = next(b for b in reviewer.snapshot().blocks if len(b.text.split()) > 12 and not b.has_field_chars)
    word = block.text.split()[3]
    edits: list[tuple[float, float]] = []
    for n in range(5):
        reviewer.apply_operations(
            {
                "version": 1,
                "operations": [
                    {
                        "id": f"e{n}",
                        "type": "replaceInBlock",
                        "blockId": block.id,
                        "find": word,
                        "replace": word + "x",
                    }
                ],
            }
        )
        word += "x"
        _timed(lambda: checker.check(reviewer.snapshot(), reviewer.document.body), edits)
    for name, runs, target in (
        ("open + snapshot", opens, None),
        ("check (accepted view)", checks, 1000),
        ("re-check after a one-block edit", edits, 50),
    ):
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        goal = f" (target {target})" if target else ""
        print(f"{name}: {wall:.0f} ms wall, {cpu:.0f} ms CPU{goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
