"""What /language shows: the language a person or a chat speaks, each language as a button
named in its own words, and what a change says (in the language it changes to)."""

from __future__ import annotations

from services.presentation.callbacks import Callback, Kind
from services.presentation.i18n import rich_gettext
from services.presentation.locales.catalog import LANGUAGE_NAMES
from services.presentation.rich import Rich
from services.presentation.screens.keyboard import Keyboard, Screen, button


def language_keyboard() -> Keyboard:
    """/language alone: each language as a button, named in its own words."""
    return (
        tuple(
            button(name, Callback(Kind.LANGUAGE, "", 0, code))
            for code, name in LANGUAGE_NAMES.items()
        ),
    )


def own_language(current: str) -> Screen:
    """/language alone in a private chat: the person's language, and the others."""
    said = rich_gettext(
        current,
        "Your language: {language}. Change it with /language en, /language fa "
        "or /language gu; /language auto follows your Telegram app.",
        language=LANGUAGE_NAMES[current],
    )
    return Screen(said, language_keyboard())


def speaking(now: str) -> Rich:
    """A person's own language set."""
    return rich_gettext(now, "I'll speak {language} with you.", language=LANGUAGE_NAMES[now])


def chat_language(current: str) -> Screen:
    """/language alone in a group: the chat's language, and the others."""
    said = rich_gettext(
        current,
        "This chat's language: {language}. A chat admin changes it with /language en, "
        "/language fa or /language gu.",
        language=LANGUAGE_NAMES[current],
    )
    return Screen(said, language_keyboard())


def admins_only(current: str) -> Rich:
    """/language with a language in a group, from someone who is not a chat admin."""
    return rich_gettext(current, "Only a chat admin can change the chat's language.")


def topic_now_in(wanted: str) -> Rich:
    """A forum topic's own language set."""
    return rich_gettext(
        wanted, "This topic now plays in {language}.", language=LANGUAGE_NAMES[wanted]
    )


def chat_now_in(wanted: str) -> Rich:
    """A chat's language set."""
    return rich_gettext(
        wanted, "This chat now plays in {language}.", language=LANGUAGE_NAMES[wanted]
    )
