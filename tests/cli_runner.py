"""The ``reviewer`` command run as a user runs it: ``python -m reviewer_app`` in its own process.

Command-line tests go through a real process so that the exit code, stdout, stderr and the files
written are what a user's shell sees; this one runner keeps how the process is started the same
in every test file.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT


def run_reviewer(
    *args: str | Path, cwd: Path = REPO_ROOT, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run ``reviewer ARGS…`` to completion and return its exit code and captured text output."""
    return subprocess.run(
        [sys.executable, "-m", "reviewer_app", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
