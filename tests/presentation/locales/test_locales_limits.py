"""Telegram's limits hold in every language: a callback alert (the lobby's Rules button)
is at most 200 characters."""

from __future__ import annotations

import pytest

from services.engine.client import variant_facts, variant_names
from services.presentation.i18n import gettext
from services.presentation.locales.catalog import LANGUAGES
from services.presentation.locales.rules_text import telegram_length

ALERT_LIMIT = 200


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", variant_names())
def test_rules_alerts_fit(language: str, variant: str) -> None:
    summary = variant_facts(variant).summary_msgid
    text = gettext(language, summary)
    assert 0 < telegram_length(text) <= ALERT_LIMIT
    assert language == "en" or text != summary
