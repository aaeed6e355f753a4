"""Match scheduling: common options, proposals, fallback slot, state. Pure; imports no database, reflex or telegram."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from services.core.ruleset import SEATS
from services.core.wording import counted, plural
from services.scheduling.intervals import (
    GRID_MINUTES,
    Interval,
    at_kirov,
    intersect_all,
    kirov_date,
    on_grid,
    require_aware,
    snap_inward,
    subtract,
    to_kirov,
)

FALLBACK_HOUR = 18  # Регламент §6.1: последнее воскресенье окна, 18:00 по Кирову
_WEEKDAYS = ("пн", "вт", "ср", "чт", "пт", "сб", "вс")
_EPS = timedelta(microseconds=1)
Place = tuple[int, int]  # (room id, table number): one match meeting sits at one table of a room


@dataclass(frozen=True, slots=True)
class Option:
    """A common free interval; `rooms` lists the places (room, table) free for all of it."""

    interval: Interval
    hanchans_fit: int
    rooms: tuple[Place, ...] = ()
    if_needed: int = 0  # how many of the four it needs «могу, если нужно» from (never whose)
    shared: bool = False  # a hinted time that one more player of the four is asked to add too (never who)

    @property
    def start(self) -> datetime:
        return self.interval.start

    @property
    def end(self) -> datetime:
        return self.interval.end


# --- common options -----------------------------------------------------------------------


def players_free(window: Interval, availabilities: Sequence[Sequence[Interval]]) -> list[Interval]:
    """Where every seated player is free inside the window; a player with no answer makes it empty."""
    if not availabilities:
        return []
    return intersect_all([[window], *availabilities])


def _within(busy: Sequence[Interval], window: Interval) -> list[Interval]:
    # Cheap pre-filter: a whole-calendar `busy` costs one comparison per booking instead of a sort.
    return [b for b in busy if b.start < window.end and window.start < b.end]


def _to_options(free: Sequence[Interval], hanchan: timedelta, min_hanchans: int, grid: int | None) -> list[Option]:
    # Snapping inward keeps every option edge on the half-hour grid the proposal form offers,
    # even when a booking ends at 19:15.
    spans = snap_inward(free, grid) if grid else list(free)
    out = [Option(iv, iv.duration // hanchan) for iv in spans]
    return [o for o in out if o.hanchans_fit >= min_hanchans]


def _longest_first(options: list[Option]) -> list[Option]:
    return sorted(options, key=lambda o: (-o.interval.duration, o.start, o.rooms))


def _check_lengths(hanchan_minutes: int, min_hanchans: int) -> timedelta:
    if hanchan_minutes <= 0 or min_hanchans < 1:
        raise ValueError("hanchan_minutes must be positive and min_hanchans at least 1")
    return timedelta(minutes=hanchan_minutes)


def common_options_multi(
    window: Interval,
    availabilities: Sequence[Sequence[Interval]],
    busy_by_room: Mapping[Place, Sequence[Interval]],
    *,
    hanchan_minutes: int,
    min_hanchans: int = 1,
    grid_minutes: int | None = GRID_MINUTES,
) -> list[Option]:
    """Options over several rooms. A meeting sits in one room, so options are computed per room
    (never a union across rooms); equal intervals share one option listing all their rooms, and an
    option strictly inside another is dropped (the bigger one's rooms host any meeting in it)."""
    hanchan = _check_lengths(hanchan_minutes, min_hanchans)
    free = players_free(window, availabilities)
    rooms_of: dict[Interval, list[Place]] = {}
    for room in sorted(busy_by_room):
        room_free = subtract(free, _within(busy_by_room[room], window))
        for opt in _to_options(room_free, hanchan, min_hanchans, grid_minutes):
            rooms_of.setdefault(opt.interval, []).append(room)
    spans = sorted(rooms_of, key=lambda iv: (iv.start, -iv.duration))
    kept: list[Interval] = []
    for iv in spans:  # by start, longest first: a dominating interval is always seen before
        if not any(k.contains(iv) for k in kept):
            kept.append(iv)
    return _longest_first([Option(iv, iv.duration // hanchan, tuple(rooms_of[iv])) for iv in kept])


# --- proposals ---------------------------------------------------------------------------------


def hanchans_word(n: int) -> str:
    """1 ханчан, 3 ханчана, 5 ханчанов, 21 ханчан."""
    return counted(n, "ханчан", "ханчана", "ханчанов")


def format_duration(value: timedelta) -> str:
    minutes = int(value.total_seconds() // 60)
    hours, rest = divmod(minutes, 60)
    parts = ([f"{hours} ч"] if hours else []) + ([f"{rest} мин"] if rest or not hours else [])
    return " ".join(parts)


def format_kirov(instant: datetime) -> str:
    """Kirov wall time with the weekday, e.g. «вс 25.10.2026 18:00»."""
    local = to_kirov(instant)
    return f"{_WEEKDAYS[local.weekday()]} {local:%d.%m.%Y %H:%M}"


def format_span(start: datetime, end: datetime) -> str:
    """A span of time in Kirov time, one way on the pages, in the cards and in the bot's messages: «сб 12.12.2026
    13:00–20:00» (an end at midnight is «24:00»); over several days «вс 20.12.2026 10:00 — вс 27.12.2026 22:00»; whole
    days read as days, «весь день вт 17.11» or «пн 16.11 — вс 29.11 включительно», never as «00:00 — 00:00»."""
    a, b = to_kirov(start), to_kirov(end)
    last = to_kirov(end - timedelta(microseconds=1))
    if a.time() == b.time() == time(0):
        first = f"{_WEEKDAYS[a.weekday()]} {a:%d.%m}"
        return (
            f"весь день {first}"
            if last.date() == a.date()
            else f"{first} — {_WEEKDAYS[last.weekday()]} {last:%d.%m} включительно"
        )
    if last.date() == a.date():
        return f"{format_kirov(start)}–{'24:00' if b.time() == time(0) else f'{b:%H:%M}'}"
    return f"{format_kirov(start)} — {format_kirov(end)}"


def meeting_end(start: datetime, hanchans: int, hanchan_minutes: int) -> datetime:
    """The end of a meeting of `hanchans` at the season's planning length (`Ruleset.hanchan_minutes`)."""
    return require_aware(start) + timedelta(minutes=hanchans * hanchan_minutes)


def validate_proposal(
    start: datetime,
    end: datetime,
    hanchans: int,
    *,
    window: Interval,
    option_intervals: Sequence[Interval],
    hanchans_remaining: int,
    final_hanchans: int | None,
    hanchan_minutes: int,
    now: datetime | None = None,
    grid_minutes: int | None = GRID_MINUTES,
    waiting_for: Sequence[str] = (),
) -> list[str]:
    """Errors in Russian, empty when the meeting may be proposed. `hanchans_remaining` = the match's
    hanchans not yet played nor held by another live meeting; `final_hanchans`: the final's (the season's ruleset),
    None for any other match; `now`, when given, forbids the past; `waiting_for`: the seated players who have not
    painted their time yet — while there are any, no option exists and that is the reason said."""
    start, end = require_aware(start, "start"), require_aware(end, "end")
    if not start < end:
        return ["Окончание встречи должно быть позже начала."]
    meeting = Interval(start, end)
    errors: list[str] = []
    if grid_minutes and not (on_grid(start, grid_minutes) and on_grid(end, grid_minutes)):
        errors.append(f"Начало и окончание встречи выбираются с шагом {grid_minutes} минут по времени Кирова.")
    if now is not None and start < require_aware(now, "now"):
        errors.append("Нельзя назначить встречу на прошедшее время.")
    # Регламент §2: все встречи должны состояться в пределах игрового окна тура или раунда.
    if not window.contains(meeting):
        errors.append(f"Встреча должна пройти в пределах игрового окна: {format_span(window.start, window.end)}.")
    # Per option, not their union: options of different rooms may overlap, a meeting needs one room.
    if waiting_for:
        errors.append(
            f"Общего времени пока нет: своё время ещё не {plural(len(waiting_for), 'отметил', 'отметили', 'отметили')} "
            f"{', '.join(waiting_for)}. Предложить встречу можно, когда ответят все четверо."
        )
    elif not any(opt.contains(meeting) for opt in option_intervals):
        errors.append(
            "Выбранное время не входит целиком ни в один общий вариант: "
            "кто-то из игроков занят или помещение уже забронировано."
        )
    if hanchans < 1:
        errors.append("Встреча должна включать хотя бы один ханчан.")
    elif hanchans_remaining < 1:
        errors.append("В матче не осталось ханчанов для новой встречи.")
    elif hanchans > hanchans_remaining:
        errors.append(
            f"В матче осталось запланировать {hanchans_word(hanchans_remaining)}, "
            f"а во встрече {hanchans_word(hanchans)}."
        )
    if final_hanchans is not None:
        # Регламент §2, §3: финал (пять ханчанов по регламенту 2026) — за одну встречу, целиком в один день.
        if hanchans != final_hanchans:
            errors.append(f"Финал проводится за одну встречу: в ней все {hanchans_word(final_hanchans)}.")
        # The meeting is [start, end): ending at 24:00 still keeps it within the start's day.
        if kirov_date(start) != kirov_date(end - _EPS):
            errors.append(
                "Финал проводится целиком в один день: встреча должна закончиться "
                "в тот же день по времени Кирова, в который началась."
            )
    if (short := too_short(meeting, hanchans, hanchan_minutes)) is not None:
        errors.append(short)
    return errors


def too_short(meeting: Interval, hanchans: int, hanchan_minutes: int) -> str | None:
    """Why the meeting cannot hold its hanchans at the season's planning length, or None (players and organizer)."""
    need = timedelta(minutes=hanchans * hanchan_minutes)
    if hanchans < 1 or meeting.duration >= need:
        return None
    chosen = format_duration(meeting.duration)
    return f"На {hanchans_word(hanchans)} нужно не меньше {format_duration(need)}, а выбрано {chosen}."


# --- fallback date ----------------------------------------------------------------------------


def fallback_slot(window: Interval) -> datetime:
    """Регламент §6.1: без уважительных причин матч играется в последнее воскресенье окна в 18:00
    по Кирову. That is the last Sunday whose 18:00 Kirov lies in [window.start, window.end)."""
    sunday = kirov_date(window.end - _EPS)
    sunday -= timedelta(days=(sunday.weekday() - 6) % 7)
    slot = at_kirov(sunday, FALLBACK_HOUR)
    if slot >= window.end:
        slot = at_kirov(sunday - timedelta(days=7), FALLBACK_HOUR)
    if slot < window.start:
        raise ValueError("В игровом окне нет воскресенья с 18:00 по времени Кирова: запасную дату назначить нельзя.")
    return slot


def binding_fallback(window: Interval | None, start: datetime, proposal_id: int | None) -> bool:
    """Регламент §6.1 «Это время обязательно для участников»: a meeting the organizer booked (no proposal of the
    four) on the fallback Sunday from 18:00 — the fallback itself, or a split match's rest after its own meeting that
    evening. A player's «Не смогу» does not release it: the organizer decides (Регламент §5, §6.1, §6.3)."""
    if window is None or proposal_id is not None:
        return False
    try:
        slot = fallback_slot(window)
    except ValueError:
        return False
    return slot <= start and kirov_date(start) == kirov_date(slot)


# Регламент §6.1: what a player reads after «Не смогу» on the binding fallback (the page and the chat alike).
BINDING_KEPT = (
    "Запасная дата обязательна (Регламент §6.1): бронь остаётся. Организатор получил ваше предупреждение и решит, "
    "переносить ли матч."
)


def fallback_meeting(window: Interval, hanchans: int, hanchan_minutes: int) -> Interval:
    """The fallback meeting: from `fallback_slot` for the planned hanchans (it may run past the window's end)."""
    start = fallback_slot(window)
    return Interval(start, meeting_end(start, hanchans, hanchan_minutes))


def short_span(start: datetime, end: datetime) -> str:
    """«чт 03.12 19:00–23:00» in Kirov time (an end at midnight reads 24:00)."""
    a, b = to_kirov(start), to_kirov(end)
    if a.date() == b.date():
        return f"{_WEEKDAYS[a.weekday()]} {a:%d.%m %H:%M}–{b:%H:%M}"
    if b.time() == time(0) and (b.date() - a.date()).days == 1:
        return f"{_WEEKDAYS[a.weekday()]} {a:%d.%m %H:%M}–24:00"
    return f"{_WEEKDAYS[a.weekday()]} {a:%d.%m %H:%M} – {_WEEKDAYS[b.weekday()]} {b:%d.%m %H:%M}"


def if_needed_text(players: int) -> str:
    """An option that needs «могу, если нужно» from some of the four, never saying whose."""
    return f"для {players} {'игрока' if players == 1 else 'игроков'} — если нужно"


def unblock_text(spans: Sequence[Interval], *, whole: bool = False, shared: bool = False) -> str:
    """The blocker's hint, for that one player's eyes: the times at which the other three are free. `whole`: the
    four already share time for part of the remaining hanchans; these times would hold all of them at once.
    `shared`: two of the four would have to add the time (the other two are free then); both are told the same,
    neither whom it names."""
    times = [short_span(iv.start, iv.end) for iv in spans]
    listed = times[0] if len(times) == 1 else ", ".join(times[:-1]) + " или " + times[-1]
    who = "вы и ещё один игрок матча (ему подсказано то же время) сможете" if shared else "вы сможете"
    if whole:
        return f"Если {who} в {listed}, все оставшиеся ханчаны уместятся в одну встречу."
    return f"Если {who} в {listed}, у матча будет время."


def plan_text(plan: Sequence[Interval]) -> str:
    """Регламент §2: the meetings that would hold the remaining hanchans when no common option holds them at once."""
    first, rest = short_span(plan[0].start, plan[0].end), [short_span(iv.start, iv.end) for iv in plan[1:]]
    return (
        f"В одну встречу оставшиеся ханчаны не помещаются: предложите сначала {first} — "
        f"остальные поместятся в {', '.join(rest)}."
    )


def fallback_text(start: datetime) -> str:
    """Регламент §6.1: the fallback date every card states from the window's opening."""
    local = to_kirov(start)
    return f"Если не договоритесь — {_WEEKDAYS[local.weekday()]} {local:%d.%m %H:%M} (Регламент §6.1)"


# --- organizer view ---------------------------------------------------------------------------

NOBODY_ANSWERED = "nobody_answered"
WAITING = "waiting"  # some of the four answered
NO_COMMON_TIME = "no_common_time"  # all answered, no option: §3 — обновить доступность, писать организатору
# All answered and the four share time, but every table then is booked or held by another match's proposal: no
# painting helps, the organizer decides (Регламент §3, §6.3)
NO_FREE_TABLE = "no_free_table"
OPTIONS = "options"
PROPOSED = "proposed"  # a proposal nobody confirmed yet; "confirmed_k" once k of 4 did
BOOKED = "booked"  # every remaining hanchan has its meeting
# a meeting has begun whose hanchans are not all recorded (on now, or over without its results), or every hanchan
# has its meeting and some are on the table (`Board.in_play`)
PLAYING = "playing"
COMPLETE = "complete"
REPLACED = "replay"  # replaced by a replay (Регламент §6.1)

STATE_LABELS: dict[str, str] = {
    NOBODY_ANSWERED: "Никто не ответил",
    WAITING: "Ждём ответов",
    NO_COMMON_TIME: "Нет общего времени",
    NO_FREE_TABLE: "Общее время есть, столы заняты",
    OPTIONS: "Есть общие варианты",
    PROPOSED: "Время предложено",
    "confirmed_1": "Подтвердил 1 из 4",
    "confirmed_2": "Подтвердили 2 из 4",
    "confirmed_3": "Подтвердили 3 из 4",
    "confirmed_4": "Подтвердили 4 из 4",
    BOOKED: "Забронировано",
    PLAYING: "Играется",
    COMPLETE: "Сыгран",
    REPLACED: "Заменён переигровкой",
}


# What a seated player is asked to do next (`Board.step`), one key per seat; the views put it in words.
STEP_ENTER = "enter"  # a meeting has begun: enter its results (Регламент §6.2)
STEP_COME = "come"  # everything is booked: come at the time
STEP_CONFIRM = "confirm"  # the shown proposal waits for my answer
STEP_PAINT = "paint"  # mark my availability
STEP_PROPOSE = "propose"  # the four share options: propose one
STEP_ADD_TIME = "add_time"  # I am the one who blocks: the hint's times (mine only, Регламент §6.4)
STEP_PAINT_MORE = "paint_more"  # no common time: paint more (Регламент §3)
STEP_WAIT = "wait"  # the others' turn: their answers or confirmations
STEP_ORGANIZER = "organizer"  # the organizer decides: no window yet, the window is over, no free table
STEP_NONE = "none"  # settled: played or replaced
MY_STEPS = frozenset({STEP_ENTER, STEP_CONFIRM, STEP_PAINT, STEP_PROPOSE, STEP_ADD_TIME, STEP_PAINT_MORE})


def scheduling_state(
    answered: Sequence[bool],
    *,
    options_count: int,
    proposal_confirmations: int | None = None,
    booked: bool = False,
    tables_short: bool = False,
) -> str:
    """A key of STATE_LABELS. Precedence: booked, then the live proposal (None = no proposal;
    with several, pass the most confirmed), then the answers. `booked` = the match's remaining
    hanchans are all in booked meetings; an organizer's assignment counts without answers (§3)."""
    if booked:
        return BOOKED
    if proposal_confirmations is not None:
        if not 0 <= proposal_confirmations <= SEATS:
            raise ValueError(f"confirmations must be 0..{SEATS}: {proposal_confirmations}")
        return f"confirmed_{proposal_confirmations}" if proposal_confirmations else PROPOSED
    if not any(answered):
        return NOBODY_ANSWERED
    if not all(answered):
        return WAITING
    if options_count > 0:
        return OPTIONS
    return NO_FREE_TABLE if tables_short else NO_COMMON_TIME


# Регламент §2, §6.1: a match moves to the next tour's window; after the last tour there is none.
LAST_TOUR = (
    "Это последний тур этапа: переносить матч некуда (Регламент §2). Назначьте встречу в его окне или, если "
    "участник не пришёл, запишите неявку на странице матча."
)
