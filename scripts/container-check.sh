#!/usr/bin/env bash
# The deployment for real, in containers (`make container-check`; part of `make test`):
#   1. images: the image built from the Dockerfile; `pip check` in it, its user not root,
#      the product alone in it (tests/deploy/image_contents.py), its size printed
#   2. up: `docker compose up` of docker-compose.yml with docker-compose.local-telegram.yml;
#      every service healthy by its own healthcheck, the app services on a read-only root
#      as uid 10001, and every probe k8s/base declares answered (tests/deploy/container_game.py)
#   3. game: a scripted game through the containers; the engine's and then the bot's
#      container killed mid-game, no move lost; the round's result in PostgreSQL
#   4. teardown: no container, network, volume or daemon of the check left
# Each step prints how long it took.
#
# The container engine: a Docker daemon that already answers (DOCKER_HOST, or the default
# socket) is used as it is. Otherwise, as root with dockerd installed (Debian's docker.io),
# the check starts a private one (its own socket under /run/uno-container-check, its data in
# /var/lib/uno-container-check, which keeps the image cache between runs; no default bridge,
# no iptables rules) and stops it at the end. Where neither is possible it prints a line
# saying so and exits 0.
#
# The base images: as root with debootstrap, everything is built locally from Debian 12,
# with no image registry (scripts/debian-base-image.sh; tests/deploy/images/ for Redis 7.0
# and PostgreSQL 15, Debian 12's, in place of compose's redis:7.4 and postgres:16).
# Otherwise the official images are pulled. CONTAINER_CHECK_REBUILD=1 builds everything
# afresh, the local base images and every layer.
set -euo pipefail

cd "$(dirname "$0")/.."
REPO=$PWD
PYTHON=${PYTHON:-$REPO/.venv/bin/python}
VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml | head -n 1)
STATE_DIR=/var/lib/uno-container-check
RUN_DIR=/run/uno-container-check
BASE_IMAGE=uno-ci-debian:bookworm
REBUILD=${CONTAINER_CHECK_REBUILD:-0}

say() { printf 'container-check: %s\n' "$*"; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
hex() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }
# `step NAME FUNCTION`: runs it and prints the seconds it took.
step() {
    local began
    began=$(now)
    say "== $1"
    "$2"
    say "$1: $(since "$began") s"
}

CHECK_BEGAN=$(now)
WORK=$(mktemp -d)
export DOCKER_CONFIG=$WORK/docker-config # none of the machine's client settings or helpers
mkdir -p "$DOCKER_CONFIG"
DOCKERD_PID=
PROJECT=
PROJECT_UP=0

# ------------------------------------------------------------------ the engine and tools

# A docker client whose builds run on BuildKit: one with buildx, or a client older than 23
# (Debian's docker.io), where DOCKER_BUILDKIT=1 selects the BuildKit built into it.
pick_docker() {
    if docker buildx version >/dev/null 2>&1; then
        DOCKER=$(command -v docker)
        return 0
    fi
    local client version
    for client in /usr/bin/docker docker; do
        version=$("$client" version --format '{{.Client.Version}}' 2>/dev/null || true)
        if [ -n "$version" ] && [ "${version%%.*}" -lt 23 ]; then
            DOCKER=$(command -v "$client")
            export DOCKER_BUILDKIT=1
            return 0
        fi
    done
    return 1
}

pick_compose() {
    if "$DOCKER" compose version >/dev/null 2>&1; then
        COMPOSE_PROGRAM=("$DOCKER" compose)
    elif command -v docker-compose >/dev/null 2>&1; then
        COMPOSE_PROGRAM=("$(command -v docker-compose)")
    else
        return 1
    fi
}

