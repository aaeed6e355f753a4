"""Scheduling in the hard cases, on SQLite and PostgreSQL: the specification of services/scheduling/'s rewrite.

Each test names the defect it pins down (the numbers of the issue). Every row is made through the services
(availability, proposals, confirmations, the organizer's actions, entered hanchans); the factories only make the
season, its rounds, rooms, players and matches. The assertions read what people see: the scheduling page, the home
to-do, the organizer's desk and the overview, the Telegram card, and the database rows.

On PostgreSQL one database serves the whole run, so every test plays in a game window of its own (`scene`): other
tests' bookings never reach into it, but their rooms exist too (a test never assumes how many rooms there are).
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from services.core import outbox
from services.core.db import session_scope
from services.core.models import (
    AvailabilityAnswer,
    Booking,
    MeetingProposal,
    OutboxEvent,
    ProposalConfirmation,
    Room,
    User,
)
from services.league.substitution import seat_substitute
from services.notifier.cards import card_text
from services.notifier.snapshot import MatchSnapshot, match_snapshot
from services.playoff.hanchan_entry import enter_hanchan
from services.results.entry import Entry
from services.results.hanchans import effective, entry_closed
from services.results.scoring import TableResult
from services.scheduling import availability, booking
from services.scheduling import organizer as scheduling_admin
from services.scheduling.intervals import KIROV, Interval, at_kirov
from services.scheduling.repo import SchedulingError, match_info
from services.scheduling.rules import (
    BOOKED,
    COMPLETE,
    NO_COMMON_TIME,
    NO_FREE_TABLE,
    PLAYING,
    REPLACED,
    STATE_LABELS,
    format_span,
)
from services.scheduling.tour_windows import set_windows
from services.scheduling.view import MatchPage, kirov_value, match_page, overview
from services.views.desk import build_desk
from services.views.todo import HomeCard, home_cards
from tests import factories as f
from tests.factories import NOW

BASE = date(2031, 3, 3)  # a Monday; scene k plays in the two weeks from BASE + 4k weeks
RUSSIAN = re.compile(r"[А-Яа-яЁё]")


# --- the scene -----------------------------------------------------------------------------------------------


@dataclass
class Scene:
    league: f.League
    start: date  # the Monday the first window opens; its Sunday `at(13, 18)` is the §6.1 fallback
    rooms: list[Room] = field(default_factory=list)

    def at(self, day: int, hour: int = 0, minute: int = 0) -> datetime:
        return at_kirov(self.start + timedelta(days=day), hour, minute)

    def evening(self, day: int) -> Interval:
        return Interval(self.at(day, 17), self.at(day, 23))

    @property
    def window_end(self) -> datetime:
        return self.at(14)

    def user(self, n: int) -> User:
        return self.league.users[n]


def scene(db: sa.Engine, slot: int, *, players: int = 4, rooms: int = 1) -> Scene:
    start = BASE + timedelta(weeks=4 * slot)
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=players, windows=[f.window(start), f.window(start + timedelta(days=14))])
        extra = [Room(name=f"Зал {uuid.uuid4().hex[:6]}") for _ in range(rooms - 1)]
        session.add_all(extra)
        session.commit()
    return Scene(league, start, [league.room, *extra])


def second_match(db: sa.Engine, sc: Scene, seats: list[int], table: str = "2") -> int:
    with session_scope(db) as session:
        players = [session.merge(sc.league.players[n]) for n in seats]
        return f.match(session, session.merge(sc.league.rounds[0]), players, table=table).id


def act(db: sa.Engine, fn: Callable, **kwargs):  # noqa: ANN201
    with session_scope(db) as session:
        return fn(session, **kwargs)


def paint(db: sa.Engine, sc: Scene, who: int, *spans: Interval, match_id: int | None = None, **kw) -> list[str]:  # noqa: ANN003
    return act(
        db,
        availability.save_availability,
        match_id=match_id or sc.league.match.id,
        user_id=sc.user(who).id,
        intervals=list(spans),
        **{"now": NOW, **kw},
    )


def proposed(
    db: sa.Engine, sc: Scene, start: datetime, end: datetime, hanchans: int, who: int = 0, match_id: int | None = None
) -> MeetingProposal:
    return act(
        db,
        booking.propose_meeting,
        match_id=match_id or sc.league.match.id,
        user_id=sc.user(who).id,
        start=start,
        end=end,
        hanchans=hanchans,
        now=NOW,
    )


def confirm(db: sa.Engine, sc: Scene, proposal_id: int, *who: int, now: datetime = NOW) -> None:
    for n in who:
        act(db, booking.answer_meeting, confirmed=True, proposal_id=proposal_id, user_id=sc.user(n).id, now=now)


def booked_by_players(
    db: sa.Engine, sc: Scene, seats: list[int], start: datetime, hanchans: int, match_id: int | None = None
) -> MeetingProposal:
    """The first of `seats` proposes, the other three confirm: the fourth confirmation books the room."""
    end = start + timedelta(minutes=90 * hanchans)
    p = proposed(db, sc, start, end, hanchans, who=seats[0], match_id=match_id)
    confirm(db, sc, p.id, *seats[1:])
    return p


def assigned(db: sa.Engine, sc: Scene, start: datetime, hanchans: int, match_id: int | None = None, **kw) -> Booking:  # noqa: ANN003
    return act(
        db,
        scheduling_admin.assign_meeting,
        match_id=match_id or sc.league.match.id,
        start=start,
        hanchans=hanchans,
        actor_user_id=sc.league.organizer.id,
        now=NOW,
        **kw,
    )


def played(db: sa.Engine, sc: Scene, count: int, when: datetime, seats: list[int] | None = None, **kw) -> None:  # noqa: ANN003
    """`count` hanchans entered at `when` (Регламент §6.2): by the match's first seated player when a meeting holding
    them has begun, else by the organizer outside a meeting, with a reason (§6.3), so what the scene books stays its
    own."""
    seats = seats or [0, 1, 2, 3]
    match_id = kw.get("match_id") or sc.league.match.id
    results = tuple(
        TableResult(sc.league.players[n].id, pts, 0) for n, pts in zip(seats, [40000, 30000, 30000, 20000], strict=True)
    )
    for _ in range(count):
        with session_scope(db) as session:
            number = len(effective(session, match_id)) + 1
            at_meeting = entry_closed(session, match_id, number, now=when) is None
            who, why = (sc.user(seats[0]), "") if at_meeting else (sc.league.organizer, f.UNBOOKED)
            enter_hanchan(session, session.merge(who), match_id, Entry(results, 0), now=when, reason=why)


def rows(db: sa.Engine, model: type, **where: object) -> list:
    with Session(db, expire_on_commit=False) as session:
        stmt = select(model)
        for name, value in where.items():
            stmt = stmt.where(getattr(model, name) == value)
        return list(session.exec(stmt).all())


def active(db: sa.Engine, match_id: int) -> list[Booking]:
    return [b for b in rows(db, Booking, match_id=match_id) if b.active]


def page_of(db: sa.Engine, sc: Scene, who: int, now: datetime = NOW, match_id: int | None = None) -> MatchPage:
    with Session(db, expire_on_commit=False) as session:
        return match_page(session, match_id=match_id or sc.league.match.id, user=sc.user(who), now=now)


def snapshot_of(db: sa.Engine, match_id: int, now: datetime = NOW) -> MatchSnapshot:
    with Session(db, expire_on_commit=False) as session:
        return match_snapshot(session, match_id, now=now)


def home_of(db: sa.Engine, user: User, match_id: int, now: datetime = NOW) -> HomeCard:
    with Session(db, expire_on_commit=False) as session:
        [only] = [c for c in home_cards(session, session.merge(user), now) if c.match_id == match_id]
        return only


def overview_row(db: sa.Engine, match_id: int, now: datetime = NOW) -> dict:
    with Session(db, expire_on_commit=False) as session:
        [row] = [r for r in overview(session, now=now) if r["id"] == str(match_id)]
        return row


def desk_groups(db: sa.Engine, match_id: int, now: datetime = NOW) -> set[str]:
    """The desk's groups that list this match (its items link to the match's pages)."""
    links = {f"/match/{match_id}", f"/match/{match_id}/schedule"}
    with Session(db, expire_on_commit=False) as session:
        return {item.group for item in build_desk(session, now=now).items if item.link in links}


def page_meetings(page: MatchPage) -> list[Interval]:
    """The meetings the page's options put into the proposal form (start, end as Kirov wall time)."""

    def parse(value: str) -> datetime:
        return datetime.fromisoformat(value).replace(tzinfo=KIROV)

    return [Interval(parse(o["start"]), parse(o["end"])) for o in page.options]


