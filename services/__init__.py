"""UNO for Telegram group chats: the rules engine, its service, the worker and the bot."""