start_private_daemon() {
    mkdir -p "$STATE_DIR" "$RUN_DIR"
    # One check at a time per machine: the daemon's data directory is not shared.
    exec 9>"$STATE_DIR/lock"
    if ! flock -w 1200 9; then
        say "another container check held $STATE_DIR/lock for 20 minutes"
        exit 1
    fi
    local pidfile=$RUN_DIR/dockerd.pid old
    # A daemon of an earlier check that was itself killed: stopped, as the check would have.
    if [ -f "$pidfile" ]; then
        old=$(cat "$pidfile")
        if [ -n "$old" ] && grep -q "$RUN_DIR" "/proc/$old/cmdline" 2>/dev/null; then
            say "stopping the daemon an interrupted check left running (pid $old)"
            kill "$old" 2>/dev/null || true
            for _ in $(seq 60); do kill -0 "$old" 2>/dev/null || break; sleep 0.5; done
        fi
        rm -f "$pidfile"
    fi
    export DOCKER_HOST=unix://$RUN_DIR/docker.sock
    dockerd --data-root "$STATE_DIR/docker" --exec-root "$RUN_DIR/exec" \
        --pidfile "$pidfile" --host "$DOCKER_HOST" --bridge none --iptables=false \
        >"$WORK/dockerd.log" 2>&1 &
    DOCKERD_PID=$!
    for _ in $(seq 120); do
        if "$DOCKER" info >/dev/null 2>&1; then
            say "started a private Docker daemon (pid $DOCKERD_PID, $DOCKER_HOST)"
            remove_interrupted_projects
            return 0
        fi
        kill -0 "$DOCKERD_PID" 2>/dev/null || break
        sleep 0.5
    done
    tail -n 20 "$WORK/dockerd.log" >&2
    return 1
}

# Containers of an earlier check that was killed before its teardown would start again with
# the daemon (restart: unless-stopped); in the private daemon everything is the check's.
remove_interrupted_projects() {
    local containers
    containers=$("$DOCKER" ps -a -q --filter label=com.docker.compose.project)
    [ -n "$containers" ] || return 0
    say "removing what an interrupted check left: $(echo $containers)"
    # shellcheck disable=SC2086
    "$DOCKER" rm -f -v $containers >/dev/null
    "$DOCKER" network prune -f >/dev/null
    "$DOCKER" volume prune -f >/dev/null
}

stop_private_daemon() {
    [ -n "$DOCKERD_PID" ] || return 0
    kill "$DOCKERD_PID" 2>/dev/null || true
    for _ in $(seq 60); do kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$DOCKERD_PID" 2>/dev/null; then
        say "the daemon did not stop in 30 s; killing it"
        kill -9 "$DOCKERD_PID" 2>/dev/null || true
        sleep 1
    fi
    DOCKERD_PID=
    # Its containerd and shims live under RUN_DIR: nothing of them may outlive it.
    local left
    left=$(pgrep -f -- "$RUN_DIR" || true)
    if [ -n "$left" ]; then
        say "processes of the daemon still running: $(echo $left)"
        return 1
    fi
}

skip() {
    say "SKIPPED: $*"
    exit 0
}

engine() {
    pick_docker || skip "no docker client with BuildKit (install Debian's docker.io)"
    pick_compose || skip "no Compose (install docker-compose)"
    if "$DOCKER" info >/dev/null 2>&1; then
        say "using the running Docker daemon ($("$DOCKER" version --format '{{.Server.Version}}'))"
    elif [ "$(id -u)" -eq 0 ] && command -v dockerd >/dev/null 2>&1; then
        start_private_daemon || skip "dockerd did not start here (its log is above)"
    else
        skip "no Docker daemon answers and none can be started here (root and Debian's docker.io)"
    fi
    [ -x "$PYTHON" ] || {
        say "no $PYTHON: run make setup first"
        exit 1
    }
}

# ------------------------------------------------------------------------------- images

pip_setting() { # the value pip has for a setting (environment or pip.conf), if any
    "$PYTHON" -m pip config get "global.$1" 2>/dev/null || true
}

