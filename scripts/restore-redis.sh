#!/bin/sh
# Puts a backup-redis.sh archive in place of the running Redis's append-only file, then stops
# that Redis, so that whatever restarts it (Kubernetes, compose's restart policy) loads the
# games of the backup. Stop the engine, the worker and the bot first: what they write in
# between is lost. Run it inside the Redis container, the archive copied there first:
#   kubectl cp redis-backup.tar uno-redis-0:/data/restore.tar
#   kubectl exec uno-redis-0 -- sh -s < scripts/restore-redis.sh
#   docker compose cp redis-backup.tar redis:/data/restore.tar
#   docker compose exec -T redis sh -s < scripts/restore-redis.sh
# The archive is DATA_DIR/restore.tar unless RESTORE_ARCHIVE names another; the replaced
# files are kept beside it as appendonlydir.replaced until the next restore.
set -eu

cli() { redis-cli -p "${REDIS_PORT:-6379}" "$@"; }
setting() { cli CONFIG GET "$1" | sed -n 2p; }
die() {
    echo "restore-redis: $*" >&2
    exit 1
}

dir=$(setting dir)
aofdir=$(setting appenddirname)
archive=${RESTORE_ARCHIVE:-$dir/restore.tar}
[ -f "$archive" ] || die "no archive at $archive"
tar -t -f "$archive" | grep -q "^$aofdir/.*manifest$" || die "$archive holds no $aofdir manifest"

# From here Redis writes no append-only file, so the one put in place stays as it is.
cli CONFIG SET appendonly no >/dev/null
rm -rf "$dir/$aofdir.replaced"
if [ -d "$dir/$aofdir" ]; then mv "$dir/$aofdir" "$dir/$aofdir.replaced"; fi
tar -x -C "$dir" -f "$archive"
echo "restore-redis: $archive in place; stopping Redis to load it" >&2
cli SHUTDOWN NOSAVE >/dev/null 2>&1 || true