# --- 1. the same match booked twice at once ------------------------------------------------------------------


def test_options_leave_out_the_time_of_the_matchs_own_meeting_in_another_room(db: sa.Engine) -> None:
    """Defect 1: with two rooms, the remaining hanchans' options offered the match's own booked hour in the other
    room; taking it booked the four into two rooms at once."""
    sc = scene(db, 0, rooms=2)
    for n in range(4):
        paint(db, sc, n, sc.evening(4))
    booked_by_players(db, sc, [0, 1, 2, 3], sc.at(4, 18), 2)  # 18:00–21:00, one hanchan left
    meeting = Interval(sc.at(4, 18), sc.at(4, 21))
    page = page_of(db, sc, 0)
    assert page.remaining == 1
    assert not any(m.overlaps(meeting) for m in page_meetings(page)), page.options
    snap = snapshot_of(db, sc.league.match.id)
    assert not any(Interval(o.start, o.end).overlaps(meeting) for o in snap.options), snap.options
    with pytest.raises(SchedulingError) as refused:
        proposed(db, sc, sc.at(4, 18), sc.at(4, 19, 30), 1, who=1)
    assert RUSSIAN.search(str(refused.value))
    assert [p.status for p in rows(db, MeetingProposal, match_id=sc.league.match.id)] == ["booked"]


def test_options_leave_out_a_players_meeting_of_another_match(db: sa.Engine) -> None:
    """Defect 1: a time at which one of the four already has a meeting of another match (in any room) is no option
    and cannot be proposed."""
    sc = scene(db, 1, players=7, rooms=2)
    other = second_match(db, sc, [0, 4, 5, 6])
    for n in (0, 4, 5, 6):
        paint(db, sc, n, sc.evening(5), match_id=other)
    booked_by_players(db, sc, [0, 4, 5, 6], sc.at(5, 18), 3, match_id=other)  # player 0 is there 18:00–22:30
    for n in range(4):
        paint(db, sc, n, sc.evening(5))
    meeting = Interval(sc.at(5, 18), sc.at(5, 22, 30))
    page = page_of(db, sc, 1)
    assert not any(m.overlaps(meeting) for m in page_meetings(page)), page.options
    snap = snapshot_of(db, sc.league.match.id)
    assert not any(Interval(o.start, o.end).overlaps(meeting) for o in snap.options), snap.options
    with pytest.raises(SchedulingError) as refused:
        proposed(db, sc, sc.at(5, 18), sc.at(5, 19, 30), 1, who=1)
    assert RUSSIAN.search(str(refused.value))
    assert rows(db, MeetingProposal, match_id=sc.league.match.id) == []


# --- 2. a player in two meetings at once ---------------------------------------------------------------------


def test_the_organizer_cannot_assign_a_player_to_two_meetings_at_once(db: sa.Engine) -> None:
    """Defect 2: assign_meeting never checked the four players' bookings of other matches (in any room)."""
    sc = scene(db, 2, players=7, rooms=2)
    other = second_match(db, sc, [0, 4, 5, 6])
    assigned(db, sc, sc.at(4, 18), 3, room_id=sc.rooms[0].id)  # player 0: 18:00–22:30
    with pytest.raises(SchedulingError) as refused:
        assigned(db, sc, sc.at(4, 19), 3, match_id=other, room_id=sc.rooms[1].id)
    assert sc.user(0).display_name in str(refused.value)
    assert active(db, other) == []


def test_the_fallback_cannot_put_a_player_into_two_meetings_at_once(db: sa.Engine) -> None:
    """Defect 2: apply_fallback never checked the four players' bookings of other matches either."""
    sc = scene(db, 3, players=7, rooms=2)
    other = second_match(db, sc, [0, 4, 5, 6])
    # Player 0's first match sits at the fallback hour (Sunday 18:00) in the second room.
    assigned(db, sc, sc.at(13, 18), 3, room_id=sc.rooms[1].id)
    with pytest.raises(SchedulingError) as refused:
        act(db, scheduling_admin.apply_fallback, match_id=other, actor_user_id=sc.league.organizer.id, now=NOW)
    assert sc.user(0).display_name in str(refused.value)
    assert active(db, other) == []


