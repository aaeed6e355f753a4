"""The season bench's people (bench/season.py): weekly availability, who is busy, who answers only after the Sunday
reminder, how quickly each confirms, how they answer the blocker's hint, and the scores a table writes down. Pure
and seeded; imports no database."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from services.scheduling.intervals import Interval, at_kirov, kirov_date, subtract, to_kirov

HALF_HOUR = timedelta(minutes=30)


@dataclass(frozen=True)
class Model:
    """How hard the club is. `OLD`: the model the bench always had (its draws unchanged). `HARD` (issue 43 item 5):
    about half of the foursomes share no painted time (more very busy people, fewer free evenings, more days
    dropped), more people who answer only after the Sunday reminder, declines though free, repaints after a
    booking, «Не смогу», other club activities taking the room on some evenings, and the organizer working the
    desk every evening."""

    name: str
    busy: float = 0.08  # share of very busy people: three or four short spans in a whole window
    late: float = 0.15  # share who answer only after the Sunday reminder
    evenings: tuple[float, float] = (0.5, 0.95)  # a person's chance of a usual free weekday evening, drawn in this
    weekends: tuple[float, float] = (0.85, 1.0)
    drop: float = 0.12  # a usual free day dropped this week
    decline: float = 0.0  # a proposal declined though free (plans changed): per person and proposal
    repaint: float = 0.0  # a player repaints their time after a booking: per person and booking
    cannot: float = 0.0  # a booked player says «Не смогу» (two days before, at the latest 6 h): per person and booking
    activities: float = 0.0  # of the club's evenings, another activity takes the first room 18:00–23:00
    desk: bool = False  # the organizer works the desk every evening (Регламент §3, §6.1), not only at the window's end


OLD = Model("old")
HARD = Model(
    "hard", busy=0.15, late=0.2, evenings=(0.5, 0.95), weekends=(0.75, 1.0), drop=0.2, decline=0.1, repaint=0.15,
    cannot=0.04, activities=0.3, desk=True,
)  # fmt: skip
MODELS = {m.name: m for m in (OLD, HARD)}


@dataclass
class Person:
    player_id: int
    user_id: int
    busy: bool  # a few free half-hours in a whole window
    late: bool  # answers only after the Sunday reminder (or when they notice the site, without the bot)
    confirm_chance: float  # of looking at a waiting proposal in one half-day step
    # Kirov weekday (0 = Monday) -> (start hour, end hour) of the evening or the weekend day they are usually free.
    week: dict[int, tuple[float, float]] = field(default_factory=dict)
    linked: bool = False  # linked the bot and allows its private messages (`linked_to_bot`)


LINKED_SHARE = 0.7  # of a club's players, about this many link the league's bot and allow its private messages


def linked_to_bot(player_id: int) -> bool:
    """Whether the person linked the bot with private messages: a draw of its own (seeded by the person), so the
    rest of the run draws as before."""
    return random.Random(f"telegram:{player_id}").random() < LINKED_SHARE


def reads_reminder(person: Person, proposal_id: int) -> bool:
    """A private reminder of a proposal they have not answered (the bot, a day before its start) makes them look at
    the site once more: with their usual chance of looking, a draw of its own per person and proposal."""
    return random.Random(f"remind:{person.player_id}:{proposal_id}").random() < person.confirm_chance


def make_person(rng: random.Random, player_id: int, user_id: int, model: Model = OLD) -> Person:
    busy = rng.random() < model.busy
    late = rng.random() < model.late
    person = Person(player_id, user_id, busy, late, rng.uniform(0.6, 0.95) * (0.7 if late else 1.0))
    evenings = rng.uniform(*model.evenings)  # uneven: some people are free most evenings, others one or two
    weekends = rng.uniform(*model.weekends)
    for day in range(7):
        if day < 5 and rng.random() < evenings:
            start = rng.choice((17.0, 18.0, 18.0, 18.5, 19.0))
            person.week[day] = (start, min(24.0, start + rng.choice((4.5, 5.0, 5.5, 6.0))))
        elif day >= 5 and rng.random() < weekends:
            start = rng.choice((10.0, 11.0, 12.0, 12.0, 13.0))
            person.week[day] = (start, min(24.0, start + rng.choice((8.0, 9.0, 10.0, 12.0))))
    return person


def _at(day, hour: float):  # noqa: ANN001, ANN202
    return at_kirov(day, int(hour), int(round((hour % 1) * 60)))


def free_time(
    rng: random.Random, person: Person, window: Interval, since: datetime, model: Model = OLD
) -> list[Interval]:
    """The person's free time in a window from `since` on (nobody marks days already gone): their usual week with
    some days dropped (this week's plans), or, when busy, three or four short spans somewhere in it."""
    first, last = kirov_date(window.start), kirov_date(window.end - HALF_HOUR)
    days = [first + timedelta(days=k) for k in range((last - first).days + 1)]
    spans: list[Interval] = []
    if person.busy:
        for day in rng.sample(days, k=min(len(days), rng.choice((3, 4)))):
            start = rng.choice((12.0, 14.0, 17.0, 18.0, 19.0))
            spans.append(Interval(_at(day, start), _at(day, min(24.0, start + rng.choice((3.0, 4.0, 5.0, 6.0))))))
    else:
        for day in days:
            usual = person.week.get(day.weekday())
            if usual is not None and rng.random() > model.drop:
                spans.append(Interval(_at(day, usual[0]), _at(day, usual[1])))
    return sorted(s for s in spans if s.start >= since)


IF_NEEDED_SHARE = 0.3  # of the people who are not busy: they mark a few late hours «могу, если нужно»


def if_needed_time(person: Person, window: Interval, free: list[Interval]) -> list[Interval]:
    """A few hours «могу, если нужно»: for about a third of the people, up to two hours after two or three of their
    free evenings. A draw of its own (seeded by the person and the window), so the rest of the run draws as before."""
    rng = random.Random(f"{person.player_id}:{window.start.isoformat()}")
    if person.busy or rng.random() >= IF_NEEDED_SHARE or not free:
        return []
    out = []
    for span in rng.sample(free, k=min(len(free), rng.choice((2, 3)))):
        midnight = at_kirov(kirov_date(span.start) + timedelta(days=1))
        end = min(span.end + 4 * HALF_HOUR, midnight, window.end)
        if span.end < end:
            out.append(Interval(span.end, end))
    return sorted(out)


def chance(what: str, *key: object) -> float:
    """A draw of its own for one decision (seeded by what and whose), so adding one leaves the run's other draws
    as they were."""
    return random.Random(":".join([what, *map(str, key)])).random()


TAP_MEAN_HOURS = 2.0  # the remote: a linked person taps a private message's button after Exp(mean 2 h) awake hours
TAP_SHARE = 0.9  # of the private messages with buttons, the share a linked person answers from the chat


def tap_delay(person: Person, message_id: int, sent: datetime) -> timedelta | None:
    """When a linked person taps a private message's button (issue 44 item 5): None for the tenth they leave for the
    site (answered as before); otherwise an exponential delay of mean `TAP_MEAN_HOURS`, and a message that arrives
    or would be answered at night (23:00–08:00 Kirov) waits for the morning: 08:00 plus the same delay."""
    rng = random.Random(f"tap:{person.player_id}:{message_id}")
    if rng.random() >= TAP_SHARE:
        return None
    delay = timedelta(hours=rng.expovariate(1 / TAP_MEAN_HOURS))
    at = to_kirov(sent + delay)
    if at.hour >= 23 or at.hour < 8:
        morning = at_kirov(kirov_date(sent + delay) + timedelta(days=at.hour >= 23), 8)
        return morning + delay - sent
    return delay


def table_points(rng: random.Random, sticks: int) -> list[int]:
    """Four distinct final scores in hundreds summing to 120 000 with the sticks left on the table."""
    while True:
        first = [rng.randrange(100, 550) * 100 for _ in range(3)]
        last = 120_000 - sticks * 1_000 - sum(first)
        points = [*first, last]
        if -20_000 <= last <= 80_000 and len(set(points)) == 4:
            rng.shuffle(points)
            return points


HINT_TAKEN_SHARE = 0.5  # of the people asked by a hint in one match: about half are willing to change their plans
STRETCH_BEFORE, STRETCH_AFTER = 1.0, 2.0  # hours: coming an hour earlier or staying two later than usual, no more


def answer_hint(
    person: Person,
    hinted: list[Interval],
    own: list[Interval],
    *,
    hanchans: int,
    earliest: datetime,
    key: str,
    hanchan: timedelta,
) -> Interval | None:
    """The one who blocks reads their private hint (the page, the home card, the bot's private message: «Если вы
    сможете в …»). About half the people asked in a match are willing to change their plans (a draw of its own per
    person and match, `key`, so the rest of the run draws as before), and only as far as is plausible, from
    `earliest` on (a day ahead, so the others can confirm): someone with a usual week, on a day of the week they
    are usually free, within an hour before and two after their usual hours; a busy person only by staying one
    hanchan longer (or coming one earlier) next to a span they already gave. They add one meeting: the remaining
    hanchans if they fit, else as many as fit, touching their own time where it can (the least added). None: they
    did not or could not."""
    rng = random.Random(f"hint:{person.player_id}:{key}")
    if rng.random() >= HINT_TAKEN_SHARE:
        return None
    for span in hinted:
        day = kirov_date(span.start)
        if person.busy:
            stretched = [Interval(iv.start - hanchan, iv.end + hanchan) for iv in own]
            reach = next((iv for iv in stretched if iv.overlaps(span)), None)
            limit = hanchan
        else:
            usual = person.week.get(day.weekday())
            reach = None if usual is None else Interval(
                _at(day, max(0.0, usual[0] - STRETCH_BEFORE)), _at(day, min(24.0, usual[1] + STRETCH_AFTER))
            )  # fmt: skip
            limit = timedelta(days=1)
        if reach is None:
            continue
        start, end = max(span.start, reach.start, earliest), min(span.end, reach.end)
        fit = min(hanchans, (end - start) // hanchan) if end > start else 0
        best: tuple[timedelta, datetime, Interval] | None = None
        while fit >= 1 and start + fit * hanchan <= end:
            meeting = Interval(start, start + fit * hanchan)
            added = sum((iv.duration for iv in subtract([meeting], own)), timedelta())
            if added <= limit and (best is None or added < best[0]):
                best = (added, meeting.start, meeting)
            start += HALF_HOUR
        if best is not None:
            return best[2]
    return None


def takes_added_span(person: Person, span: Interval, own: list[Interval], *, key: str, hanchan: timedelta) -> bool:
    """The remote's «Добавить это время» (issue 44): the hinted span is added whole, so a person taps it only when
    they are willing (the same draw as `answer_hint`'s for this match) and the whole span is plausible for them —
    within their usual day stretched an hour before and two after, or, when busy, at most one hanchan beside a
    span they already gave."""
    if random.Random(f"hint:{person.player_id}:{key}").random() >= HINT_TAKEN_SHARE:
        return False
    if person.busy:
        added = sum((iv.duration for iv in subtract([span], own)), timedelta())
        return added <= hanchan and any(Interval(iv.start - hanchan, iv.end + hanchan).contains(span) for iv in own)
    day = kirov_date(span.start)
    usual = person.week.get(day.weekday())
    if usual is None:
        return False
    reach = Interval(_at(day, max(0.0, usual[0] - STRETCH_BEFORE)), _at(day, min(24.0, usual[1] + STRETCH_AFTER)))
    return reach.contains(span)
