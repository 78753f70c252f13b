"""Backups bring games back: Redis's append-only file survives a crash, and the archive of
scripts/backup-redis.sh, put back by scripts/restore-redis.sh, restores the games as they
were at the backup (README "Backups and restore"). A Redis of the test's own, on a free
port, with the production persistence settings and a password; the engine is the image's
entry point."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis

from harness.processes import free_port
from harness.redis_finder import answers
from services.engine.client import EngineClient, NotFound
from services.records.database import make_engine
from services.records.queries import user_stats
from services.records.writer import GameFacts, SeatFacts, record_write
from tests.helpers.service_runner import (
    REPO,
    TOKEN,
    engine_env,
    entry_env,
    run_role,
    service,
    wait_ready,
)
from tests.helpers.waiting import wait_for

PASSWORD = "restore-test-password"


@dataclass
class RedisServer:
    """A redis-server with an append-only file in ``data_dir``, restartable on the same port."""

    data_dir: Path
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://:{PASSWORD}@127.0.0.1:{self.port}/0"

    def start(self) -> None:
        log = (self.data_dir.parent / "redis.log").open("ab")
        self.process = subprocess.Popen(
            # The settings of docker-compose.yml and k8s/base/redis.yaml.
            [
                "redis-server",
                *("--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.data_dir)),
                *("--appendonly", "yes", "--appendfsync", "everysec", "--save", ""),
                *("--maxmemory-policy", "noeviction", "--requirepass", PASSWORD),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        wait_for(
            lambda: answers(self.url),
            30,
            "Redis to answer",
            output=(self.data_dir.parent / "redis.log").read_text,
        )

    def wait_written(self) -> None:
        """Until Redis has handed its append-only buffer to the file. With ``everysec`` it
        answers a write before that while a slow fsync is still running, and holds the
        write for up to two seconds (the loss the README states for a crash)."""
        client = redis.Redis.from_url(self.url)

        def written() -> bool:
            persistence = client.info("persistence")
            return persistence["aof_enabled"] == 1 and persistence["aof_buffer_length"] == 0

        wait_for(written, 10, "Redis to write its append-only file")
        client.close()

    def crash(self) -> None:
        """SIGKILL: no shutdown, no last fsync."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def wait_stopped(self) -> None:
        assert self.process is not None
        self.process.wait(30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(30)

    def script(self, name: str) -> subprocess.CompletedProcess[bytes]:
        """Run scripts/NAME the way the README says: ``sh -s`` where redis-cli reaches it."""
        env = {**os.environ, "REDISCLI_AUTH": PASSWORD, "REDIS_PORT": str(self.port)}
        return subprocess.run(
            ["sh", "-s"],
            input=(REPO / "scripts" / name).read_bytes(),
            capture_output=True,
            env=env,
            timeout=60,
        )


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    server = RedisServer(data_dir, free_port())
    server.start()
    yield server
    server.stop()


@dataclass
class Engine:
    url: str
    log: Path

    def wait_ready(self) -> None:
        wait_ready("the engine", self.url, self.log)


@pytest.fixture
def engine(redis_server: RedisServer, tmp_path: Path) -> Iterator[Engine]:
    port = free_port()
    with service("engine", engine_env(redis_server.url, port), tmp_path) as log:
        running = Engine(f"http://127.0.0.1:{port}", log)
        running.wait_ready()
        yield running


async def started_game(client: EngineClient, chat_id: int) -> str:
    game = await client.create_game(chat_id, 101, "Ana")
    await client.join(game.game_id, 102, "Bo")
    await client.start(game.game_id, 101)
    return game.game_id


async def test_a_game_survives_a_redis_crash(redis_server: RedisServer, engine: Engine) -> None:
    async with EngineClient(engine.url, TOKEN) as client:
        game_id = await started_game(client, -1001)
        before = await client.view(game_id, 101)
        # What Redis has written to its append-only file survives the process, fsynced or
        # not; a crash loses at most what it still held (up to two seconds of writes).
        redis_server.wait_written()
        redis_server.crash()
        redis_server.start()
        engine.wait_ready()
        assert await client.view(game_id, 101) == before


async def test_a_backup_restores_the_games_as_they_were(
    redis_server: RedisServer, engine: Engine
) -> None:
    async with EngineClient(engine.url, TOKEN) as client:
        game_id = await started_game(client, -1002)
        before = await client.view(game_id, 101)
        backup = redis_server.script("backup-redis.sh")
        assert backup.returncode == 0, backup.stderr
        later_game = await started_game(client, -1003)
        await client.end(game_id, 101)

        (redis_server.data_dir / "restore.tar").write_bytes(backup.stdout)
        restore = redis_server.script("restore-redis.sh")
        assert restore.returncode == 0, restore.stderr
        redis_server.wait_stopped()  # the script stops Redis; its supervisor starts it again
        redis_server.start()
        engine.wait_ready()

        assert await client.view(game_id, 101) == before
        with pytest.raises(NotFound):
            await client.game(later_game)


def test_restore_refuses_an_archive_that_is_no_backup(redis_server: RedisServer) -> None:
    (redis_server.data_dir / "restore.tar").write_bytes(b"not a tar archive")
    restore = redis_server.script("restore-redis.sh")
    assert restore.returncode != 0
    assert redis_server.process is not None and redis_server.process.poll() is None
    assert (redis_server.data_dir / "appendonlydir").is_dir()


# ------------------------------------------------------------------------------ PostgreSQL


def libpq_url(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def pg_dump(url: str) -> bytes:
    """README "Backups and restore": ``pg_dump -Fc``."""
    return subprocess.run(
        ["pg_dump", "-Fc", "--dbname", libpq_url(url)], capture_output=True, check=True
    ).stdout


def pg_restore(url: str, dump: bytes) -> None:
    """README "Backups and restore": ``pg_restore --clean --if-exists --no-owner``."""
    subprocess.run(
        ["pg_restore", "--clean", "--if-exists", "--no-owner", "--dbname", libpq_url(url)],
        input=dump,
        capture_output=True,
        check=True,
    )


def test_the_documented_dump_and_restore_bring_a_database_back(fresh_database: str) -> None:
    with psycopg.connect(libpq_url(fresh_database), autocommit=True) as db:
        db.execute("CREATE TABLE results (game_id text PRIMARY KEY, winner bigint NOT NULL)")
        db.execute("INSERT INTO results VALUES ('g1', 101), ('g2', 102)")
    dump = pg_dump(fresh_database)
    with psycopg.connect(libpq_url(fresh_database), autocommit=True) as db:
        db.execute("DELETE FROM results WHERE game_id = 'g1'")
        db.execute("INSERT INTO results VALUES ('g3', 103)")
    pg_restore(fresh_database, dump)
    with psycopg.connect(libpq_url(fresh_database)) as db:
        rows = db.execute("SELECT game_id, winner FROM results ORDER BY game_id").fetchall()
    assert rows == [("g1", 101), ("g2", 102)]


def finished_game(game_id: str, winner: int) -> dict[str, Any]:
    """A Classic game between Ana (101) and Bo (102), as the results recorder writes it."""
    scores = [0, 0]
    scores[winner] = 520
    return {
        "game_id": game_id,
        "version": 31,
        "events": [
            {
                "type": "round_ended",
                "round": 1,
                "winner": winner,
                "points": [0, 40],
                "scores": scores,
                "hands": [],
            },
            {"type": "game_over", "winner": winner, "scores": scores},
        ],
        "facts": GameFacts(
            chat_id=-100_777,
            topic_id=0,
            variant="classic",
            seats=(SeatFacts("Ana", user_id=101), SeatFacts("Bo", user_id=102)),
        ),
    }


def test_a_dump_brings_the_results_back(fresh_database: str) -> None:
    migrated = run_role("migrate", entry_env(UNO_DATABASE_URL=fresh_database))
    assert migrated.returncode == 0, migrated.stderr
    database = make_engine(fresh_database)
    try:
        record_write(database, **finished_game("g1", winner=0))
        before = user_stats(database, 101)
        assert before is not None
        dump = pg_dump(fresh_database)

        record_write(database, **finished_game("g2", winner=1))
        assert user_stats(database, 101) != before
        database.dispose()  # new connections after the restore: its tables are new ones

        pg_restore(fresh_database, dump)
        assert user_stats(database, 101) == before
    finally:
        database.dispose()