# --- 3. the rest of a split match is orphaned ----------------------------------------------------------------


def split_and_half_played(db: sa.Engine, slot: int) -> Scene:
    """A 3-hanchan match: 2 hanchans booked on day 4 and played there; the third not booked. All four have painted
    another evening, so the third has a common option."""
    sc = scene(db, slot)
    for n in range(4):
        paint(db, sc, n, sc.evening(4), sc.evening(8))
    booked_by_players(db, sc, [0, 1, 2, 3], sc.at(4, 18), 2)
    played(db, sc, 2, sc.at(4, 21, 30))
    return sc


def test_a_split_match_half_played_stays_on_the_desk(db: sa.Engine) -> None:
    """Defect 3: once hanchans were entered the desk dropped the match, though its third hanchan has no time."""
    sc = split_and_half_played(db, 4)
    match_id = sc.league.match.id
    assert "soon" in desk_groups(db, match_id, sc.at(9, 12))  # the window ends within a week
    assert "over" in desk_groups(db, match_id, sc.at(14, 12))  # the window is over


def test_a_split_match_half_played_can_still_be_assigned_in_the_overview(db: sa.Engine) -> None:
    """Defect 3: the overview called the match «Играется» and offered no «Назначить» for its remaining hanchan."""
    sc = split_and_half_played(db, 5)
    row = overview_row(db, sc.league.match.id, sc.at(5, 12))
    assert row["can_assign"] == "1"
    assert row["state"] not in {STATE_LABELS[k] for k in (PLAYING, COMPLETE, REPLACED)}, row[
        "state"
    ]  # it must say the third hanchan needs a time


def test_the_fallback_books_the_remaining_hanchan_of_a_half_played_match(db: sa.Engine) -> None:
    """Defect 3: apply_fallback refused with «В матче уже сыграны ханчаны» instead of booking the third hanchan."""
    sc = split_and_half_played(db, 6)
    fallback = act(
        db, scheduling_admin.apply_fallback, match_id=sc.league.match.id, actor_user_id=sc.league.organizer.id,
        now=sc.at(9, 12),
    )  # fmt: skip
    assert (fallback.start_at, fallback.hanchans, fallback.active) == (sc.at(13, 18), 1, True)
    assert sorted(b.hanchans for b in active(db, sc.league.match.id)) == [1, 2]


def test_the_remaining_hanchans_of_a_half_played_match_move_to_the_next_tour(db: sa.Engine) -> None:
    """Defect 3: move_to_next_window refused a match with hanchans played, so its third hanchan had nowhere to go."""
    sc = split_and_half_played(db, 7)
    target = act(
        db, scheduling_admin.move_to_next_window, match_id=sc.league.match.id, actor_user_id=sc.league.organizer.id,
        reason="болезнь", now=sc.at(9, 12),
    )  # fmt: skip
    assert target.code == "2"
    with Session(db, expire_on_commit=False) as session:
        assert match_info(session, sc.league.match.id).window == f.window(sc.start + timedelta(days=14))
        assert len(effective(session, sc.league.match.id)) == 2  # the played hanchans stay where they were recorded
    row = overview_row(db, sc.league.match.id, sc.at(15, 12))
    assert row["can_assign"] == "1"


def test_the_home_card_of_a_half_played_match_asks_for_a_time(db: sa.Engine) -> None:
    """Defect 3: the home card said «внесите результат ханчана 3» for a hanchan that has no meeting."""
    sc = split_and_half_played(db, 8)
    home = home_of(db, sc.user(1), sc.league.match.id, sc.at(5, 12))
    assert re.search(r"предложите время|отметьте (свою )?доступность", home.action), home.action
    assert "внесите результат" not in home.action


# --- 4. a save lost with a crash -----------------------------------------------------------------------------


def test_a_repaint_releasing_a_split_booking_next_to_an_open_proposal_is_kept_or_refused_whole(db: sa.Engine) -> None:
    """Defect 4: the released booking's proposal reopened beside the open proposal for the rest, and the save died
    with `UNIQUE constraint failed: meetingproposal.match_id` (IntegrityError)."""
    sc = scene(db, 9)
    match_id = sc.league.match.id
    for n in range(4):
        paint(db, sc, n, sc.evening(4), sc.evening(5))
    booked_by_players(db, sc, [0, 1, 2, 3], sc.at(4, 18), 2)
    proposed(db, sc, sc.at(5, 18), sc.at(5, 19, 30), 1, who=1)  # the rest, still open
    before = {p.id: p.status for p in rows(db, MeetingProposal, match_id=match_id)}
    refused = None
    try:
        paint(db, sc, 2, sc.evening(5))  # day 4 is no longer free for player 2
    except SchedulingError as error:
        refused = str(error)
    proposals_now = rows(db, MeetingProposal, match_id=match_id)
    bookings_now = rows(db, Booking, match_id=match_id)
    with Session(db, expire_on_commit=False) as session:
        own = availability.own_availability(session, match_id=match_id, user_id=sc.user(2).id)
    if refused is not None:  # refused whole: a Russian reason, nothing changed
        assert RUSSIAN.search(refused)
        assert {p.id: p.status for p in proposals_now} == before
        assert [b.active for b in bookings_now] == [True]
        assert sorted(own) == [sc.evening(4), sc.evening(5)]
    else:  # kept whole: the time saved, the booking released, one open proposal per need
        assert own == [sc.evening(5)]
        assert [b.active for b in bookings_now] == [False]
        open_new = [p for p in proposals_now if p.status == "open" and p.replaces_booking_id is None]
        assert len(open_new) <= 1, [(p.id, p.status) for p in proposals_now]
    # Either way the rows agree with each other.
    by_proposal = {b.proposal_id: b for b in bookings_now if b.active}
    for p in proposals_now:
        assert (p.status == "booked") == (p.id in by_proposal), (p.id, p.status)
    for n in range(4):
        page_of(db, sc, n)  # every page still reads
    snapshot_of(db, match_id)


