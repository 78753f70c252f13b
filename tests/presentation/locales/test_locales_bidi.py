"""Right-to-left done right: laid out by the Unicode bidi algorithm (python-bidi, UAX #9
with isolates), a Persian message that quotes Latin names, card codes and numbers reads in
order, and so does an English message quoting a Persian name. Each test also lays out the
same text without isolates, to show what they prevent."""

from __future__ import annotations

from bidi import get_display

from services.presentation.locales.bidi import (
    FIRST_STRONG_ISOLATE,
    POP_DIRECTIONAL_ISOLATE,
    RIGHT_TO_LEFT_MARK,
    Phrase,
    isolate,
    with_direction,
)
from services.presentation.locales.catalog import format_arguments

CONTROLS = dict.fromkeys(
    map(ord, FIRST_STRONG_ISOLATE + POP_DIRECTIONAL_ISOLATE + RIGHT_TO_LEFT_MARK)
)


def seen(text: str, base_dir: str | None = None) -> str:
    """What a reader sees, left to right on the screen, without the invisible controls."""
    if base_dir is None:
        return get_display(text).translate(CONTROLS)
    return get_display(text, base_dir=base_dir).translate(CONTROLS)


def test_isolate_wraps_in_first_strong_isolate() -> None:
    assert isolate("alice") == "\u2068alice\u2069"


def test_a_latin_name_keeps_its_punctuation_in_a_persian_message() -> None:
    template = "نوبت {player} است"
    message = format_arguments("fa", template, {"player": "Bob!"})
    assert "Bob!" in seen(message)
    assert "!Bob" in seen(template.format(player="Bob!"))  # without the isolate


def test_a_persian_message_starting_with_a_latin_name_stays_right_to_left() -> None:
    template = "{player} {card} رو بازی کرد"
    message = format_arguments("fa", template, {"player": "alice", "card": "🟥 +2"})
    # Right to left: alice, then her card, then the verb: on screen the verb comes first.
    assert seen(message) == "درک یزاب ور 🟥 +2 alice"
    assert seen(template.format(player="alice", card="🟥 +2")).startswith("alice")


def test_a_persian_name_before_a_number_in_an_english_message() -> None:
    template = "{player}: {n} cards"
    message = format_arguments("en", template, {"player": "علی", "n": 5})
    assert seen(message, "L") == "یلع: 5 cards"
    assert seen(template.format(player="علی", n=5), "L") == "5 :یلع cards"


def test_a_persian_line_of_names_and_numbers_only_is_laid_out_right_to_left() -> None:
    line = format_arguments("fa", "{a} {n} · {b} {m}", {"a": "alice", "n": 5, "b": "bob", "m": 1})
    assert seen(with_direction("fa", line)) == "۱ bob · ۵ alice"
    assert seen(line) == "alice ۵ · bob ۱"  # no strong letter outside isolates: left to right


def test_with_direction_marks_every_persian_line_once() -> None:
    text = "a\n\nb"
    marked = with_direction("fa", text)
    assert marked == f"{RIGHT_TO_LEFT_MARK}a\n\n{RIGHT_TO_LEFT_MARK}b"
    assert with_direction("fa", marked) == marked
    assert with_direction("en", text) == text
    assert with_direction("gu", text) == text


def test_a_phrase_is_not_isolated() -> None:
    message = format_arguments("fa", "{card}", {"card": Phrase("1+ زرد")})
    assert message == "1+ زرد"
    # Persian names of draw cards read as the card shows them: "+1" to the right.
    assert seen(with_direction("fa", message)) == "درز +1"


def test_a_name_with_an_unclosed_isolate_leaves_the_line_in_order() -> None:
    """A first name holding a right-to-left isolate it never closes (U+2067), an override
    or a stray pop: balanced before it is isolated, the line reads as it would without
    them, in a left-to-right message and in a right-to-left one (where an unclosed isolate
    took the rest of the line into the name's isolate)."""
    line = "{a} has 5 cards · {b} has 3"
    every_control = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
    for base in ("L", "R"):
        plain = seen(format_arguments("en", line, {"a": "علی", "b": "Bob"}), base)
        for name in ("\u2067علی", "علی\u2069\u2069", "\u202eعلی", "\u2066\u202bعلی\u2069"):
            shown = seen(format_arguments("en", line, {"a": name, "b": "Bob"}), base)
            assert shown.translate(every_control) == plain, (base, repr(name))
