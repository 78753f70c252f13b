#!/usr/bin/env bash
# A Debian 12 (bookworm) base image made locally, for machines that reach Debian's archive
# but no image registry:
#   scripts/debian-base-image.sh IMAGE
# debootstraps a minimal root (python3, python3-venv, ca-certificates) from the Debian
# mirror this machine's apt already uses, adds this machine's CA certificates (HTTPS to the
# package registries may need them), trims what no container reads (apt's caches and
# lists, documentation, the tools' translations) and imports the root as IMAGE into the
# engine that $DOCKER names (default: docker). The Dockerfile takes it as its base (--build-arg PYTHON_IMAGE=IMAGE);
# tests/deploy/images/ build Redis and PostgreSQL on it. Needs root (debootstrap).
set -euo pipefail

image=${1:?usage: $0 IMAGE}
suite=bookworm
read -r -a docker <<<"${DOCKER:-docker}"

log() { printf 'debian-base-image: %s\n' "$*" >&2; }

# The mirror of the machine's own suite (apt-get indextargets reads sources.list and
# sources.list.d in either format); Debian's own when apt names none.
mirror=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null |
    awk -v suite="$suite" '$2 == suite { print $1; exit }')
mirror=${mirror:-http://deb.debian.org/debian/}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root

log "debootstrap $suite from $mirror"
if ! debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates \
    "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1; then
    tail -n 30 "$work/debootstrap.log" >&2
    [ -f "$root/debootstrap/debootstrap.log" ] && tail -n 30 "$root/debootstrap/debootstrap.log" >&2
    exit 1
fi

# This machine's trust store as the image's: a registry reached through this machine's TLS
# inspection presents certificates that only the machine's own CAs sign.
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
    cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
fi
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
fi

# Packages installed on top (tests/deploy/images/) must not try to start their services.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"
# The system tools' message translations go too (the bot carries its own); glibc's
# locale.alias stays.
find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* \
    "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* \
    "$root"/var/log/* "$root"/debootstrap
log "importing $(du -sh "$root" | cut -f1) as $image"
tar -C "$root" -c . | "${docker[@]}" import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["python3"]' - "$image" >/dev/null
