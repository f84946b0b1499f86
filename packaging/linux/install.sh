#!/usr/bin/env bash
# Install (or remove) Reviewer from the Linux tarball, for one user or, with PREFIX, for everyone.
#
#   ./install.sh                      # per user: ~/.local/lib/reviewer, ~/.local/bin/reviewer
#   sudo PREFIX=/usr/local ./install.sh
#   ./install.sh --uninstall          # the same PREFIX; user data is kept
#
# .docx files gain "Open With > Reviewer": the desktop file names the .docx MIME type and the
# MIME cache is refreshed. The default application for .docx is not changed (no xdg-mime default).
# Settings, transcripts, recovery files and logs live in ~/.config/Reviewer,
# ~/.local/share/Reviewer and ~/.local/state/Reviewer; neither install nor uninstall touches them.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PREFIX="${PREFIX:-$HOME/.local}"
APP_DIR="$PREFIX/lib/reviewer"
BIN="$PREFIX/bin/reviewer"
DESKTOP="$PREFIX/share/applications/reviewer.desktop"
ICON="$PREFIX/share/icons/hicolor/scalable/apps/reviewer.svg"

refresh_caches() {
  if command -v update-desktop-database >/dev/null; then
    update-desktop-database -q "$PREFIX/share/applications" || true
  fi
  if command -v gtk-update-icon-cache >/dev/null; then
    gtk-update-icon-cache -q -t "$PREFIX/share/icons/hicolor" || true
  fi
}

if [ "${1:-}" = "--uninstall" ]; then
  rm -rf "$APP_DIR"
  rm -f "$BIN" "$DESKTOP" "$ICON"
  refresh_caches
  echo "Reviewer removed from $PREFIX (your settings and transcripts are kept)"
  exit 0
fi

[ -x "$HERE/Reviewer/reviewer" ] || { echo "install.sh: run it from the unpacked tarball" >&2; exit 1; }
mkdir -p "$APP_DIR" "$(dirname "$BIN")" "$(dirname "$DESKTOP")" "$(dirname "$ICON")"
rm -rf "$APP_DIR"
cp -a "$HERE/Reviewer" "$APP_DIR"
ln -sfn "$APP_DIR/reviewer" "$BIN"
# the menu entry starts this install by its full path, whatever PATH holds
sed "s|^Exec=reviewer |Exec=\"$APP_DIR/reviewer\" |" "$HERE/reviewer.desktop" > "$DESKTOP"
cp "$HERE/reviewer.svg" "$ICON"
refresh_caches
echo "Reviewer installed in $APP_DIR; check it with: $BIN --self-test"
