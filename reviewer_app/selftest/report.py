"""What ``reviewer --self-test`` found: one :class:`CheckResult` per check, the versions, the JSON report.

Kept apart from the checks so the report's shape (``{checks: [{name, ok, detail, ms}], versions}``)
is defined once, and so writing it needs no Qt: a firm's deployment script reads the JSON to
decide whether an install works, and support staff read the same lines on the console.
"""

from __future__ import annotations

import json
import os
import platform
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .. import __version__


class CheckFailed(Exception):
    """A check's plain reason for failing (the message is the report's ``detail``)."""


@dataclass
class Outcome:
    """What a passing check reports; ``warning`` marks a pass with a caveat for IT."""

    detail: str
    warning: bool = False


@dataclass
class CheckResult:
    """One check: ``ok`` False fails the self-test; ``warning`` marks an ok with a caveat."""

    name: str
    ok: bool
    detail: str
    ms: float = 0.0
    warning: bool = False

    def line(self) -> str:
        """The console line: status, name, time and detail, aligned for reading."""
        status = "FAIL" if not self.ok else ("warn" if self.warning else "ok")
        return f"{status:<4}  {self.name:<16} {self.ms:7.0f} ms  {self.detail}"


def versions() -> dict[str, str | None]:
    """Versions of Python, Qt, PySide6, lxml, anthropic and the app (None when not importable)."""
    found: dict[str, str | None] = {"python": platform.python_version(), "app": __version__}
    try:
        import PySide6
        from PySide6.QtCore import qVersion

        found["qt"] = qVersion()
        found["pyside"] = PySide6.__version__
    except ImportError:
        found["qt"] = found["pyside"] = None
    try:
        from lxml import etree

        found["lxml"] = etree.__version__
    except ImportError:
        found["lxml"] = None
    try:
        import anthropic

        found["anthropic"] = anthropic.__version__
    except ImportError:
        found["anthropic"] = None
    return found


def report_data(results: list[CheckResult]) -> dict[str, Any]:
    """The JSON report: every check, the versions, and where it ran (a bundle or a source tree)."""
    return {
        "ok": all(result.ok for result in results),
        "checks": [asdict(result) for result in results],
        "versions": versions(),
        "platform": platform.platform(),
        "frozen": bool(getattr(sys, "frozen", False)),
        "executable": sys.executable,
    }


def write_report(results: list[CheckResult], path: str | os.PathLike[str]) -> Path:
    """Write the JSON report to ``path`` (its folder is created) and return the path."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(report_data(results), indent=2) + "\n", encoding="utf-8")
    return target
