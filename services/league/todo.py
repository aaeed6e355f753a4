"""The player's home page as a to-do list: per match its state in words and the one next action; imports no reflex.

A view: reads only, and never shows another player's times (Регламент §6.4) — only names, counts, the booked
meeting and the results everyone may see.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta

from sqlmodel import Session, select

from services.core.config import settings
from services.core.models import MatchStatus, Room, User
from services.league.matches import player_matches
from services.results.hanchans import effective
from services.results.view import match_view
from services.scheduling.intervals import Interval
from services.scheduling.repo import (
    LIVE_PROPOSAL,
    active_bookings,
    answered_ids,
    booked_hanchans,
    confirmations,
    match_info,
    options_for,
    proposals,
)
from services.scheduling.rules import format_kirov, hanchans_word


@dataclass(frozen=True)
class HomeCard:
    match_id: int
    title: str
    opponents: str
    state: str  # the match's state in words
    action: str  # the one next thing, for me
    mine: bool  # the next action is mine (counted in the page's header)
    when: str  # the game window, or the booked meeting with its room
    past: bool  # an earlier tour, folded on the page
    booked: bool  # a meeting is booked: the page offers the calendar


def window_text(window: Interval | None) -> str:
    if window is None:
        return "игровое окно ещё не назначено"
    tz = settings.tz
    start, end = window.start.astimezone(tz), window.end.astimezone(tz)
    if start.time() == end.time() == time(0):
        # Whole days: "до 30.11 00:00" reads as "through the 30th"; name the last day instead.
        return f"игровое окно {start:%d.%m} — {end - timedelta(days=1):%d.%m} включительно"
    return f"игровое окно {start:%d.%m %H:%M} — {end:%d.%m %H:%M} (Киров)"


def _names(names: list[str]) -> str:
    return ", ".join(names) if names else "—"


def _my_result(session: Session, user: User, match_id: int) -> str:
    view = match_view(session, user, match_id)
    line = next((ln for ln in (view.lines if view else []) if ln["name"] == user.display_name), None)
    return f"мой итог {line['total']}, место {line['place']}" if line else "результаты внесены"


def _card(session: Session, user: User, match_id: int, now: datetime) -> tuple[str, str, bool, str]:
    """(state, action, mine, when) of one match for `user`."""
    info = match_info(session, match_id)
    match = info.match
    window = info.window
    when = window_text(window)
    done = len(effective(session, match_id))
    if match.status == MatchStatus.REPLAY:
        return "заменён переигровкой", "результат вносится в матч-переигровку", False, when
    if match.status == MatchStatus.COMPLETE:
        return "сыгран", f"{_my_result(session, user, match_id)}: проверьте результат", False, when
    bookings = sorted(active_bookings(session, match_id), key=lambda b: b.start_at)
    rooms = {r.id: r.name for r in session.exec(select(Room)).all()}
    if bookings:
        first = bookings[0]
        when = f"{format_kirov(first.start_at)}, {rooms.get(first.room_id, '')} (Киров)"
    if done or match.status == MatchStatus.PLAYING or (bookings and bookings[0].start_at <= now):
        return (
            f"играется: внесено {done} из {match.planned_hanchans}",
            f"внесите результат ханчана {done + 1}",
            True,
            when,
        )
    seats = {s.player_id: s.name for s in info.seats}
    me = info.seat_of(user.id)
    if bookings and booked_hanchans(session, match_id) >= match.planned_hanchans:
        return "забронировано", "приходите в назначенное время (добавьте в календарь)", False, when
    live = proposals(session, match_id, [LIVE_PROPOSAL])
    if live:
        proposal = live[-1]
        answers = confirmations(session, proposal.id)
        waiting = [name for pid, name in seats.items() if answers.get(pid) is not True]
        meeting = f"{format_kirov(proposal.start_at)}, {hanchans_word(proposal.hanchans)}"
        state = f"предложено время {meeting}: подтвердили {len(seats) - len(waiting)} из {len(seats)}"
        if me is not None and answers.get(me.player_id) is not True:
            return state, f"подтвердите время {meeting}", True, when
        return state, f"ждём подтверждения: {_names(waiting)}", False, when
    answered = answered_ids(session, match_id)
    if window is None:
        return "ждёт игрового окна", "организатор назначит игровое окно", False, when
    if me is not None and me.player_id not in answered:
        return "согласование времени", "отметьте свою доступность", True, when
    missing = [name for pid, name in seats.items() if pid not in answered]
    if missing:
        return "согласование времени", f"ждём ответа: {_names(missing)}", False, when
    if options_for(session, info):
        return "есть общие варианты", "предложите время из общих вариантов", True, when
    return "общего времени нет", "отметьте больше свободного времени или ждите решения организатора", True, when


def home_cards(session: Session, user: User, now: datetime) -> list[HomeCard]:
    """The user's matches, the current tour first; earlier tours (played, or their window is over) marked past."""
    cards = []
    for m in player_matches(session, user.id):
        state, action, mine, when = _card(session, user, m.match_id, now)
        window = match_info(session, m.match_id).window
        past = m.status in (MatchStatus.COMPLETE, MatchStatus.REPLAY) or (window is not None and window.end <= now)
        title = f"Тур {m.round_code}, стол {m.table}" if m.stage == "regular" else f"Плей-офф, раунд {m.round_code}"
        booked = bool(active_bookings(session, m.match_id))
        cards.append(
            HomeCard(m.match_id, title, ", ".join(m.opponents), state, action, mine, when, past and not mine, booked)
        )
    return sorted(cards, key=lambda c: c.past)  # stable: within each group the tours keep their order
