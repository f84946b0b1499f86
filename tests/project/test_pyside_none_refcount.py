"""Guard against PySide6 6.12.0's lost reference to ``None`` on CPython 3.11.

PySide6 6.12.0 drops one reference to ``None`` on every Qt call that returns nothing; on
CPython before 3.12, where ``None`` has an ordinary reference count, the interpreter aborts
("deallocating None") after a few thousand such calls, i.e. seconds into using the app.
``pyproject.toml`` therefore pins ``PySide6-Essentials>=6.9,<6.12`` on Python < 3.12. These
tests check that the installed build keeps ``None``'s count steady, and that the pin is there
and honoured. On 3.12+ ``None`` is immortal (PEP 683) and the bug cannot bite.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from importlib import metadata

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.skipif(
    sys.version_info >= (3, 12) or sys.implementation.name != "cpython",
    reason="None is immortal on CPython 3.12+ (PEP 683): a lost reference cannot abort",
)

DISTRIBUTION = "PySide6-Essentials"
CALLS = 20_000
#: Allowed drift in None's count (unrelated allocations while the loop runs).
TOLERANCE = 50

# Run in a child: with the bug present the interpreter aborts, which must fail this test,
# not kill pytest. Counts are printed every 1,000 calls so a crash still shows the trend.
_PROBE = f"""
import json, sys
from PySide6.QtCore import QObject, QTimer
obj, timer = QObject(), QTimer()
obj.setObjectName("warm-up"); timer.setInterval(1)
before = sys.getrefcount(None)
for i in range({CALLS} // 2):
    obj.setObjectName("probe")   # void
    timer.setInterval(i % 100)   # void
    if i % 500 == 0:
        print(json.dumps({{"calls": 2 * i, "delta": sys.getrefcount(None) - before}}), flush=True)
print(json.dumps({{"calls": {CALLS}, "delta": sys.getrefcount(None) - before, "done": True}}), flush=True)
"""


def test_void_qt_calls_keep_none_refcount() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
    )
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert proc.returncode == 0, (
        f"the interpreter died after about {rows[-1]['calls'] if rows else 0} void Qt calls "
        f"(exit {proc.returncode}): PySide6 is dropping references to None. "
        f"Installed {DISTRIBUTION} {metadata.version(DISTRIBUTION)}. {proc.stderr[-500:]}"
    )
    assert rows and rows[-1].get("done"), proc.stdout[-500:]
    assert rows[-1]["delta"] > -TOLERANCE, f"None lost {-rows[-1]['delta']} references in {CALLS} calls"


def _pyside_requirements() -> list[Requirement]:
    data = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    reqs = [Requirement(r) for r in data["project"]["dependencies"]]
    return [r for r in reqs if r.name.lower() == DISTRIBUTION.lower()]


def test_pin_excludes_6_12_on_python_before_3_12() -> None:
    """The pin must stay in pyproject.toml for Python < 3.12."""
    env = {"python_version": "3.11", "python_full_version": "3.11.7"}
    active = [r for r in _pyside_requirements() if r.marker is None or r.marker.evaluate(env)]
    assert active, f"pyproject.toml has no {DISTRIBUTION} requirement for Python 3.11"
    for req in active:
        assert not req.specifier.contains(Version("6.12.0")), f"{req} lets 6.12.0 in"
        assert req.specifier.contains(Version("6.11.3")), f"{req} excludes the tested 6.11"


def test_installed_pyside_satisfies_the_pin() -> None:
    installed = Version(metadata.version(DISTRIBUTION))
    active = [r for r in _pyside_requirements() if r.marker is None or r.marker.evaluate()]
    assert active
    for req in active:
        assert req.specifier.contains(installed, prereleases=True), (
            f"{DISTRIBUTION} {installed} is installed but pyproject.toml requires {req}"
        )
