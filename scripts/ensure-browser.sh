#!/usr/bin/env bash
# Make sure the headless browser that the playground page's test drives is installed:
# Debian's `chromium` (Playwright is pointed at /usr/bin/chromium; its own browser download
# is not used), a font with Persian glyphs for the right-to-left checks, and the colour
# emoji font the bot's cards are drawn with (🟥 7, 🌈 +4).
#
#   scripts/ensure-browser.sh
#
# Installs with apt-get when missing (root only); otherwise says what to install.
set -euo pipefail

CHROMIUM=${UNO_CHROMIUM:-/usr/bin/chromium}

log() { printf 'ensure-browser: %s\n' "$*"; }
die() {
    printf 'ensure-browser: ERROR: %s\n' "$*" >&2
    exit 1
}

missing=()
[ -x "$CHROMIUM" ] || missing+=(chromium)
fonts=$(fc-list 2>/dev/null || true)
grep -qi 'DejaVu Sans' <<<"$fonts" || missing+=(fonts-dejavu-core)
grep -qi 'Noto Color Emoji' <<<"$fonts" || missing+=(fonts-noto-color-emoji)

if [ ${#missing[@]} -eq 0 ]; then
    log "chromium: $CHROMIUM"
    exit 0
fi
[ "$(id -u)" -eq 0 ] || die "missing package(s): ${missing[*]}. Install them: sudo apt-get install ${missing[*]}"
command -v apt-get >/dev/null 2>&1 || die "missing package(s): ${missing[*]}, and there is no apt-get here to install them."
export DEBIAN_FRONTEND=noninteractive
log "apt-get update"
apt-get update -qq
log "apt-get install ${missing[*]}"
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
[ -x "$CHROMIUM" ] || die "chromium was installed but $CHROMIUM is not there"
log "chromium: $CHROMIUM"
