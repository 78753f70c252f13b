"""The bot's API: /stats, /top, /forgetme, and the chat settings read at /new and written
by /settings. Every test runs on SQLite and on the real PostgreSQL."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlalchemy import Engine, select

from services.engine.rules import Options
from services.records import queries
from services.records.models import AI_USER_IDS, PLAYERS, USERS
from services.records.queries import BoardOrder, ChatSettings, InvalidSetting
from services.records.writer import GameFacts, SeatFacts, needs_facts, record_write
from tests.helpers.game_log import ANA, BO, CHAT, CY, FACTS, finished_game

STRONG = AI_USER_IDS["strong"]
OTHER_CHAT = -100_777


def play(db: Engine, game_id: str, winner: int, facts: GameFacts = FACTS) -> None:
    for version, events in finished_game(winner=winner):
        record_write(db, game_id, version, events, facts if needs_facts(events) else None)


def test_stats_of_a_player_per_variant_and_in_the_chat(records_db: Engine) -> None:
    play(records_db, "g1", winner=0)
    play(records_db, "g2", winner=0)
    play(records_db, "g3", winner=1, facts=replace(FACTS, variant="flip"))
    play(records_db, "g4", winner=3, facts=replace(FACTS, chat_id=OTHER_CHAT))

    stats = queries.user_stats(records_db, ANA, chat_id=CHAT)

    assert stats is not None
    assert (stats.name, stats.is_ai, stats.games, stats.wins) == ("Ana", False, 4, 2)
    classic, flip = stats.variants
    assert (classic.variant, classic.games, classic.wins, classic.points) == ("classic", 3, 2, 1040)
    assert (flip.variant, flip.games, flip.wins) == ("flip", 1, 0)
    assert classic.rating == pytest.approx(classic.mu - 3 * classic.sigma)
    assert classic.rating > flip.rating
    in_chat = {v.variant: (v.games, v.wins) for v in stats.in_chat}
    assert in_chat == {"classic": (2, 2), "flip": (1, 0)}


def test_stats_of_somebody_without_a_record(records_db: Engine) -> None:
    assert queries.user_stats(records_db, 999) is None


def test_stats_of_an_ai_level(records_db: Engine) -> None:
    play(records_db, "g1", winner=2)
    stats = queries.user_stats(records_db, STRONG)
    assert stats is not None and stats.is_ai and stats.wins == 1


def test_boards_by_rating_and_by_wins(records_db: Engine) -> None:
    for n in range(3):
        play(records_db, f"a{n}", winner=1)  # Bo wins three
    play(records_db, "b", winner=3)  # Cy one
    # Elsewhere, Ana wins five: she leads the global board by wins, not this chat's.
    for n in range(5):
        play(records_db, f"c{n}", winner=0, facts=replace(FACTS, chat_id=OTHER_CHAT))

    by_wins = queries.leaderboard(records_db, "classic", by=BoardOrder.WINS, chat_id=CHAT)
    assert [(e.place, e.user_id, e.wins, e.games) for e in by_wins][:2] == [
        (1, BO, 3, 4),
        (2, CY, 1, 4),
    ]
    assert {e.user_id for e in by_wins} == {ANA, BO, CY, STRONG}

    global_wins = queries.leaderboard(records_db, "classic", by=BoardOrder.WINS)
    assert [(e.user_id, e.wins, e.games) for e in global_wins][:2] == [(ANA, 5, 9), (BO, 3, 9)]

    by_rating = queries.leaderboard(records_db, "classic")
    ratings = [e.rating for e in by_rating]
    assert ratings == sorted(ratings, reverse=True)
    for entry in by_rating:
        stats = queries.user_stats(records_db, entry.user_id)
        assert stats is not None and stats.variants[0].rating == entry.rating

    chat_rating = queries.leaderboard(records_db, "classic", chat_id=CHAT)
    # One rating per variant, wherever it was earned, but the chat's own games.
    assert [(e.user_id, e.rating) for e in chat_rating] == [
        (e.user_id, e.rating) for e in by_rating
    ]
    assert {e.games for e in chat_rating} == {4}

    assert queries.leaderboard(records_db, "flip") == []
    assert len(queries.leaderboard(records_db, "classic", limit=2)) == 2


def test_the_ai_sits_on_the_boards(records_db: Engine) -> None:
    play(records_db, "g1", winner=2)
    board = queries.leaderboard(records_db, "classic", by=BoardOrder.WINS)
    assert (board[0].user_id, board[0].is_ai, board[0].name) == (STRONG, True, "AI (strong)")


def test_forget_me_deletes_the_record_and_hides_the_user(records_db: Engine) -> None:
    play(records_db, "g1", winner=0)
    play(records_db, "g2", winner=0, facts=replace(FACTS, variant="flip"))

    forgotten = queries.forget_user(records_db, ANA)

    assert (forgotten.results, forgotten.ratings, forgotten.standings) == (2, 2, 2)
    assert queries.user_stats(records_db, ANA) is None
    for variant in ("classic", "flip"):
        assert ANA not in {e.user_id for e in queries.leaderboard(records_db, variant)}
        assert ANA not in {
            e.user_id for e in queries.leaderboard(records_db, variant, chat_id=CHAT)
        }
    with records_db.connect() as connection:
        user = connection.execute(select(USERS).where(USERS.c.id == ANA)).one()
        assert (user.name, user.language, user.hidden) == (None, None, True)
        seats = connection.execute(select(PLAYERS).where(PLAYERS.c.seat == 0)).all()
        assert [(s.user_id, s.name, s.score) for s in seats] == [(None, None, 520)] * 2
    # The others keep their results.
    bo = queries.user_stats(records_db, BO)
    assert bo is not None and bo.games == 2


def test_a_forgotten_user_who_plays_again_stays_off_the_global_boards(
    records_db: Engine,
) -> None:
    queries.forget_user(records_db, ANA)
    play(records_db, "g1", winner=0)

    assert ANA not in {e.user_id for e in queries.leaderboard(records_db, "classic")}
    assert ANA in {e.user_id for e in queries.leaderboard(records_db, "classic", chat_id=CHAT)}
    stats = queries.user_stats(records_db, ANA)
    assert stats is not None and stats.hidden and stats.games == 1


def test_forgetting_somebody_unknown_just_hides_them(records_db: Engine) -> None:
    assert queries.forget_user(records_db, 4242) == queries.Forgotten(0, 0, 0)


def test_chat_settings_default_then_chat_then_topic(records_db: Engine) -> None:
    assert queries.chat_settings(records_db, CHAT) == ChatSettings()
    chat = ChatSettings(
        variant="no_mercy",
        turn_seconds=45,
        uno_window_seconds=6,
        rules=Options(seven_o=True, alternate_scoring=True, target_score=300),
        language="fa",
        stand_in="hard",
    )
    queries.save_chat_settings(records_db, CHAT, chat)
    assert queries.chat_settings(records_db, CHAT) == chat
    assert queries.chat_settings(records_db, CHAT, topic_id=7) == chat  # the chat's
    assert queries.chat_settings(records_db, OTHER_CHAT) == ChatSettings()

    topic = replace(chat, variant="flip", turn_seconds=None, language=None, stand_in=None)
    queries.save_chat_settings(records_db, CHAT, topic, topic_id=7)
    seen = queries.chat_settings(records_db, CHAT, topic_id=7)
    # A setting the topic leaves open comes from the chat.
    assert seen == replace(topic, turn_seconds=45, language="fa", stand_in="hard")
    assert queries.chat_settings(records_db, CHAT) == chat

    queries.save_chat_settings(records_db, CHAT, replace(chat, variant="classic"))
    assert queries.chat_settings(records_db, CHAT).variant == "classic"


@pytest.mark.parametrize(
    ("change", "setting"),
    [
        ({"variant": "chess"}, "variant"),
        ({"turn_seconds": 2}, "turn_seconds"),
        ({"turn_seconds": 99_999}, "turn_seconds"),
        ({"uno_window_seconds": 0}, "uno_window_seconds"),
        ({"rules": Options(target_score=0)}, "target_score"),
        ({"language": "not a language"}, "language"),
        ({"stand_in": "grandmaster"}, "stand_in"),
    ],
)
def test_a_bad_setting_is_refused_and_nothing_written(
    records_db: Engine, change: dict[str, object], setting: str
) -> None:
    queries.save_chat_settings(records_db, CHAT, ChatSettings(turn_seconds=30))
    with pytest.raises(InvalidSetting) as refused:
        queries.save_chat_settings(records_db, CHAT, replace(ChatSettings(), **change))  # type: ignore[arg-type]
    assert refused.value.setting == setting
    assert queries.chat_settings(records_db, CHAT) == ChatSettings(turn_seconds=30)


def test_a_users_language(records_db: Engine) -> None:
    assert queries.user_language(records_db, ANA) is None
    queries.save_user_language(records_db, ANA, "gu")
    assert queries.user_language(records_db, ANA) == "gu"
    play(records_db, "g1", winner=0)  # finishing a game keeps it
    assert queries.user_language(records_db, ANA) == "gu"
    with pytest.raises(InvalidSetting):
        queries.save_user_language(records_db, ANA, "x")
    assert queries.user_language(records_db, ANA) == "gu"


def test_two_ai_seats_of_one_level_rate_one_subject(records_db: Engine) -> None:
    facts = replace(
        FACTS,
        seats=(
            SeatFacts("Ana", user_id=ANA),
            SeatFacts("AI 1", ai="strong"),
            SeatFacts("AI 2", ai="strong"),
        ),
    )
    record_write(
        records_db, "g1", 9, [{"type": "game_over", "winner": 1, "scores": [0, 500, 20]}], facts
    )
    ai = queries.user_stats(records_db, STRONG)
    assert ai is not None
    (classic,) = ai.variants
    assert (classic.games, classic.wins, classic.points) == (2, 1, 520)
