"""Start-up without the X11 libraries: one sentence with the install command, not Qt's core dump."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reviewer_app.ui.platform_check import XCB_LIBRARIES, missing_libraries, will_use_xcb, xcb_problem
from tests.conftest import REPO_ROOT

NOT_THERE = "libreviewer-not-there.so.9"


def test_missing_libraries_names_only_those_the_loader_cannot_load() -> None:
    assert missing_libraries(["libc.so.6", NOT_THERE]) == [NOT_THERE]


@pytest.mark.parametrize(
    ("environ", "platform", "expected"),
    [
        ({"DISPLAY": ":0"}, "linux", True),
        ({}, "linux", True),  # Qt's default on Linux is xcb
        ({"QT_QPA_PLATFORM": "xcb"}, "linux", True),
        ({"QT_QPA_PLATFORM": "offscreen"}, "linux", False),
        ({"QT_QPA_PLATFORM": "wayland;xcb"}, "linux", False),
        ({"XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
        ({"XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, "linux", True),
        ({"DISPLAY": ":0"}, "darwin", False),
        ({}, "win32", False),
    ],
)
def test_the_check_runs_only_when_qt_will_load_xcb(environ: dict, platform: str, expected: bool) -> None:
    assert will_use_xcb(environ, platform) is expected


def test_the_problem_is_one_sentence_with_the_apt_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.setenv("DISPLAY", ":0")
    if not sys.platform.startswith("linux"):
        pytest.skip("the xcb check is for Linux")
    problem = xcb_problem({"libc.so.6": "libc6", NOT_THERE: "libreviewer-not-there9"})
    assert problem is not None and "\n" not in problem
    assert problem.endswith("sudo apt-get install libreviewer-not-there9")
    assert NOT_THERE in problem and "libc" not in problem
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert xcb_problem({NOT_THERE: "libreviewer-not-there9"}) is None


def test_reviewer_without_an_xcb_library_exits_with_the_sentence_instead_of_aborting() -> None:
    """The real start-up path (``reviewer`` with no file) on an X display, with one library missing."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the xcb check is for Linux")
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env["DISPLAY"] = ":0"
    script = (
        "import sys; from reviewer_app.ui import platform_check;"
        f"platform_check.XCB_LIBRARIES[{NOT_THERE!r}] = 'libreviewer-not-there9';"
        "from reviewer_app.cli import main; sys.exit(main([]))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "sudo apt-get install" in lines[0] and "libreviewer-not-there9" in lines[0]
    assert "Could not load the Qt platform plugin" not in proc.stderr


def test_the_list_covers_what_the_xcb_plugin_links_to() -> None:
    """Every xcb/X11 library PySide6's xcb plugin needs is checked (``readelf -d``, as in the brief)."""
    readelf = shutil.which("readelf")
    if readelf is None or not sys.platform.startswith("linux"):
        pytest.skip("readelf (binutils) is needed on Linux")
    import PySide6

    qt = Path(PySide6.__file__).parent / "Qt"
    needed: set[str] = set()
    for binary in (qt / "plugins" / "platforms" / "libqxcb.so", qt / "lib" / "libQt6XcbQpa.so.6"):
        if not binary.exists():
            pytest.skip(f"{binary.name} is not in this PySide6")
        dynamic = subprocess.run([readelf, "-d", str(binary)], capture_output=True, text=True, check=True)
        needed |= set(re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", dynamic.stdout))
    x11 = {name for name in needed if re.match(r"lib(xcb|X11-xcb|xkbcommon-x11)", name)}
    assert x11 and x11 <= set(XCB_LIBRARIES)


def test_the_readme_installs_every_package_the_check_can_ask_for() -> None:
    """The README's first command (a prerequisite of the install-and-start one) brings them all."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    apt = readme.index("sudo apt-get install python3-venv")
    assert apt < readme.index("python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/reviewer")
    command = readme[apt : readme.index("```", apt)].replace("\\\n", " ").split()
    assert set(XCB_LIBRARIES.values()) <= set(command)
