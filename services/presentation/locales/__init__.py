"""The bot's languages: English (the source), Persian and Gujarati.

- ``catalog`` — the gettext catalogs (Babel): pick a language, translate a message with its
  arguments isolated for right-to-left text and numbers in the language's digits.
- ``bidi`` — Unicode isolates around names and codes, paragraph direction marks.
- ``numerals`` — numbers and clocks in a language's digits and separators (Babel, CLDR).
- ``glossary`` — card, colour, variant and house-rule names, taken from the rule sheets.
- ``rules_text`` — the ``/rules <variant>`` texts, one file per language and variant.

Catalogs live in ``<language>/LC_MESSAGES/bot.po``; their compiled ``.mo`` files are
built by ``make catalogs`` (part of ``make setup``) and never committed.
"""
