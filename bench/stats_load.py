"""Records under load: PostgreSQL holding 100,000 finished 4-player games.

Builds the records database from the migrations, fills it with N finished games (default
100,000; 4 seats each, now and then a strong AI among them) in C chats, with the rows the
writer would have left (games, three rounds each, per-seat results, the write keys, the
users, each variant's ratings computed with the real rating model, and the chats'
standings), then measures, each over many samples, p50 and p99 of:

- **writing one game's end** (``writer.record_write`` of a ``game_over`` entry for a new
  game of 4 existing players: the results, the users, the ratings and the chat's
  standings, in one transaction);
- **/stats** (``queries.user_stats`` of a random player, with a chat);
- **/top**, per variant: the global boards and a chat's boards, by rating and by wins
  (``queries.leaderboard``);

against **baselines** measured in the same run: one ``SELECT 1`` through the same engine
and a fresh session (the floor under any query here), and one row inserted and committed
(the floor under any write). Goals (issue 17): a result written
in ≤ 20 ms p99, every board query ≤ 20 ms p99. Nothing here asserts on time.

Usage: .venv/bin/python bench/stats_load.py [--games 100000] [--chats 2000] [--samples 1000]
       [--database postgresql+psycopg://postgres@127.0.0.1:5432/uno_bench_records]
The database is EMPTIED (migrated down to nothing and up again). Create it first:
``createdb -h 127.0.0.1 -U postgres uno_bench_records``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from sqlalchemy import Engine, text  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from bench.percentiles import percentile  # noqa: E402
from services.records import queries  # noqa: E402
from services.records.database import make_engine, transaction  # noqa: E402
from services.records.migrate import downgrade, upgrade  # noqa: E402
from services.records.models import AI_USER_IDS  # noqa: E402
from services.records.ratings import NEW_PLAYER, Skill, places, rate  # noqa: E402
from services.records.writer import GameFacts, SeatFacts, record_write  # noqa: E402

VARIANTS = ["classic", "flip", "no_mercy", "minecraft", "minions"]
VARIANT_WEIGHTS = [50, 20, 15, 10, 5]
STRONG = AI_USER_IDS["strong"]
DEFAULT_DB = "postgresql+psycopg://postgres@127.0.0.1:5432/uno_bench_records"


class World:
    """The synthetic chats and their members: chat sizes vary (a few big groups)."""

    def __init__(self, chats: int, rng: random.Random) -> None:
        self.rng = rng
        self.chat_ids = [-1_000_000_000_000 - n for n in range(chats)]
        self.members: dict[int, list[int]] = {}
        next_user = 1_000
        for chat in self.chat_ids:
            size = min(200, int(rng.paretovariate(1.5) * 8))
            self.members[chat] = list(range(next_user, next_user + max(size, 4)))
            next_user += max(size, 4)
        # Busy chats play more games.
        self.weights = [len(self.members[c]) for c in self.chat_ids]

    def game(self) -> tuple[int, str, list[int]]:
        chat = self.rng.choices(self.chat_ids, self.weights)[0]
        variant = self.rng.choices(VARIANTS, VARIANT_WEIGHTS)[0]
        players = self.rng.sample(self.members[chat], 4)
        if self.rng.random() < 0.15:
            players[3] = STRONG
        return chat, variant, players


def copy_rows(
    engine: Engine, table: str, columns: Sequence[str], rows: Iterable[tuple[Any, ...]]
) -> int:
    """Bulk-load rows with PostgreSQL's COPY (the writer's own path would take hours)."""
    count = 0
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
                count += 1
        raw.commit()
    finally:
        raw.close()
    return count


def fill(engine: Engine, games: int, world: World, rng: random.Random) -> None:
    now = datetime.now(UTC)
    skills: dict[tuple[int, str], Skill] = {}
    totals: dict[tuple[int, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    standings: dict[tuple[int, str, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    game_rows, seat_rows, round_rows, write_rows = [], [], [], []
    for n in range(games):
        chat, variant, players = world.game()
        gid = f"b{n:07d}"
        winner = rng.randrange(4)
        scores = [rng.randrange(0, 200) for _ in range(4)]
        scores[winner] = 500 + rng.randrange(0, 100)
        seat_places = places(scores, winner)
        new = rate(players, seat_places, {p: skills.get((p, variant), NEW_PLAYER) for p in players})
        for seat, player in enumerate(players):
            skills[(player, variant)] = new[player]
            won = int(seat == winner)
            for bucket in (totals[(player, variant)], standings[(chat, variant, player)]):
                bucket[0] += 1
                bucket[1] += won
                bucket[2] += scores[seat]
            ai = "strong" if player == STRONG else None
            name = "AI (strong)" if ai else f"P{player}"
            seat_rows.append(
                (
                    gid,
                    seat,
                    player,
                    name,
                    ai,
                    scores[seat],
                    seat_places[seat],
                    bool(won),
                    0,
                    rng.choice((0, 0, 0, 1)),
                )
            )
        game_rows.append((gid, chat, 0, variant, "over", 3, winner, 300, now, now))
        for number in (1, 2, 3):
            round_rows.append(
                (gid, number, winner, "[0, 10, 20, 30]", "[1, 2, 3, 4]", number * 100, now)
            )
            write_rows.append((gid, number * 100, now))
        write_rows.append((gid, 301, now))
    users = sorted({p for (p, _) in skills})
    copy_rows(
        engine,
        "users",
        ["id", "name", "language", "is_ai", "hidden", "updated_at"],
        (
            (u, "AI (strong)" if u == STRONG else f"P{u}", None, u == STRONG, u % 97 == 0, now)
            for u in users
        ),
    )
    copy_rows(
        engine,
        "games",
        [
            "id",
            "chat_id",
            "topic_id",
            "variant",
            "status",
            "rounds",
            "winner_seat",
            "final_version",
            "created_at",
            "finished_at",
        ],
        game_rows,
    )
    copy_rows(
        engine,
        "game_players",
        [
            "game_id",
            "seat",
            "user_id",
            "name",
            "ai",
            "score",
            "place",
            "won",
            "knocked_out",
            "stand_in_moves",
        ],
        seat_rows,
    )
    copy_rows(
        engine,
        "rounds",
        ["game_id", "number", "winner_seat", "hand_points", "scores", "version", "ended_at"],
        round_rows,
    )
    copy_rows(engine, "recorded_writes", ["game_id", "version", "recorded_at"], write_rows)
    copy_rows(
        engine,
        "ratings",
        ["user_id", "variant", "mu", "sigma", "ordinal", "games", "wins", "points", "updated_at"],
        ((p, v, s.mu, s.sigma, s.ordinal, *totals[(p, v)], now) for (p, v), s in skills.items()),
    )
    copy_rows(
        engine,
        "chat_standings",
        ["chat_id", "variant", "user_id", "games", "wins", "points"],
        ((c, v, p, *t) for (c, v, p), t in standings.items()),
    )
    with engine.begin() as connection:
        connection.execute(text("ANALYZE"))


def warm(action: Callable[[int], object], n: int) -> None:
    """A case run once before the measure (pool, caches, plans), under its own ids."""
    action(n + 10_000_000)


def measure(samples: int, cases: Sequence[Callable[[int], object]]) -> list[list[float]]:
    """Each case ``samples`` times, interleaved (one of each in turn), so a change in the
    machine's load while the bench runs falls on all of them alike."""
    seconds: list[list[float]] = [[] for _ in cases]
    for n in range(samples):
        for i, action in enumerate(cases):
            start = time.perf_counter()
            action(n)
            seconds[i].append(time.perf_counter() - start)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--chats", type=int, default=2_000)
    parser.add_argument("--samples", type=int, default=1_000)
    parser.add_argument("--database", default=DEFAULT_DB)
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    if not args.database.startswith("postgresql"):
        sys.exit("this bench measures PostgreSQL (COPY loads the rows)")

    rng = random.Random(args.seed)
    downgrade(args.database, "base")
    upgrade(args.database)
    engine = make_engine(args.database)
    world = World(args.chats, rng)
    started = time.perf_counter()
    fill(engine, args.games, world, rng)
    with engine.connect() as connection:
        counts = {
            t: connection.execute(text(f"SELECT count(*) FROM {t}")).scalar_one()
            for t in ("games", "game_players", "users", "ratings", "chat_standings")
        }
        size = connection.execute(
            text("SELECT pg_size_pretty(pg_database_size(current_database()))")
        ).scalar_one()
        biggest, biggest_players = connection.execute(
            text(
                "SELECT chat_id, count(*) FROM chat_standings WHERE variant = 'classic' "
                "GROUP BY chat_id ORDER BY count(*) DESC LIMIT 1"
            )
        ).one()
    print(f"filled in {time.perf_counter() - started:.0f} s: {counts}, database {size}")
    print(f"{len(world.chat_ids)} chats; the biggest has {biggest_players} Classic players")

    def baseline(_: int) -> None:
        with Session(engine) as session:
            session.execute(text("SELECT 1")).scalar_one()

    def baseline_write(n: int) -> None:
        with transaction(engine) as session:
            session.execute(
                text("INSERT INTO recorded_writes VALUES (:g, 1, now())"), {"g": f"floor{n}"}
            )

    def write_game_end(n: int) -> None:
        chat, variant, players = world.game()
        facts = GameFacts(
            chat_id=chat,
            topic_id=0,
            variant=variant,
            seats=tuple(
                SeatFacts("AI", ai="strong") if p == STRONG else SeatFacts(f"P{p}", user_id=p)
                for p in players
            ),
        )
        scores = [rng.randrange(0, 200) for _ in range(4)]
        winner = rng.randrange(4)
        scores[winner] = 520
        event = {"type": "game_over", "winner": winner, "scores": scores}
        record_write(engine, f"new{n:07d}", 301, [event], facts)

    def any_user() -> int:
        return rng.choice(world.members[rng.choices(world.chat_ids, world.weights)[0]])

    def any_chat() -> int:
        return rng.choices(world.chat_ids, world.weights)[0]

    def any_variant() -> str:
        return rng.choices(VARIANTS, VARIANT_WEIGHTS)[0]

    cases: list[tuple[str, Callable[[int], object]]] = [
        ("baseline: SELECT 1 in a fresh session", baseline),
        ("baseline: INSERT one row, COMMIT", baseline_write),
        ("write one game's end (results + ratings)", write_game_end),
        (
            "/stats (user_stats with a chat)",
            lambda n: queries.user_stats(engine, any_user(), chat_id=any_chat()),
        ),
        ("/top global by rating", lambda n: queries.leaderboard(engine, any_variant())),
        (
            "/top global by wins",
            lambda n: queries.leaderboard(engine, any_variant(), by=queries.BoardOrder.WINS),
        ),
        (
            "/top chat by rating",
            lambda n: queries.leaderboard(engine, any_variant(), chat_id=any_chat()),
        ),
        (
            "/top chat by wins",
            lambda n: queries.leaderboard(
                engine, any_variant(), by=queries.BoardOrder.WINS, chat_id=any_chat()
            ),
        ),
        (
            "/top biggest chat by rating (classic)",
            lambda n: queries.leaderboard(engine, "classic", chat_id=biggest),
        ),
        (
            "/top biggest chat by wins (classic)",
            lambda n: queries.leaderboard(
                engine, "classic", by=queries.BoardOrder.WINS, chat_id=biggest
            ),
        ),
    ]
    actions = [action for _, action in cases]
    measure(20, [partial(warm, action) for action in actions])
    print(f"\n{'what':<44} {'p50 ms':>8} {'p99 ms':>8}   ({args.samples} samples each)")
    for (name, _), seconds in zip(cases, measure(args.samples, actions), strict=True):
        p50, p99 = percentile(seconds, 0.5) * 1e3, percentile(seconds, 0.99) * 1e3
        print(f"{name:<44} {p50:>8.2f} {p99:>8.2f}")
    engine.dispose()


if __name__ == "__main__":
    main()
