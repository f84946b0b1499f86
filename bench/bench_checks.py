"""Contract checks on the synthetic ~300-page contract: ``reviewer check FILE`` end to end, then
in this process opening it, a full check, and a re-check after a one-block edit, which re-reads
only the edited block.

Targets (issue 17): ``reviewer check`` on the contract ≤ 1 s, re-check after a one-block edit
≤ 50 ms. The command's time is the interpreter's start, its imports, opening the file (the
reading engine's work, bench/bench_reads.py) and the check; the in-process lines show the
last three apart, and the line "start-up and imports" times a command that only starts the
interpreter and imports what ``reviewer check`` imports, so the rest of the end-to-end figure is
the command's own work (opening, checking, printing, freeing the document). The machine's load
average is printed with the figures: the bench machine is shared, and wall time there is not the
command's alone (CPU time is).
Run: ``.venv/bin/python bench/bench_checks.py [--runs N]``
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
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


#: What ``reviewer check`` imports before it opens the file (the command line, the checks).
_IMPORTS_ONLY = "import reviewer_app.cli.main, reviewer_app.docx.checks"


def _command(path: Path, runs: list[tuple[float, float]] | None, imports_only: bool = False) -> None:
    """Run ``reviewer check FILE`` (as ``python -m reviewer_app``, the console script's entry
    point), or with ``imports_only`` just its start-up and imports, and append its wall and
    CPU milliseconds to ``runs`` (the child's user + system time). Its modules are compiled
    once, as an installed app's are: the bytecode is kept under bench/out, also where
    PYTHONDONTWRITEBYTECODE is set, and the first run (``runs`` None) writes it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(path.parent / "pycache")
    args = ["-c", _IMPORTS_ONLY] if imports_only else ["-m", "reviewer_app", "check", str(path)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env)
    elapsed = (time.perf_counter() - wall) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"reviewer check failed ({done.returncode}): {done.stderr}")
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    if runs is not None:
        runs.append((elapsed, cpu))


def _open(path: Path) -> DocxReviewer:
    reviewer = DocxReviewer.open(path)
    reviewer.snapshot()
    return reviewer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--runs", type=int, default=5, help="runs of each command, medians printed (default 5)"
    )
    ns = parser.parse_args(argv)
    path = ensure_synthetic()
    commands: list[tuple[float, float]] = []
    starts: list[tuple[float, float]] = []
    _command(path, None)
    for _ in range(ns.runs):  # alternately, so a burst of load hits both alike
        _command(path, commands)
        _command(path, starts, imports_only=True)
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
    print("load average: " + ", ".join(f"{load:.1f}" for load in os.getloadavg()))
    for name, runs, target in (
        ("reviewer check FILE (end to end)", commands, 1000),
        ("  of which start-up and imports", starts, None),
        ("open + snapshot", opens, None),
        ("check (accepted view)", checks, None),
        ("re-check after a one-block edit", edits, 50),
    ):
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        goal = f" (target {target})" if target else ""
        print(f"{name}: {wall:.0f} ms wall, {cpu:.0f} ms CPU{goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
