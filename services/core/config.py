"""Settings read once from the environment; imports nothing from the app."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo

from services.core.ruleset import CLUB_ZONE

ROOT = Path(__file__).resolve().parents[2]


def _default_database_url() -> str:
    return f"sqlite:///{ROOT / 'data' / 'discard.db'}"


def _int_or_none(value: str | None) -> int | None:
    return int(value) if value else None


@dataclass(frozen=True)
class Settings:
    """What the deployment decides; secrets come only from the environment."""

    database_url: str = field(default_factory=_default_database_url)
    port: int = 3000
    session_days: int = 30
    bot_token: str | None = field(default=None, repr=False)
    bot_api_url: str | None = None
    chat_id: int | None = None
    schedule_thread_id: int | None = None
    announcements_thread_id: int | None = None
    reminder_time: str = "19:00"
    bot_username: str | None = None  # for the profile page's deep link t.me/<username>?start=CODE
    pantheon_sync_minutes: float | None = None  # the bot process imports from Pantheon this often when set
    claim_seconds: float = 120.0  # how long a bot process's claim on outbox events holds (renewed per message)
    public_url: str | None = None  # the address players open (PUBLIC_URL); https:// behind a TLS proxy
    redis_url: str | None = None  # REFLEX_REDIS_URL: several workers share the tabs' state and the login limits

    @property
    def tz(self) -> ZoneInfo:
        """The club's time zone (Регламент §6.1): not a deployment's choice, defined once in the ruleset module."""
        return CLUB_ZONE

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        return cls(
            database_url=env.get("DATABASE_URL") or _default_database_url(),
            port=int(env.get("PORT") or 3000),
            session_days=int(env.get("DISCARD_SESSION_DAYS") or 30),
            bot_token=env.get("TELEGRAM_BOT_TOKEN") or None,
            bot_api_url=env.get("TELEGRAM_API_URL") or None,
            chat_id=_int_or_none(env.get("TELEGRAM_CHAT_ID")),
            schedule_thread_id=_int_or_none(env.get("TELEGRAM_SCHEDULE_THREAD_ID")),
            announcements_thread_id=_int_or_none(env.get("TELEGRAM_ANNOUNCEMENTS_THREAD_ID")),
            reminder_time=env.get("TELEGRAM_REMINDER_TIME") or "19:00",
            bot_username=(env.get("TELEGRAM_BOT_USERNAME") or "").lstrip("@") or None,
            pantheon_sync_minutes=float(env["PANTHEON_SYNC_MINUTES"]) if env.get("PANTHEON_SYNC_MINUTES") else None,
            claim_seconds=float(env.get("TELEGRAM_CLAIM_SECONDS") or 120),
            public_url=env.get("PUBLIC_URL") or None,
            redis_url=env.get("REFLEX_REDIS_URL") or None,
        )


settings = Settings.from_env()
