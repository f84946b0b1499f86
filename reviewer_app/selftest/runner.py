"""``reviewer --self-test [--report PATH]``: prove an install works, without a display or a network.

Runs, in order: ``qt_start`` (the Qt platform plugin is there and a QApplication starts),
``open_sample``, ``layout``, ``read_page``, ``edit_and_reject``, ``agent_turn`` (see
:mod:`.document_checks`), then ``keyring`` and the four data folders (see
:mod:`.environment_checks`). Each check is timed; a check whose prerequisite failed is reported
as failed with the reason, so one broken piece does not hide behind a cascade of tracebacks.
Prints one line per check and exits 1 naming every failed check (0 when all pass; a keyring
warning passes). ``--report`` writes the same as JSON (:mod:`.report`) for deployment scripts.

Qt starts offscreen unless ``QT_QPA_PLATFORM`` is already set, so the check runs over SSH, in
CI and in a deployment tool's session alike.
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from .environment_checks import DATA_FOLDERS, keyring_backend, writable_folder
from .report import CheckFailed, CheckResult, Outcome, write_report

log = logging.getLogger(__name__)

#: Which checks each document check needs to have passed first.
_PREREQUISITES = {
    "open_sample": ("qt_start",),
    "layout": ("open_sample",),
    "read_page": ("layout",),
    "edit_and_reject": ("open_sample",),
    "agent_turn": ("open_sample",),
}


class _Runner:
    """Runs checks one by one, timing each and turning every exception into a failed result."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.results: list[CheckResult] = []

    def passed(self, name: str) -> bool:
        return any(result.name == name and result.ok for result in self.results)

    def run(self, name: str, check: Callable[[], Outcome]) -> None:
        missing = [need for need in _PREREQUISITES.get(name, ()) if not self.passed(need)]
        started = time.perf_counter()
        if missing:
            result = CheckResult(name, False, f"not run: {', '.join(missing)} failed")
        else:
            try:
                outcome = check()
                result = CheckResult(name, True, outcome.detail, warning=outcome.warning)
            except CheckFailed as failure:
                result = CheckResult(name, False, str(failure))
            except Exception as error:  # a self-test reports every failure, it never dies of one
                log.debug("self-test check %s raised", name, exc_info=True)
                result = CheckResult(name, False, f"{type(error).__name__}: {error}")
        result.ms = round((time.perf_counter() - started) * 1000, 1)
        self.results.append(result)
        print(result.line(), file=self.out, flush=True)


def _platform_plugin() -> str:
    """The Qt platform plugin Qt will load (the first of ``QT_QPA_PLATFORM``, options cut off)."""
    return os.environ["QT_QPA_PLATFORM"].split(";")[0].split(":")[0].strip()


def start_qt() -> Outcome:
    """Check the platform plugin file exists (Qt aborts the process without it), then start Qt."""
    from PySide6.QtCore import QLibraryInfo

    plugin = _platform_plugin()
    folder = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms"
    if not any(folder.glob(f"*q{plugin}.*")):
        raise CheckFailed(f"the Qt platform plugin {plugin!r} is missing from {folder}")
    from ..app import create_application

    app = create_application()
    return Outcome(f"{app.platformName()} platform, plugins in {folder.parent}")


def _document_checks(runner: _Runner, store: Path) -> None:
    """The checks on the sample; the Qt objects are made only when Qt started."""
    if not runner.passed("qt_start"):
        for name in _PREREQUISITES:
            runner.run(name, lambda: Outcome(""))  # recorded as "not run: qt_start failed"
        return
    from .document_checks import DocumentChecks

    checks = DocumentChecks(store)
    try:
        for name in _PREREQUISITES:
            runner.run(name, getattr(checks, name))
    finally:
        checks.close()


def run_self_test(report_path: str | os.PathLike[str] | None = None, out: TextIO | None = None) -> int:
    """Run every check, print one line each, write the JSON report; 0 when all passed, else 1."""
    stream = out if out is not None else sys.stdout
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    runner = _Runner(stream)
    started = time.perf_counter()
    runner.run("qt_start", start_qt)
    with tempfile.TemporaryDirectory(prefix="reviewer-selftest-") as store:
        _document_checks(runner, Path(store))
    runner.run("keyring", keyring_backend)
    for name in DATA_FOLDERS:
        runner.run(name, lambda name=name: writable_folder(name))
    failed = [result.name for result in runner.results if not result.ok]
    total_s = time.perf_counter() - started
    if report_path is not None:
        written = write_report(runner.results, report_path)
        print(f"report written to {written}", file=stream)
    if failed:
        print(f"self-test FAILED ({total_s:.1f} s): {', '.join(failed)}", file=stream, flush=True)
        return 1
    print(f"self-test passed ({total_s:.1f} s)", file=stream, flush=True)
    return 0
