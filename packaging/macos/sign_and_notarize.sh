#!/usr/bin/env bash
# Sign Reviewer.app for the hardened runtime, or sign, notarise and staple the .dmg (macOS only).
#
#   REVIEWER_SIGN_IDENTITY="Developer ID Application: FIRM NAME (TEAMID1234)" \
#   REVIEWER_NOTARY_PROFILE="reviewer-notary" \
#   bash packaging/macos/sign_and_notarize.sh app|dmg [DIST]
#
# Placeholders the firm fills in:
#   REVIEWER_SIGN_IDENTITY   its "Developer ID Application" certificate, in the login keychain
#                            (security find-identity -v -p codesigning lists it)
#   REVIEWER_NOTARY_PROFILE  a notarytool keychain profile, made once with
#                            xcrun notarytool store-credentials reviewer-notary \
#                              --apple-id it@firm.example --team-id TEAMID1234 --password <app-specific password>
# Order: build -> sign app -> make_dmg.sh -> sign dmg (this script, "dmg": signs, notarises, staples).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
WHAT="${1:?usage: sign_and_notarize.sh app|dmg [DIST]}"
DIST="${2:-$ROOT/dist}"
IDENTITY="${REVIEWER_SIGN_IDENTITY:?set REVIEWER_SIGN_IDENTITY to the Developer ID Application identity of the firm}"
ENTITLEMENTS="$ROOT/packaging/macos/entitlements.plist"
VERSION="$(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$ROOT/reviewer_app/__init__.py")"

command -v codesign >/dev/null || { echo "sign_and_notarize.sh: codesign is macOS-only" >&2; exit 3; }

sign() {  # hardened runtime, secure timestamp, the entitlements; inner code first, the bundle last
  codesign --force --timestamp --options runtime --entitlements "$ENTITLEMENTS" --sign "$IDENTITY" "$@"
}

case "$WHAT" in
  app)
    APP="$DIST/Reviewer.app"
    # every Mach-O file inside (libraries, extension modules, the executable), deepest first
    find "$APP/Contents" -type f \( -name '*.so' -o -name '*.dylib' -o -perm -u+x \) -print0 |
      while IFS= read -r -d '' file; do
        if file -b "$file" | grep -q 'Mach-O'; then sign "$file"; fi
      done
    sign "$APP"
    codesign --verify --deep --strict --verbose=2 "$APP"
    ;;
  dmg)
    DMG="$DIST/installers/Reviewer-$VERSION.dmg"
    PROFILE="${REVIEWER_NOTARY_PROFILE:?set REVIEWER_NOTARY_PROFILE to a notarytool keychain profile}"
    codesign --force --timestamp --sign "$IDENTITY" "$DMG"
    xcrun notarytool submit "$DMG" --keychain-profile "$PROFILE" --wait
    xcrun stapler staple "$DMG"
    spctl --assess --type open --context context:primary-signature --verbose "$DMG"
    ;;
  *)
    echo "usage: sign_and_notarize.sh app|dmg [DIST]" >&2
    exit 2
    ;;
esac
