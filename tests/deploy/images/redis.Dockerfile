# Redis from Debian 12's own package (Redis 7.0), where no registry serves redis:7.4-alpine:
# the Redis that scripts/container-check.sh runs docker-compose.yml with (REDIS_IMAGE).
# Built on scripts/debian-base-image.sh's root; the same interface the compose file and the
# backup scripts use: redis-server and redis-cli on PATH, sh, data in /data, a non-root user.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}

RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        redis-server redis-tools \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \
    && mkdir /data && chown redis:redis /data

WORKDIR /data
USER redis
EXPOSE 6379
CMD ["redis-server"]
