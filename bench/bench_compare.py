"""Benchmark version comparison and redline generation against the compare issue's targets.

- ``dxo_WC-BodyBookmarks-Before`` → ``-After`` (a real ~238-page book): our redline against the
  reference engine's (Docxodus, through ``../shared/checkers/peer_compare.py``) timed in the same
  run — target: ours <= 0.5x the reference's time. Our ``compare_docx_versions`` is shown too.
- the synthetic ~300-page contract (``bench_reads.py`` generates it) against an edited copy (80
  word replacements, 10 insertions, 10 deletions, made with the engine in direct mode) — target:
  ``compare_docx_versions`` <= 1 s on the two opened documents. Opening both and the redline
  are printed for scale.

    python bench/bench_compare.py [--runs N] [--no-reference]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_reads import CORPUS, ensure_synthetic  # noqa: E402
from reviewer_app.docx import DocxReviewer  # noqa: E402
from reviewer_app.docx.compare import compare_docx_versions, generate_redline_docx  # noqa: E402

PEER = ROOT.parent / "shared" / "checkers" / "peer_compare.py"
BOOK = ("dxo_WC-BodyBookmarks-Before.docx", "dxo_WC-BodyBookmarks-After.docx")
EDITED = ROOT / "bench" / "out" / "synthetic-msa-300p-edited.docx"
TARGETS = {"redline_vs_reference": 0.5, "compare_300p_s": 1.0}


def _median(fn, runs: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def reference_seconds(a: Path, b: Path) -> float | None:
    """Docxodus's own time for the same redline (None when the checker is not installed)."""
    if not PEER.exists():
        return None
    env = dict(os.environ, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="1")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "reference.docx"
        cmd = [sys.executable, str(PEER), str(a), str(b), str(out), "--engine", "docxodus"]
        cmd += ["--timeout", "600"]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    try:
        result = json.loads(proc.stdout)["results"][0]
    except (json.JSONDecodeError, KeyError, IndexError):
        print(f"reference engine gave no report: {proc.stderr.strip()[-300:]}")
        return None
    return float(result["seconds"]) if result.get("ok") else None


def edited_copy(source: Path) -> Path:
    """The synthetic contract with 100 deterministic direct edits (made once, then reused)."""
    if EDITED.exists() and EDITED.stat().st_mtime >= source.stat().st_mtime:
        return EDITED
    reviewer = DocxReviewer.open(source)
    rng = random.Random(7)
    blocks = [b for b in reviewer.snapshot().blocks if len(b.text.split()) > 12 and "[^" not in b.text]
    ops: list[dict] = []
    for block in rng.sample(blocks, 80):
        word = block.text.split()[5]
        if block.text.count(word) == 1:
            ops.append({"type": "replaceInBlock", "blockId": block.id, "find": word, "replace": word.upper()})
    for block in rng.sample(blocks, 10):
        ops.append({"type": "insertAfterBlock", "blockId": block.id, "text": "A clause added in review."})
    used = {op["blockId"] for op in ops}
    for block in rng.sample([b for b in blocks if b.id not in used and b.table is None], 10):
        ops.append({"type": "deleteBlock", "blockId": block.id})
    for index, op in enumerate(ops):
        op["id"] = f"bench-{index}"
    reviewer.apply_operations({"version": 1, "mode": "direct", "operations": ops})
    reviewer.save(EDITED)
    return EDITED


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement (median)")
    parser.add_argument("--no-reference", action="store_true", help="skip the Docxodus reference run")
    args = parser.parse_args()

    print("== dxo_WC-BodyBookmarks-Before -> -After (about 238 pages)")
    a, b = CORPUS / BOOK[0], CORPUS / BOOK[1]
    compare_s, diff = _median(lambda: compare_docx_versions(a, b), args.runs)
    redline_s, red = _median(lambda: generate_redline_docx(a, b), args.runs)
    counts = diff["summaryCounts"]  # type: ignore[index]
    print(f"compare_docx_versions   {compare_s:7.2f} s   {counts}")
    print(
        f"generate_redline_docx   {redline_s:7.2f} s   applied {len(red['applied'])}, "  # type: ignore[index]
        f"skipped {len(red['skipped'])}, unprocessed stories {len(red['unprocessedStories'])}"  # type: ignore[index]
    )
    if not args.no_reference:
        reference = reference_seconds(a, b)
        if reference is None:
            print("reference engine (Docxodus): not available")
        else:
            ratio = redline_s / reference
            verdict = "ok" if ratio <= TARGETS["redline_vs_reference"] else "OVER TARGET"
            print(
                f"reference engine (Docxodus) {reference:7.2f} s   ours/reference = {ratio:.2f}x "
                f"(target <= {TARGETS['redline_vs_reference']}x) {verdict}"
            )

    print("== synthetic 300-page contract vs an edited copy")
    source = ensure_synthetic()
    edited = edited_copy(source)

    def open_both() -> tuple[DocxReviewer, DocxReviewer]:
        opened = DocxReviewer.open(source), DocxReviewer.open(edited)
        for reviewer in opened:
            reviewer.snapshot()
        return opened

    open_s, pair = _median(open_both, 1)
    base, revised = pair  # type: ignore[misc]
    compare_s, diff = _median(lambda: compare_docx_versions(base, revised), args.runs)
    verdict = "ok" if compare_s <= TARGETS["compare_300p_s"] else "OVER TARGET"
    print(f"open both (for scale)   {open_s:7.2f} s   {len(base.snapshot().blocks)} blocks each")
    print(
        f"compare_docx_versions   {compare_s:7.2f} s   (target <= {TARGETS['compare_300p_s']} s) {verdict}   "
        f"{diff['summaryCounts']}"  # type: ignore[index]
    )
    end_to_end, _ = _median(lambda: compare_docx_versions(source, edited), 1)
    print(f"compare from paths      {end_to_end:7.2f} s   (opening included)")
    redline_s, red = _median(lambda: generate_redline_docx(base, revised), 1)
    print(f"generate_redline_docx   {redline_s:7.2f} s   applied {len(red['applied'])}")  # type: ignore[index]
    return 0


if __name__ == "__main__":
    sys.exit(main())
