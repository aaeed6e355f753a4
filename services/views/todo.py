"""The player's home page as a to-do list: per match its state in words and the one next action; imports no reflex.

A view: reads only, and never shows another player's times (Регламент §6.4) — only names, counts, the booked
meeting and the results everyone may see.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, select

from services.core.models import MatchStatus, Player, RosterStatus, User, saved
from services.core.ruleset import of_season
from services.core.wording import format_signed
from services.league.matches import my_match_ids
from services.results.repo import match_scores
from services.results.scoring import MatchScore
from services.scheduling.board import Board, MatchBoard, load_board
from services.scheduling.intervals import KIROV, Interval
from services.scheduling.repo import SeatInfo
from services.scheduling.rules import (
    COMPLETE,
    MY_STEPS,
    REPLACED,
    STEP_ADD_TIME,
    STEP_COME,
    STEP_CONFIRM,
    STEP_ENTER,
    STEP_ORGANIZER,
    STEP_PAINT,
    STEP_PROPOSE,
    STEP_WAIT,
    fallback_text,
    format_kirov,
    format_span,
    hanchans_word,
    unblock_text,
)

FINISHED = (MatchStatus.COMPLETE, MatchStatus.REPLAY)
WITHDRAWN_ACTION = "вы сняты с сезона: этот матч за вас доиграет техническая замена"


@dataclass(frozen=True)
class HomeCard:
    match_id: int
    title: str
    opponents: str
    state: str  # the match's state in words
    action: str  # the one next thing, for me
    mine: bool  # the next action is mine (counted in the page's header)
    when: str  # the game window, or the booked meeting with its room
    past: bool  # played or replaced (and nothing of mine to do): folded on the page
    booked: bool  # a meeting is booked: the page offers the calendar
    fallback: str = ""  # Регламент §6.1: «Если не договоритесь — вс 29.11 18:00», from the window's opening
    later: bool = False  # a later tour's match, its window not open yet: folded under «Следующие туры», asks nothing


def window_text(window: Interval | None) -> str:
    if window is None:
        return "игровое окно ещё не назначено"
    return f"игровое окно {format_span(window.start, window.end)}"  # Регламент §6.1: время Кирова


def _names(names: list[str]) -> str:
    return ", ".join(names) if names else "—"


def _my_result(score: MatchScore | None, player_id: int | None) -> str:
    line = next((ln for ln in score.lines if ln.player == player_id), None) if score else None
    return f"мой итог {format_signed(line.total)}, место {line.place or '—'}" if line else "результаты внесены"


def _card(board: Board, item: MatchBoard, user: User, score: MatchScore | None) -> tuple[str, str, bool, str]:
    """(state, action, mine, when) of one match for `user`, in words: the read model's state and the user's step."""
    info, match = item.info, item.match
    when = window_text(info.window)
    me = info.seat_of(saved(user.id))
    step = board.step(item, me.player_id if me else None)
    state = board.state(item)
    if state == REPLACED:
        return "заменён переигровкой", "результат вносится в матч-переигровку", False, when
    if state == COMPLETE:
        return "сыгран", f"{_my_result(score, me.player_id if me else None)}: проверьте результат", False, when
    bookings = item.bookings  # active, by start
    now = board.now
    upcoming = [b for b in bookings if now is None or b.end_at > now] or bookings[-1:]
    if upcoming:
        first = upcoming[0]
        when = f"{format_kirov(first.start_at)}, {board.rooms.get(first.room_id, '')} (Киров)"
    done, planned = item.hanchans, match.planned_hanchans
    if step == STEP_ENTER:  # a meeting on, or over without its results
        return f"играется: внесено {done} из {planned}", f"внесите результат ханчана {done + 1}", True, when
    if step == STEP_COME:
        state = f"сыграно {done} из {planned}, остальное забронировано" if done else "забронировано"
        return state, "приходите в назначенное время (добавьте в календарь)", False, when
    if board.window_over(item):  # Регламент §6.1: the fallback or the next tour, the organizer's
        return "игровое окно закончилось", "ждите решения организатора: запасная дата или перенос", False, when
    state, action = _agreeing(board, item, step, me)
    # Регламент §2: a match may take several meetings; the rest is agreed like the first.
    if done:
        state = f"сыграно {done} из {planned}; осталось: {state}"
    elif bookings:
        state = f"забронировано {hanchans_word(item.booked_hanchans)} из {planned}; осталось: {state}"
    return state, action, step in MY_STEPS, when


def _agreeing(board: Board, item: MatchBoard, step: str, me: SeatInfo | None) -> tuple[str, str]:
    """(state, action) while the four agree on a time: the shown proposal, answers, common options."""
    seats = {s.player_id: s.name for s in item.info.seats}
    if (proposal := board.shown_proposal(item)) is not None:
        confirmed = item.confirmed.get(saved(proposal.id), set())
        waiting = [name for pid, name in seats.items() if pid not in confirmed]
        meeting = f"{format_kirov(proposal.start_at)}, {hanchans_word(proposal.hanchans)}"
        state = f"предложено время {meeting}: подтвердили {len(seats) - len(waiting)} из {len(seats)}"
        return (
            state,
            f"подтвердите время {meeting}" if step == STEP_CONFIRM else f"ждём подтверждения: {_names(waiting)}",
        )
    if item.info.window is None:
        return "ждёт игрового окна", "организатор назначит игровое окно"
    if step == STEP_PAINT:
        return "согласование времени", "отметьте свою доступность"
    if step == STEP_WAIT and (missing := item.not_answered):
        return "согласование времени", f"ждём ответа: {_names(missing)}"
    if step == STEP_PROPOSE or board.options(item):
        return "есть общие варианты", "предложите время из общих вариантов"
    if step == STEP_ORGANIZER:  # the true reason: not the people's time, the club's tables (issue 43 item 4)
        return "общее время есть, но столы в это время заняты", "встречу назначит организатор"
    if step == STEP_ADD_TIME and me is not None:
        # The one who blocks is told, on their own card only; the other three read that the match waits on time.
        hint = board.unblock_hints(item)[me.player_id]
        return "общего времени нет", unblock_text([o.interval for o in hint], shared=any(o.shared for o in hint))
    return "общего времени нет", "отметьте больше свободного времени или ждите решения организатора"


def _current_start(board: Board, now: datetime) -> datetime | None:
    """The start of the league's current tour for the person: the earliest game window of their matches that has
    not ended (open now, or the next to open), played or not — a match played early does not open the next tour."""
    starts = [it.info.window.start for it in board.matches if it.info.window is not None and it.info.window.end > now]
    return min(starts, default=None)


def _later(item: MatchBoard, current: datetime | None, now: datetime) -> bool:
    """A later tour's match: its window opens after the current tour's, and has not opened yet (Регламент §2)."""
    window = item.info.window
    return window is not None and current is not None and window.start > max(current, now)


def home_cards(session: Session, user: User, now: datetime) -> list[HomeCard]:
    """The user's matches, the current ones first; played and replaced ones marked past.
    Read in a fixed number of statements however many matches the person has (`load_board`)."""
    ids = my_match_ids(session, saved(user.id))
    board = load_board(session, now=now, match_ids=ids)
    items = {saved(item.match.id): item for item in board.matches}
    played = {
        i: (it.info.stage_kind, it.info.round.code)
        for i, it in items.items()
        if it.match.status == MatchStatus.COMPLETE
    }
    scores: dict[int, MatchScore] = {}
    for season in {items[i].info.season.id: items[i].info.season for i in played}.values():
        of_this = {i: where for i, where in played.items() if items[i].info.season.id == season.id}
        scores |= match_scores(session, of_this, of_season(season))
    cards = []
    current = _current_start(board, now)
    withdrawn = set(
        session.exec(select(Player.id).where(Player.user_id == user.id, Player.status == RosterStatus.WITHDRAWN)).all()
    )
    for match_id in ids:
        item = items[match_id]
        info = item.info
        state, action, mine, when = _card(board, item, user, scores.get(match_id))
        me = info.seat_of(saved(user.id))
        if me is not None and me.player_id in withdrawn and info.match.status not in FINISHED:
            # Регламент §6.1: a withdrawn player's matches are finished by a technical substitute, not by them.
            action, mine = WITHDRAWN_ACTION, False
        # A later tour folds while nothing has begun there; a proposal or a meeting the four made early is followed.
        begun = bool(item.live or item.bookings)
        later = _later(item, current, now) and info.match.status == MatchStatus.SCHEDULING and not begun
        if later and item.remaining > 0 and (window := info.window) is not None:  # asks nothing until it opens;
            # painting early stays possible
            action, mine = f"ждёт своего игрового окна (откроется {window.start.astimezone(KIROV):%d.%m})", False
        ahead = item.fallback_ahead(now)
        # Folded: what is settled. A match whose window ended unplayed stays in view: the organizer will decide.
        past = info.match.status in (MatchStatus.COMPLETE, MatchStatus.REPLAY)
        title = info.title
        opponents = ", ".join(s.name for s in info.seats if s.user_id != user.id)
        cards.append(
            HomeCard(
                match_id,
                title,
                opponents,
                state,
                action,
                mine,
                when,
                past and not mine,
                bool(item.bookings),
                fallback_text(ahead.start) if ahead is not None else "",
                later,
            )
        )
    # stable: within each group the tours keep their order; the current tour first, later ones after
    return sorted(cards, key=lambda c: (c.past, c.later))
