"""``reviewer --self-test``: what an IT department runs to prove an install works, run here from source.

The command runs in a subprocess exactly as a deployment script would start it, so Qt starts
offscreen on its own, the real sample is opened from ``resources/`` and the agent turn goes
over real HTTP to the scripted server. The conftest's per-test user folders and failing keyring
reach the subprocess through the environment: the keyring check must then warn, not fail, and
a data folder that cannot be created must fail the run and be named.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import REPO_ROOT

#: Every check, in the order the self-test runs them.
CHECKS = [
    "qt_start",
    "open_sample",
    "layout",
    "read_page",
    "edit_and_reject",
    "agent_turn",
    "keyring",
    "config_folder",
    "data_folder",
    "state_folder",
    "log_folder",
]
#: The whole self-test takes a few seconds; this only stops a hang from stalling the suite.
TIMEOUT_S = 120


def run_reviewer(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m reviewer_app ARGS`` from the source tree, as a separate process.

    Without ``env``, QT_QPA_PLATFORM is left unset: the self-test must choose offscreen by itself.
    """
    environment = dict(os.environ) if env is None else env
    if env is None:
        environment.pop("QT_QPA_PLATFORM", None)
    return subprocess.run(
        [sys.executable, "-m", "reviewer_app", *args],
        cwd=REPO_ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        stdin=subprocess.DEVNULL,
    )


def read_report(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def test_self_test_passes_from_source_and_writes_the_report(tmp_path: Path) -> None:
    report_path = tmp_path / "report" / "selftest.json"
    proc = run_reviewer("--self-test", "--report", str(report_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "self-test passed" in proc.stdout

    report = read_report(report_path)
    checks = {check["name"]: check for check in report["checks"]}
    assert list(checks) == CHECKS
    for check in report["checks"]:
        assert set(check) >= {"name", "ok", "detail", "ms"}
        assert check["ok"], check
        assert check["ms"] >= 0
    # conftest installs keyring's failing backend: the app falls back to session-only keys
    assert [check["name"] for check in report["checks"] if check["warning"]] == ["keyring"]
    assert "session only" in checks["keyring"]["detail"]
    assert report["ok"] is True and report["frozen"] is False
    assert "17 pages" in checks["layout"]["detail"]
    assert "text restored" in checks["edit_and_reject"]["detail"]
    assert "127.0.0.1" in checks["agent_turn"]["detail"]
    assert checks["data_folder"]["detail"] == str(Path(os.environ["XDG_DATA_HOME"]) / "Reviewer")
    versions = report["versions"]
    for name in ("python", "qt", "pyside", "lxml", "anthropic", "app"):
        assert versions[name], name
    # the self-test leaves no probe files behind in the user's folders
    for variable in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        assert not list(Path(os.environ[variable]).rglob(".selftest-*"))


def test_a_data_folder_that_cannot_be_created_fails_the_run_and_is_named(tmp_path: Path) -> None:
    """A path under a regular file cannot become a folder, for root too (a chmod would not stop root)."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder's parent should be\n")
    env = {key: value for key, value in os.environ.items() if key != "QT_QPA_PLATFORM"}
    env["XDG_DATA_HOME"] = str(blocker / "data")
    report_path = tmp_path / "selftest.json"
    proc = run_reviewer("--self-test", "--report", str(report_path), env=env)

    assert proc.returncode == 1, proc.stdout + proc.stderr
    summary = proc.stdout.strip().splitlines()[-1]
    assert summary.startswith("self-test FAILED") and summary.endswith(": data_folder"), summary
    checks = {check["name"]: check for check in read_report(report_path)["checks"]}
    assert not checks["data_folder"]["ok"]
    assert str(blocker) in checks["data_folder"]["detail"]
    # the other checks still ran and passed: one broken folder does not hide the rest
    assert all(checks[name]["ok"] for name in CHECKS if name != "data_folder")


def test_the_launch_probe_leaves_once_the_first_page_is_painted() -> None:
    """``--exit-on-first-paint`` is how bench/bench_bundle.py times a launch: it must report and quit."""
    proc = run_reviewer("--exit-on-first-paint", env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    assert proc.returncode == 0, proc.stderr
    marker, elapsed_ms = proc.stdout.split()
    assert marker == "first-page-painted" and float(elapsed_ms) > 0


def test_the_scripted_model_server_has_one_copy_and_loads_no_qt() -> None:
    """The tests' ``fake_anthropic`` is the package's server; importing it stays headless."""
    probe = (
        "import sys, tests.fake_anthropic as fake, reviewer_app.selftest.scripted_model_server as real\n"
        "assert fake.FakeAnthropic is real.FakeAnthropic and fake.reply is real.reply\n"
        "assert set(fake.__all__) == set(real.__all__)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO_ROOT, capture_output=True, text=True, timeout=TIMEOUT_S
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
