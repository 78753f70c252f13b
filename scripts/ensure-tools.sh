#!/usr/bin/env bash
# Make sure the tools that the deployment tests (tests/deploy) run are here:
#   - a Compose implementation that renders docker-compose.yml without a Docker engine
#     (`docker compose` v2, or Debian's docker-compose), installed with apt-get as root;
#   - kustomize, or kubectl with kustomize built in, to render k8s/ (not in Debian's
#     archive at a recent enough version: it is reported, not installed);
#   - pg_dump and pg_restore (Debian's postgresql-client), for the restore test;
#   - for scripts/container-check.sh: a Docker engine and client (Debian's docker.io: its
#     client builds with BuildKit, no buildx needed) and debootstrap (its base images).
# Never fails: a test whose tool is missing says so itself (skip, or fail under CI).
set -uo pipefail

log() { printf 'ensure-tools: %s\n' "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }

apt_install() {
    if [ "$(id -u)" -ne 0 ] || ! have apt-get; then
        log "missing $*; install it (apt-get install $*) to run every deployment test"
        return 0
    fi
    export DEBIAN_FRONTEND=noninteractive
    log "apt-get install $*"
    if ! apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1; then
        apt-get update -qq >/dev/null 2>&1 || true
        apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 ||
            log "could not install $*"
    fi
}

if ! docker compose version >/dev/null 2>&1 && ! have docker-compose; then
    apt_install docker-compose
fi
if ! have pg_dump || ! have pg_restore; then
    apt_install postgresql-client
fi
if ! have dockerd && ! docker info >/dev/null 2>&1; then
    apt_install docker.io
fi
if ! have debootstrap; then
    apt_install debootstrap
fi
if ! have kustomize && ! have kubectl; then
    log "neither kustomize nor kubectl is installed: k8s/ cannot be rendered"
fi
exit 0
