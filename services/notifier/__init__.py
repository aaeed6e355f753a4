"""The Telegram notifier: outbox reader, message texts, Telegram adapter and the bot process.

Only `telegram.py` and `bot.py` import the `telegram` library; the rest is importable by the site.
"""