# --- 5. the fallback always takes the first room -------------------------------------------------------------


def test_the_fallback_takes_a_free_room_when_the_first_is_taken(db: sa.Engine) -> None:
    """Defect 5: apply_fallback always took the first room, so a second match's fallback at the same hour was
    refused although another room was free."""
    sc = scene(db, 10, players=8, rooms=2)
    other = second_match(db, sc, [4, 5, 6, 7])
    org = sc.league.organizer.id
    first = act(db, scheduling_admin.apply_fallback, match_id=sc.league.match.id, actor_user_id=org, now=NOW)
    second = act(db, scheduling_admin.apply_fallback, match_id=other, actor_user_id=org, now=NOW)
    assert (first.start_at, second.start_at) == (sc.at(13, 18), sc.at(13, 18))
    assert first.room_id != second.room_id
    assert [b.hanchans for b in active(db, other)] == [3]


# --- 6. the clock --------------------------------------------------------------------------------------------


def test_options_that_have_begun_are_not_listed(db: sa.Engine) -> None:
    """Defect 6a: with `now` inside the window the page listed options that had already begun."""
    sc = scene(db, 11)
    for n in range(4):
        paint(db, sc, n, Interval(sc.at(4, 10), sc.at(4, 23)))
    now = sc.at(4, 14, 10)
    page = page_of(db, sc, 0, now)
    assert page.options, "14:30–23:00 is still ahead"
    earliest = kirov_value(sc.at(4, 14, 30))  # `now` rounded up to the half-hour grid
    assert all(o["start"] >= earliest for o in page.options), page.options


def test_a_late_fourth_confirmation_does_not_book_the_past(db: sa.Engine) -> None:
    """Defect 6b: the fourth confirmation of a proposal whose start had passed booked a meeting in the past
    (answer_meeting gets the keyword `now`)."""
    sc = scene(db, 12)
    for n in range(4):
        paint(db, sc, n, sc.evening(4))
    p = proposed(db, sc, sc.at(4, 18), sc.at(4, 22, 30), 3)
    confirm(db, sc, p.id, 1, 2)
    late = sc.at(4, 19)
    try:
        act(db, booking.answer_meeting, proposal_id=p.id, user_id=sc.user(3).id, confirmed=True, now=late)
    except SchedulingError as error:
        assert RUSSIAN.search(str(error))
    assert active(db, sc.league.match.id) == []
    [after] = rows(db, MeetingProposal, id=p.id)
    assert after.status != "booked"


def test_an_answer_is_stamped_with_the_now_passed_in(db: sa.Engine) -> None:
    """Defect 6c: save_availability(now=X) stored the wall clock, not X, as answered_at."""
    sc = scene(db, 13)
    paint(db, sc, 0, sc.evening(4), now=NOW)
    [answer] = rows(db, AvailabilityAnswer, match_id=sc.league.match.id)
    assert answer.answered_at == NOW


def test_a_proposal_is_stamped_with_the_now_passed_in(db: sa.Engine) -> None:
    """Defect 6c: propose_meeting(now=X) stored the wall clock as the proposal's created_at and the proposer's
    confirmation time."""
    sc = scene(db, 14)
    for n in range(4):
        paint(db, sc, n, sc.evening(4))
    p = proposed(db, sc, sc.at(4, 18), sc.at(4, 22, 30), 3)
    [stored] = rows(db, MeetingProposal, id=p.id)
    [mine] = rows(db, ProposalConfirmation, proposal_id=p.id)
    assert (stored.created_at, mine.at) == (NOW, NOW)


def test_confirmations_and_the_booking_are_stamped_with_the_now_passed_in(db: sa.Engine) -> None:
    """Defect 6c: answer_meeting(now=X) stores X as the confirmation's `at` and the booking's created_at."""
    sc = scene(db, 15)
    for n in range(4):
        paint(db, sc, n, sc.evening(4))
    p = proposed(db, sc, sc.at(4, 18), sc.at(4, 22, 30), 3)
    stamps = {1: NOW + timedelta(hours=1), 2: NOW + timedelta(hours=2), 3: NOW + timedelta(hours=3)}
    for n, at in stamps.items():
        act(db, booking.answer_meeting, proposal_id=p.id, user_id=sc.user(n).id, confirmed=True, now=at)
    by_player = {c.player_id: c.at for c in rows(db, ProposalConfirmation, proposal_id=p.id)}
    assert {n: by_player[sc.league.players[n].id] for n in stamps} == stamps
    [row] = active(db, sc.league.match.id)
    assert row.created_at == stamps[3]


def test_an_assigned_booking_is_stamped_with_the_now_passed_in(db: sa.Engine) -> None:
    """Defect 6c: assign_meeting(now=X) stored the wall clock as the booking's created_at."""
    sc = scene(db, 16)
    row = assigned(db, sc, sc.at(4, 18), 3)
    [stored] = rows(db, Booking, id=row.id)
    assert stored.created_at == NOW


def test_cannot_come_accepts_now(db: sa.Engine) -> None:
    """Defect 6c: cannot_come takes `now` (it read the wall clock)."""
    sc = scene(db, 17)
    for n in range(4):
        paint(db, sc, n, sc.evening(4))
    booked_by_players(db, sc, [0, 1, 2, 3], sc.at(4, 18), 3)
    [row] = active(db, sc.league.match.id)
    later = NOW + timedelta(days=1)
    act(db, booking.cannot_come, booking_id=row.id, user_id=sc.user(2).id, now=later)
    assert active(db, sc.league.match.id) == []
    [declined] = [c for c in rows(db, ProposalConfirmation, proposal_id=row.proposal_id) if not c.confirmed]
    assert declined.at == later


def test_cancel_booking_accepts_now(db: sa.Engine) -> None:
    """Defect 6c: the organizer's cancel_booking takes `now`."""
    sc = scene(db, 18)
    row = assigned(db, sc, sc.at(4, 18), 3)
    act(db, scheduling_admin.cancel_booking, booking_id=row.id, actor_user_id=sc.league.organizer.id,
        reason="зал на ремонте", now=NOW)  # fmt: skip
    assert active(db, sc.league.match.id) == []


