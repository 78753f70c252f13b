"""What scripts/container-check.sh proves once a compose project of the image runs (with
docker-compose.local-telegram.yml):

- ``probes``: every probe that k8s/base declares for a workload is answered by that
  workload's container (HTTP paths and ports, commands, TCP ports): the manifests probe what
  the image serves.
- ``game``: a game played by scripted people through the local Telegram, as in the bot's
  end-to-end tests (harness/players.py): /new, a join, an AI seat, start, moves
  until the round ends, and the round's result in PostgreSQL. On the way the engine's
  container is killed (a move pressed meanwhile is refused with "try again" and goes in
  once pressed again) and then the bot's (a move pressed meanwhile is taken when the bot is
  back): no move is lost, the game goes on.

    python tests/deploy/container_game.py probes|game --docker DOCKER --compose JSON ...

``--compose`` is the compose command of the project as a JSON list (program, project name,
files, env file); ``--docker`` the docker client. Exits non-zero with what it saw when a
check fails.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import yaml

from harness.players import Players, callbacks, preferred_move, version_of
from playground.control import TelegramControl
from services.presentation.callbacks import Callback, Kind

REPO = Path(__file__).resolve().parents[2]

#: The compose service that runs each workload of k8s/base.
SERVICE_OF_WORKLOAD = {
    "uno-engine": "engine",
    "uno-worker": "worker",
    "uno-bot": "bot",
    "uno-webapp": "webapp",
    "uno-redis": "redis",
    "uno-postgres": "postgres",
}
#: Generous safety nets for a loaded machine; every wait ends as soon as what it waits for
#: is shown.
HEALTHY_SECONDS = 180
BEGAN = time.monotonic()
PROBE_ACTIONS = ("exec", "httpGet", "tcpSocket")
SHOWN_SECONDS = 60


def say(line: str) -> None:
    """A line of the report, with the seconds since the start."""
    print(f"  {time.monotonic() - BEGAN:6.1f} s  {line}", flush=True)


class Project:
    """The running compose project: its containers, found by service."""

    def __init__(self, docker: str, compose: list[str]) -> None:
        self.docker = docker
        self.compose = compose
        self._containers: dict[str, str] = {}

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(args, capture_output=True, text=True, timeout=120)
        if check and result.returncode != 0:
            raise AssertionError(f"{shlex.join(args)}: {result.stdout}{result.stderr}")
        return result

    def container(self, service: str) -> str:
        """The service's one container (the same one after a kill and a start)."""
        if service not in self._containers:
            found = self.run(*self.compose, "ps", "-q", service).stdout.split()
            assert len(found) == 1, f"{service}: containers {found}"
            self._containers[service] = found[0]
        return self._containers[service]

    def exec(self, service: str, *command: str) -> subprocess.CompletedProcess[str]:
        return self.run(self.docker, "exec", self.container(service), *command, check=False)

    def health(self, service: str) -> str:
        return self.run(
            self.docker, "inspect", "-f", "{{.State.Health.Status}}", self.container(service)
        ).stdout.strip()

    def kill(self, service: str) -> None:
        self.run(self.docker, "kill", self.container(service))

    def start(self, service: str) -> float:
        """Starts the service's container again; the seconds until it answers its own
        healthcheck's command (run here rather than waiting for Docker's next round)."""
        began = time.monotonic()
        container = self.container(service)
        self.run(self.docker, "start", container)
        test = json.loads(
            self.run(
                self.docker, "inspect", "-f", "{{json .Config.Healthcheck.Test}}", container
            ).stdout
        )
        assert test[0] == "CMD", test
        TelegramControl.wait_until(
            lambda: self.exec(service, *test[1:]).returncode == 0,
            timeout=HEALTHY_SECONDS,
            what=f"{service} to answer its healthcheck again",
        )
        return time.monotonic() - began

    def sql(self, query: str) -> str:
        result = self.run(
            *self.compose, "exec", "-T", "postgres", "psql", "-U", "uno", "-d", "uno", "-At",
            "-c", query,
        )  # fmt: skip
        return result.stdout.strip()


