#!/bin/sh
# Container entry point: one image, one role per service. Everything else comes from the
# environment (services/config.py; README "Configuration").
#   entrypoint.sh engine [uvicorn args...]   the engine service on $UVICORN_HOST:$UVICORN_PORT
#                                            (0.0.0.0:8080)
#   entrypoint.sh worker [celery args...]    the Celery worker: turn timers, AI players
#   entrypoint.sh worker-ping                exits 0 when this host's worker answers (probe)
#   entrypoint.sh bot                        the Telegram bot (polling, or webhook by settings)
#   entrypoint.sh webapp                     the Mini App service on $UNO_WEBAPP_HTTP_PORT (8070)
#   entrypoint.sh migrate [upgrade|downgrade REV]  the records database's migrations (default:
#                                            upgrade to the newest), then exits
#   entrypoint.sh set-webhook                registers (or removes) the bot's webhook, then exits
#   entrypoint.sh playground                 the local Telegram, to try the bot without a token
#                                            (the image's local-telegram build target only)
#   entrypoint.sh CMD [ARGS...]              anything else, e.g. a shell
set -eu

role=${1:-engine}
[ "$#" -gt 0 ] && shift

case "$role" in
engine)
    # uvicorn reads UVICORN_* itself; an explicit --port/--host argument would override them.
    UVICORN_HOST=${UVICORN_HOST:-0.0.0.0}
    UVICORN_PORT=${UVICORN_PORT:-8080}
    export UVICORN_HOST UVICORN_PORT
    # Request heads are bounded as in the other services (services/http_limits.py).
    exec uvicorn services.engine.app:app --no-access-log \
        --http services.http_limits:HeadLimitProtocol --h11-max-incomplete-event-size 16384 "$@"
    ;;
worker)
    exec celery -A services.worker.app worker --loglevel=INFO "$@"
    ;;
worker-ping)
    # The worker's node name is celery@HOSTNAME (Celery's default): ask that one alone.
    exec celery -A services.worker.app inspect ping \
        --destination "celery@${HOSTNAME:-$(hostname)}" --timeout "${WORKER_PING_TIMEOUT:-5}" "$@"
    ;;
bot)
    exec python -m services.bot "$@"
    ;;
webapp)
    exec python -m services.webapp "$@"
    ;;
migrate)
    [ "$#" -gt 0 ] || set -- upgrade
    exec python -m services.records.migrate "$@"
    ;;
set-webhook)
    exec python -m services.deploy.set_webhook "$@"
    ;;
playground)
    exec python -m playground "$@"
    ;;
*)
    exec "$role" "$@"
    ;;
esac
