#!/usr/bin/env bash
# Make dist/installers/Reviewer-<version>.dmg from dist/Reviewer.app (macOS only: hdiutil).
#
#   python packaging/build.py                       # builds and self-tests dist/Reviewer.app
#   bash packaging/macos/sign_and_notarize.sh app   # optional: sign the .app first (see README)
#   bash packaging/macos/make_dmg.sh [DIST]
#   bash packaging/macos/sign_and_notarize.sh dmg   # optional: sign, notarise and staple the .dmg
#
# The image holds Reviewer.app and a link to /Applications, so installing is a drag; the app
# keeps nothing inside itself, so replacing it keeps the user's settings and transcripts
# (~/Library/Application Support/Reviewer, ~/Library/Logs/Reviewer).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DIST="${1:-$ROOT/dist}"
APP="$DIST/Reviewer.app"
VERSION="$(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$ROOT/reviewer_app/__init__.py")"
OUT="$DIST/installers/Reviewer-$VERSION.dmg"

command -v hdiutil >/dev/null || { echo "make_dmg.sh: hdiutil is macOS-only" >&2; exit 3; }
[ -d "$APP" ] || { echo "make_dmg.sh: $APP not found: run packaging/build.py first" >&2; exit 1; }

STAGING="$(mktemp -d)"
trap 'rm -rf "$STAGING"' EXIT
# ditto keeps the symlinks, extended attributes and signatures inside the bundle
ditto "$APP" "$STAGING/Reviewer.app"
ln -s /Applications "$STAGING/Applications"
mkdir -p "$(dirname "$OUT")"
rm -f "$OUT"
hdiutil create -volname "Reviewer $VERSION" -srcfolder "$STAGING" -fs HFS+ -format UDZO -ov "$OUT"
echo "make_dmg.sh: $OUT"