def test_move_to_next_window_accepts_now(db: sa.Engine) -> None:
    """Defect 6c: move_to_next_window takes `now`."""
    sc = scene(db, 19)
    target = act(db, scheduling_admin.move_to_next_window, match_id=sc.league.match.id,
                 actor_user_id=sc.league.organizer.id, reason="болезнь", now=sc.at(14, 12))  # fmt: skip
    assert target.code == "2"


# --- 7. a booked match still asks for time -------------------------------------------------------------------


def test_a_fully_booked_match_offers_no_time(db: sa.Engine) -> None:
    """Defect 7: with every hanchan booked the page still listed options (and so a proposal form)."""
    sc = scene(db, 20)
    for n in range(4):
        paint(db, sc, n, sc.evening(4), sc.evening(5))
    booked_by_players(db, sc, [0, 1, 2, 3], sc.at(4, 18), 3)
    page = page_of(db, sc, 1)
    assert (page.remaining, page.options) == (0, [])
    snap = snapshot_of(db, sc.league.match.id)
    assert snap.state == BOOKED and snap.options == ()
    text = card_text(snap)
    assert "Общие варианты" not in text and "Общего времени нет" not in text
    home = home_of(db, sc.user(1), sc.league.match.id)
    assert "общего времени нет" not in home.state


# --- 8. stale cards ------------------------------------------------------------------------------------------


def test_another_matchs_booking_that_takes_the_last_option_is_news_for_this_match(db: sa.Engine) -> None:
    """Defect 8: match A's booking took match B's last common option (the same room), but nothing was written for
    B: its card and pages kept the option."""
    sc = scene(db, 21, players=8)
    other = second_match(db, sc, [4, 5, 6, 7])
    org = sc.league.organizer.id
    with Session(db) as session:  # only the league's room is free that evening (other tests' rooms on PostgreSQL)
        others = [r for r in session.exec(select(Room.id)).all() if r != sc.league.room.id]
    for room_id in others:
        act(db, scheduling_admin.book_activity, title="D&D", start=sc.at(4, 12), end=sc.at(5), actor_user_id=org,
            room_id=room_id, now=NOW)  # fmt: skip
    for n in range(4):
        paint(db, sc, n, sc.evening(4))
    for n in (4, 5, 6, 7):
        paint(db, sc, n, sc.evening(4), match_id=other)
    assert snapshot_of(db, other).options, "B has the evening before A books it"
    with Session(db) as session:
        last = session.exec(select(sa.func.max(OutboxEvent.id))).one()
    booked_by_players(db, sc, [0, 1, 2, 3], sc.at(4, 18), 3)
    snap = snapshot_of(db, other)
    assert snap.options == () and snap.state == NO_FREE_TABLE  # the four share the evening: the table is taken
    news = [e.kind for e in rows(db, OutboxEvent, match_id=other) if e.id > last]
    assert {outbox.OPTIONS_LOST, "options_changed"} & set(news), news


def test_the_desk_says_the_booked_part_of_a_match_with_no_more_common_time_as_the_overview_does(
    db: sa.Engine,
) -> None:
    """A tester's find: 1 of 3 hanchans booked, the four share no more time. /schedule said «Забронировано 1 из 3;
    остальные: нет общего времени», the desk only «Все четверо ответили, общего свободного времени нет…»."""
    sc = scene(db, 28)
    for n, day in zip(range(4), (3, 4, 5, 6), strict=True):  # one common hanchan on day 8, the rest apart
        paint(db, sc, n, Interval(sc.at(8, 18), sc.at(8, 19, 30)), sc.evening(day))
    booked_by_players(db, sc, [0, 1, 2, 3], sc.at(8, 18), 1)
    match_id = sc.league.match.id
    assert snapshot_of(db, match_id).state == NO_COMMON_TIME
    booked_part = "Забронирован 1 ханчан из 3; остальные: "
    assert overview_row(db, match_id)["state"] == booked_part + "нет общего времени"
    assert "no_common_time" in desk_groups(db, match_id)
    with Session(db, expire_on_commit=False) as session:
        [item] = [i for i in build_desk(session, now=NOW).items if i.key == f"nct-{match_id}"]
    assert item.detail.startswith(booked_part + "все четверо ответили, общего свободного времени нет"), item.detail


# --- 9. the same state everywhere ----------------------------------------------------------------------------


@dataclass
class Seen:
    """What every surface shows of one match."""

    name: str
    match_id: int
    snap: MatchSnapshot
    text: str
    row: dict
    home: HomeCard
    page: MatchPage
    desk: set[str]
    hanchans: int


def key_of(overview_state: str) -> str | None:
    """The STATE_LABELS key an overview state shows (also inside «Окно закончилось: …»), longest label first."""
    state = overview_state.lower()
    for key, label in sorted(STATE_LABELS.items(), key=lambda kv: -len(kv[1])):
        if label.lower() in state:
            return key
    return None


def count_in(text: str) -> int | None:
    found = re.search(r"(\d+) из 4", text, re.IGNORECASE)
    return int(found.group(1)) if found else None


