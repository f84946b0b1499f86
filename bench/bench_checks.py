"""Contract checks on the synthetic ~300-page contract: a full ``reviewer check`` (open + check)
and a re-check after a one-block edit, which reuses every unchanged block's facts.

Targets (issue 17): full check ≤ 1 s, re-check after a one-block edit ≤ 50 ms.
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


def main() -> int:
    path = ensure_synthetic()
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        check_reviewer(DocxReviewer.open(path))
        runs.append((time.perf_counter() - start) * 1000)
    reviewer = DocxReviewer.open(path)
    checker = Checker()
    checker.check(reviewer.snapshot(), reviewer.document.body)
    block = next(b for b in reviewer.snapshot().blocks if len(b.text.split()) > 12 and not b.has_field_chars)
    word = block.text.split()[3]
    edits = []
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
        start = time.perf_counter()
        checker.check(reviewer.snapshot(), reviewer.document.body)
        edits.append((time.perf_counter() - start) * 1000)
    print(f"full check (open + check): {statistics.median(runs):.0f} ms (target 1000)")
    print(f"re-check after a one-block edit: {statistics.median(edits):.0f} ms (target 50)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
