# One image for every service: `docker run IMAGE engine|worker|bot|migrate|set-webhook`
# (scripts/entrypoint.sh). Built from the lock, with hashes checked; runs as an unprivileged
# user and needs nothing writable but /tmp, so it runs with a read-only root filesystem.
# It holds the product alone (services/): the local Telegram (playground/), what starts and
# drives the product (harness/), the tests and the benches stay out of it.
#
#   docker build -t uno-bot:$(grep -m1 '^version' pyproject.toml | cut -d'"' -f2) .
#
# Pin the base by digest for a byte-for-byte rebuild:
#   docker build --build-arg PYTHON_IMAGE=python:3.11-slim-bookworm@sha256:... .
# Any Debian 12 root with python3 and python3-venv serves as the base too (where no image
# registry is reachable: scripts/debian-base-image.sh). Where pip reaches packages through a
# mirror or a TLS-inspecting proxy, pass --build-arg PIP_INDEX_URL=... and/or
# --build-arg PIP_CERT=/path/in/the/base/ca-bundle.crt; they stay in the build stage.
#
# A second target, `--target local-telegram`, is the image plus the local Telegram (the
# playground package), for checking a deployment without Telegram
# (docker-compose.local-telegram.yml). Never deploy it.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build

ARG PIP_INDEX_URL
ARG PIP_CERT
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python3 -m venv /opt/venv
WORKDIR /src
# Dependencies first, from the lock alone, so a code change reuses this layer.
COPY requirements.lock ./
RUN /opt/venv/bin/pip install --require-hashes --no-deps -r requirements.lock
COPY pyproject.toml README.md ./
COPY services ./services
# The bot's translations are compiled here, not committed (services/presentation/locales/README.md).
RUN /opt/venv/bin/pybabel compile --domain=bot --directory=services/presentation/locales
RUN /opt/venv/bin/pip install --no-deps . \
    && /opt/venv/bin/pip check


FROM ${PYTHON_IMAGE} AS service

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
ENTRYPOINT ["uno-entrypoint"]


# The product and, beside it, the local Telegram (which imports nothing of the product but
# services.logs).
FROM service AS local-telegram

COPY playground /opt/local-telegram/playground
ENV PYTHONPATH=/opt/local-telegram
EXPOSE 8081
CMD ["playground", "--host", "0.0.0.0", "--port", "8081"]


FROM service AS runtime

ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="uno-bot" \
      org.opencontainers.image.description="UNO for Telegram group chats" \
      org.opencontainers.image.version="${VERSION}"

EXPOSE 8080
CMD ["engine"]
