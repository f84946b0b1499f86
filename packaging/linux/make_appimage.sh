#!/usr/bin/env bash
# Make dist/installers/Reviewer-<version>-<arch>.AppImage from dist/Reviewer with appimagetool.
#
#   python packaging/build.py && bash packaging/linux/make_appimage.sh [DIST]
#
# appimagetool is not part of this repository's toolchain: download it from
# https://github.com/AppImage/appimagetool/releases (one file; chmod +x; put it on PATH) or set
# APPIMAGETOOL=/path/to/appimagetool. The AppImage runs the same bundle; "Open With" for .docx
# needs the desktop file integrated (appimaged, Gear Lever, or the tarball's install.sh instead).
# Build on the oldest distribution you support: the bundle carries that machine's glibc needs.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DIST="${1:-$ROOT/dist}"
TOOL="${APPIMAGETOOL:-appimagetool}"
VERSION="$(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$ROOT/reviewer_app/__init__.py")"
ARCH="$(uname -m)"
OUT="$DIST/installers/Reviewer-$VERSION-$ARCH.AppImage"

command -v "$TOOL" >/dev/null || { echo "make_appimage.sh: $TOOL not found (see the header)" >&2; exit 3; }
[ -x "$DIST/Reviewer/reviewer" ] || { echo "make_appimage.sh: $DIST/Reviewer not found: run packaging/build.py" >&2; exit 1; }
APPDIR="$(mktemp -d)/Reviewer.AppDir"
trap 'rm -rf "$(dirname "$APPDIR")"' EXIT
mkdir -p "$APPDIR/usr/lib"
cp -a "$DIST/Reviewer" "$APPDIR/usr/lib/reviewer"
cp "$ROOT/packaging/linux/reviewer.desktop" "$ROOT/packaging/linux/reviewer.svg" "$APPDIR/"
ln -s reviewer.svg "$APPDIR/.DirIcon"
cat > "$APPDIR/AppRun" <<'APPRUN'
#!/bin/sh
# The AppImage's entry point: the bundle's own executable, with every argument passed on.
HERE="$(dirname "$(readlink -f "$0")")"
exec "$HERE/usr/lib/reviewer/reviewer" "$@"
APPRUN
chmod +x "$APPDIR/AppRun"
mkdir -p "$(dirname "$OUT")"
ARCH="$ARCH" "$TOOL" "$APPDIR" "$OUT"
echo "make_appimage.sh: $OUT"