def disagreements(s: Seen, full_home_state: str) -> list[str]:
    """The facts on which the surfaces differ for one match."""
    out: list[str] = []
    seated = {x.player_id for x in s.snap.seats}
    fully = s.page.remaining <= 0
    if (s.snap.state in (BOOKED, PLAYING, COMPLETE, REPLACED)) != fully:  # nothing left to book
        out.append(f"card state {s.snap.state} but the page has {s.page.remaining} hanchans to book")
    if (s.row["can_assign"] == "") != fully:
        out.append(f"overview can_assign={s.row['can_assign']!r} but remaining={s.page.remaining}")
    if not fully and s.hanchans == 0 and s.home.state == full_home_state:
        out.append(f"home calls it booked: {s.home.state!r}")
    # «играется» at home exactly when the read model says the match is being played (a split match between its
    # meetings reads «сыграно … остальное забронировано» there)
    playing = s.snap.state == PLAYING
    if ("играется" in s.home.state) != (playing and not s.home.state.startswith("сыграно")):
        out.append(f"home says {s.home.state!r}, the card {s.snap.state}")
    if not fully and s.row["group"] == "booked":
        out.append("overview groups it as booked")
    # While there is time to agree on, the overview shows the card's key.
    if (s.hanchans == 0 or not fully) and key_of(s.row["state"]) != s.snap.state:
        out.append(f"overview state {s.row['state']!r} is not the card's {s.snap.state}")
    if f"<b>{STATE_LABELS.get(s.snap.state, s.snap.state)}</b>" not in s.text:
        out.append("the card text does not show the card's state")
    # Options: only once all four answered (a player without an answer has no free time); page and card agree.
    if not all(x.answered for x in s.snap.seats) and (s.page.options or s.snap.options):
        out.append("options before all four answered")
    if len(s.page.options) != len(s.snap.options):
        out.append(f"page lists {len(s.page.options)} options, the card {len(s.snap.options)}")
    if fully and (s.page.options or s.snap.options):
        out.append("a fully booked match lists options")
    if s.snap.options and format_span(s.snap.options[0].start, s.snap.options[0].end) not in s.text:
        out.append("the card text does not show the card's options")
    if ("no_common_time" in s.desk) != (s.snap.state == NO_COMMON_TIME and "over" not in s.desk):
        out.append(f"desk {sorted(s.desk)} vs card state {s.snap.state}")
    # The true reason of no option (issue 43 item 4): the people's time, or the club's tables, alike everywhere.
    tables = s.snap.state == NO_FREE_TABLE
    if ("no_free_table" in s.desk) != (tables and "over" not in s.desk):
        out.append(f"desk {sorted(s.desk)} vs card state {s.snap.state}")
    if s.page.tables_short != tables or ("столы" in s.home.state) != tables:
        out.append(f"tables taken: page {s.page.tables_short}, home {s.home.state!r}, card {s.snap.state}")
    if tables and "общего времени нет" in s.text.lower():
        out.append("the card blames the people's time")
    answered = sum(1 for _, ok in s.page.seats if ok)
    if answered != sum(1 for x in s.snap.seats if x.answered):
        out.append("the page and the card count different answers")
    # A live proposal: the same number of (seated) confirmations on the page, the card and the home card.
    if s.snap.proposal is not None:
        on_card = len(s.snap.proposal.confirmed & seated)
        counts = {
            "card": len(s.snap.proposal.confirmed),
            "card state": int(s.snap.state.removeprefix("confirmed_")) if s.snap.state.startswith("confirmed_") else 0,
            "page": count_in(next(p["confirmed"] for p in s.page.proposals if p["id"] == str(s.snap.proposal.id))),
            "home": count_in(s.home.state),
        }
        line = next((ln for ln in s.text.splitlines() if ln.startswith("Подтвердили:")), None)
        if line is not None:  # the names the card lists as confirmed
            counts["card text"] = sum(
                1 for x in s.snap.seats if x.player_id in s.snap.proposal.confirmed and x.name in line
            )
        if set(counts.values()) != {on_card}:
            out.append(f"confirmations differ (seated: {on_card}): {counts}")
    # The window: over on the page iff over in the overview and (unless settled) on the desk.
    over = s.page.window_over
    if over != (
        s.row["group"] == "over" or (s.row["group"] != "booked" and "окно закончилось" in s.row["state"].lower())
    ):
        out.append(f"page window_over={over} but the overview says {s.row['state']!r} ({s.row['group']})")
    if over and not fully and "over" not in s.desk:
        out.append("the window is over but the desk does not list the match")
    if s.snap.window_end is not None and s.page.window_over != (s.snap.window_end <= NOW):
        out.append("the card's window and the page's disagree on whether it is over")
    return out


