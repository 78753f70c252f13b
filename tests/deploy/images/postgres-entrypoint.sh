#!/bin/sh
# First start (an empty $PGDATA): a cluster whose superuser is $POSTGRES_USER with
# $POSTGRES_PASSWORD, reached from other containers by password, and the database
# $POSTGRES_DB, made in single-user mode so that no server answers before it exists.
# Then (and on every later start) the server itself.
set -eu

bin=/usr/lib/postgresql/15/bin
user=${POSTGRES_USER:-postgres}
database=${POSTGRES_DB:-$user}

if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
    password_file=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" >"$password_file"
    "$bin/initdb" --pgdata="$PGDATA" --username="$user" --pwfile="$password_file" \
        --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 >/dev/null
    rm -f "$password_file"
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    if [ "$database" != postgres ]; then
        printf 'CREATE DATABASE "%s" OWNER "%s"\n' "$database" "$user" |
            "$bin/postgres" --single -D "$PGDATA" postgres >/dev/null
    fi
    echo "postgres-entrypoint: made the database $database for $user"
fi

exec "$bin/postgres" -D "$PGDATA" -c listen_addresses='*' "$@"
