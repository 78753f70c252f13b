"""The Mini App: the live table and the player's hand as a web page inside Telegram
(README.md)."""
