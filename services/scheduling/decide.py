"""The scheduling decisions: from what the read model (`board`) holds and one action, what must happen. Pure: no
database, no clock (`now` is passed in), no reflex or telegram.

The database modules (`availability`, `booking`, `organizer`) load the read model under the match's lock, ask
here, and carry the answer out; a question the page asks first («Снять бронь?») is the same decision without
carrying it out, so the question and the action cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from itertools import combinations

from services.core.ruleset import SEATS
from services.scheduling.intervals import (
    GRID_MINUTES,
    Interval,
    at_kirov,
    ceil_to_grid,
    covers,
    kirov_date,
    subtract,
    union,
)
from services.scheduling.rules import Option, Place, common_options_multi, format_kirov

# How an unblocking time ranks (Регламент §3): short of the hanchans, the addition asked, the gap to one's own
# time, longest, earliest.
Rank = tuple[bool, timedelta, timedelta, timedelta, datetime]


def remaining_hanchans(planned: int, booked: int, recorded: int) -> int:
    """The hanchans that still need a meeting. Регламент §2: a match may be played over several meetings; a hanchan
    is covered by a booking or by its recorded result (a result entered without a booking needs no meeting)."""
    return max(planned - max(booked, recorded), 0)


def played_meetings(bookings: Sequence[tuple[int, int]], recorded: int) -> set[int]:
    """The meetings (booking ids, given with their hanchans in the order they are held) that hold recorded hanchans:
    results fill the meetings in order. Such a meeting is not moved or released: its results stay where recorded."""
    touched, before = set(), 0
    for booking_id, hanchans in bookings:
        if recorded > before:
            touched.add(booking_id)
        before += hanchans
    return touched


NO_MEETING = "Встреча ещё не назначена — результаты вносятся после неё."


def hanchan_meeting(meetings: Sequence[tuple[datetime, int]], number: int) -> datetime | None:
    """The start of the meeting that holds the match's hanchan `number` (the meetings given by their start and
    hanchans, in the order they are held): results fill the meetings in order, as in `played_meetings`. None when
    no meeting holds it."""
    held = 0
    for start, hanchans in meetings:
        held += hanchans
        if number <= held:
            return start
    return None


def entry_refusal(meetings: Sequence[tuple[datetime, int]], number: int, *, now: datetime) -> str | None:
    """Why the result of the match's hanchan `number` cannot be entered yet, or None. Регламент §6.2: a result is
    checked at the table and entered after its hanchan is played — from the start of the meeting that holds it (a
    split match's later hanchans open with its later meeting); an entry outside a meeting is the organizer's
    decision, with its reason (§6.3)."""
    start = hanchan_meeting(meetings, number)
    if start is None:
        return NO_MEETING
    if now < start:
        return f"Результаты откроются с началом встречи: {format_kirov(start)}."
    return None


def bookable_from(now: datetime) -> datetime:
    """The first instant a new meeting may start: the next half hour of the grid (a begun half hour is gone)."""
    return ceil_to_grid(now)


def need_options(
    window: Interval,
    availabilities: Sequence[Sequence[Interval]],
    busy_by_room: Mapping[Place, Sequence[Interval]],
    meetings: Iterable[Interval],
    *,
    now: datetime | None,
    hanchan_minutes: int,
) -> list[Option]:
    """Common options for a match's remaining hanchans (Регламент §3): where all four are free, none of the four is
    in a meeting (this match's or another's, in any room: one person sits at one table), a room is free, and the time
    has not begun. `meetings` are the four players' booked meetings, without the one being moved."""
    if now is not None:
        start = max(window.start, bookable_from(now))
        if start >= window.end:
            return []
        window = Interval(start, window.end)
    if not availabilities or not busy_by_room:
        return []
    not_sitting = subtract([window], meetings)
    return common_options_multi(window, [*availabilities, not_sitting], busy_by_room, hanchan_minutes=hanchan_minutes)


def with_levels(
    fully: Sequence[Option], loose: Sequence[Option], fully_free: Sequence[Sequence[Interval]]
) -> list[Option]:
    """«Если нужно»: the options over everyone's painted time (`loose`) ranked after those over the fully free time
    (`fully`, computed the same way without anyone's «если нужно»); each loose option not also a fully free one
    counts the players whose «если нужно» it needs (`Option.if_needed`), never saying whose. Fewest such players
    first, then longest, then earliest."""
    seen = {o.interval for o in fully}
    extra = [
        replace(o, if_needed=sum(1 for spans in fully_free if not covers(spans, o.interval)))
        for o in loose
        if o.interval not in seen
    ]
    extra.sort(key=lambda o: (o.if_needed, -o.interval.duration, o.start))
    return [*fully, *extra]


MAX_UNBLOCK_TIMES = 3
# A time the one who blocks is asked to add starts at least this far ahead: the other three must still see the
# proposal and confirm it (Регламент §3: the four agree), so a hint for tonight only takes a place a usable time
# would have had.
HINT_LEAD = timedelta(hours=24)


# A time two players are asked to add (`pair_unblock_times`) starts at least this far ahead: both must add it,
# then the four confirm it.
SHARED_HINT_LEAD = timedelta(hours=48)


def hint_from(now: datetime | None, *, shared: bool = False) -> datetime | None:
    """The first instant a hinted time may start: a day ahead of `now` (`HINT_LEAD`), two days for a time shared
    by two players (`SHARED_HINT_LEAD`), on the grid."""
    return None if now is None else ceil_to_grid(now + (SHARED_HINT_LEAD if shared else HINT_LEAD))


def addition_needed(span: Interval, own_free: Sequence[Interval], length: timedelta, step: timedelta) -> timedelta:
    """The least time a player would add to their own free time for a meeting of `length` inside `span` (meetings
    start on the grid `step`): zero when one already fits their time, the whole length when none touches it."""
    best = length
    start = span.start
    while start + length <= span.end and best > timedelta(0):
        meeting = Interval(start, start + length)
        missing = sum((iv.duration for iv in subtract([meeting], own_free)), timedelta(0))
        best = min(best, missing)
        start += step
    return best


def gap_to(span: Interval, own: Sequence[Interval]) -> timedelta:
    """How far `span` lies from the nearest of the player's own spans (zero when it touches or crosses one; a day
    when they gave none): staying longer next to an evening they gave is easier than coming another time."""
    gaps = [max(iv.start - span.end, span.start - iv.end, timedelta(0)) for iv in own]
    return min(gaps, default=timedelta(days=1))


def could_come(window: Interval, own: Sequence[Interval], refused: Sequence[Interval]) -> list[Interval]:
    """Where a hint may ask a player to be: the whole window but the days (Kirov) of the meetings they declined — a
    proposal refused, «Не смогу» for a booked one: no one is asked to come on the very day they turned down —, and
    their own painted time always (issue 43 item 7)."""
    if not refused:
        return [window]
    days = [
        Interval(at_kirov(kirov_date(r.start)), at_kirov(kirov_date(r.end - timedelta(microseconds=1)) + timedelta(1)))
        for r in refused
    ]
    return union(subtract([window], days), own)


def unblock_times(
    seat_ids: Sequence[int],
    free: Mapping[int, Sequence[Interval]],
    options: Callable[[list[list[Interval]]], list[Option]],
    window: Interval,
    *,
    need: int = 1,
    at_least: int = 1,
    hanchan_minutes: int,
    refused: Mapping[int, Sequence[Interval]] | None = None,
) -> dict[int, list[Option]]:
    """The one who blocks is told: per seated player, the best times at which the other three are free — the
    options the match would have if that player were free all window but the times they declined (`refused`:
    `could_come`; `options` computes them with the rooms and meetings as for a real option) holding at least
    `at_least` hanchans. Best: those holding all `need` remaining
    hanchans first, then the least the player would add to their own time, then the nearest to it (stay an hour
    longer on an evening they gave rather than come on another day), then the longest. A player absent from the
    result cannot unblock the match alone."""
    hanchan = timedelta(minutes=hanchan_minutes)
    out: dict[int, list[Option]] = {}
    for player in seat_ids:
        could = could_come(window, free.get(player, []), (refused or {}).get(player, []))
        found = options([could if other == player else list(free.get(other, [])) for other in seat_ids])
        found = [o for o in found if o.hanchans_fit >= at_least]
        own = list(free.get(player, []))

        def rank(o: Option, own: list[Interval] = own) -> Rank:
            length = min(need, o.hanchans_fit) * hanchan
            added = addition_needed(o.interval, own, length, timedelta(minutes=GRID_MINUTES))
            return (o.hanchans_fit < need, added, gap_to(o.interval, own), -o.interval.duration, o.start)

        if found:
            out[player] = sorted(found, key=rank)[:MAX_UNBLOCK_TIMES]
    return out


def pair_unblock_times(
    seat_ids: Sequence[int],
    free: Mapping[int, Sequence[Interval]],
    options: Callable[[list[list[Interval]]], list[Option]],
    window: Interval,
    *,
    need: int = 1,
    at_least: int = 1,
    asked: Iterable[int] = (),
    hanchan_minutes: int,
    refused: Mapping[int, Sequence[Interval]] | None = None,
) -> dict[int, list[Option]]:
    """Регламент §3 (the site computes the common options): when no one alone can make the time, two may. Per pair
    of seated players of whom neither is `asked` already (a player with a hint of their own, `unblock_times`), the
    times at which the other two are free, none of the four sits in a meeting and a table is free — what would
    become an option if both of the pair could come. Each of the two is told the same times (`Option.shared`),
    never whom they share them with; after one adds the time, the other is the one who alone blocks and gets the
    usual hint. Ranked as `unblock_times`, the addition and the distance summed over the two; at most
    `MAX_UNBLOCK_TIMES` per player."""
    hanchan, step = timedelta(minutes=hanchan_minutes), timedelta(minutes=GRID_MINUTES)
    skip = set(asked)
    ranked: dict[int, list[tuple[Rank, Option]]] = {}
    for pair in combinations([p for p in seat_ids if p not in skip], 2):
        found = options(
            [
                could_come(window, free.get(other, []), (refused or {}).get(other, []))
                if other in pair
                else list(free.get(other, []))
                for other in seat_ids
            ]
        )
        for o in found:
            if o.hanchans_fit < at_least:
                continue
            length = min(need, o.hanchans_fit) * hanchan
            own = [list(free.get(p, [])) for p in pair]
            added = sum((addition_needed(o.interval, spans, length, step) for spans in own), timedelta(0))
            gap = sum((gap_to(o.interval, spans) for spans in own), timedelta(0))
            key = (o.hanchans_fit < need, added, gap, -o.interval.duration, o.start)
            for player in pair:
                ranked.setdefault(player, []).append((key, replace(o, shared=True)))
    out: dict[int, list[Option]] = {}
    for player, entries in ranked.items():
        seen: set[Interval] = set()
        for _, o in sorted(entries, key=lambda e: e[0]):
            if o.interval not in seen and len(seen) < MAX_UNBLOCK_TIMES:
                seen.add(o.interval)
                out.setdefault(player, []).append(o)
    return out


def split_plan(
    options: Sequence[Option], remaining: int, *, earliest: datetime, hanchan_minutes: int
) -> list[Interval]:
    """Регламент §2 (a match may be played over several meetings): when no option holds the remaining hanchans in
    one meeting, the meetings, earliest first, that would hold them all — each from the start of the earliest
    option not yet used, as many hanchans as it holds (from `earliest` on, on the grid). Proposing the first
    leaves room for the rest; proposing the biggest part first may let an earlier evening pass. Empty when one
    option holds them all, or the options together cannot."""
    hanchan = timedelta(minutes=hanchan_minutes)
    if remaining < 1 or any(o.hanchans_fit >= remaining for o in options):
        return []
    plan: list[Interval] = []
    left, free_from = remaining, ceil_to_grid(earliest)
    for o in sorted(options, key=lambda o: (o.start, -o.interval.duration)):
        start = max(o.start, free_from)
        fit = min(left, (o.end - start) // hanchan) if o.end > start else 0
        if fit < 1:
            continue
        plan.append(Interval(start, start + fit * hanchan))
        left, free_from = left - fit, start + fit * hanchan
        if left == 0:
            return plan
    return []


def busy_players(meeting: Interval, meetings_by_name: Mapping[str, Iterable[Interval]]) -> list[str]:
    """The players (by name) already sitting in another meeting that overlaps `meeting`."""
    return [name for name, spans in meetings_by_name.items() if any(iv.overlaps(meeting) for iv in spans)]


def busy_refusal(meeting: Interval, meetings_by_name: Mapping[str, Iterable[Interval]]) -> str | None:
    """Why nobody may be booked at `meeting`: one of the four already has a meeting then (any match, any room)."""
    busy = busy_players(meeting, meetings_by_name)
    if not busy:
        return None
    who = ", ".join(busy)
    verb = "уже играет" if len(busy) == 1 else "уже играют"
    return f"В это время {who} {verb} в другой встрече: выберите другое время."


def free_tables(
    meeting: Interval, busy_by_place: Mapping[tuple[int, int], Sequence[Interval]], preferred: Place | None = None
) -> list[tuple[int, int]]:
    """Every (room, table) free for the whole meeting, the preferred one first, then by room and table: a meeting
    takes the lowest free table, and the next ones if a concurrent writer took it first."""
    places = sorted(busy_by_place, key=lambda p: (p != preferred, p))
    return [p for p in places if not any(b.overlaps(meeting) for b in busy_by_place[p])]


def seating(
    meeting: Interval,
    busy_by_place: Mapping[tuple[int, int], Sequence[Interval]],
    held: Mapping[tuple[int, int], Sequence[int]],
    *,
    preferred: Place | None = None,
    overrule: bool = False,
) -> list[tuple[tuple[int, int], tuple[int, ...]]]:
    """Where a meeting may sit, in the order to try: each (room, table) free of bookings for the whole meeting with
    the other matches' live proposals holding it then (`held`: place → proposal ids). Регламент §3: a hold is a
    promise — the tables no one holds come first (the preferred one first, then by room and table), and they alone
    for the players. Only the organizer (`overrule`: Регламент §3, §6.3, the organizer decides the schedule) takes
    a held table, and only when no other is free: then each comes with the proposals it would end. Empty: none."""
    free = free_tables(meeting, busy_by_place, preferred)
    unheld: list[tuple[tuple[int, int], tuple[int, ...]]] = [(p, ()) for p in free if not held.get(p)]
    if unheld or not overrule:
        return unheld
    return [(p, tuple(held[p])) for p in free]


# --- confirmations -----------------------------------------------------------------------------------------


BEGUN = "Время этого предложения уже наступило: бронь не создана, предложите новое время."


# Регламент §3 (the four agree on a time): a proposal still waiting for answers a day before its start is recalled
# to those who have not answered, once; one made within that day was just sent to them, so it is not.
PROPOSAL_REMINDER_BEFORE = timedelta(hours=24)


def proposal_reminder_due(
    meeting: Interval, *, proposed_at: datetime, now: datetime, answered: Iterable[int], seat_ids: Iterable[int]
) -> bool:
    """A live proposal's reminder is due: its start is within `PROPOSAL_REMINDER_BEFORE` and not yet come, it was
    proposed before that moment, and a seated player has neither confirmed nor declined it."""
    due = meeting.start - PROPOSAL_REMINDER_BEFORE
    return proposed_at < due <= now < meeting.start and not set(seat_ids) <= set(answered)


def meeting_reminder_due(meeting: Interval, *, booked_at: datetime, now: datetime) -> bool:
    """A booked meeting is recalled privately a day before its start, with its «Не смогу» (issue 44): its start is
    within `PROPOSAL_REMINDER_BEFORE` and not yet come, and it was booked before that moment (else its own message
    was just sent)."""
    due = meeting.start - PROPOSAL_REMINDER_BEFORE
    return booked_at < due <= now < meeting.start


def answer_refusal(meeting: Interval, *, now: datetime, own_free: Sequence[Interval], confirmed: bool) -> str | None:
    """Why a seated player's answer to a live proposal is refused, or None. A refusal may always be given; a
    confirmation only before the meeting starts (no booking in the past) and inside the player's own time."""
    if not confirmed:
        return None
    if meeting.start < now:
        return BEGUN
    if not covers(own_free, meeting):
        return "Это время не входит в вашу доступность: сначала отметьте его свободным и сохраните."
    return None


def booking_refusal(hanchans: int, *, remaining: int, planned: int) -> str | None:
    """Регламент §3: a match is booked for its planned hanchans once; re-checked when the fourth confirms, since the
    organizer may have assigned a time meanwhile. None when the proposal may be booked."""
    if hanchans <= remaining:
        return None
    if remaining <= 0:
        return "Все ханчаны матча уже забронированы (встреча назначена раньше). Это предложение не забронировано."
    return (
        f"Матчу осталось {remaining} ханч. из {planned}, а предложено {hanchans}: "
        "бронь не создана, предложите время заново."
    )


def assignment_ends(
    proposal: Interval, hanchans: int, *, assigned: Interval, left: int, planned: int, moves_booking: bool
) -> str | None:
    """Регламент §3 («Организатор вправе назначить или перенести матч без подтверждений игроков»): why the
    organizer's meeting `assigned`, after which `left` hanchans remain to book, ends a live proposal of the same
    match (its reason for the four), or None when the proposal still fits beside it."""
    if proposal.overlaps(assigned):
        return f"Организатор назначил встречу на {format_kirov(assigned.start)}, в это же время: предложение снято."
    if moves_booking:
        return None  # it moves a meeting already counted: the assignment leaves its hanchans as they were
    return booking_refusal(hanchans, remaining=left, planned=planned)


def fully_confirmed(confirmed: Iterable[int], seat_ids: Iterable[int]) -> bool:
    """All four seated players confirmed (answers of players no longer seated do not count)."""
    seats = set(seat_ids)
    return len(seats & set(confirmed)) >= min(SEATS, len(seats)) > 0


# --- repainting ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Confirmed:
    """A proposal the repainting player confirmed: still collecting confirmations, or booked (`booking_id`)."""

    proposal_id: int
    meeting: Interval
    need: int | None  # the need it answers: None = the match's remaining hanchans, else the booking it moves
    booking_id: int | None = None


@dataclass(frozen=True)
class Repaint:
    """What saving new availability withdraws (Регламент §6.1: при изменении доступности назначенное время не
    считается сохранённым без нового подтверждения)."""

    withdrawn: tuple[Confirmed, ...] = ()  # open proposals: the player's confirmation is taken back
    released: tuple[Confirmed, ...] = ()  # booked: the room is released, the player's confirmation taken back
    reopened: tuple[int, ...] = ()  # released proposals that collect confirmations again (the other three stand)
    retired: tuple[int, ...] = ()  # released proposals that end: their need has another open proposal, or begun
    notices: tuple[str, ...] = field(default=())

    @property
    def released_starts(self) -> list[str]:
        """The released meetings' Kirov starts, for the «Снять бронь?» question."""
        return [format_kirov(c.meeting.start) for c in self.released]


def repaint(
    free: Sequence[Interval], confirmed: Sequence[Confirmed], *, open_needs: Iterable[int | None], now: datetime
) -> Repaint:
    """Which of the player's confirmations the new free time no longer covers, and what becomes of them. A released
    booking's proposal collects confirmations again, unless its need already has an open proposal (one per need)
    or its time has begun: then it ends, and the four propose anew."""
    taken = set(open_needs)
    withdrawn, released, reopened, retired, notices = [], [], [], [], []
    for c in sorted(confirmed, key=lambda c: c.meeting.start):
        if covers(free, c.meeting):
            continue
        when = format_kirov(c.meeting.start)
        if c.booking_id is None:
            withdrawn.append(c)
            notices.append(f"Ваше подтверждение встречи {when} снято: это время больше не входит в вашу доступность.")
            continue
        released.append(c)
        if c.need in taken or c.meeting.start < now:
            retired.append(c.proposal_id)
            notices.append(f"Встреча {when} больше не входит в вашу доступность: бронь снята, предложите новое время.")
        else:
            taken.add(c.need)
            reopened.append(c.proposal_id)
            notices.append(
                f"Встреча {when} больше не входит в вашу доступность: бронь снята, нужно новое подтверждение."
            )
    return Repaint(tuple(withdrawn), tuple(released), tuple(reopened), tuple(retired), tuple(notices))
