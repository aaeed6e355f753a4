"""A hold is a promise (issue 43 item 3): the organizer's assignment takes a table another match's live proposal
holds only when no other is free, and /schedule asks first, naming the proposal; a tap without the tick assigns
nothing, and once it is ticked the holding proposal ends with its reason (Регламент §3, §6.3)."""

from __future__ import annotations

import uuid
from datetime import timedelta

from playwright.sync_api import Browser, expect
from sqlmodel import select

from services.core.db import session_scope
from services.core.models import Booking, Match, MatchStatus, MeetingProposal, Room, Round, Seat, User, utc_now
from services.scheduling import availability, booking
from services.scheduling import organizer as scheduling_admin
from services.scheduling.intervals import Interval, at_kirov, kirov_date
from services.scheduling.organizer import HOLD_OVERRULED
from services.scheduling.view import kirov_value
from tests.e2e.conftest import ORGANIZER, App, login
from tests.e2e.test_organizer_desk import PHONE, _players, _stage_with_tours, fresh_players


def test_taking_a_held_table_is_asked_first_and_the_holders_are_told_why(browser: Browser, app: App) -> None:
    holders, others = tuple(fresh_players(app)), tuple(fresh_players(app))
    base = kirov_date(utc_now()) + timedelta(days=30)
    window = Interval(at_kirov(base), at_kirov(base + timedelta(days=14)))
    held_id, held_title = _stage_with_tours(app, holders, window)
    match_id, title = _stage_with_tours(app, others, window)
    start = at_kirov(base + timedelta(days=2), 18)
    evening = Interval(start, start + timedelta(hours=5))
    engine = app.engine()
    with session_scope(engine) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        for room in session.exec(select(Room)).all():  # every table of the club taken that evening...
            scheduling_admin.book_activity(session, title="Турнир по го", start=evening.start, end=evening.end,
                                           room_id=room.id, actor_user_id=organizer.id, now=utc_now())  # fmt: skip
        room = scheduling_admin.add_room(session, name=f"Малый зал {uuid.uuid4().hex[:4]}", actor_user_id=organizer.id,
                                         now=utc_now())  # fmt: skip
        seated = _players(session, holders)  # ...but the new room's one table, which the holders' proposal holds
        for player in seated:
            availability.save_availability(session, match_id=held_id, user_id=player.user_id, intervals=[evening],
                                           now=utc_now())  # fmt: skip
        proposal = booking.propose_meeting(session, match_id=held_id, user_id=seated[0].user_id, start=start,
                                           end=start + timedelta(hours=4, minutes=30), hanchans=3,
                                           now=utc_now())  # fmt: skip
        proposal_id, room_id, room_name = proposal.id, room.id, room.name
        assert proposal.room_id == room_id
    context = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov", **PHONE)
    page = context.new_page()
    try:
        login(page, app, ORGANIZER, path="/schedule")
        page.get_by_role("button", name=f"Назначить встречу: {title}").click()
        dialog = page.get_by_role("dialog")
        dialog.get_by_label("Начало").fill(kirov_value(start))
        dialog.get_by_label("Помещение").select_option(label=room_name)
        dialog.get_by_role("button", name="Назначить встречу").dblclick()  # a double tap: asked, nothing taken
        expect(dialog.get_by_text("Стол удерживает предложение")).to_contain_text(held_title)
        with session_scope(engine) as session:
            assert session.exec(select(Booking).where(Booking.match_id == match_id, Booking.active)).all() == []
            assert session.get(MeetingProposal, proposal_id).status == "open"
        dialog.get_by_text("Снять удержание и назначить").click()
        dialog.get_by_role("button", name="Назначить встречу").click()
        expect(page.get_by_role("status").filter(has_text=title)).to_be_visible()
        expect(dialog).to_have_count(0)
        with session_scope(engine) as session:
            [taken] = session.exec(select(Booking).where(Booking.match_id == match_id, Booking.active)).all()
            ended = session.get(MeetingProposal, proposal_id)
            assert taken.room_id == room_id
            assert ended.status == "failed" and ended.failure_reason.startswith(HOLD_OVERRULED.split("«")[0])
    finally:
        context.close()
        engine.dispose()


