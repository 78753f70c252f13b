#!/bin/sh
# Container entry point: one image, three services.
#   entrypoint.sh engine [uvicorn args...]   the engine service on :8080
#   entrypoint.sh worker [celery args...]    the Celery worker
#   entrypoint.sh bot                        the Telegram bot
#   entrypoint.sh migrate [upgrade|downgrade REV]  the records database's migrations (default: upgrade)
#   entrypoint.sh CMD [ARGS...]              anything else, e.g. a shell
set -eu

role=${1:-engine}
[ "$#" -gt 0 ] && shift

case "$role" in
engine)
    exec uvicorn services.engine.app:app --host 0.0.0.0 --port 8080 --no-access-log "$@"
    ;;
worker)
    exec celery -A services.worker.app worker --loglevel=INFO "$@"
    ;;
bot)
    exec python -m services.bot "$@"
    ;;
migrate)
    [ "$#" -gt 0 ] || set -- upgrade
    exec python -m services.records.migrate "$@"
    ;;
*)
    exec "$role" "$@"
    ;;
esac
