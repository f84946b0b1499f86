"""Benchmark the PyInstaller bundle against issue 9's targets: size and launch time.

* size: the unpacked bundle on disk, as ``du -s`` counts it (target ≤ 160 MiB on Linux: issue 9's
  150 plus the bundled fonts);
* launch: from starting the process until the main window has painted the first page of the
  sample contract (``reviewer --exit-on-first-paint``, see :mod:`reviewer_app.selftest.launch_probe`),
  median of ``--runs`` launches after one warm-up (target ≤ 1.5 s); the same from source
  (``python -m reviewer_app``) for comparison, and the first, cold launch of each;
* self-test: how long the bundle's ``--self-test`` takes end to end.

Launches run offscreen (``QT_QPA_PLATFORM=offscreen``) unless the variable is set, so the figure
is the app's own start-up (Python, Qt, opening and laying out the sample, one paint), without a
window manager's share.

    python bench/bench_bundle.py [--dist DIR] [--build] [--runs 5] [--json OUT]

``--build`` runs ``packaging/build.py`` first (also when ``--dist`` holds no bundle yet).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"size_mib": 160.0, "launch_s": 1.5}
MARKER = "first-page-painted"  # reviewer_app.selftest.launch_probe.FIRST_PAINT_MARKER (no Qt import here)
LAUNCH_TIMEOUT_S = 60.0


def load_build_script() -> ModuleType:
    """``packaging/build.py`` as a module (the folder is not a package), for its bundle paths."""
    spec = importlib.util.spec_from_file_location("reviewer_packaging_build", ROOT / "packaging" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def launch_seconds(command: list[str], env: dict[str, str]) -> float:
    """Seconds from starting ``command`` to its first-paint line; the process is then left to quit."""
    started = time.perf_counter()
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
    ) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith(MARKER):
                elapsed = time.perf_counter() - started
                break
        else:
            raise RuntimeError(f"{command[0]} exited {proc.wait()} without painting a page")
        proc.wait(timeout=LAUNCH_TIMEOUT_S)
    return elapsed


def launches(command: list[str], env: dict[str, str], runs: int) -> dict[str, float]:
    """The first (cold) launch, then the median, min and max of ``runs`` more."""
    first = launch_seconds(command, env)
    times = [launch_seconds(command, env) for _ in range(runs)]
    return {"first_s": first, "median_s": statistics.median(times), "min_s": min(times), "max_s": max(times)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="the bundle's dist folder")
    parser.add_argument("--build", action="store_true", help="build the bundle first")
    parser.add_argument("--runs", type=int, default=5, help="launches to take the median of")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    build = load_build_script()
    dist = args.dist.resolve()
    executable = build.console_executable(dist)
    if (args.build or not executable.exists()) and build.main(["--dist", str(dist)]) != 0:
        print("the build or its self-test failed", file=sys.stderr)
        return 1
    # a private, empty set of user folders: no recent files or settings change what is timed
    with tempfile.TemporaryDirectory(prefix="reviewer-bench-") as home:
        env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
            env[var] = str(Path(home) / var.lower())
        bundle = launches([str(executable), "--exit-on-first-paint"], env, args.runs)
        source_command = [sys.executable, "-m", "reviewer_app", "--exit-on-first-paint"]
        source = launches(source_command, dict(env, PYTHONPATH=str(ROOT)), args.runs)
        started = time.perf_counter()
        self_test = subprocess.run([str(executable), "--self-test"], env=env, capture_output=True, text=True)
        self_test_s = time.perf_counter() - started
    size = build.disk_usage_mib(build.shipped_folder(dist))
    figures = {
        "bundle": str(build.shipped_folder(dist)),
        "size_mib": round(size, 1),
        "launch_bundle": {k: round(v, 3) for k, v in bundle.items()},
        "launch_source": {k: round(v, 3) for k, v in source.items()},
        "self_test_s": round(self_test_s, 2),
        "self_test_exit": self_test.returncode,
        "runs": args.runs,
        "targets": TARGETS,
    }
    print(f"bundle: {figures['bundle']}")
    print(f"size on disk:           {size:7.1f} MiB   (target ≤ {TARGETS['size_mib']:.0f})")
    for label, data in (("launch, bundle", bundle), ("launch, source", source)):
        print(
            f"{label + ':':<23} {data['median_s']:7.3f} s     median of {args.runs} "
            f"(min {data['min_s']:.3f}, max {data['max_s']:.3f}, first {data['first_s']:.3f})"
            + (f"   (target ≤ {TARGETS['launch_s']} s)" if label.endswith("bundle") else "")
        )
    print(f"self-test, bundle:      {self_test_s:7.2f} s     exit {self_test.returncode}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    met = (
        size <= TARGETS["size_mib"]
        and bundle["median_s"] <= TARGETS["launch_s"]
        and self_test.returncode == 0
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