# ------------------------------------------------------------------------------ the probes


def declared_probes() -> list[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    """(workload, kind of probe, the probe, its container) for every probe in k8s/base."""
    found = []
    for path in sorted((REPO / "k8s" / "base").glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if not doc or doc["kind"] not in {"Deployment", "StatefulSet"}:
                continue
            for container in doc["spec"]["template"]["spec"]["containers"]:
                for kind in ("startupProbe", "livenessProbe", "readinessProbe"):
                    if kind in container:
                        found.append((doc["metadata"]["name"], kind, container[kind], container))
    return found


def container_port(container: dict[str, Any], port: int | str) -> int:
    if isinstance(port, int):
        return port
    return next(int(p["containerPort"]) for p in container["ports"] if p["name"] == port)


def answer_probe(
    project: Project, service: str, probe: dict[str, Any], container: dict[str, Any]
) -> subprocess.CompletedProcess[str]:
    """The probe as the kubelet makes it, against the service's container."""
    if "exec" in probe:
        return project.exec(service, *probe["exec"]["command"])
    if "httpGet" in probe:
        get = probe["httpGet"]
        url = f"http://127.0.0.1:{container_port(container, get['port'])}{get['path']}"
        script = f"import urllib.request; urllib.request.urlopen({url!r}, timeout=5)"
        return project.exec(service, "python", "-c", script)
    # tcpSocket: a connection from another container of the network, as from the kubelet.
    port = container_port(container, probe["tcpSocket"]["port"])
    script = f"import socket; socket.create_connection(({service!r}, {port}), timeout=5)"
    return project.exec("engine", "python", "-c", script)


def check_probes(project: Project) -> None:
    probes = declared_probes()
    assert {workload for workload, *_ in probes} == set(SERVICE_OF_WORKLOAD), probes
    for service in set(SERVICE_OF_WORKLOAD.values()) | {"engine"}:
        project.container(service)  # found before the threads ask
    # Each probe once (a liveness probe is often the readiness one), all at the same time.
    actions = {
        (
            SERVICE_OF_WORKLOAD[workload],
            json.dumps({k: v for k, v in probe.items() if k in PROBE_ACTIONS}),
        ): (probe, container)
        for workload, _, probe, container in probes
    }
    with ThreadPoolExecutor(len(actions)) as pool:
        futures = {
            key: pool.submit(answer_probe, project, key[0], *value)
            for key, value in actions.items()
        }
        answered = {key: future.result() for key, future in futures.items()}
    failed = []
    for workload, kind, probe, _ in probes:
        service = SERVICE_OF_WORKLOAD[workload]
        shown = json.dumps({k: v for k, v in probe.items() if k in PROBE_ACTIONS})
        result = answered[service, shown]
        say(f"{workload} {kind} {shown}: exit {result.returncode}")
        if result.returncode != 0:
            failed.append(f"{workload} {kind}: {result.stdout}{result.stderr}")
    assert not failed, "\n".join(failed)


# ------------------------------------------------------------------------------ the game


def owes(hand: dict[str, Any] | None) -> bool:
    """Whether the hand's line says its player owes a decision (tests/bot/test_e2e_rounds)."""
    text = (hand or {}).get("text", "")
    return any(
        words in text
        for words in ("your turn", "choose", "drew a card", "makes you take", "swap", "name a")
    )


class Game:
    def __init__(self, project: Project, control: TelegramControl, token: str) -> None:
        self.project = project
        self.control = control
        bot_id = int(token.split(":", 1)[0])
        bot = next(b for b in control.state()["bots"] if int(b["id"]) == bot_id)
        self.people = [control.create_user(name, username=None) for name in ("Ann", "Ben")]
        ids = [p["id"] for p in self.people]
        chat = control.create_group("UNO in containers", ids, admins=ids[:1], bots=[token])
        for person in self.people:
            control.start_bot(person["id"], token)
        self.chat_id = int(chat["id"])
        self.players = Players(control, token, self.chat_id, bot["username"], bot_id)
        self.moves = 0

    def round_over(self) -> bool:
        return "Round 1 goes to" in "".join(m["text"] for m in self.players.bot_messages())

    def start(self) -> str:
        """/new, the variant, a join, an AI seat, start, both hands open: the game's id."""
        host, guest = self.people
        self.control.send_message(host["id"], self.chat_id, "/new")
        question = self._variant_question()
        classic = next(cb for cb in callbacks(question) if cb.arg == "classic")
        self.players.press(host["id"], question, classic)
        lobby = self.players.wait_table("the lobby", lambda m: "waiting for players" in m["text"])
        buttons = {cb.arg: cb for cb in callbacks(lobby)}
        assert self.players.press(guest["id"], lobby, buttons["join"])["text"] == "You're in!"
        # An Add AI button holds the lobby's version: pressed on the lobby as it is now.
        lobby = self.players.wait_table("two seats", lambda m: guest["first_name"] in m["text"])
        ai = next(cb for cb in callbacks(lobby) if cb.arg == "ai.strong")
        self.players.press(host["id"], lobby, ai)
        self.players.wait_table("three seats", lambda m: "AI 1" in m["text"])
        self.players.press(host["id"], lobby, buttons["start"])
        table = self.players.wait_table("the table", lambda m: "round 1" in m["text"])
        for person in self.people:
            hand_button = next(cb for cb in callbacks(table) if cb.kind is Kind.HAND)
            self.players.press(person["id"], table, hand_button)
            self.players.wait_hand(person["id"], lambda m: True, "a hand message")
        return str(hand_button.game_id)

    def _variant_question(self) -> dict[str, Any]:
        def found() -> dict[str, Any] | None:
            for m in reversed(self.players.bot_messages()):
                if any(cb.kind is Kind.VARIANT for cb in callbacks(m)):
                    return m
            return None

        question: dict[str, Any] = self.control.wait_until(
            found, timeout=SHOWN_SECONDS, what="the variant keyboard"
        )
        return question

    def next_move(self) -> tuple[dict[str, Any], dict[str, Any], Callback] | None:
        """A person who owes a move, their hand and the move they make, once there is one;
        None once the round is over."""

        def owed() -> tuple[dict[str, Any], dict[str, Any], Callback] | bool:
            for person in self.people:
                hand = self.players.hand(person["id"])
                cb = preferred_move(callbacks(hand)) if hand and owes(hand) else None
                if hand is not None and cb is not None:
                    return person, hand, cb
            return self.round_over()

        found = self.control.wait_until(owed, timeout=SHOWN_SECONDS, what="someone's turn")
        return found if isinstance(found, tuple) else None

    def owed_move(self) -> tuple[dict[str, Any], dict[str, Any], Callback]:
        """The next move, which the game owes: it is too early in the round for its end."""
        found = self.next_move()
        assert found is not None, "the round ended before the faults were tried"
        return found

    def wait_moved(
        self,
        person: dict[str, Any],
        hand: dict[str, Any],
        cb: Callback,
        timeout: float = SHOWN_SECONDS,
    ) -> None:
        """Until the bot showed the move: the hand past the pressed version, or the end."""
        edits = len(hand.get("history", []))

        def moved() -> bool:
            now = self.players.hand(person["id"]) or {}
            return (
                version_of(now) > cb.version
                or len(now.get("history", [])) > edits
                or self.round_over()
            )

        self.control.wait_until(moved, timeout=timeout, what=f"the move {cb.arg} shown")
        self.moves += 1

    def move(self) -> None:
        found = self.next_move()
        if found is None:
            return
        person, hand, cb = found
        answer = self.players.press_hand(person["id"], hand, cb)
        assert not answer["text"], (cb, answer, hand["text"])
        self.wait_moved(person, hand, cb)

    def move_with_the_engine_down(self) -> None:
        """The engine's container killed, a move pressed and the engine started again: the
        bot tries the engine a few times with the same move (applied once however often it
        arrives), so the move goes in when a try reaches the engine back; when every try
        failed first, the bot asks to try again (Telegram may refuse so late an answer) and
        the person presses again."""
        person, hand, cb = self.owed_move()
        self.project.kill("engine")
        since = self.last_call()
        self.press_unanswered(person, hand, cb)
        say(f"engine killed: {cb.arg} pressed")
        say(f"engine answering again after {self.project.start('engine'):.1f} s")

        def settled() -> str | None:
            if version_of(self.players.hand(person["id"]) or {}) > cb.version:
                return "moved"
            answer = self.bot_answer(since)
            return answer and answer["params"].get("text", "")

        outcome = self.control.wait_until(settled, timeout=SHOWN_SECONDS, what="the press")
        if outcome == "moved":
            say(f"{cb.arg} went in with one of the bot's tries")
        else:
            assert "try again" in outcome, outcome
            say(f"the bot answered {outcome!r}")
            again = self.players.press_hand(person["id"], hand, cb)
            assert not again["text"], (cb, again)
            say(f"{cb.arg} pressed again: taken")
        self.wait_moved(person, hand, cb)

    def move_with_the_bot_down(self) -> None:
        """The bot's container killed, a move pressed: Telegram keeps the update, and the
        bot takes it once it is back."""
        person, hand, cb = self.owed_move()
        self.project.kill("bot")
        unanswered = self.press_unanswered(person, hand, cb)
        assert not unanswered["answered"], unanswered
        say(f"bot killed: {cb.arg} pressed, nobody answered")
        say(f"bot answering again after {self.project.start('bot'):.1f} s")
        self.wait_moved(person, hand, cb)
        say("the press made while the bot was down was taken")

    def last_call(self) -> int:
        """The sequence number of the bot's last Bot API call."""
        calls = self.control.calls(token=self.players.token)
        return int(calls[-1]["seq"]) if calls else 0

    def bot_answer(self, since: int) -> dict[str, Any] | None:
        """The bot's answerCallbackQuery call after ``since``, whether Telegram took it."""
        for call in self.control.calls(token=self.players.token, since=since):
            if call["method"].lower() == "answercallbackquery":
                return call
        return None

    def press_unanswered(
        self, person: dict[str, Any], hand: dict[str, Any], cb: Callback
    ) -> dict[str, Any]:
        """A press that gets no answer soon; what came back (``answered`` false, or the
        bot's 'try again')."""
        answer = self.control.press_button(
            person["id"], self.players.bot_id, hand["message_id"], cb.encode(), timeout=2
        )
        assert not answer["answered"] or "try again" in answer["text"], answer
        return answer


def play(project: Project, control: TelegramControl, token: str) -> None:
    game = Game(project, control, token)
    game_id = game.start()
    assert re.fullmatch(r"[A-Za-z0-9_-]+", game_id), game_id
    say(f"game {game_id} started: Ann, Ben and AI 1")
    game.move()
    game.move_with_the_engine_down()
    game.move()
    game.move_with_the_bot_down()
    while not game.round_over():
        game.move()
        assert game.moves < 800
    say(f"round 1 over after {game.moves} moves by people")
    recorded = game.control.wait_until(
        lambda: project.sql(
            f"select number, winner_seat, scores from rounds where game_id = '{game_id}'"
        ),
        timeout=SHOWN_SECONDS,
        what="the round in PostgreSQL",
    )
    say(f"PostgreSQL: round|winner seat|scores = {recorded}")
    assert recorded.startswith("1|"), recorded


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("probes", "game"))
    parser.add_argument("--docker", required=True)
    parser.add_argument("--compose", required=True, type=json.loads)
    parser.add_argument("--telegram", help="the local Telegram's URL (game)")
    parser.add_argument("--token", help="the bot's token (game)")
    args = parser.parse_args(argv)
    project = Project(args.docker, args.compose)
    if args.what == "probes":
        check_probes(project)
    else:
        play(project, TelegramControl(args.telegram), args.token)


if __name__ == "__main__":
    main()
