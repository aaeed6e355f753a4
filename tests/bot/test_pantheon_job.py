"""The scheduled Pantheon import in the bot process: a JobQueue job that imports into the site's database."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
import sqlalchemy as sa
from sqlmodel import Session
from telegram.ext import Application

from services.core.config import Settings
from services.notifier.bot import PANTHEON_JOB, BotConfig, build_application, config_from_settings
from tests import factories
from tests.bot.conftest import bot_config
from tests.bot.fake_api import FakeBotApi
from tests.pantheon.fake_pantheon import FakePantheon
from tests.pantheon.test_sync import setup, standing, three_games

pytestmark = pytest.mark.asyncio


def _config(fake_api: FakeBotApi, minutes: float | None) -> BotConfig:
    return bot_config(fake_api, pantheon_sync_minutes=minutes)


@pytest.fixture
def pantheon() -> Iterator[FakePantheon]:
    fake = FakePantheon().start()
    yield fake
    fake.stop()


@pytest_asyncio.fixture
async def application(fake_api: FakeBotApi, engine: sa.Engine) -> AsyncIterator[Application]:
    app = build_application(_config(fake_api, 15), bind=engine)
    await app.initialize()
    yield app
    await app.shutdown()


async def test_the_scheduled_job_imports_new_games_into_the_sites_database(
    application: Application, session: Session, pantheon: FakePantheon
) -> None:
    league = factories.league(session, players=4)
    setup(session, league, pantheon)
    (job,) = application.job_queue.get_jobs_by_name(PANTHEON_JOB)
    assert job.job.trigger.interval.total_seconds() == 15 * 60

    pantheon.games = three_games()[:1]
    await job.run(application)  # the job queue would run it every 15 minutes
    assert len(standing(session, league.match.id)) == 1

    pantheon.games = three_games()  # two more hanchans finish before the next run
    await job.run(application)
    await job.run(application)  # nothing new: nothing changes
    hanchans = standing(session, league.match.id)
    assert [h.number for h in hanchans] == [1, 2, 3]


async def test_the_job_waits_quietly_until_pantheon_is_configured(
    application: Application, session: Session, pantheon: FakePantheon
) -> None:
    league = factories.league(session, players=4)
    (job,) = application.job_queue.get_jobs_by_name(PANTHEON_JOB)
    await job.run(application)  # no settings yet: skipped, no exception
    assert standing(session, league.match.id) == []
    assert pantheon.calls == []  # nothing to ask Pantheon before the organizer sets the event


async def test_no_job_unless_configured(fake_api: FakeBotApi, engine: sa.Engine) -> None:
    app = build_application(_config(fake_api, None), bind=engine)
    assert app.job_queue.get_jobs_by_name(PANTHEON_JOB) == ()
    env = {"TELEGRAM_BOT_TOKEN": "1:x", "TELEGRAM_CHAT_ID": "-100", "PANTHEON_SYNC_MINUTES": "5"}
    assert config_from_settings(Settings.from_env(env)).pantheon_sync_minutes == 5
    del env["PANTHEON_SYNC_MINUTES"]
    assert config_from_settings(Settings.from_env(env)).pantheon_sync_minutes is None
