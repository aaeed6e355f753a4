"""The organizer's desk and the overview on SQLite and PostgreSQL: what is listed, that its action settles it, that the
reads do not grow with the number of matches, and the rules the organizer's actions enforce (Регламент §3, §6.1)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date, timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from services.core.db import session_scope
from services.core.models import AuditRecord, Booking, MatchStatus, OutboxEvent
from services.notifier.cards import fallback_warned_text
from services.playoff.hanchan_entry import enter_hanchan
from services.results.entry import Entry
from services.results.hanchans import dispute_hanchan, resolve_dispute
from services.results.scoring import TableResult
from services.scheduling import availability
from services.scheduling import organizer as scheduling_admin
from services.scheduling.board import state_of
from services.scheduling.booking import FALLBACK_WARNING
from services.scheduling.intervals import Interval, at_kirov
from services.scheduling.repo import SchedulingError, answered_ids, match_info
from services.scheduling.rules import LAST_TOUR
from services.scheduling.view import overview
from services.views.desk import build_desk
from tests import factories as f
from tests.db.statements import statements
from tests.factories import NOW, PLAYED, kirov


def act(db: sa.Engine, fn: Callable, **kwargs):  # noqa: ANN201
    with session_scope(db) as session:
        return fn(session, **kwargs)


def paint(db: sa.Engine, league: f.League, who: int, *spans: Interval, match_id: int | None = None) -> None:
    act(
        db,
        availability.save_availability,
        match_id=match_id or league.match.id,
        user_id=league.users[who].id,
        intervals=list(spans),
        now=NOW,
    )


def desk_keys(db: sa.Engine, now) -> dict[str, str]:  # noqa: ANN001
    with Session(db, expire_on_commit=False) as session:
        return {item.key: item.group for item in build_desk(session, now=now).items}


def four_apart(db: sa.Engine, league: f.League) -> None:
    """All four answered, never at the same time: no common option (Регламент §3)."""
    for n in range(4):
        paint(db, league, n, Interval(kirov(17 + n, 18), kirov(17 + n, 22)))


def entry(league: f.League, points: list[int]) -> Entry:
    return Entry(tuple(TableResult(p.id, pts) for p, pts in zip(league.players[:4], points, strict=True)), 0)


def test_no_common_time_is_listed_and_the_fallback_settles_it(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        # A window of its own: on PostgreSQL other tests' matches hold the rooms on the default window's fallback.
        league = f.league(session, windows=[f.window(date(2027, 3, 1)), f.window(date(2027, 3, 15))])
    match_id = league.match.id
    assert f"nct-{match_id}" not in desk_keys(db, NOW)
    for n in range(4):  # all four answered, never at the same time
        day = date(2027, 3, 2 + n)
        paint(db, league, n, Interval(at_kirov(day, 18), at_kirov(day, 22)))
    with Session(db, expire_on_commit=False) as session:
        [item] = [i for i in build_desk(session, now=NOW).items if i.key == f"nct-{match_id}"]
    assert (item.group, item.action, item.target) == ("no_common_time", "fallback", str(match_id))
    assert "Запасная дата (§6.1): вс 14.03.2027 18:00" in item.detail
    act(db, scheduling_admin.apply_fallback, match_id=match_id, actor_user_id=league.organizer.id, now=NOW)
    assert f"nct-{match_id}" not in desk_keys(db, NOW)


def test_a_window_ending_soon_names_who_has_not_answered(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session)
    paint(db, league, 0, Interval(kirov(27, 18), kirov(27, 22)))
    soon = kirov(25, 12)  # the window ends on 30.11 00:00: within 7 days
    with Session(db, expire_on_commit=False) as session:
        [item] = [i for i in build_desk(session, now=soon).items if i.group == "soon"]
    names = [u.display_name for u in league.users[1:4]]
    assert item.detail.count("Не ответили: " + ", ".join(names)) == 1
    assert league.users[0].display_name not in item.detail
    assert item.action == "fallback"
    # Later than the fallback slot, the fallback is no longer offered; after the window, the match is overdue.
    with Session(db, expire_on_commit=False) as session:
        [late] = [i for i in build_desk(session, now=kirov(29, 20)).items if i.group == "soon"]
        assert late.action == ""
    assert desk_keys(db, kirov(30, 12)) == {f"over-{league.match.id}": "over"}


def test_an_overdue_match_is_settled_by_moving_it_to_the_next_tour(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session)
    after = kirov(30, 12)
    assert f"over-{league.match.id}" in desk_keys(db, after)
    with pytest.raises(SchedulingError, match="уже прошла"):
        act(db, scheduling_admin.apply_fallback, match_id=league.match.id, actor_user_id=league.organizer.id, now=after)
    act(db, scheduling_admin.move_to_next_window, match_id=league.match.id, actor_user_id=league.organizer.id,
        reason="болезнь", now=NOW)  # fmt: skip
    assert f"over-{league.match.id}" not in desk_keys(db, after)


def test_the_last_tours_match_is_told_there_is_no_next_tour(db: sa.Engine) -> None:
    """Регламент §2: four tours; a phone walk moving a tour-4 match was told «сначала задайте его» (the next
    tour's window), though no tour 5 exists. The service says there is nowhere to move it and what to do."""
    starts = [date(2026, 11, 16) + timedelta(days=14 * k) for k in range(4)]
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=8, windows=[f.window(start) for start in starts])
        last = f.match(session, league.rounds[3], league.players[4:8], table="1")
        session.commit()
    after = at_kirov(starts[3] + timedelta(days=15), 12)
    with pytest.raises(SchedulingError) as refused:
        act(db, scheduling_admin.move_to_next_window, match_id=last.id, actor_user_id=league.organizer.id,
            reason="болезнь", now=after)  # fmt: skip
    assert str(refused.value) == LAST_TOUR


