"""The ``reviewer`` command run as a user runs it: ``python -m reviewer_app`` in its own process.

Command-line tests go through a real process so that the exit code, stdout, stderr and the files
written are what a user's shell sees; this one runner keeps how the process is started the same
in every test file.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT

_DISPLAY_VARIABLES = ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")


def run_reviewer(
    *args: str | Path, cwd: Path = REPO_ROOT, timeout: float = 120, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``reviewer ARGS…`` to completion and return its exit code and captured text output."""
    return subprocess.run(
        [sys.executable, "-m", "reviewer_app", *map(str, args)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_reviewer_without_display(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``reviewer ARGS…`` as on a server or in CI with no screen at all.

    No X11, no Wayland and no Qt platform chosen, so a test shows that ``pdf`` and ``render``
    need none; laying out and painting a whole contract is slow, hence the longer time allowed.
    """
    env = {k: v for k, v in os.environ.items() if k not in _DISPLAY_VARIABLES}
    return run_reviewer(*args, cwd=cwd, timeout=180, env=env)