def test_the_desks_fallback_asks_before_it_ends_another_matchs_hold(browser: Browser, app: App) -> None:
    """Issue 43: the desk's one-tap «Назначить запасную дату» asks, as /schedule does, when the §6.1 Sunday's only
    free table is held by another match's proposal; a double tap without the tick takes nothing."""
    today = kirov_date(utc_now())
    base = today - timedelta(days=today.weekday()) + timedelta(weeks=130)  # a Monday no other test's Sunday is on
    window = Interval(at_kirov(base), at_kirov(base + timedelta(days=14)))
    others, holders = tuple(fresh_players(app)), tuple(fresh_players(app))
    match_id, title = _stage_with_tours(app, others, window)  # first: the fallback plan seats it at the free table
    held_id, held_title = _stage_with_tours(app, holders, window)
    sunday = at_kirov(base + timedelta(days=13), 18)  # Регламент §6.1: the window's last Sunday, 18:00
    evening = Interval(sunday - timedelta(hours=1), sunday + timedelta(hours=5))
    engine = app.engine()
    with session_scope(engine) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        for room in session.exec(select(Room)).all():  # every table of the club taken that Sunday evening...
            scheduling_admin.book_activity(session, title="Турнир по го", start=evening.start, end=evening.end,
                                           room_id=room.id, actor_user_id=organizer.id, now=utc_now())  # fmt: skip
        room = scheduling_admin.add_room(session, name=f"Малый зал {uuid.uuid4().hex[:4]}", actor_user_id=organizer.id,
                                         now=utc_now())  # fmt: skip
        for n, player in enumerate(_players(session, others)):  # all four answered, never at one time: on the desk
            day = at_kirov(base + timedelta(days=2 + n), 18)
            own = [Interval(day, day + timedelta(hours=3))]
            availability.save_availability(session, match_id=match_id, user_id=player.user_id, intervals=own,
                                           now=utc_now())  # fmt: skip
        seated = _players(session, holders)  # ...but the new room's one table, which the holders' proposal holds
        for player in seated:
            availability.save_availability(session, match_id=held_id, user_id=player.user_id, intervals=[evening],
                                           now=utc_now())  # fmt: skip
        proposal = booking.propose_meeting(session, match_id=held_id, user_id=seated[0].user_id, start=sunday,
                                           end=sunday + timedelta(hours=4, minutes=30), hanchans=3,
                                           now=utc_now())  # fmt: skip
        proposal_id, room_id = proposal.id, room.id
        assert proposal.room_id == room_id
    context = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov", **PHONE)
    page = context.new_page()
    try:
        login(page, app, ORGANIZER, path="/desk")
        item = page.get_by_role("group", name=title, exact=True)
        fallback = item.get_by_role("button", name=f"Назначить запасную дату: {title}")
        fallback.dblclick()  # a double tap: asked, nothing taken
        expect(item.get_by_text("Стол удерживает предложение")).to_contain_text(held_title)
        with session_scope(engine) as session:
            assert session.exec(select(Booking).where(Booking.match_id == match_id, Booking.active)).all() == []
            assert session.get(MeetingProposal, proposal_id).status == "open"
        item.get_by_text("Снять удержание и назначить").click()
        fallback.click()
        expect(page.get_by_role("status")).to_contain_text(title)
        expect(item).to_have_count(0)
        with session_scope(engine) as session:
            [taken] = session.exec(select(Booking).where(Booking.match_id == match_id, Booking.active)).all()
            ended = session.get(MeetingProposal, proposal_id)
            assert (taken.room_id, taken.start_at) == (room_id, sunday)
            assert ended.status == "failed" and ended.failure_reason.startswith(HOLD_OVERRULED.split("«")[0])
    finally:
        context.close()
        engine.dispose()


def _second_match(app: App, match_id: int, names: tuple[str, ...]) -> tuple[int, str]:
    """A match of these four at table 2 of `match_id`'s tour (`_stage_with_tours` makes one match per tour)."""
    engine = app.engine()
    with session_scope(engine) as session:
        first = session.get(Match, match_id)
        match = Match(round_id=first.round_id, table="2", status=MatchStatus.SCHEDULING)
        session.add(match)
        session.flush()
        for seed, player in enumerate(_players(session, names), start=1):
            session.add(Seat(match_id=match.id, player_id=player.id, seed=seed))
        second_id = match.id
    engine.dispose()
    return second_id, f"Тур {_tour(app, match_id)}, стол 2"


