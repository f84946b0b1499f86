#!/usr/bin/env bash
# Pack dist/Reviewer (from packaging/build.py) into dist/installers/Reviewer-<version>-linux-<arch>.tar.gz
# with install.sh, the desktop file and the icon beside it.
#
#   python packaging/build.py && bash packaging/linux/make_tarball.sh [DIST]
#   tar xzf Reviewer-0.1.0-linux-x86_64.tar.gz && Reviewer-0.1.0-linux-x86_64/install.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DIST="${1:-$ROOT/dist}"
VERSION="$(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$ROOT/reviewer_app/__init__.py")"
NAME="Reviewer-$VERSION-linux-$(uname -m)"
OUT="$DIST/installers/$NAME.tar.gz"

[ -x "$DIST/Reviewer/reviewer" ] || { echo "make_tarball.sh: $DIST/Reviewer not found: run packaging/build.py" >&2; exit 1; }
STAGING="$(mktemp -d)"
trap 'rm -rf "$STAGING"' EXIT
mkdir -p "$STAGING/$NAME"
cp -a "$DIST/Reviewer" "$STAGING/$NAME/Reviewer"
cp "$ROOT/packaging/linux/install.sh" "$ROOT/packaging/linux/reviewer.desktop" "$ROOT/packaging/linux/reviewer.svg" \
  "$STAGING/$NAME/"
chmod +x "$STAGING/$NAME/install.sh"
mkdir -p "$(dirname "$OUT")"
tar -C "$STAGING" -czf "$OUT" "$NAME"
echo "make_tarball.sh: $OUT"
