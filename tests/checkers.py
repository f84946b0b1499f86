"""Calls into the third-party checkers in ../shared/checkers that tests share."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

CHECKERS = Path(__file__).resolve().parents[2] / "shared" / "checkers"


def schema_report(path: Path) -> dict:
    """The ECMA-376 schema checker's JSON report on ``path`` (document parts and OPC wiring)."""
    proc = subprocess.run(
        [sys.executable, str(CHECKERS / "ooxml_validate.py"), str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if not proc.stdout.strip():
        raise RuntimeError(f"ooxml_validate.py gave no report on {path}: {proc.stderr[-500:]}")
    return json.loads(proc.stdout)


def schema_errors(path: Path) -> int:
    """How many schema and package errors the checker finds in ``path`` (0 = valid)."""
    report = schema_report(path)
    return int(report["errors_total"]) + len(report.get("package_errors", []))