images() {
    local build_args=(--network host) cache=() local_base=0
    [ "$REBUILD" = 1 ] && cache=(--no-cache)
    if [ "$(id -u)" -eq 0 ] && command -v debootstrap >/dev/null 2>&1; then
        local_base=1
    fi
    # pip in the build stage reaches packages as pip does here: the same index, and the
    # machine's CA certificates when pip here is given a CA bundle (the local base holds
    # the machine's at the standard path).
    local index=${PIP_INDEX_URL:-$(pip_setting index-url)}
    [ -n "$index" ] && build_args+=(--build-arg "PIP_INDEX_URL=$index")
    if [ "$local_base" = 1 ] && [ -n "${PIP_CERT:-$(pip_setting cert)}" ]; then
        build_args+=(--build-arg PIP_CERT=/etc/ssl/certs/ca-certificates.crt)
    fi

    if [ "$local_base" = 1 ]; then
        if [ "$REBUILD" = 1 ] || ! "$DOCKER" image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
            local began
            began=$(now)
            DOCKER=$DOCKER bash scripts/debian-base-image.sh "$BASE_IMAGE"
            say "base image $BASE_IMAGE (debootstrap): $(since "$began") s"
        else
            say "base image $BASE_IMAGE: already built (CONTAINER_CHECK_REBUILD=1 to rebuild)"
        fi
        build_args+=(--build-arg "PYTHON_IMAGE=$BASE_IMAGE")
        REDIS_IMAGE=uno-ci-redis:7.0
        POSTGRES_IMAGE=uno-ci-postgres:15
        # Redis and PostgreSQL build beside the image (their time is mostly apt's).
        local name pids=()
        for name in redis postgres; do
            "$DOCKER" build --quiet --network host "${cache[@]}" \
                --build-arg "BASE_IMAGE=$BASE_IMAGE" -f "tests/deploy/images/$name.Dockerfile" \
                -t "$([ $name = redis ] && echo "$REDIS_IMAGE" || echo "$POSTGRES_IMAGE")" \
                tests/deploy/images >"$WORK/build-$name.log" 2>&1 &
            pids+=($!)
        done
    else
        REDIS_IMAGE=redis:7.4-alpine
        POSTGRES_IMAGE=postgres:16-alpine
    fi

    local began
    began=$(now)
    if ! "$DOCKER" build --quiet "${build_args[@]}" "${cache[@]}" -t "uno-bot:$VERSION" . \
        >"$WORK/build-image.log" 2>&1; then
        cat "$WORK/build-image.log" >&2
        exit 1
    fi
    say "uno-bot:$VERSION built: $(since "$began") s"
    "$DOCKER" build --quiet "${build_args[@]}" --target local-telegram \
        -t "uno-local-telegram:$VERSION" . >"$WORK/build-local-telegram.log" 2>&1 ||
        { cat "$WORK/build-local-telegram.log" >&2; exit 1; }
    say "uno-local-telegram:$VERSION built (the harness target): $(since "$began") s"
    if [ "$local_base" = 1 ]; then
        local pid failed=0
        for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
        if [ "$failed" = 1 ]; then
            cat "$WORK"/build-redis.log "$WORK"/build-postgres.log >&2
            exit 1
        fi
        say "$REDIS_IMAGE and $POSTGRES_IMAGE built: $(since "$began") s"
    else
        "$DOCKER" pull --quiet "$REDIS_IMAGE" && "$DOCKER" pull --quiet "$POSTGRES_IMAGE"
    fi

    local image=uno-bot:$VERSION size uid
    size=$("$DOCKER" image inspect --format '{{.Size}}' "$image")
    say "$image: $((size / 1000000)) MB (goal: at most 350 MB)"
    "$DOCKER" run --rm --read-only --tmpfs /tmp "$image" pip check
    uid=$("$DOCKER" run --rm --read-only "$image" id -u)
    [ "$uid" != 0 ] || { say "the image runs as root"; exit 1; }
    say "runs as uid $uid"
    "$DOCKER" run --rm -i --read-only --tmpfs /tmp "$image" python - \
        <tests/deploy/image_contents.py
}

# ------------------------------------------------------------------------ compose project

free_port() {
    "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

up() {
    PROJECT=uno-check-$(date +%s)-$$
    TOKEN=$((RANDOM % 90000 + 10000)):$(hex 16)
    TELEGRAM_PORT=$(free_port)
    cat >"$WORK/env" <<EOF
COMPOSE_PROJECT_NAME=$PROJECT
UNO_TELEGRAM_TOKEN=$TOKEN
UNO_ENGINE_TOKEN=$(hex 32)
UNO_REDIS_PASSWORD=$(hex 24)
POSTGRES_PASSWORD=$(hex 24)
UNO_LOG_LEVEL=INFO
UNO_BOT_WEBHOOK_URL=
UNO_BOT_WEBHOOK_SECRET=
UNO_TURN_SECONDS=600
UNO_AWAY_PAUSE_SECONDS=0.1
REDIS_IMAGE=$REDIS_IMAGE
POSTGRES_IMAGE=$POSTGRES_IMAGE
ENGINE_HOST_PORT=$(free_port)
BOT_HOST_PORT=$(free_port)
LOCAL_TELEGRAM_HOST_PORT=$TELEGRAM_PORT
EOF
    # Compose sees only the env file: nothing of this shell's UNO_* or the machine's .env.
    COMPOSE=(env -i "PATH=$PATH" "DOCKER_HOST=${DOCKER_HOST:-}" "DOCKER_CONFIG=$DOCKER_CONFIG"
        "${COMPOSE_PROGRAM[@]}" --project-name "$PROJECT" --project-directory "$REPO"
        --env-file "$WORK/env" -f docker-compose.yml -f docker-compose.local-telegram.yml)
    say "compose project $PROJECT"
    PROJECT_UP=1
    "${COMPOSE[@]}" up -d --no-build 2>&1 | grep -v -e '^Creating' -e '^$' || true

    local service status began=$(now) waiting
    while :; do
        waiting=()
        for service in redis postgres local-telegram engine worker bot webapp migrate set-webhook; do
            status=$(service_status "$service")
            case "$service:$status" in
            migrate:exited-0 | set-webhook:exited-0 | *:healthy) ;;
            migrate:exited-* | set-webhook:exited-* | *:unhealthy | *:exited-*)
                say "$service is $status"
                exit 1
                ;;
            *) waiting+=("$service:$status") ;;
            esac
        done
        [ "${#waiting[@]}" -eq 0 ] && break
        if [ "$(since "$began" | cut -d. -f1)" -ge 300 ]; then
            say "not healthy after 300 s: ${waiting[*]}"
            exit 1
        fi
        sleep 1
    done
    say "every service healthy (migrate and set-webhook done) $(since "$began") s after up"

    for service in migrate set-webhook engine worker bot webapp; do
        local id settings
        id=$(container_of "$service")
        settings=$("$DOCKER" inspect --format '{{.HostConfig.ReadonlyRootfs}} {{.Config.User}}' "$id")
        [ "$settings" = "true 10001:10001" ] || {
            say "$service runs with read-only root, user = $settings"
            exit 1
        }
    done
    say "migrate, set-webhook, engine, worker, bot and webapp: read-only root, user 10001"
    game_driver probes
}

