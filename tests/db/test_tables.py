"""Tables in the club's room (issue 27, items 1, 6 and the fallback's seating): the database refuses two bookings
at one table and a table the room lacks; meetings take the lowest free table; options, assignments and the §6.1
fallback count tables; an open proposal holds its table; the race for the last table has one winner.

Each test gets a database of its own (a fresh PostgreSQL one too): tables are counted over the whole club, so other
tests' rooms must not be there."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from services.core.db import session_scope
from services.core.models import AuditRecord, Booking, MeetingProposal, Room, Season, User
from services.core.ruleset import DEFAULT, of_season
from services.league import season_rules
from services.scheduling import availability, booking
from services.scheduling import organizer as scheduling_admin
from services.scheduling.board import load_board, options_for
from services.scheduling.fallback_plan import fallback_place
from services.scheduling.holds import hold_text
from services.scheduling.intervals import Interval
from services.scheduling.repo import SchedulingError
from tests import factories as f
from tests.db.race import engine_for, race
from tests.factories import NOW, kirov

SUNDAY = kirov(29, 18)  # the default window's last Sunday, 18:00 Kirov (Регламент §6.1)


def act(db: sa.Engine, fn: Callable, **kwargs):  # noqa: ANN201
    with session_scope(db) as session:
        return fn(session, **kwargs)


def club(db: sa.Engine, *, matches: int, tables: int, hold_hours: int = 48) -> tuple[f.League, list[int]]:
    """One room of `tables` tables and `matches` matches of tour 1 with four players each."""
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=4 * matches)
        ids = [league.match.id]
        for k in range(1, matches):
            ids.append(f.match(session, league.rounds[0], league.players[4 * k : 4 * k + 4], table=str(k + 1)).id)
        if hold_hours != DEFAULT.proposal_hold_hours:  # set as the organizer sets it, before any result
            season_rules.apply_rules(session, league.season, {"proposal_hold_hours": str(hold_hours)}, reason="",
                                     actor=league.organizer, now=NOW)  # fmt: skip
        session.commit()
    act(db, scheduling_admin.set_room_tables, room_id=league.room.id, tables=tables,
        actor_user_id=league.organizer.id, now=NOW)  # fmt: skip
    return league, ids


def paint(db: sa.Engine, league: f.League, match_index: int, match_id: int, *spans: Interval) -> None:
    for n in range(4):
        act(db, availability.save_availability, match_id=match_id, user_id=league.users[4 * match_index + n].id,
            intervals=list(spans), now=NOW)  # fmt: skip


def assign(db: sa.Engine, league: f.League, match_id: int, start=SUNDAY, **kw) -> Booking:  # noqa: ANN001, ANN003
    return act(db, scheduling_admin.assign_meeting, match_id=match_id, start=start, hanchans=3,
               actor_user_id=league.organizer.id, now=NOW, **kw)  # fmt: skip


def bookings(db: sa.Engine, room_id: int) -> list[Booking]:
    with Session(db, expire_on_commit=False) as session:
        stmt = select(Booking).where(Booking.room_id == room_id, Booking.active).order_by(Booking.table_no)
        return list(session.exec(stmt).all())


def _row(room_id: int, table_no: int, start_hour: int, hours: int = 3, **extra) -> Booking:  # noqa: ANN003
    start = kirov(22, start_hour)
    return Booking(room_id=room_id, table_no=table_no, kind="activity", title="D&D", start_at=start,
                   end_at=start + timedelta(hours=hours), **extra)  # fmt: skip


def test_the_database_refuses_two_bookings_at_one_table_and_a_table_the_room_lacks(db: sa.Engine) -> None:
    with Session(db) as session:
        room = Room(name="Клуб", tables=2)
        session.add(room)
        session.commit()
        session.add_all([_row(room.id, 1, 18), _row(room.id, 2, 18)])  # two tables at once: fine
        session.commit()
        session.add(_row(room.id, 1, 20))  # table 1 already holds 18:00–21:00
        with pytest.raises(sa.exc.IntegrityError):
            session.commit()
        session.rollback()
        session.add(_row(room.id, 3, 12))  # the room has two tables
        with pytest.raises((sa.exc.IntegrityError, sa.exc.InternalError)):
            session.commit()
        session.rollback()
        released = _row(room.id, 2, 10, active=False)
        session.add(released)
        session.commit()
        released.table_no = 1
        released.start_at = kirov(22, 19)
        released.end_at = kirov(22, 20)
        released.active = True  # moved onto a taken table
        with pytest.raises(sa.exc.IntegrityError):
            session.commit()
        session.rollback()
        room.tables = 0
        session.add(room)
        with pytest.raises((sa.exc.IntegrityError, sa.exc.InternalError)):
            session.commit()


def test_matches_take_the_lowest_free_table_and_the_fifth_is_refused(db: sa.Engine) -> None:
    league, ids = club(db, matches=5, tables=4)
    taken = [assign(db, league, m).table_no for m in ids[:4]]
    assert taken == [1, 2, 3, 4]
    with pytest.raises(SchedulingError, match="Помещение занято"):
        assign(db, league, ids[4])
    act(db, scheduling_admin.cancel_booking, booking_id=bookings(db, league.room.id)[1].id,
        actor_user_id=league.organizer.id, reason="болезнь", now=NOW)  # fmt: skip
    assert assign(db, league, ids[4]).table_no == 2  # the freed table is the lowest free one


def test_options_count_tables(db: sa.Engine) -> None:
    """A time is offered while one table is free at it, and not once every table is taken."""
    league, ids = club(db, matches=3, tables=2)
    evening = Interval(kirov(20, 18), kirov(20, 23))
    paint(db, league, 2, ids[2], evening)
    with Session(db) as session:
        assert [(o.start, o.end) for o in options_for(session, ids[2], now=NOW)] == [(evening.start, evening.end)]
    assign(db, league, ids[0], start=kirov(20, 18))
    with Session(db) as session:
        [option] = options_for(session, ids[2], now=NOW)
        assert (option.start, option.end, option.rooms) == (evening.start, evening.end, ((league.room.id, 2),))
    assign(db, league, ids[1], start=kirov(20, 18))
    with Session(db) as session:
        assert options_for(session, ids[2], now=NOW) == []  # both tables 18:00–22:30: half an hour is left
        assert load_board(session, now=NOW).item(ids[2]).remaining == 3


def test_a_whole_room_activity_takes_every_table_and_k_tables_take_the_lowest_free(db: sa.Engine) -> None:
    league, ids = club(db, matches=1, tables=3)
    org = league.organizer.id
    act(db, scheduling_admin.book_activity, title="D&D", start=kirov(20, 18), end=kirov(20, 23),
        actor_user_id=org, now=NOW, room_id=league.room.id)  # fmt: skip
    assert [b.table_no for b in bookings(db, league.room.id)] == [1, 2, 3]
    with pytest.raises(SchedulingError, match="Помещение занято"):
        assign(db, league, ids[0], start=kirov(20, 18))
    assign(db, league, ids[0], start=kirov(21, 18))
    act(db, scheduling_admin.book_activity, title="Го", start=kirov(21, 18), end=kirov(21, 22),
        actor_user_id=org, now=NOW, room_id=league.room.id, tables=2)  # fmt: skip
    day21 = [b for b in bookings(db, league.room.id) if b.start_at == kirov(21, 18)]
    assert sorted((b.title, b.table_no) for b in day21) == [("Го", 2), ("Го", 3), ("Матч: Тур 1, стол 1", 1)]
    with pytest.raises(SchedulingError, match="столов: 3"):
        act(db, scheduling_admin.book_activity, title="Го", start=kirov(22, 18), end=kirov(22, 22),
            actor_user_id=org, now=NOW, room_id=league.room.id, tables=4)  # fmt: skip


def test_the_organizer_sets_the_tables_and_cannot_remove_a_booked_one(db: sa.Engine) -> None:
    league, ids = club(db, matches=2, tables=2)
    org = league.organizer.id
    assign(db, league, ids[0])
    assert assign(db, league, ids[1]).table_no == 2
    for wrong in (0, -1, 51):
        with pytest.raises(SchedulingError, match="от 1 до 50"):
            act(db, scheduling_admin.set_room_tables, room_id=league.room.id, tables=wrong, actor_user_id=org,
                now=NOW)  # fmt: skip
    with pytest.raises(SchedulingError, match="За столом 2 есть бронь"):
        act(db, scheduling_admin.set_room_tables, room_id=league.room.id, tables=1, actor_user_id=org, now=NOW)
    act(db, scheduling_admin.set_room_tables, room_id=league.room.id, tables=4, actor_user_id=org, now=NOW)
    with Session(db) as session:
        assert session.get(Room, league.room.id).tables == 4


def _propose(db: sa.Engine, league: f.League, k: int, match_id: int, now=NOW) -> MeetingProposal:  # noqa: ANN001
    return act(db, booking.propose_meeting, match_id=match_id, user_id=league.users[4 * k].id,
               start=kirov(20, 18), end=kirov(20, 22, 30), hanchans=3, now=now)  # fmt: skip


def _confirm(db: sa.Engine, league: f.League, k: int, proposal_id: int, *who: int, now=NOW) -> None:  # noqa: ANN001
    for n in who:
        act(
            db,
            booking.answer_meeting,
            confirmed=True,
            proposal_id=proposal_id,
            user_id=league.users[4 * k + n].id,
            now=now,
        )


def test_an_open_proposal_holds_its_table_until_it_ends(db: sa.Engine) -> None:
    """Регламент §3: a proposal holds its table until the four answer; another match is not offered it meanwhile.
    The hold ends when its time passes (read at `now`, no timer) or when someone declines."""
    league, ids = club(db, matches=2, tables=1, hold_hours=48)
    evening = Interval(kirov(20, 17), kirov(20, 23))
    paint(db, league, 0, ids[0], evening)
    paint(db, league, 1, ids[1], evening)
    p = _propose(db, league, 0, ids[0])
    assert (p.room_id, p.table_no, p.hold_until) == (league.room.id, 1, NOW + timedelta(hours=48))
    with Session(db) as session:
        assert options_for(session, ids[1], now=NOW) == []  # the only table is held
        assert options_for(session, ids[1], now=NOW + timedelta(hours=48)) != []  # the hold has passed
    assert "удерживается за этим предложением до чт 12.11.2026 12:00" in hold_text(p.hold_until, NOW)
    assert "больше не удерживается" in hold_text(p.hold_until, NOW + timedelta(hours=49))
    with pytest.raises(SchedulingError, match="не входит целиком ни в один общий вариант"):
        _propose(db, league, 1, ids[1])
    act(db, booking.answer_meeting, confirmed=False, proposal_id=p.id, user_id=league.users[1].id, now=NOW)
    with Session(db) as session:
        assert options_for(session, ids[1], now=NOW) != []  # declined: the table is free again


def test_the_hold_never_outlasts_the_meetings_start_and_the_fourth_confirmation_takes_the_held_table(
    db: sa.Engine,
) -> None:
    league, ids = club(db, matches=3, tables=2, hold_hours=48)
    evening = Interval(kirov(20, 17), kirov(20, 23))
    for k in range(3):
        paint(db, league, k, ids[k], evening)
    late = kirov(19, 12)  # 30 hours before the meeting: the hold ends at its start
    first = _propose(db, league, 0, ids[0], now=late)
    assert first.hold_until == kirov(20, 18)
    second = _propose(db, league, 1, ids[1], now=late)
    assert (first.table_no, second.table_no) == (1, 2)  # the held table is not offered: the next one is
    with Session(db) as session:
        assert options_for(session, ids[2], now=late) == []
    _confirm(db, league, 1, second.id, 1, 2, 3, now=late)
    _confirm(db, league, 0, first.id, 1, 2, 3, now=late)
    assert [(b.match_id, b.table_no) for b in bookings(db, league.room.id)] == [(ids[0], 1), (ids[1], 2)]


def test_the_fallback_seats_the_window_while_tables_last_and_names_the_rest(db: sa.Engine) -> None:
    """Регламент §6.1: every unagreed match of the window on its last Sunday 18:00, while tables last; the
    organizer is told which did not fit and what to do, and no view promises them the date."""
    league, ids = club(db, matches=5, tables=4)
    assign(db, league, ids[4], start=kirov(20, 18))  # agreed earlier: not part of the fallback
    act(db, scheduling_admin.book_activity, title="D&D", start=kirov(29, 17), end=kirov(29, 23),
        actor_user_id=league.organizer.id, now=NOW, room_id=league.room.id, tables=1)  # fmt: skip
    with Session(db) as session:
        board = load_board(session, now=NOW)
        plan = {m: fallback_place(board, board.item(m)) for m in ids[:4]}
    assert plan == {ids[0]: (league.room.id, 2), ids[1]: (league.room.id, 3), ids[2]: (league.room.id, 4),
                    ids[3]: None}  # fmt: skip
    result = act(db, scheduling_admin.apply_window_fallback, round_id=league.rounds[0].id,
                 actor_user_id=league.organizer.id, now=NOW)  # fmt: skip
    assert [title for title, _ in result.placed] == ["Тур 1, стол 1", "Тур 1, стол 2", "Тур 1, стол 3"]
    assert [title for title, _ in result.unplaced] == ["Тур 1, стол 4"]
    assert "перенесите матч на следующий тур" in result.summary
    assert "Тур 1, стол 4 — В запасное время (вс 29.11.2026 18:00) все столы заняты" in result.summary
    with pytest.raises(SchedulingError, match="все столы заняты: назначьте встречу в другом помещении"):
        act(db, scheduling_admin.apply_fallback, match_id=ids[3], actor_user_id=league.organizer.id, now=NOW)
    sunday = [b for b in bookings(db, league.room.id) if b.start_at == SUNDAY]
    assert sorted((b.match_id, b.table_no) for b in sunday) == [(ids[0], 2), (ids[1], 3), (ids[2], 4)]


@pytest.mark.parametrize("mode", ["thread", "process"])
def test_many_proposals_and_assigns_for_the_last_table_have_one_winner(db_url: str, mode: str) -> None:
    """The last free table at one hour: two fourth confirmations and two organizer's assignments of four other
    matches at the same instant; exactly one is booked, the others are told the room is taken."""
    for _ in range(6):
        db = engine_for(db_url)
        league, ids = club(db, matches=5, tables=2, hold_hours=1)
        assign(db, league, ids[0], start=kirov(20, 18))  # table 1
        evening = Interval(kirov(20, 17), kirov(20, 23))
        proposals = []
        for k in (1, 2):  # each made once the other's one-hour hold of table 2 is over
            paint(db, league, k, ids[k], evening)
            p = _propose(db, league, k, ids[k], now=NOW + timedelta(hours=2 * k))
            _confirm(db, league, k, p.id, 1, 2, now=NOW + timedelta(hours=2 * k))
            proposals.append(p.id)
        later = NOW + timedelta(hours=6)  # no proposal holds the table any more: every one reaches the race
        calls = [
            (booking.answer_meeting, {"confirmed": True, "proposal_id": pid, "user_id": league.users[4 * k + 3].id,
                                      "now": later})
            for k, pid in zip((1, 2), proposals, strict=True)
        ] + [
            (scheduling_admin.assign_meeting, {"match_id": ids[k], "start": kirov(20, 18), "hanchans": 3,
                                               "actor_user_id": league.organizer.id, "now": later})
            for k in (3, 4)
        ]  # fmt: skip
        outcomes = race(db_url, mode, calls)
        assert all(o == "ok" or "Помещение занято" in o for o in outcomes), outcomes
        booked = [b for b in bookings(db, league.room.id) if b.start_at == kirov(20, 18)]
        assert sorted(b.table_no for b in booked) == [1, 2], (outcomes, booked)
        with Session(db) as session:
            failed = session.exec(select(MeetingProposal).where(MeetingProposal.status == "failed")).all()
        assigned_ok = outcomes[2:].count("ok")
        assert assigned_ok + (2 - len([f for f in failed if f.id in proposals])) == 1, outcomes


def test_the_desk_and_schedule_promise_the_fallback_only_to_the_matches_it_seats(db: sa.Engine) -> None:
    """Регламент §6.1: with 2 tables and 3 unagreed matches, the third is told it will not fit, with no button."""
    from services.scheduling.view import overview
    from services.views.desk import _scheduling_items

    league, ids = club(db, matches=3, tables=2)
    late = kirov(27, 12)  # the window ends in under three days: the desk lists every unagreed match
    with Session(db) as session:
        rows = {int(r["id"]): r for r in overview(session, now=late) if int(r["id"]) in ids}
        items = {i.target or i.key: i for i in _scheduling_items(load_board(session, now=late), late)}
    assert [rows[m]["fallback"] for m in ids[:2]] == ["вс 29.11.2026 18:00"] * 2
    assert [rows[m]["can_fallback"] for m in ids] == ["1", "1", ""]
    assert rows[ids[2]]["fallback"].startswith("вс 29.11.2026 18:00 — столов не хватит")
    assert "Запасная дата (§6.1): вс 29.11.2026 18:00." in items[str(ids[0])].detail
    third = items[f"soon-{ids[2]}"]
    assert "столов не хватит: назначьте другое время или помещение" in third.detail and third.action == ""


def test_the_calendar_and_the_page_say_the_table_and_the_hold(db: sa.Engine) -> None:
    from services.scheduling.calendar_feed import club_ics, week_entries
    from services.scheduling.view import match_page

    league, ids = club(db, matches=2, tables=2)
    assign(db, league, ids[0], start=kirov(20, 18))
    assign(db, league, ids[1], start=kirov(20, 18))
    paint(db, league, 0, ids[0], Interval(kirov(21, 17), kirov(21, 23)))
    with Session(db) as session:
        room = session.get(Room, league.room.id).name
        ics = club_ics(session).replace("\r\n ", "")
        week = week_entries(session, kirov(16).date())
    assert f"LOCATION:{room}\\, стол клуба № 1" in ics and f"LOCATION:{room}\\, стол клуба № 2" in ics
    assert [e.room for e in week] == [f"{room}, стол клуба № 1", f"{room}, стол клуба № 2"]
    with session_scope(db) as session:  # split the match: the rest proposed for the next evening
        b = session.exec(select(Booking).where(Booking.match_id == ids[0])).one()
        scheduling_admin.cancel_booking(session, booking_id=b.id, actor_user_id=league.organizer.id, reason="x",
                                        now=NOW)  # fmt: skip
    p = act(db, booking.propose_meeting, match_id=ids[0], user_id=league.users[0].id, start=kirov(21, 18),
            end=kirov(21, 22, 30), hanchans=3, now=NOW)  # fmt: skip
    with Session(db) as session:
        page = match_page(session, match_id=ids[0], user=session.get(type(league.users[1]), league.users[1].id),
                          now=NOW)  # fmt: skip
    [row] = [r for r in page.proposals if r["id"] == str(p.id)]
    assert row["hold"].startswith("Стол удерживается за этим предложением до чт 12.11.2026 12:00")


def test_the_capacity_warning_counts_table_hours_activities_and_the_fallback_seats(db: sa.Engine) -> None:
    """Issue 27, item 2: the desk warns when a tour's fallback Sunday cannot seat its unagreed matches, and the
    figures say the table-hours, the activities and the margin."""
    from services.scheduling.capacity import season_capacity
    from services.views.desk import WINDOW_FALLBACK, _capacity_items

    league, ids = club(db, matches=3, tables=2)
    act(db, scheduling_admin.book_activity, title="D&D", start=kirov(29, 12), end=kirov(29, 23),
        actor_user_id=league.organizer.id, now=NOW, room_id=league.room.id, tables=1)  # fmt: skip
    with Session(db) as session:
        season = session.get(Season, league.season.id)
        cap = next(c for c in season_capacity(session, season) if c.tour == "1")
        items = _capacity_items(season, load_board(session, now=NOW), NOW)
    assert (cap.table_time, cap.activities, cap.need) == (
        timedelta(days=28) - timedelta(hours=11), timedelta(hours=11), timedelta(hours=13, minutes=30)
    )  # fmt: skip
    assert (cap.fits, cap.fallback_tables, cap.fallback_short) == (True, 1, 2)
    assert "запас 648 ч" in cap.text and "за вычетом занятий 11 ч" in cap.text
    assert "2 матча туда не поместятся" in cap.text
    assert "1 свободный стол на 3 матча" in cap.text  # counted in Russian, not «столов 1 на 3 матч.»
    one_short = dataclasses.replace(cap, matches=2)
    assert "1 свободный стол на 2 матча" in one_short.text and "1 матч туда не поместится" in one_short.text
    [item] = [i for i in items if i.key == "capacity-1"]
    assert "Сейчас не согласовано 3, запасная дата вместит 1." in item.detail
    assert (item.action, item.target) == (WINDOW_FALLBACK, str(league.rounds[0].id))
    assign(db, league, ids[1], start=kirov(20, 18))
    assign(db, league, ids[2], start=kirov(21, 18))
    with Session(db) as session:
        season = session.get(Season, league.season.id)
        items = _capacity_items(season, load_board(session, now=NOW), NOW)
    assert [i for i in items if i.key == "capacity-1"] == []  # the one left to agree fits the fallback


def test_a_split_matchs_fallback_follows_its_own_meeting_that_evening(db: sa.Engine) -> None:
    """Регламент §6.1: the remaining hanchans on the window's last Sunday — after the match's own meeting there, not
    refused because its players already sit in it."""
    league, ids = club(db, matches=1, tables=2)
    act(db, scheduling_admin.assign_meeting, match_id=ids[0], start=kirov(29, 17), hanchans=1,
        actor_user_id=league.organizer.id, now=NOW)  # 17:00–18:30  # fmt: skip
    booked = act(db, scheduling_admin.apply_fallback, match_id=ids[0], actor_user_id=league.organizer.id, now=NOW)
    assert (booked.start_at, booked.end_at, booked.hanchans) == (kirov(29, 18, 30), kirov(29, 21, 30), 2)


def test_the_draw_pages_capacity_counts_the_tours_matches_or_the_drafts(db: sa.Engine) -> None:
    """Issue 27, item 2, when the windows are set or the draw approved: each tour with a window, its matches (or a
    draft's tables per tour) against the club's tables."""
    from services.scheduling.capacity import capacity_summary, season_capacity

    league, ids = club(db, matches=6, tables=4)
    with Session(db) as session:
        season = session.get(Season, league.season.id)
        caps = season_capacity(session, season)
        draft = season_capacity(session, season, matches_per_tour=12)
    assert [(c.tour, c.matches, c.fallback_tables) for c in caps] == [("1", 6, 4), ("2", 0, 4)]
    assert caps[0].fallback_short == 2 and draft[1].fallback_short == 8
    text = capacity_summary(caps)
    assert text.startswith("Тур 1: часов за столами в окне 1344 ч, матчам нужно 27 ч (6 матчей), запас 1317 ч.")
    assert "2 матча туда не поместятся" in text


def test_the_organizer_sets_the_hold_time_and_a_new_proposal_holds_that_long(db: sa.Engine) -> None:
    """Issue 27 item 6, issue 41: the hold time is one of the season's rules (whole hours, 1..168), set on the rules
    form with the others and audited as they are; a new proposal's hold ends that long after it is made, never past
    the meeting's start; a wrong value is refused and changes nothing."""
    league, ids = club(db, matches=2, tables=2, hold_hours=48)
    org, season_id = league.organizer.id, league.season.id

    def set_hold(hours: str) -> None:
        with session_scope(db) as session:
            season = session.get_one(Season, season_id)
            user = session.get_one(User, org)
            season_rules.apply_rules(session, season, {"proposal_hold_hours": hours}, reason="", actor=user, now=NOW)

    set_hold("6")
    for wrong in ("0", "169", "abc", "6.5", "-1"):
        with pytest.raises(season_rules.RulesError, match="Предложение держит стол, часов"):
            set_hold(wrong)
    with Session(db) as session:
        assert of_season(session.get(Season, season_id)).proposal_hold_hours == 6
        audits = session.exec(select(AuditRecord).where(AuditRecord.action == season_rules.SET)).all()
        assert [(a.actor_user_id, a.entity_id) for a in audits] == [(org, season_id)]
        assert (
            json.loads(audits[0].before)["proposal_hold_hours"],
            json.loads(audits[0].after)["proposal_hold_hours"],
        ) == (48, 6)
    evening = Interval(kirov(20, 17), kirov(20, 23))
    paint(db, league, 0, ids[0], evening)
    paint(db, league, 1, ids[1], evening)
    assert _propose(db, league, 0, ids[0]).hold_until == NOW + timedelta(hours=6)
    late = kirov(20, 18) - timedelta(hours=2)  # 2 h before the start: the hold ends at the start, not 6 h later
    assert _propose(db, league, 1, ids[1], now=late).hold_until == kirov(20, 18)
