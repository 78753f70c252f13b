# syntax=docker/dockerfile:1
# One image for every service: `docker run IMAGE engine|worker|bot|migrate|set-webhook|playground`
# (scripts/entrypoint.sh). Built from the lock, with hashes checked; runs as an unprivileged
# user and needs nothing writable but /tmp, so it runs with a read-only root filesystem.
#
#   docker build -t uno-bot:$(grep -m1 '^version' pyproject.toml | cut -d'"' -f2) .
#
# Pin the base by digest for a byte-for-byte rebuild:
#   docker build --build-arg PYTHON_IMAGE=python:3.11-slim-bookworm@sha256:... .
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
WORKDIR /src
# Dependencies first, from the lock alone, so a code change reuses this layer.
COPY requirements.lock ./
RUN /opt/venv/bin/pip install --require-hashes --no-deps -r requirements.lock
COPY pyproject.toml README.md ./
COPY services ./services
# The bot's translations are compiled here, not committed (services/bot/locales/README.md).
RUN /opt/venv/bin/pybabel compile --domain=bot --directory=services/bot/locales
RUN /opt/venv/bin/pip install --no-deps . \
    && /opt/venv/bin/pip check


FROM ${PYTHON_IMAGE} AS runtime

ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="uno-bot" \
      org.opencontainers.image.description="UNO for Telegram group chats" \
      org.opencontainers.image.version="${VERSION}"

ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOME=/tmp \
    UNO_LOG_FORMAT=json

RUN useradd --system --uid 10001 --user-group --no-create-home --home-dir /nonexistent uno
COPY --from=build /opt/venv /opt/venv
COPY --chmod=0755 scripts/entrypoint.sh /usr/local/bin/uno-entrypoint

WORKDIR /app
USER 10001:10001
EXPOSE 8080

ENTRYPOINT ["uno-entrypoint"]
CMD ["engine"]