def test_every_surface_tells_the_same_state(db: sa.Engine) -> None:
    """Defect 9: the Telegram card, the home card, the scheduling page, the overview and the desk each computed
    the state their own way. Matches in every state, each with four players of its own, compared fact by fact."""
    start = BASE + timedelta(weeks=4 * 22)
    past = f.window(date(2026, 10, 19))  # over before NOW
    current = f.window(date(2026, 11, 2))  # open at NOW (10.11 12:00): meetings that have begun, proposals in it
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=64,
                          windows=[f.window(start), f.window(start + timedelta(days=14)), past, current])  # fmt: skip
    sc = Scene(league, start, [league.room])
    ids: dict[str, int] = {"nobody": league.match.id}
    now_cases = ["begun", "unrecorded", "two_proposals"]  # issue 41: the states the surfaces told apart
    names = ["partly", "options", "no_common", "proposal_2", "booked_1_of_3", "booked", "played_part",
             "split_played", "over", "moved", "tables_taken", *now_cases]  # fmt: skip
    seats_of = {"nobody": [0, 1, 2, 3]}
    with session_scope(db) as session:
        for n, name in enumerate(names, start=1):
            seats_of[name] = list(range(4 * n, 4 * n + 4))
            round_ = league.rounds[2] if name == "over" else league.rounds[3] if name in now_cases else league.rounds[0]
            players = [session.merge(league.players[k]) for k in seats_of[name]]
            ids[name] = f.match(session, session.merge(round_), players, table=str(n + 1)).id

    def paint_all(name: str, *spans: Interval, only: list[int] | None = None) -> None:
        for k in only or seats_of[name]:
            paint(db, sc, k, *spans, match_id=ids[name])

    paint_all("partly", sc.evening(1), only=seats_of["partly"][:2])
    paint_all("options", sc.evening(2))
    for k, day in zip(seats_of["no_common"], (3, 4, 5, 6), strict=True):
        paint(db, sc, k, sc.evening(day), match_id=ids["no_common"])
    paint_all("proposal_2", sc.evening(7))
    p = proposed(db, sc, sc.at(7, 18), sc.at(7, 22, 30), 3, who=seats_of["proposal_2"][0], match_id=ids["proposal_2"])
    confirm(db, sc, p.id, seats_of["proposal_2"][1])
    paint_all("booked_1_of_3", sc.evening(8), sc.evening(9))
    booked_by_players(db, sc, seats_of["booked_1_of_3"], sc.at(8, 18), 1, match_id=ids["booked_1_of_3"])
    paint_all("booked", sc.evening(10), sc.evening(13))  # Sunday stays free: a time the booked match must not offer
    booked_by_players(db, sc, seats_of["booked"], sc.at(10, 18), 3, match_id=ids["booked"])
    assigned(db, sc, sc.at(11, 18), 3, match_id=ids["played_part"])
    played(db, sc, 1, sc.at(11, 20), seats=seats_of["played_part"], match_id=ids["played_part"])
    assigned(db, sc, sc.at(12, 18), 2, match_id=ids["split_played"])
    played(db, sc, 2, sc.at(12, 21, 30), seats=seats_of["split_played"], match_id=ids["split_played"])
    over_start = past.start
    for k in seats_of["over"][:2]:
        paint(db, sc, k, Interval(over_start + timedelta(days=3, hours=14), over_start + timedelta(days=3, hours=20)),
              match_id=ids["over"], now=over_start)  # fmt: skip
    # Issue 43 item 4: the four share an evening the club's every table spends on another activity.
    paint_all("tables_taken", sc.evening(0))
    with session_scope(db) as session:
        for room in session.exec(select(Room)).all():
            scheduling_admin.book_activity(session, title="Турнир по го", start=sc.evening(0).start,
                                           end=sc.evening(0).end, room_id=room.id, actor_user_id=league.organizer.id,
                                           now=NOW)  # fmt: skip
    paint_all("moved", sc.evening(3))
    day = current.start  # Monday 02.11 00:00 in Kirov
    # a meeting on at NOW (10.11 11:00–15:30) and one over without its results (08.11 18:00–22:30), set the day before
    for name, begins in (
        ("begun", day + timedelta(days=8, hours=11)),
        ("unrecorded", day + timedelta(days=6, hours=18)),
    ):
        act(db, scheduling_admin.assign_meeting, match_id=ids[name], start=begins, hanchans=3,
            actor_user_id=league.organizer.id, now=begins - timedelta(days=1))  # fmt: skip
    # two live proposals (Регламент §2: one for the rest of a split match, one moving its booked meeting): the older
    # confirmed by two, the newer by its proposer alone
    evenings = [Interval(day + timedelta(days=d, hours=17), day + timedelta(days=d, hours=23)) for d in (9, 10, 11)]
    paint_all("two_proposals", *evenings)
    one = act(db, scheduling_admin.assign_meeting, match_id=ids["two_proposals"], start=evenings[0].start, hanchans=1,
              actor_user_id=league.organizer.id, now=NOW)  # fmt: skip
    first, second, third = seats_of["two_proposals"][:3]
    rest = proposed(db, sc, evenings[1].start, evenings[1].start + timedelta(hours=3), 2, who=first,
                    match_id=ids["two_proposals"])  # fmt: skip
    confirm(db, sc, rest.id, second)
    act(db, booking.propose_meeting, match_id=ids["two_proposals"], user_id=sc.user(third).id,
        start=evenings[2].start, end=evenings[2].start + timedelta(minutes=90), hanchans=1, now=NOW,
        replaces_booking_id=one.id)  # fmt: skip
    act(db, scheduling_admin.move_to_next_window, match_id=ids["moved"], actor_user_id=league.organizer.id,
        reason="болезнь", now=NOW)  # fmt: skip

    with Session(db, expire_on_commit=False) as session:
        hanchans = {name: len(effective(session, mid)) for name, mid in ids.items()}
    seen = []
    for name, match_id in ids.items():
        snap = snapshot_of(db, match_id)
        first = league.users[seats_of[name][1]]
        with Session(db, expire_on_commit=False) as session:
            page = match_page(session, match_id=match_id, user=first, now=NOW)
        seen.append(
            Seen(
                name,
                match_id,
                snap,
                card_text(snap),
                overview_row(db, match_id),
                home_of(db, first, match_id),
                page,
                desk_groups(db, match_id),
                hanchans[name],
            )  # fmt: skip
        )
    full_home = next(s.home.state for s in seen if s.name == "booked")
    by_name = {s.name: s for s in seen}
    assert by_name["tables_taken"].snap.state == NO_FREE_TABLE
    # a meeting that has begun without its results is being played everywhere; the one that is over is the desk's
    assert [by_name[n].snap.state for n in ("begun", "unrecorded")] == [PLAYING, PLAYING]
    assert "unrecorded" in by_name["unrecorded"].desk and "unrecorded" not in by_name["begun"].desk
    assert by_name["two_proposals"].snap.state == "confirmed_2"
    found = {s.name: d for s in seen if (d := disagreements(s, full_home))}
    # The moved match lives in the next window on every surface.
    moved = next(s for s in seen if s.name == "moved")
    new_window = f.window(start + timedelta(days=14))
    assert (moved.snap.window_start, moved.row["tour"]) == (new_window.start, "Тур 2")
    assert f"{(start + timedelta(days=14)):%d.%m}" in moved.home.when
    assert found == {}, "\n".join(f"{name}: {'; '.join(d)}" for name, d in found.items())


