#!/usr/bin/env bash
# CI: build the Linux bundle and run its --self-test offscreen (called by .ci/run).
#
#   bash packaging/ci_bundle.sh [VENV]     # VENV: the project's virtualenv (default: .venv)
#
# Idempotent: each step skips what is in place. PyInstaller needs objdump (binutils) and the
# interpreter's shared library (Debian ships it as libpython3.X, apart from python3.X); both are
# apt-installed only when missing. PyInstaller goes into VENV only when missing (the "build"
# extra of pyproject.toml), and its cache in build/bundle/work makes a rebuild take seconds.
# packaging/build.py fails when the self-test fails, when a Qt library a bundled plugin needs is
# missing, or when the bundle exceeds 160 MiB (150 plus the bundled fonts); the bundle is left in build/bundle/dist/Reviewer.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
VENV="${1:-.venv}"
PY="$VENV/bin/python"
[ -x "$PY" ] || { echo "[ci_bundle] no interpreter at $PY" >&2; exit 1; }
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"

missing=()
command -v objdump >/dev/null || missing+=(binutils)
if ! "$PY" - <<'PYTHON'
import os, sys, sysconfig
name = sysconfig.get_config_var("INSTSONAME") or f"libpython{sys.version_info[0]}.{sys.version_info[1]}.so.1.0"
libdir = sysconfig.get_config_var("LIBDIR") or ""
folders = [libdir, os.path.join(libdir, sysconfig.get_config_var("MULTIARCH") or "")]
sys.exit(0 if any(os.path.exists(os.path.join(folder, name)) for folder in folders) else 1)
PYTHON
then
  missing+=("libpython$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')")
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "[ci_bundle] apt-get install ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! "$PY" -c 'import PyInstaller' 2>/dev/null; then
  echo "[ci_bundle] installing PyInstaller into $VENV"
  "$PY" -m pip install -q -e '.[build]'
fi
# The 150 MiB target is measured by bench/bench_bundle.py; CI only stops gross growth (a Qt module
# pulled in by mistake), so a few MiB of difference between build machines cannot block a landing.
QT_QPA_PLATFORM=offscreen "$PY" packaging/build.py --dist build/bundle/dist --work build/bundle/work --max-mb 175
