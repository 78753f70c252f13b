#!/bin/sh
# A backup of Redis's append-only file (every live game), as a tar archive on stdout.
# Run it where redis-cli reaches the server and its data directory is on the local disk,
# that is inside the Redis container (REDISCLI_AUTH carries the password there):
#   kubectl exec -i uno-redis-0 -- sh -s < scripts/backup-redis.sh > redis-backup.tar
#   docker compose exec -T redis sh -s < scripts/backup-redis.sh > redis-backup.tar
# REDIS_PORT picks another port than 6379. A rewrite replaces the files while it runs, so,
# as Redis's own guide says, automatic rewrites pause, a running one is awaited, the
# directory is archived and rewrites resume.
set -eu

cli() { redis-cli -p "${REDIS_PORT:-6379}" "$@"; }
setting() { cli CONFIG GET "$1" | sed -n 2p; }

dir=$(setting dir)
aofdir=$(setting appenddirname)
[ "$(setting appendonly)" = yes ] || {
    echo "backup-redis: this Redis keeps no append-only file" >&2
    exit 1
}
percentage=$(setting auto-aof-rewrite-percentage)
cli CONFIG SET auto-aof-rewrite-percentage 0 >/dev/null
trap 'cli CONFIG SET auto-aof-rewrite-percentage "$percentage" >/dev/null' EXIT
while cli INFO persistence | grep -q '^aof_rewrite_in_progress:1'; do
    sleep 1
done
tar -c -C "$dir" "$aofdir"