container_of() { "${COMPOSE[@]}" ps -q "$1"; }

# healthy | unhealthy | starting | none | exited-CODE | missing
service_status() {
    local id
    id=$(container_of "$1" 2>/dev/null)
    [ -n "$id" ] || { echo missing; return; }
    "$DOCKER" inspect --format \
        '{{if eq .State.Status "exited"}}exited-{{.State.ExitCode}}{{else if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' \
        "$id"
}

game_driver() {
    local compose_json
    compose_json=$("$PYTHON" -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "${COMPOSE[@]}")
    "$PYTHON" tests/deploy/container_game.py "$@" --docker "$DOCKER" --compose "$compose_json" \
        --telegram "http://127.0.0.1:$TELEGRAM_PORT" --token "$TOKEN"
}

game() { game_driver game; }

# ---------------------------------------------------------------------------- teardown

# The project's own: found by compose's label, so nothing else on the engine is touched.
leftovers() {
    local label=com.docker.compose.project=$PROJECT
    {
        "$DOCKER" ps -a -q --filter "label=$label"
        "$DOCKER" network ls -q --filter "label=$label"
        "$DOCKER" volume ls -q --filter "label=$label"
    } | tr '\n' ' '
}

teardown() {
    if [ "$PROJECT_UP" = 1 ]; then
        "${COMPOSE[@]}" down --volumes --remove-orphans --timeout 20 2>&1 |
            grep -v -e '^Stopping' -e '^Removing' -e '^$' || true
        local left
        left=$(leftovers)
        [ -z "${left// /}" ] || { say "left behind: $left"; return 1; }
        say "no container, network or volume of $PROJECT left"
        PROJECT_UP=0
    fi
    if [ -n "$DOCKERD_PID" ]; then
        # The cache keeps the images of this run; older builds of the same tags go.
        "$DOCKER" image prune -f >/dev/null 2>&1 || true
        stop_private_daemon
        say "private Docker daemon stopped; nothing of it runs"
    fi
}

on_exit() {
    local status=$?
    trap - EXIT
    if [ "$status" -ne 0 ] && [ "$PROJECT_UP" = 1 ]; then
        say "FAILED; the services' state and logs:"
        "${COMPOSE[@]}" ps >&2 || true
        "${COMPOSE[@]}" logs --no-color --tail 60 >&2 || true
    fi
    if [ "$status" -ne 0 ] && { [ "$PROJECT_UP" = 1 ] || [ -n "$DOCKERD_PID" ]; }; then
        teardown || status=1
    fi
    rm -rf "$WORK"
    if [ "$status" -eq 0 ]; then
        say "passed in $(since "$CHECK_BEGAN") s"
    else
        say "FAILED after $(since "$CHECK_BEGAN") s"
    fi
    exit "$status"
}
trap on_exit EXIT
trap 'exit 130' INT TERM

step "engine" engine
step "1 images" images
step "2 up" up
step "3 game" game
step "4 teardown" teardown
