#!/usr/bin/env bash
# Make sure the local services that the tests talk to are up.
#
#   scripts/ensure-services.sh [redis] [postgres] [rabbitmq]     (default: redis postgres)
#
# For each service: if it answers on loopback, nothing happens; if it is installed but
# stopped, it is started; if it is not installed, it is installed with apt-get (root only)
# and started. Then the script waits, for a bounded time, until the service answers.
# For PostgreSQL it also makes sure that user `postgres` can connect over 127.0.0.1 without
# a password and that the test database exists.
#
# Knobs (environment):
#   REDIS_PORT=6379  POSTGRES_PORT=5432  POSTGRES_TEST_DB=uno_test  RABBITMQ_PORT=5672
#   REDIS_DIR, REDIS_LOGFILE   where a Redis started here keeps its (empty) data dir and log
#   WAIT_SECONDS=30            how long to wait for a service to answer (RabbitMQ: 3x)
set -euo pipefail

REDIS_PORT=${REDIS_PORT:-6379}
POSTGRES_PORT=${POSTGRES_PORT:-5432}
POSTGRES_TEST_DB=${POSTGRES_TEST_DB:-uno_test}
RABBITMQ_PORT=${RABBITMQ_PORT:-5672}
WAIT_SECONDS=${WAIT_SECONDS:-30}
HOST=127.0.0.1

log() { printf 'ensure-services: %s\n' "$*"; }
die() {
    printf 'ensure-services: ERROR: %s\n' "$*" >&2
    exit 1
}

is_root() { [ "$(id -u)" -eq 0 ]; }
have() { command -v "$1" >/dev/null 2>&1; }

