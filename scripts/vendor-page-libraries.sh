#!/usr/bin/env bash
# Copies the Mini App page's browser libraries, exactly as package-lock.json pins them, into
# services/webapp/static/vendor/ (committed: the page fetches nothing at run time and needs
# no build step), with vendor/MANIFEST.json saying where each file came from: the package,
# its version, the lock's integrity of its tarball and each copied file's sha256.
# `npm ci` refuses a tarball whose sha512 is not the lock's, so the files hashed here are
# the lock's; tests/webapp/test_vendored.py checks the committed files against MANIFEST and
# MANIFEST against the lock.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
vendor="$root/services/webapp/static/vendor"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cp "$root/package.json" "$root/package-lock.json" "$root/.npmrc" "$work/"
(cd "$work" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)

# package  file in the package  name under vendor/
files=(
  "@twa-dev/sdk src/telegram-web-apps.js telegram-web-app.js"
  "@twa-dev/sdk LICENSE telegram-web-app.LICENSE"
)

mkdir -p "$vendor"
for entry in "${files[@]}"; do
  read -r package source target <<<"$entry"
  cp "$work/node_modules/$package/$source" "$vendor/$target"
done

python3 - "$work" "$vendor" "${files[@]}" <<'PY'
import hashlib
import json
import sys
from pathlib import Path

work, vendor, entries = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
lock = json.loads((work / "package-lock.json").read_text())["packages"]
manifest: dict[str, dict] = {}
for entry in entries:
    package, source, target = entry.split()
    pinned = lock[f"node_modules/{package}"]
    record = manifest.setdefault(
        package,
        {"version": pinned["version"], "integrity": pinned["integrity"], "files": {}},
    )
    record["files"][target] = {
        "from": source,
        "sha256": hashlib.sha256((vendor / target).read_bytes()).hexdigest(),
    }
(vendor / "MANIFEST.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
PY
echo "vendored into $vendor:"
ls -l "$vendor"