def _tour(app: App, match_id: int) -> str:
    engine = app.engine()
    with session_scope(engine) as session:
        code = session.get(Round, session.get(Match, match_id).round_id).code
    engine.dispose()
    return code


def test_the_desks_fallback_for_a_whole_tour_asks_before_it_ends_another_matchs_hold(
    browser: Browser, app: App
) -> None:
    """Issue 43: the desk's «Запасная дата для всего тура» asks, as the one match's fallback does (the same question
    and tick), when seating the tour's matches on the §6.1 Sunday would take a table another match's proposal holds;
    a double tap without the tick books nothing and ends nothing."""
    today = kirov_date(utc_now())
    base = today - timedelta(days=today.weekday()) + timedelta(weeks=133)  # a Monday no other test's Sunday is on
    window = Interval(at_kirov(base), at_kirov(base + timedelta(days=14)))
    others, holders = tuple(fresh_players(app)), tuple(fresh_players(app))
    match_id, _ = _stage_with_tours(app, others, window)  # first: the fallback seats it at the only free table
    held_id, held_title = _second_match(app, match_id, holders)  # the same tour: its proposal holds that table
    tour = f"Тур {_tour(app, match_id)}"
    sunday = at_kirov(base + timedelta(days=13), 18)  # Регламент §6.1: the window's last Sunday, 18:00
    evening = Interval(sunday - timedelta(hours=1), sunday + timedelta(hours=5))
    engine = app.engine()
    with session_scope(engine) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        for room in session.exec(select(Room)).all():  # every table of the club taken that Sunday evening...
            scheduling_admin.book_activity(session, title="Турнир по го", start=evening.start, end=evening.end,
                                           room_id=room.id, actor_user_id=organizer.id, now=utc_now())  # fmt: skip
        room = scheduling_admin.add_room(session, name=f"Малый зал {uuid.uuid4().hex[:4]}", actor_user_id=organizer.id,
                                         now=utc_now())  # fmt: skip
        seated = _players(session, holders)  # ...but the new room's one table, which the holders' proposal holds
        for player in seated:
            availability.save_availability(session, match_id=held_id, user_id=player.user_id, intervals=[evening],
                                           now=utc_now())  # fmt: skip
        proposal = booking.propose_meeting(session, match_id=held_id, user_id=seated[0].user_id, start=sunday,
                                           end=sunday + timedelta(hours=4, minutes=30), hanchans=3,
                                           now=utc_now())  # fmt: skip
        proposal_id, room_id = proposal.id, room.id
        assert proposal.room_id == room_id
    context = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov", **PHONE)
    page = context.new_page()
    try:
        login(page, app, ORGANIZER, path="/desk")
        item = page.get_by_role("group", name=tour, exact=True)
        fallback = item.get_by_role("button", name=f"Запасная дата для всего тура: {tour}")
        fallback.dblclick()  # a double tap: asked, nothing taken
        expect(item.get_by_text("Стол удерживает предложение")).to_contain_text(held_title)
        with session_scope(engine) as session:
            assert session.exec(select(Booking).where(Booking.match_id == match_id, Booking.active)).all() == []
            assert session.get(MeetingProposal, proposal_id).status == "open"
        item.get_by_text("Снять удержание и назначить").click()
        fallback.click()
        expect(page.get_by_role("status")).to_contain_text(f"Снятые удержания других матчей: «{held_title}»")
        with session_scope(engine) as session:
            [taken] = session.exec(select(Booking).where(Booking.match_id == match_id, Booking.active)).all()
            ended = session.get(MeetingProposal, proposal_id)
            assert (taken.room_id, taken.start_at) == (room_id, sunday)
            assert ended.status == "failed" and ended.failure_reason.startswith(HOLD_OVERRULED.split("«")[0])
    finally:
        context.close()
        engine.dispose()
