#!/bin/sh
# Container entry point: one image, three services.
#   entrypoint.sh engine [uvicorn args...]   the engine service on :8080
#   entrypoint.sh worker [celery args...]    the Celery worker
#   entrypoint.sh bot                        the Telegram bot
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
*)
    exec "$role" "$@"
    ;;
esac
