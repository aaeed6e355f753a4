"""Bot test fixtures: the fake Bot API, the real python-telegram-bot Bot, and a guard against outside network."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Iterator
from datetime import time
from typing import Any

import pytest
import pytest_asyncio
import sqlalchemy as sa
from telegram import Bot
from telegram.ext import Application

from services.notifier.bot import BotConfig, build_application
from services.notifier.outbox import Target
from services.scheduling.intervals import KIROV
from tests.bot.fake_api import TOKEN, FakeBotApi, start_fake_api

CHAT, SCHEDULE, ANNOUNCEMENTS = -1009876, 11, 13
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


class OutsideNetwork:
    """Every connection or name lookup not aimed at the loopback fake is refused and remembered."""

    def __init__(self) -> None:
        self.attempts: list[str] = []


@pytest.fixture(autouse=True)
def outside_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[OutsideNetwork]:
    guard = OutsideNetwork()
    real_connect, real_connect_ex, real_getaddrinfo = (
        socket.socket.connect,
        socket.socket.connect_ex,
        socket.getaddrinfo,
    )

    def _check(address: object) -> None:
        if isinstance(address, tuple) and address[0] not in LOCAL_HOSTS:
            guard.attempts.append(str(address[0]))
            raise OSError(f"test guard: connection to {address[0]} refused, only 127.0.0.1 is allowed")

    def connect(self: socket.socket, address: object) -> None:
        _check(address)
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: object) -> int:
        _check(address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: object, *args: object, **kwargs: object) -> object:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if host is not None and name not in LOCAL_HOSTS:
            guard.attempts.append(name)
            raise socket.gaierror(f"test guard: lookup of {host} refused")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield guard
    assert guard.attempts == [], f"a bot test tried to reach a host other than the fake: {guard.attempts}"


@pytest.fixture
def fake_api() -> Iterator[FakeBotApi]:
    api, server = start_fake_api()
    yield api
    server.shutdown()
    server.server_close()


@pytest_asyncio.fixture
async def bot(fake_api: FakeBotApi) -> AsyncIterator[Bot]:
    bot = Bot(TOKEN, base_url=fake_api.base_url)
    await bot.initialize()  # calls getMe on the fake
    yield bot
    await bot.shutdown()


def bot_config(fake_api: FakeBotApi, **overrides: Any) -> BotConfig:
    """The bot pointed at the fake, posting to CHAT's «Время сбора» (SCHEDULE) and announcements topics."""
    options: dict[str, Any] = {
        "token": TOKEN,
        "api_url": fake_api.base_url,
        "target": Target(CHAT, SCHEDULE, ANNOUNCEMENTS),
        "reminder_time": time(19, 0, tzinfo=KIROV),
    }
    return BotConfig(**{**options, **overrides})


@pytest_asyncio.fixture
async def application(fake_api: FakeBotApi, engine: sa.Engine) -> AsyncIterator[Application]:
    """The real bot application on the test's database, talking to the fake; a module may define its own."""
    app = build_application(bot_config(fake_api), bind=engine, gateway_options={"backoff": 0.01, "attempts": 2})
    await app.initialize()
    yield app
    await app.shutdown()