def test_a_dispute_is_listed_until_the_organizer_decides(db: sa.Engine) -> None:
    with session_scope(db) as session:
        league = f.league(session)
        f.begun_meeting(session, league.match.id, f.MET)
        hanchan = enter_hanchan(
            session, league.users[0], league.match.id, entry(league, [40000, 30000, 30000, 20000]), now=PLAYED
        )
        dispute_hanchan(session, league.users[1], hanchan.id, "очки второго и третьего перепутаны", now=PLAYED)
        hanchan_id = hanchan.id
    with Session(db, expire_on_commit=False) as session:
        [item] = [i for i in build_desk(session, now=NOW).items if i.group == "disputes"]
    assert item.title == "Тур 1, стол 1, ханчан 1" and "перепутаны" in item.detail
    with session_scope(db) as session:
        resolve_dispute(session, league.organizer, hanchan_id, "проверено по Pantheon", now=PLAYED)
    assert [g for g in desk_keys(db, NOW).values() if g == "disputes"] == []


def test_roster_not_a_multiple_of_four_is_a_warning(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        f.league(session, players=5)
    assert desk_keys(db, NOW).get("roster-four") == "roster"


def test_a_played_match_is_never_moved(db: sa.Engine) -> None:
    with session_scope(db) as session:
        league = f.league(session, players=4)
    org = league.organizer.id
    booked = act(db, scheduling_admin.assign_meeting, match_id=league.match.id, start=kirov(20, 18), hanchans=3,
                 room_id=league.room.id, actor_user_id=org, now=NOW)  # fmt: skip
    with session_scope(db) as session:  # at the meeting
        enter_hanchan(
            session, league.users[0], league.match.id, entry(league, [40000, 30000, 30000, 20000]), now=kirov(20, 19)
        )
    with pytest.raises(SchedulingError, match="уже сыграны"):
        act(
            db,
            scheduling_admin.move_to_next_window,
            match_id=league.match.id,
            actor_user_id=org,
            reason="болезнь",
            now=NOW,
        )
    with pytest.raises(SchedulingError, match="уже сыграны"):
        act(db, scheduling_admin.move_booking, booking_id=booked.id, start=kirov(21, 18), end=kirov(21, 22, 30),
            actor_user_id=org, now=NOW)  # fmt: skip
    with Session(db, expire_on_commit=False) as session:
        info = match_info(session, league.match.id)
        assert info.window_round.code == "1"
        [row] = [r for r in overview(session, now=NOW) if r["id"] == str(league.match.id)]
        assert (row["booking"], row["state"], row["can_move"], row["can_next_window"]) == (
            "пт 20.11.2026 18:00", "Играется", "", "",
        )  # fmt: skip


def test_the_past_and_a_booked_match_are_refused_with_what_to_do(db: sa.Engine) -> None:
    with session_scope(db) as session:
        league = f.league(session)
    org = league.organizer.id
    with pytest.raises(SchedulingError, match="прошедшее время"):
        act(db, scheduling_admin.assign_meeting, match_id=league.match.id, start=kirov(20, 18), hanchans=3,
                 room_id=league.room.id, actor_user_id=org, now=kirov(21, 0))  # fmt: skip
    act(db, scheduling_admin.assign_meeting, match_id=league.match.id, start=kirov(20, 18), hanchans=3,
                 room_id=league.room.id, actor_user_id=org, now=NOW)  # fmt: skip
    with pytest.raises(SchedulingError, match="Все ханчаны матча уже забронированы: чтобы сменить время"):
        act(db, scheduling_admin.assign_meeting, match_id=league.match.id, start=kirov(21, 18), hanchans=3,
                 room_id=league.room.id, actor_user_id=org, now=NOW)  # fmt: skip
    with Session(db, expire_on_commit=False) as session:
        [row] = [r for r in overview(session, now=NOW) if r["id"] == str(league.match.id)]
    assert (row["can_fallback"], row["can_assign"], row["can_move"], row["fallback"]) == ("", "", "1", "—")


def test_overview_reads_do_not_grow_with_the_matches_and_agree_with_one_by_one(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=16)
        for table in range(2, 5):
            f.match(session, league.rounds[0], league.players[4 * (table - 1) : 4 * table], table=str(table))
        session.commit()
    four_apart(db, league)
    paint(db, league, 4, Interval(kirov(20, 18), kirov(20, 23)), match_id=league.match.id + 1)
    with Session(db, expire_on_commit=False) as session, statements(db) as few:
        rows = overview(session, now=NOW)
        build_desk(session, now=NOW)
    rows = [r for r in rows if int(r["id"]) in range(league.match.id, league.match.id + 4)]
    with session_scope(db) as session:
        for table in range(5, 21):
            f.match(session, league.rounds[1], league.players[(table % 4) * 4 : (table % 4) * 4 + 4], table=str(table))
    with Session(db, expire_on_commit=False) as session, statements(db) as many:
        overview(session, now=NOW)
        build_desk(session, now=NOW)
    assert len(many) == len(few) < 40  # about a dozen for the overview, two dozen for the desk
    with Session(db, expire_on_commit=False) as session:
        one_by_one = [state_of(session, int(r["id"]), now=NOW) for r in rows]
    labels = {"no_common_time": "Нет общего времени", "waiting": "Ждём ответов", "nobody_answered": "Никто не ответил"}
    assert [r["state"] for r in rows] == [labels[s] for s in one_by_one]
    assert one_by_one[:2] == ["no_common_time", "waiting"]


def test_a_completed_match_is_not_on_the_desk(db: sa.Engine) -> None:
    with session_scope(db) as session:
        league = f.league(session)
        league.match.status = MatchStatus.COMPLETE
        session.add(session.merge(league.match))
    assert desk_keys(db, kirov(30, 12)) == {}


def test_a_window_that_is_over_is_read_only_for_players(db: sa.Engine) -> None:
    from services.scheduling.view import match_page

    with Session(db, expire_on_commit=False) as session:
        league = f.league(session)
    after = kirov(30, 12)
    with pytest.raises(SchedulingError, match="Игровое окно закончилось"):
        act(db, availability.save_availability, match_id=league.match.id, user_id=league.users[0].id,
            intervals=[Interval(kirov(27, 18), kirov(27, 22))], now=after)  # fmt: skip
    with Session(db, expire_on_commit=False) as session:
        page = match_page(session, match_id=league.match.id, user=league.users[0], now=after)
        assert page.window_over and "окно закончилось" in page.window
        assert not match_page(session, match_id=league.match.id, user=league.users[0], now=NOW).window_over
        assert answered_ids(session, league.match.id) == set()


def test_cannot_come_on_the_binding_fallback_keeps_it_and_tells_the_organizer(db: sa.Engine) -> None:
    """Регламент §6.1 «Это время обязательно для участников», §5 «без предупреждения»: a player's «Не смогу» on the
    organizer's fallback does not release it; the warning is recorded once however often it is pressed, the
    organizers get a message and the desk an item whose actions settle it (the organizer decides, §6.3)."""
    with Session(db, expire_on_commit=False) as session:  # a window of its own (other tests' fallbacks on PostgreSQL)
        league = f.league(session, windows=[f.window(date(2027, 5, 3)), f.window(date(2027, 5, 17))])
    match_id, org, who = league.match.id, league.organizer.id, league.users[2]
    paint(db, league, 2, Interval(at_kirov(date(2027, 5, 16), 17), at_kirov(date(2027, 5, 16), 23)))
    fallback = act(db, scheduling_admin.apply_fallback, match_id=match_id, actor_user_id=org, now=NOW)
    assert fallback.start_at == at_kirov(date(2027, 5, 16), 18)
    for take_time_out in (True, False):  # the page's press, then the chat's: one warning
        kept = act(db, availability.cannot_come, booking_id=fallback.id, user_id=who.id, now=NOW,
                   take_time_out=take_time_out)  # fmt: skip
        assert kept.active
    with Session(db, expire_on_commit=False) as session:
        assert session.get_one(Booking, fallback.id).active
        assert state_of(session, match_id, now=NOW) == "booked"
        own = availability.own_availability(session, match_id=match_id, user_id=who.id)
        assert own == [Interval(at_kirov(date(2027, 5, 16), 17), at_kirov(date(2027, 5, 16), 23))]  # time kept
        warned = session.exec(select(OutboxEvent).where(OutboxEvent.kind == "fallback_warned",
                                                        OutboxEvent.once_key.startswith(f"fallback-warned:{fallback.id}:")))  # type: ignore[union-attr]  # fmt: skip
        [event] = warned.all()
        assert not session.exec(
            select(OutboxEvent).where(OutboxEvent.match_id == match_id, OutboxEvent.kind == "meeting_released")
        ).all()
        notes = session.exec(
            select(AuditRecord).where(AuditRecord.action == FALLBACK_WARNING, AuditRecord.entity_id == fallback.id)
        ).all()
        [item] = [i for i in build_desk(session, now=NOW).items if i.group == "warnings"]
    assert len(notes) == 1
    text = fallback_warned_text(json.loads(event.payload or "{}"))
    assert f"{who.display_name} предупредил: не сможет прийти на запасную дату" in text
    assert "вс 16.05.2027 18:00" in text
    assert item.detail.startswith(
        f"{who.display_name} предупредил: не сможет прийти на запасную дату матча вс 16.05.2027 18:00 — решите: "
        "перенести матч, посадить замену или оставить время"
    )
    assert (item.action, item.target, item.link_label) == ("next_window", str(match_id), "Посадить замену")
    assert item.key in desk_keys(db, NOW) and item.key not in desk_keys(db, fallback.start_at)  # kept: it begins
    act(db, scheduling_admin.move_to_next_window, match_id=match_id, actor_user_id=org, reason="болезнь", now=NOW)
    assert item.key not in desk_keys(db, NOW)


def test_cannot_come_on_an_organizer_meeting_before_the_fallback_sunday_releases_it(db: sa.Engine) -> None:
    """Only the §6.1 fallback binds: a meeting the organizer assigned on another day is released as the four's."""
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, windows=[f.window(date(2027, 6, 7)), f.window(date(2027, 6, 21))])
    row = act(db, scheduling_admin.assign_meeting, match_id=league.match.id, start=at_kirov(date(2027, 6, 12), 18),
              hanchans=3, actor_user_id=league.organizer.id, now=NOW)  # fmt: skip
    assert not act(db, availability.cannot_come, booking_id=row.id, user_id=league.users[1].id, now=NOW).active
