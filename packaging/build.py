"""Build the Reviewer bundle with PyInstaller, then prove it works: ``packaging/build.py [--dist DIR]``.

Steps: run ``packaging/reviewer.spec``; run the bundle's own ``--self-test`` offscreen (the
report lands beside the bundle as ``selftest-report.json``); on Linux check that every Qt
library the bundled plugins link to is inside the bundle; print the bundle's size and fail when
it exceeds ``--max-mb`` (160 MB on Linux: issue 9's 150 plus the 7.2 MB of fonts issue 14 ships).
Exit status 0 only when all passed, so CI and a release script can trust it.

The installers (Inno Setup, dmg, tarball/AppImage) are made from the folder this leaves; see
``packaging/README.md``. Runs with the interpreter whose packages are bundled (the project's venv).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "packaging" / "reviewer.spec"
APP_NAME = "Reviewer"
#: Size target for the unpacked Linux bundle: issue 9's 150 MiB plus the bundled fonts (resources/fonts).
LINUX_MAX_MB = 160.0
#: Seconds the bundle's self-test may take (it takes a few; a hang must not stall CI).
SELF_TEST_TIMEOUT_S = 120


def shipped_folder(dist: Path) -> Path:
    """What an installer ships: ``Reviewer.app`` on macOS, the ``Reviewer`` folder elsewhere."""
    return dist / (f"{APP_NAME}.app" if sys.platform == "darwin" else APP_NAME)


def console_executable(dist: Path) -> Path:
    """The executable that writes to a console: ``reviewer-cli.exe`` on Windows, ``reviewer`` elsewhere."""
    if sys.platform == "win32":
        return dist / APP_NAME / "reviewer-cli.exe"
    if sys.platform == "darwin":
        return shipped_folder(dist) / "Contents" / "MacOS" / "reviewer"
    return shipped_folder(dist) / "reviewer"


def disk_usage_mib(folder: Path) -> float:
    """Space ``folder`` takes on disk in MiB, as ``du -s`` counts it (links not followed)."""
    total = 0
    for path in [folder, *folder.rglob("*")]:
        info = path.lstat()
        total += getattr(info, "st_blocks", 0) * 512 or info.st_size
    return total / (1024 * 1024)


def run_pyinstaller(dist: Path, work: Path, clean: bool) -> None:
    """Build with the spec; PyInstaller keeps its cache in ``work``, so a rebuild takes seconds."""
    command = [sys.executable, "-m", "PyInstaller", str(SPEC), "--noconfirm", "--log-level", "WARN"]
    command += ["--distpath", str(dist), "--workpath", str(work)]
    if clean:
        command.append("--clean")
    print(f"[build] {' '.join(command)}", flush=True)
    subprocess.run(command, cwd=ROOT, check=True)


def self_test(dist: Path) -> bool:
    """Run the bundle's ``--self-test`` offscreen; True when it passed."""
    executable = console_executable(dist)
    report = dist / "selftest-report.json"
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    print(f"[build] {executable} --self-test --report {report}", flush=True)
    started = time.perf_counter()
    proc = subprocess.run(
        [str(executable), "--self-test", "--report", str(report)],
        env=env,
        timeout=SELF_TEST_TIMEOUT_S,
        stdin=subprocess.DEVNULL,
    )
    print(
        f"[build] self-test exited {proc.returncode} after {time.perf_counter() - started:.1f} s", flush=True
    )
    return proc.returncode == 0


def missing_qt_libraries(folder: Path) -> list[str]:
    """Linux: ``plugin: library`` for each Qt library a bundled plugin links to but the bundle lacks.

    System libraries a desktop provides (libxcb-icccm, libwayland-client...) are not reported:
    the plugin for that desktop simply needs them, as every Qt 6 program does.
    """
    if not sys.platform.startswith("linux") or shutil.which("ldd") is None:
        return []
    bundled = {path.name for path in folder.rglob("libQt6*")}
    missing = []
    for plugin in sorted((folder / "_internal" / "PySide6" / "Qt" / "plugins").rglob("*.so")):
        linked = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True).stdout
        for line in linked.splitlines():
            name = line.strip().split(" ")[0]
            if name.startswith("libQt6") and name not in bundled:
                missing.append(f"{plugin.relative_to(folder)}: {name}")
    return missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--dist", type=Path, default=ROOT / "dist", help="where the bundle goes (default: dist/)"
    )
    parser.add_argument(
        "--work", type=Path, default=ROOT / "build" / "pyinstaller", help="PyInstaller's cache"
    )
    parser.add_argument("--clean", action="store_true", help="rebuild from scratch")
    parser.add_argument("--skip-build", action="store_true", help="only test the bundle already in --dist")
    default_max = LINUX_MAX_MB if sys.platform.startswith("linux") else None
    parser.add_argument(
        "--max-mb", type=float, default=default_max, help="fail above this size (MiB on disk)"
    )
    args = parser.parse_args(argv)
    dist = args.dist.resolve()
    if not args.skip_build:
        try:
            import PyInstaller  # noqa: F401 - only checking it is installed
        except ImportError:
            print("[build] PyInstaller is missing: pip install -e '.[build]'", file=sys.stderr)
            return 2
        run_pyinstaller(dist, args.work.resolve(), args.clean)
    failures = []
    if not self_test(dist):
        failures.append("the bundle's self-test failed")
    missing = missing_qt_libraries(shipped_folder(dist))
    if missing:
        failures.append("Qt libraries missing from the bundle: " + "; ".join(missing))
    size_mb = disk_usage_mib(shipped_folder(dist))
    print(f"[build] bundle size: {size_mb:.1f} MiB on disk ({shipped_folder(dist)})", flush=True)
    if args.max_mb is not None and size_mb > args.max_mb:
        failures.append(f"the bundle is {size_mb:.1f} MB, over the {args.max_mb:.0f} MB target")
    for failure in failures:
        print(f"[build] FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
