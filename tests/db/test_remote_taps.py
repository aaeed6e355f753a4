"""Issue 44: a button tapped twice at the same instant (two updates handled at once) books once and answers both as
the first; two deliveries making one person's button at once make one token — on SQLite and a fresh PostgreSQL
database each, with threads."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, select

from services.core import outbox as kinds
from services.core.models import Booking, OutboxEvent, TelegramButton
from services.notifier import remote
from services.scheduling import booking
from tests.bot.league import answer, kirov, link, make_league, propose

NOW = kirov(8, 12)
TRIES = 4


def _at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    barrier, results = threading.Barrier(len(calls)), [None] * len(calls)

    def run(index: int) -> None:
        barrier.wait()
        results[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def test_a_double_tap_at_the_same_instant_books_once_and_answers_both_alike(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        (league,) = make_league(session)
        for index in range(4):
            answer(session, league, index, (kirov(14, 13), kirov(14, 20)))
        link(session, league, 3, 7304, None, private=True)
        proposal_id = propose(session, league, kirov(14, 13))
        for index in (1, 2):
            booking.answer_meeting(
                session, proposal_id=proposal_id, user_id=league.user_ids[index], confirmed=True, now=NOW
            )
        token = remote.token_for(
            session, user_id=league.user_ids[3], match_id=league.match_id, kind=remote.CONFIRM,
            subject_id=proposal_id, now=NOW,
        )  # fmt: skip
        session.commit()
    tap = lambda: remote.press(db, token, telegram_user_id=7304, now=NOW, message_id=41).answer  # noqa: E731
    first, second = _at_once([tap, tap])
    assert first == second == "Все четверо подтвердили: помещение забронировано."
    with Session(db) as session:
        assert len(session.exec(select(Booking).where(Booking.match_id == league.match_id)).all()) == 1
        assert len(session.exec(select(OutboxEvent).where(OutboxEvent.kind == kinds.BOOKED)).all()) == 1


def test_one_persons_button_made_by_two_deliveries_at_once_is_one_token(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        (league,) = make_league(session)
    for attempt in range(TRIES):

        def make(attempt: int = attempt) -> str:
            with Session(db) as session:
                token = remote.token_for(
                    session, user_id=league.user_ids[0], match_id=league.match_id, kind=remote.OPEN,
                    subject_id=league.match_id, now=NOW, detail=str(attempt),
                )  # fmt: skip
                session.commit()
                return token

        one, other = _at_once([make, make])
        assert one == other
    with Session(db) as session:
        assert len(session.exec(select(TelegramButton)).all()) == TRIES
