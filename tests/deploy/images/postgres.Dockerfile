# PostgreSQL from Debian 12's own packages (PostgreSQL 15), where no registry serves
# postgres:16-alpine: the PostgreSQL that scripts/container-check.sh runs docker-compose.yml
# with (POSTGRES_IMAGE). Built on scripts/debian-base-image.sh's root; the official image's
# interface as far as the compose file uses it: POSTGRES_USER / POSTGRES_PASSWORD /
# POSTGRES_DB make the database on first start, data in /var/lib/postgresql/data, pg_isready.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}

RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        postgresql-15 \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \
    && pg_dropcluster 15 main \
    && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
    && chown postgres:postgres /var/lib/postgresql/data /var/run/postgresql \
    && chmod 0700 /var/lib/postgresql/data

COPY --chmod=0755 postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint
ENV PGDATA=/var/lib/postgresql/data
USER postgres
EXPOSE 5432
# A fast shutdown: open sessions are ended, committed work is kept.
STOPSIGNAL SIGINT
ENTRYPOINT ["postgres-entrypoint"]