def test_a_confirmation_count_counts_only_seated_players(db: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Defect 9: after a technical substitute took the seat of a player who had confirmed, the card still counted
    that player; the page and the home card did not."""
    monkeypatch.setattr("services.core.security.hash_password", lambda password: "test-hash")
    sc = scene(db, 23)
    for n in range(4):
        paint(db, sc, n, sc.evening(4))
    p = proposed(db, sc, sc.at(4, 18), sc.at(4, 22, 30), 3)
    confirm(db, sc, p.id, 1)  # 2 of 4
    with session_scope(db) as session:
        name = f"Замена {uuid.uuid4().hex[:6].translate(f.LETTERS)}"  # a name is letters
        seat_substitute(session, session.merge(sc.league.organizer), sc.league.match.id, sc.league.players[1].id,
                        new_name=name, reason="не придёт", now=NOW)  # fmt: skip
    snap = snapshot_of(db, sc.league.match.id)
    seated = {s.player_id for s in snap.seats}
    page = page_of(db, sc, 0)
    home = home_of(db, sc.user(0), sc.league.match.id)
    counts = {
        "card": len(snap.proposal.confirmed),
        "card state": snap.state,
        "page": count_in(page.proposals[0]["confirmed"]),
        "home": count_in(home.state),
    }
    assert len(snap.proposal.confirmed & seated) == 1
    assert counts == {"card": 1, "card state": "confirmed_1", "page": 1, "home": 1}


def test_no_match_is_left_with_two_active_bookings_at_once_by_any_path(db: sa.Engine) -> None:
    """Defect 1, in the rows: after the players take what the page offers for the rest of a split match, no two
    active bookings of the match overlap."""
    sc = scene(db, 24, rooms=2)
    for n in range(4):
        paint(db, sc, n, sc.evening(4))
    booked_by_players(db, sc, [0, 1, 2, 3], sc.at(4, 18), 2)
    page = page_of(db, sc, 0)
    for meeting, option in zip(page_meetings(page), page.options, strict=True):
        try:
            p = proposed(db, sc, meeting.start, meeting.end, int(option["hanchans"]))
        except SchedulingError:
            continue
        confirm(db, sc, p.id, 1, 2, 3)
        break
    spans = sorted((b.start_at, b.end_at) for b in active(db, sc.league.match.id))
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False)), spans


def test_a_changed_window_is_news_for_every_match_playing_in_it(db: sa.Engine) -> None:
    """Item 5 of the issue: a window change changes what a card and a page show, so it writes an event per match
    (the match moved into that window included, drafts excluded)."""
    sc = scene(db, 23, players=8)
    moved = second_match(db, sc, [4, 5, 6, 7])
    act(db, scheduling_admin.move_to_next_window, match_id=moved, actor_user_id=sc.league.organizer.id,
        reason="болезнь", now=NOW)  # fmt: skip
    windows = [f.window(sc.start + timedelta(days=14 * k)) for k in range(4)]
    windows[1] = f.window(sc.start + timedelta(days=14), days=10)  # tour 2 shortened
    with session_scope(db) as session:
        set_windows(session, session.merge(sc.league.season), [(w.start, w.end) for w in windows],
                    actor_user_id=sc.league.organizer.id)  # fmt: skip
    changed = [e for e in rows(db, OutboxEvent, match_id=moved) if e.kind == outbox.WINDOW_CHANGED]
    assert len(changed) == 1 and datetime.fromisoformat(json.loads(changed[0].payload)["end"]) == windows[1].end
    assert not [e for e in rows(db, OutboxEvent, match_id=sc.league.match.id) if e.kind == outbox.WINDOW_CHANGED]


def test_moving_a_match_to_the_next_tour_ends_its_old_windows_proposals(db: sa.Engine) -> None:
    """Found by bench/season.py: an open proposal outlived its match's move to the next window (all four confirming
    it would have booked a meeting in the old window), and a released booking's proposal stayed «booked»."""
    sc = scene(db, 24)
    for n in range(4):
        paint(db, sc, n, sc.evening(4), sc.evening(5))
    booked = booked_by_players(db, sc, [0, 1, 2, 3], sc.at(4, 18), 2)
    open_ = proposed(db, sc, sc.at(5, 18), sc.at(5, 19, 30), 1)
    act(db, scheduling_admin.move_to_next_window, match_id=sc.league.match.id, actor_user_id=sc.league.organizer.id,
        reason="болезнь", now=NOW)  # fmt: skip
    with Session(db) as session:
        assert session.get(MeetingProposal, open_.id).status == "withdrawn"
        assert session.get(MeetingProposal, booked.id).status == "withdrawn"
    assert [b for b in rows(db, Booking, match_id=sc.league.match.id) if b.active] == []
    paint(db, sc, 0, sc.evening(16))  # a repaint in the new window reopens nothing of the old one


def test_the_organizers_assignment_ends_an_open_proposal_it_leaves_no_room_for(db: sa.Engine) -> None:
    """Found in session 6's read-back: the organizer assigned the match's remaining hanchans while the players' own
    proposal for them waited for two more confirmations; the proposal stayed open (its table held for 48 h, the page
    and the card asking the four to confirm a meeting that could no longer be booked). Регламент §3: the organizer's
    assignment needs no confirmations — it ends the proposal it leaves no hanchans for, and the four hear why."""
    sc = scene(db, 25)
    for n in range(4):
        paint(db, sc, n, sc.evening(4), sc.evening(5))
    open_ = proposed(db, sc, sc.at(4, 18), sc.at(4, 22, 30), 3)
    confirm(db, sc, open_.id, 1)
    assigned(db, sc, sc.at(5, 18), 3)
    with Session(db) as session:
        assert session.get(MeetingProposal, open_.id).status != "open"
    [row] = [p for p in page_of(db, sc, 2).proposals if p["id"] == str(open_.id)]
    assert not row["can_answer"] and row["reason"]
    ended = [
        e
        for e in rows(db, OutboxEvent, match_id=sc.league.match.id)
        if json.loads(e.payload).get("proposal_id") == open_.id
    ]
    assert any(e.kind == outbox.BOOKING_FAILED for e in ended)
    with pytest.raises(SchedulingError):  # the last confirmation books nothing
        confirm(db, sc, open_.id, 2)


def test_the_organizers_assignment_keeps_a_proposal_that_still_fits(db: sa.Engine) -> None:
    """One hanchan assigned beside a players' proposal for one other, at another time: both fit the match's three."""
    sc = scene(db, 26)
    for n in range(4):
        paint(db, sc, n, sc.evening(4), sc.evening(5))
    open_ = proposed(db, sc, sc.at(4, 18), sc.at(4, 19, 30), 1)
    assigned(db, sc, sc.at(5, 18), 2)
    with Session(db) as session:
        assert session.get(MeetingProposal, open_.id).status == "open"
    confirm(db, sc, open_.id, 1, 2, 3)
    assert len(active(db, sc.league.match.id)) == 2


def test_the_organizers_move_onto_an_open_proposals_time_ends_it(db: sa.Engine) -> None:
    sc = scene(db, 27)
    for n in range(4):
        paint(db, sc, n, sc.evening(4), sc.evening(5))
    booked_by_players(db, sc, [0, 1, 2, 3], sc.at(4, 18), 2)
    open_ = proposed(db, sc, sc.at(5, 18), sc.at(5, 19, 30), 1)
    [meeting] = active(db, sc.league.match.id)
    act(db, scheduling_admin.move_booking, booking_id=meeting.id, start=sc.at(5, 17), end=sc.at(5, 20),
        actor_user_id=sc.league.organizer.id, reason="зал на ремонте", now=NOW)  # fmt: skip
    with Session(db) as session:
        ended = session.get(MeetingProposal, open_.id)
        assert ended.status == "failed" and "в это же время" in ended.failure_reason
