"""The local Telegram and the playground page."""
