# One image, three services: `docker run IMAGE engine|worker|bot` (see scripts/entrypoint.sh).
FROM python:3.11-slim AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
WORKDIR /src
COPY pyproject.toml README.md ./
COPY services ./services
RUN /opt/venv/bin/pip install .


FROM python:3.11-slim

ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1

RUN useradd --system --uid 10001 --user-group --home-dir /app --create-home uno
COPY --from=build /opt/venv /opt/venv
COPY scripts/entrypoint.sh /usr/local/bin/uno-entrypoint

WORKDIR /app
USER 10001:10001
EXPOSE 8080

ENTRYPOINT ["uno-entrypoint"]
CMD ["engine"]
