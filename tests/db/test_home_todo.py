"""The home page's to-do list: each match's state in words and whose move it is, through a match's whole week."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Session

from services.core.db import session_scope
from services.core.models import RosterStatus
from services.league import roster
from services.playoff.hanchan_entry import enter_hanchan
from services.results.entry import Entry
from services.results.scoring import TableResult
from services.scheduling import availability, booking
from services.scheduling import organizer as scheduling_admin
from services.scheduling.intervals import Interval
from services.views.todo import WITHDRAWN_ACTION, HomeCard, home_cards
from tests import factories as f
from tests.factories import NOW, kirov

AT_MEETING = kirov(20, 19)  # the booked meeting of 20.11 18:00 is on: its results open (Регламент §6.2)


def card(engine: sa.Engine, league: f.League, n: int, now: datetime = NOW) -> HomeCard:
    with session_scope(engine) as session:
        [only] = home_cards(session, session.merge(league.users[n]), now)
        return only


def test_the_card_says_whose_move_it_is_through_the_week(engine: sa.Engine) -> None:
    with Session(engine, expire_on_commit=False) as session:
        league = f.league(session)
    names = [u.display_name for u in league.users]
    first = card(engine, league, 0)
    assert (first.state, first.action, first.mine) == ("согласование времени", "отметьте свою доступность", True)
    assert first.when == "игровое окно пн 16.11 — вс 29.11 включительно" and not first.past

    def paint(n: int) -> None:
        with session_scope(engine) as session:
            availability.save_availability(
                session,
                match_id=league.match.id,
                user_id=league.users[n].id,
                intervals=[Interval(kirov(20, 17), kirov(20, 23))],
                now=NOW,
            )

    paint(0)
    waiting = card(engine, league, 0)
    assert (waiting.action, waiting.mine) == (f"ждём ответа: {', '.join(names[1:])}", False)
    for n in (1, 2, 3):
        paint(n)
    assert card(engine, league, 2).action == "предложите время из общих вариантов"
    with session_scope(engine) as session:
        proposal = booking.propose_meeting(
            session,
            match_id=league.match.id,
            user_id=league.users[1].id,
            start=kirov(20, 18),
            end=kirov(20, 22, 30),
            hanchans=3,
            now=NOW,
        ).id
    assert card(engine, league, 1).action == f"ждём подтверждения: {names[0]}, {names[2]}, {names[3]}"
    mine = card(engine, league, 0)
    assert mine.mine and mine.action == "подтвердите время пт 20.11.2026 18:00, 3 ханчана"
    for n in (0, 2, 3):
        with session_scope(engine) as session:
            booking.answer_meeting(session, confirmed=True, proposal_id=proposal, user_id=league.users[n].id, now=NOW)
    booked = card(engine, league, 3)
    assert (booked.state, booked.mine, booked.booked) == ("забронировано", False, True)
    assert booked.when == f"пт 20.11.2026 18:00, {league.room.name} (Киров)"
    with session_scope(engine) as session:
        results = tuple(
            TableResult(p.id, pts, 0) for p, pts in zip(league.players, [40000, 30000, 30000, 20000], strict=True)
        )
        enter_hanchan(session, session.merge(league.users[0]), league.match.id, Entry(results, 0), now=AT_MEETING)
    playing = card(engine, league, 2, kirov(20, 19, 40))  # the meeting is on: its first hanchan is in
    assert (playing.state, playing.action, playing.mine) == (
        "играется: внесено 1 из 3",
        "внесите результат ханчана 2",
        True,
    )
    for _ in range(2):
        with session_scope(engine) as session:
            enter_hanchan(session, session.merge(league.users[0]), league.match.id, Entry(results, 0), now=AT_MEETING)
    done = card(engine, league, 0)
    assert done.state == "сыгран" and done.action.startswith("мой итог +") and done.past


def test_a_window_that_is_over_and_a_match_booked_in_part_say_so(engine: sa.Engine) -> None:
    with Session(engine, expire_on_commit=False) as session:
        league = f.league(session)
    over = card(engine, league, 0, kirov(30, 12))  # the window ended on 30.11 00:00; nobody answered
    assert (over.state, over.mine) == ("игровое окно закончилось", False)
    assert over.action == "ждите решения организатора: запасная дата или перенос"
    with session_scope(engine) as session:
        scheduling_admin.assign_meeting(session, match_id=league.match.id, start=kirov(20, 18), hanchans=2,
                                        actor_user_id=league.organizer.id, now=NOW)  # fmt: skip
    part = card(engine, league, 0)
    assert part.state == "забронировано 2 ханчана из 3; осталось: согласование времени"
    assert (part.action, part.mine, part.booked) == ("отметьте свою доступность", True, True)
    assert part.when == f"пт 20.11.2026 18:00, {league.room.name} (Киров)"


def test_a_withdrawn_player_is_not_asked_to_act(engine: sa.Engine) -> None:
    """Issue 45 item 3: «Ваш ход: отметьте свою доступность» stood below «Вы сняты с сезона»."""
    with session_scope(engine) as session:
        league = f.league(session)
    assert card(engine, league, 1).mine
    with session_scope(engine) as session:
        player = session.merge(league.players[1])
        roster.set_status(session, player, RosterStatus.WITHDRAWN, reason="переехал", actor_user_id=None, now=NOW)
    withdrawn = card(engine, league, 1)
    assert not withdrawn.mine and withdrawn.action == WITHDRAWN_ACTION
    assert card(engine, league, 0).mine  # the others still are
