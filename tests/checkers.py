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


def lo_resolve_all(path: Path, out: Path, accept: bool) -> dict:
    """LibreOffice's own Accept All (or Reject All) of ``path``, saved to ``out``; its JSON report."""
    script = CHECKERS / ("lo_accept_all.py" if accept else "lo_reject_all.py")
    python = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
    proc = subprocess.run(
        [python, str(script), str(path), str(out)], capture_output=True, text=True, timeout=180
    )
    if not proc.stdout.strip():
        raise RuntimeError(f"{script.name} gave no report on {path}: {proc.stderr[-500:]}")
    report = json.loads(proc.stdout)
    if not report.get("ok"):
        raise RuntimeError(f"{script.name} could not resolve {path}: {report.get('error')}")
    return report