apt_updated=0
apt_install() {
    is_root || die "missing package(s): $*. Install them (apt-get install $*) or run this script as root."
    have apt-get || die "missing package(s): $*, and there is no apt-get here to install them."
    export DEBIAN_FRONTEND=noninteractive
    if [ "$apt_updated" -eq 0 ]; then
        log "apt-get update"
        apt-get update -qq
        apt_updated=1
    fi
    log "apt-get install $*"
    apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# Does anything accept a TCP connection on HOST:PORT?
tcp_open() {
    # shellcheck disable=SC2016  # $0/$1 are expanded by the inner shell
    timeout 2 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$1" "$2" 2>/dev/null
}

# Poll "$@" once a second until it succeeds or $1 seconds pass.
wait_for() {
    local seconds=$1
    shift
    local deadline=$((SECONDS + seconds))
    until "$@"; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 1
    done
}

# ----------------------------------------------------------------------------- Redis

redis_ping() {
    local reply
    # shellcheck disable=SC2016  # $0/$1/$line are expanded by the inner shell
    reply=$(timeout 2 bash -c \
        'exec 3<>"/dev/tcp/$0/$1" && printf "PING\r\n" >&3 && IFS= read -r line <&3 && printf %s "$line"' \
        "$HOST" "$REDIS_PORT" 2>/dev/null) || return 1
    [[ $reply == +PONG* ]]
}

ensure_redis() {
    if redis_ping; then
        log "redis: up on $HOST:$REDIS_PORT"
        return
    fi
    if tcp_open "$HOST" "$REDIS_PORT"; then
        die "redis: something listens on $HOST:$REDIS_PORT but does not answer PING with PONG."
    fi
    if ! have redis-server; then
        log "redis: not installed"
        apt_install redis-server
    fi
    # A package install may have started one already.
    if ! redis_ping; then
        local dir=${REDIS_DIR:-/var/lib/redis}
        local logfile=${REDIS_LOGFILE:-}
        if [ -z "$logfile" ]; then
            if [ "$REDIS_PORT" = 6379 ]; then logfile=/var/log/redis/ci.log; else logfile=/var/log/redis/ci-$REDIS_PORT.log; fi
        fi
        if ! mkdir -p "$dir" "$(dirname "$logfile")" 2>/dev/null || [ ! -w "$dir" ] || [ ! -w "$(dirname "$logfile")" ]; then
            dir=${TMPDIR:-/tmp}/uno-redis-$REDIS_PORT
            logfile=$dir/redis.log
            mkdir -p "$dir"
        fi
        log "redis: starting redis-server on $HOST:$REDIS_PORT (log: $logfile)"
        redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$REDIS_PORT" \
            --save "" --appendonly no --dir "$dir" --logfile "$logfile" \
            --pidfile "$dir/redis-$REDIS_PORT.pid"
    fi
    wait_for "$WAIT_SECONDS" redis_ping ||
        die "redis: no PONG from $HOST:$REDIS_PORT after ${WAIT_SECONDS}s (see its log, e.g. /var/log/redis/)."
    log "redis: up on $HOST:$REDIS_PORT"
}

# ----------------------------------------------------------------------------- PostgreSQL

pg_ready() { pg_isready -q -h "$HOST" -p "$POSTGRES_PORT" -t 2; }

# psql as user postgres over TCP, never prompting for a password.
pg_tcp() { psql -w -X -A -t -q -h "$HOST" -p "$POSTGRES_PORT" -U postgres "$@"; }

# psql as the postgres OS user over the unix socket (peer authentication).
pg_socket() {
    if have runuser; then
        runuser -u postgres -- psql -X -A -t -q -p "$POSTGRES_PORT" "$@"
    else
        su postgres -c "psql -X -A -t -q -p $POSTGRES_PORT $(printf '%q ' "$@")"
    fi
}

pg_start_cluster() {
    # A cluster configured for our port, as "version name status".
    local cluster
    cluster=$(pg_lsclusters -h 2>/dev/null | awk -v p="$POSTGRES_PORT" '$3 == p {print $1, $2; exit}')
    if [ -z "$cluster" ]; then
        local version
        version=$(find /usr/lib/postgresql -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | sort -V | tail -n 1)
        [ -n "$version" ] || die "postgres: no server binaries under /usr/lib/postgresql."
        is_root || die "postgres: no cluster on port $POSTGRES_PORT; create one (pg_createcluster $version main --port $POSTGRES_PORT)."
        log "postgres: creating cluster $version/main on port $POSTGRES_PORT"
        pg_createcluster "$version" main --port "$POSTGRES_PORT" >/dev/null
        cluster="$version main"
    fi
    log "postgres: starting cluster $cluster"
    # shellcheck disable=SC2086  # "version name" splits into two arguments on purpose
    pg_ctlcluster --skip-systemctl-redirect $cluster start ||
        log "postgres: pg_ctlcluster did not start $cluster cleanly; waiting for it anyway"
}

pg_allow_loopback_trust() {
    is_root || die "postgres: user postgres cannot connect to $HOST:$POSTGRES_PORT without a password; allow it in pg_hba.conf (host all postgres 127.0.0.1/32 trust)."
    local hba
    hba=$(pg_socket -c 'SHOW hba_file') || die "postgres: cannot reach the server as the postgres OS user over its socket."
    [ -f "$hba" ] || die "postgres: pg_hba.conf not found at '$hba'."
    log "postgres: allowing passwordless loopback access for user postgres in $hba"
    local tmp
    tmp=$(mktemp)
    {
        echo "# Test machine: user postgres may connect over loopback without a password."
        echo "host    all    postgres    127.0.0.1/32    trust"
        echo "host    all    postgres    ::1/128         trust"
        cat "$hba"
    } >"$tmp"
    cat "$tmp" >"$hba"
    rm -f "$tmp"
    pg_socket -c 'SELECT pg_reload_conf()' >/dev/null
    sleep 1
}

ensure_postgres() {
    [[ $POSTGRES_TEST_DB =~ ^[a-z_][a-z0-9_]*$ ]] || die "postgres: bad database name '$POSTGRES_TEST_DB'."
    if ! have psql || ! have pg_isready; then
        if tcp_open "$HOST" "$POSTGRES_PORT"; then
            apt_install postgresql-client
        else
            log "postgres: not installed"
            apt_install postgresql
        fi
    fi
    if pg_ready; then
        log "postgres: up on $HOST:$POSTGRES_PORT"
    else
        if ! compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null; then
            log "postgres: server not installed"
            apt_install postgresql
        fi
        pg_ready || pg_start_cluster
        wait_for "$WAIT_SECONDS" pg_ready ||
            die "postgres: $HOST:$POSTGRES_PORT not accepting connections after ${WAIT_SECONDS}s (see /var/log/postgresql/)."
        log "postgres: up on $HOST:$POSTGRES_PORT"
    fi

    if ! pg_tcp -d postgres -c 'SELECT 1' >/dev/null 2>&1; then
        pg_allow_loopback_trust
        pg_tcp -d postgres -c 'SELECT 1' >/dev/null ||
            die "postgres: user postgres still cannot connect to $HOST:$POSTGRES_PORT without a password."
    fi

    local exists
    exists=$(pg_tcp -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$POSTGRES_TEST_DB'")
    if [ "$exists" != 1 ]; then
        log "postgres: creating database $POSTGRES_TEST_DB"
        # Another run may create it at the same moment: only a still-missing database is an error.
        pg_tcp -d postgres -c "CREATE DATABASE $POSTGRES_TEST_DB" >/dev/null 2>&1 ||
            [ "$(pg_tcp -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$POSTGRES_TEST_DB'")" = 1 ] ||
            die "postgres: could not create database $POSTGRES_TEST_DB."
    fi
    log "postgres: database $POSTGRES_TEST_DB ready (postgresql://postgres@$HOST:$POSTGRES_PORT/$POSTGRES_TEST_DB)"
}

# ----------------------------------------------------------------------------- RabbitMQ

ensure_rabbitmq() {
    if tcp_open "$HOST" "$RABBITMQ_PORT"; then
        log "rabbitmq: up on $HOST:$RABBITMQ_PORT"
        return
    fi
    if ! have rabbitmq-server; then
        log "rabbitmq: not installed"
        apt_install rabbitmq-server
    fi
    if ! tcp_open "$HOST" "$RABBITMQ_PORT"; then
        log "rabbitmq: starting rabbitmq-server"
        rabbitmq-server -detached
    fi
    local seconds=$((WAIT_SECONDS * 3))
    wait_for "$seconds" tcp_open "$HOST" "$RABBITMQ_PORT" ||
        die "rabbitmq: nothing on $HOST:$RABBITMQ_PORT after ${seconds}s (see /var/log/rabbitmq/)."
    log "rabbitmq: up on $HOST:$RABBITMQ_PORT"
}

# ----------------------------------------------------------------------------- main

[ "$#" -gt 0 ] || set -- redis postgres
for service in "$@"; do
    case "$service" in
    redis) ensure_redis ;;
    postgres | postgresql) ensure_postgres ;;
    rabbitmq) ensure_rabbitmq ;;
    *) die "unknown service '$service' (known: redis postgres rabbitmq)" ;;
    esac
done
