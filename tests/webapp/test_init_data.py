"""initData is checked as Telegram documents it: held to aiogram's validator (a second
implementation nobody here wrote) on launches the local Telegram signs, and refused when
forged, changed, signed for another bot, too old or from the future."""

from __future__ import annotations

import json
from urllib.parse import parse_qsl, urlencode

import pytest
from aiogram.utils.web_app import safe_parse_webapp_init_data

from playground.web_apps import sign
from services.webapp.init_data import InvalidInitData, validate

TOKEN = "123456:test-token-of-the-bot"
DAY = 86_400
#: The clock every check here reads: validate() takes the time it judges by, so no test
#: depends on when it runs.
NOW = 1_800_000_000


def launch(**extra: str) -> str:
    fields = {
        "query_id": "AAE-1",
        "user": json.dumps({"id": 42, "first_name": "Ann", "language_code": "fa"}),
        "chat_type": "supergroup",
        "chat_instance": "-77",
        "start_param": "game12345678",
        "auth_date": str(NOW),
        **extra,
    }
    return sign(TOKEN, fields)


def reason(init_data: str, token: str = TOKEN, max_age: float = DAY) -> str:
    with pytest.raises(InvalidInitData) as refused:
        validate(init_data, token, max_age=max_age, now=NOW)
    return refused.value.reason


def test_a_signed_launch_is_accepted_as_aiogram_accepts_it() -> None:
    data = launch()
    user = validate(data, TOKEN, max_age=DAY, now=NOW)
    theirs = safe_parse_webapp_init_data(TOKEN, data)
    assert theirs.user is not None
    assert (user.id, user.first_name, user.language_code) == (42, "Ann", "fa")
    assert user.id == theirs.user.id and user.start_param == theirs.start_param == "game12345678"


def test_a_forged_or_changed_launch_is_refused_as_aiogram_refuses_it() -> None:
    data = launch()
    fields = dict(parse_qsl(data))
    forged = [
        urlencode({**fields, "user": json.dumps({"id": 7, "first_name": "Eve"})}),
        urlencode({**fields, "start_param": "another-game"}),
        urlencode({**fields, "hash": "0" * 64}),
        urlencode({k: v for k, v in fields.items() if k != "hash"}),
    ]
    for bad in forged:
        assert reason(bad) == "bad_hash"
        with pytest.raises(ValueError):
            safe_parse_webapp_init_data(TOKEN, bad)
    assert reason(data, token="654321:another-bots-token") == "bad_hash"


def test_an_old_or_future_launch_is_refused() -> None:
    assert reason(launch(auth_date=str(NOW - DAY - 5))) == "expired"
    assert reason(launch(auth_date=str(NOW - 120)), max_age=60) == "expired"
    assert reason(launch(auth_date=str(NOW + 3600))) == "from_the_future"


def test_malformed_launches_are_refused() -> None:
    assert reason("") == "malformed"
    assert reason("x" * 5000) == "malformed"
    assert reason("a=1&a=2") == "malformed"
    assert reason(sign(TOKEN, {"auth_date": str(NOW)})) == "no_user"
    assert reason(sign(TOKEN, {"user": "{}", "auth_date": "soon"})) == "malformed"
    assert reason(sign(TOKEN, {"user": '{"id": true}', "auth_date": str(NOW)})) == "no_user"


@pytest.mark.parametrize("user_id", ['"42"', "42.0", "42.5", "true", "null", "-42", "0"])
def test_a_signed_launch_whose_user_id_is_not_a_positive_integer_is_refused(user_id: str) -> None:
    """Telegram's user ids are JSON integers: a string or a float is no user id, however
    well signed (else "42", 42.0 and 42.5 would all be person 42)."""
    user = '{"id": ' + user_id + ', "first_name": "Ann"}'
    assert reason(sign(TOKEN, {"user": user, "auth_date": str(NOW)})) == "no_user"


def test_a_launch_from_at_most_a_minute_ahead_is_accepted() -> None:
    """Telegram stamps ``auth_date`` with its own clock: a minute covers two synchronised
    clocks' difference; a launch further ahead was not made now."""
    assert validate(launch(auth_date=str(NOW + 60)), TOKEN, max_age=DAY, now=NOW).id == 42
    assert reason(launch(auth_date=str(NOW + 61))) == "from_the_future"
