"""The organizer's desk: every open item that needs a person's decision, grouped, each with the action that settles
it (Регламент §6.1, §6.3: the organizer runs the roster, the schedule, reschedules and substitutes). A view: reads
only, in a fixed number of statements whatever the number of matches; imports no reflex."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import exists
from sqlmodel import Session, col, func, select

from services.core.models import (
    AuditRecord,
    AvailabilityAnswer,
    AvailabilityInterval,
    BotStatus,
    Disqualification,
    Hanchan,
    JudgeCall,
    LoginLock,
    Match,
    MatchStatus,
    MeetingProposal,
    OutboxEvent,
    PantheonGame,
    Player,
    Role,
    RosterStatus,
    Round,
    Season,
    Seat,
    Stage,
    User,
    saved,
)
from services.core.ruleset import Ruleset, of_season
from services.core.urls import match_schedule_url, match_url
from services.core.wording import agreed, match_title, round_title
from services.league import login_guard
from services.league.roster import current_season
from services.results.judge_calls import open_calls_for
from services.results.penalties import unresolved_ties
from services.scheduling.board import Board, MatchBoard, load_board
from services.scheduling.booking import FALLBACK_WARNING
from services.scheduling.capacity import board_capacity
from services.scheduling.fallback_plan import fallback_note, fallback_place
from services.scheduling.intervals import kirov_date
from services.scheduling.repo import match_info
from services.scheduling.rules import NO_COMMON_TIME, NO_FREE_TABLE, format_kirov, format_span, hanchans_word


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


SOON = timedelta(days=7)  # a window ending within a week without a booking needs the organizer now

# (key, title) in the order the desk shows them: the most urgent first.
GROUPS: tuple[tuple[str, str], ...] = (
    ("calls", "Вызовы судьи"),
    ("disputes", "Споры по результатам"),
    ("warnings", "Не смогут прийти на запасную дату"),
    ("logins", "Вход закрыт"),
    ("over", "Окно закончилось, матч не сыгран"),
    ("unrecorded", "Встреча прошла, результата нет"),
    ("soon", "Окно заканчивается в ближайшие 7 дней, встречи нет"),
    ("capacity", "Столов может не хватить"),
    ("no_common_time", "Нет общего времени"),
    ("no_free_table", "Общее время есть, столы заняты"),
    ("failed", "Не удалось забронировать"),
    ("ties", "Равенство у границы плей-офф"),
    ("pantheon", "Игры из Pantheon ждут решения"),
    ("substitutes", "Нужна техническая замена"),
    ("bot", "Telegram-бот"),
    ("roster", "Состав"),
)

# Groups whose items come several at once and are read later, not acted on first: shown as one line with their
# count that opens (issue 45 item 10: right after the draw four tours' long capacity cards stood above everything).
FOLDED = frozenset({"capacity"})

# The actions the desk performs itself; anything else is a link to the page where it is settled.
FALLBACK = "fallback"
WINDOW_FALLBACK = "window_fallback"
NEXT_WINDOW = "next_window"
RESOLVE_DISPUTE = "resolve_dispute"
ANSWER_CALL = "answer_call"
CLOSE_CALL = "close_call"
LIFT_LOCK = "lift_lock"


@dataclass(frozen=True)
class DeskItem:
    key: str  # stable across refreshes: the kind and the row it is about
    group: str
    title: str
    detail: str
    link: str = ""
    link_label: str = ""
    action: str = ""  # FALLBACK, NEXT_WINDOW, RESOLVE_DISPUTE or "" (the link settles it)
    target: str = ""  # the id the action acts on
    action_label: str = ""

    def as_row(self) -> dict[str, str]:
        return {name: str(getattr(self, name)) for name in self.__dataclass_fields__}


@dataclass
class Desk:
    items: list[DeskItem] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.items)

    def groups(self) -> list[dict[str, str]]:
        """The groups that have items: key, title, count (for the headings) and whether they are folded ("1": a
        group of `FOLDED` with more than one item)."""
        counts: dict[str, int] = {}
        for item in self.items:
            counts[item.group] = counts.get(item.group, 0) + 1
        return [
            {"key": k, "title": t, "count": str(counts[k]), "folded": "1" if k in FOLDED and counts[k] > 1 else ""}
            for k, t in GROUPS
            if k in counts
        ]


def _scheduling_items(board: Board, now: datetime) -> list[DeskItem]:
    items: list[DeskItem] = []
    for m in board.matches:
        if m.match.status in (MatchStatus.COMPLETE, MatchStatus.REPLAY):
            continue
        title, window = m.info.title, m.info.window
        items += _unrecorded(board, m)  # a split match's first meeting too, while its rest is being agreed
        if m.played or window is None or m.fully_booked:
            continue
        fallback = m.fallback()
        fits = fallback_place(board, m) is not None  # Регламент §6.1: only while a table is left for it
        can_fallback = fallback is not None and fallback.start > now and fits
        fallback_text = f"Запасная дата (§6.1): {fallback_note(board, m)}."
        fallback_action = {"action": FALLBACK, "target": str(m.match.id), "action_label": "Назначить запасную дату"}
        state = board.state(m)
        if board.window_over(m):
            items.append(
                DeskItem(
                    f"over-{m.match.id}",
                    "over",
                    title,
                    f"Окно закончилось ({format_span(window.start, window.end)}); "
                    f"{_lower_first(m.with_booked_part('встреча не назначена'))}. "
                    "Перенесите матч на следующий тур (уважительная причина) или запишите неявку на странице матча.",
                    match_url(saved(m.match.id)),
                    "Открыть матч",
                    NEXT_WINDOW,
                    str(m.match.id),
                    "Перенести на следующий тур",
                )
            )
        elif window.end - now <= SOON:
            waiting = m.not_answered
            parts = [f"Окно до {format_kirov(window.end)}."]
            parts.append(f"Не ответили: {', '.join(waiting)}." if waiting else "Ответили все четверо.")
            if not waiting:
                options = len(board.options(m))
                parts.append("Общих вариантов нет." if not options else f"Общих вариантов: {options}.")
            if fallback is not None:
                parts.append(fallback_text)
            items.append(
                DeskItem(
                    f"soon-{m.match.id}",
                    "soon",
                    title,
                    " ".join(parts),
                    match_schedule_url(saved(m.match.id)),
                    "Согласование матча",
                    **(fallback_action if can_fallback else {}),
                )
            )
        elif state in (NO_COMMON_TIME, NO_FREE_TABLE):
            # Регламент §3: a part already booked is said first, as on /schedule
            detail = m.with_booked_part(
                "Все четверо ответили, общего свободного времени нет (Регламент §3): назначьте встречу сами."
                if state == NO_COMMON_TIME
                else "Общее время у четверых есть, но все столы в это время заняты или удерживаются за другими "
                "матчами (Регламент §3, §6.3): назначьте встречу сами."
            )
            if fallback is not None:
                detail += f" {fallback_text}"
            items.append(
                DeskItem(
                    f"{'nct' if state == NO_COMMON_TIME else 'nft'}-{m.match.id}",
                    state,
                    title,
                    detail,
                    match_schedule_url(saved(m.match.id)),
                    "Время игроков",
                    **(fallback_action if can_fallback else {}),
                )
            )
        if m.failed:
            last = m.failed[-1]
            items.append(
                DeskItem(
                    f"failed-{last.id}",
                    "failed",
                    title,
                    f"Встреча {format_kirov(last.start_at)} не забронирована: "
                    f"{last.failure_reason or 'причина не указана'}",
                    match_schedule_url(saved(m.match.id)),
                    "Согласование матча",
                )
            )
    return items


def _warning_items(session: Session, board: Board, now: datetime) -> list[DeskItem]:
    """Регламент §5, §6.1, §6.3: a player's «Не смогу» on the binding fallback (it stays booked, the warning is an
    audit row) waits for the organizer while the meeting is ahead and the player still sits at the match: move it to
    the next tour, seat a substitute on the match page, or keep the time (the item goes when the meeting begins)."""
    ahead = {saved(b.id): m for m in board.matches for b in m.bookings if b.start_at > now}
    if not ahead:
        return []
    warnings = session.exec(
        select(AuditRecord)
        .where(AuditRecord.action == FALLBACK_WARNING, col(AuditRecord.entity_id).in_(list(ahead)))
        .order_by(col(AuditRecord.id))
    ).all()
    items = []
    for w in warnings:
        m = ahead[saved(w.entity_id)]
        seat = m.info.seat_of(saved(w.actor_user_id))
        if seat is None:  # a substitute took the seat: settled
            continue
        start = next(b.start_at for b in m.bookings if b.id == w.entity_id)
        items.append(
            DeskItem(
                f"warning-{w.entity_id}-{seat.player_id}",
                "warnings",
                m.info.title,
                f"{seat.name} {agreed(seat.name, 'предупредил', 'предупредила')}: не сможет прийти на запасную "
                f"дату матча {format_kirov(start)} — "
                "решите: перенести матч, посадить замену или оставить время (Регламент §5, §6.1).",
                match_url(saved(m.match.id)),
                "Посадить замену",
                NEXT_WINDOW,
                str(m.match.id),
                "Перенести на следующий тур",
            )
        )
    return items


def _unrecorded(board: Board, m: MatchBoard) -> list[DeskItem]:
    """A booked meeting that is over while the match has fewer hanchans than the meetings held (`Board.unrecorded`)."""
    held = board.unrecorded(m)
    if not held:
        return []
    return [
        DeskItem(
            f"unrecorded-{held[-1].id}",
            "unrecorded",
            m.info.title,
            f"Встреча {format_kirov(held[-1].start_at)} прошла, записано {hanchans_word(m.hanchans)} "
            f"из {hanchans_word(sum(b.hanchans or 0 for b in held))}: внесите результат или неявку.",
            match_url(saved(m.match.id)),
            "Открыть матч",
        )
    ]


def _dispute_items(session: Session, season_id: int) -> list[DeskItem]:
    rows = session.exec(
        select(Hanchan, Match, Round, Stage)
        .join(Match, col(Match.id) == Hanchan.match_id)
        .join(Round, col(Round.id) == Match.round_id)
        .join(Stage, col(Stage.id) == Round.stage_id)
        .where(Hanchan.disputed, col(Hanchan.superseded_by_id).is_(None), Stage.season_id == season_id)
        .order_by(col(Hanchan.id))
    ).all()
    notes = _dispute_notes(session, [saved(m.id) for _, m, _, _ in rows])
    items = []
    for hanchan, match, round_, stage in rows:
        where = match_title(stage.kind, round_.code, match.table)
        note = notes.get(saved(hanchan.id), "")
        items.append(
            DeskItem(
                f"dispute-{hanchan.id}",
                "disputes",
                f"{where}, ханчан {hanchan.number}",
                f"Оспорен: {note}" if note else "Результат оспорен участником.",
                match_url(saved(match.id)),
                "Исправить на странице матча",
                RESOLVE_DISPUTE,
                str(hanchan.id),
                "Оставить результат",
            )
        )
    return items


def _dispute_notes(session: Session, match_ids: list[int]) -> dict[int, str]:
    """Hanchan id → what the participant wrote when disputing (the audit row of the dispute)."""
    if not match_ids:
        return {}
    notes: dict[int, str] = {}
    for a in session.exec(
        select(AuditRecord)
        .where(AuditRecord.action == "hanchan.dispute", col(AuditRecord.entity_id).in_(match_ids))
        .order_by(col(AuditRecord.id))
    ).all():
        hanchan_id = json.loads(a.after or "{}").get("hanchan_id")
        if hanchan_id is not None:
            notes[int(hanchan_id)] = a.reason
    return notes


def _tie_items(session: Session, season_id: int, rules: Ruleset) -> list[DeskItem]:
    items = []
    for place, group in unresolved_ties(session, season_id):
        if place > rules.playoff_size:  # Регламент §1: the best of the season's playoff size go on
            continue
        names = ", ".join(name for _, name in group)
        items.append(
            DeskItem(
                f"tie-{place}-{'-'.join(str(pid) for pid, _ in group)}",
                "ties",
                f"Место {place}: {names}",
                "Равны и по очкам, и по среднему месту (Регламент §4): порядок определяет организатор.",
                "/standings",
                "Решить в таблице",
            )
        )
    return items


def _pantheon_items(session: Session, season_id: int) -> list[DeskItem]:
    rows = session.exec(
        select(PantheonGame)
        .where(PantheonGame.season_id == season_id, PantheonGame.status == "pending")
        .order_by(col(PantheonGame.id))
    ).all()
    return [
        DeskItem(
            f"pantheon-{g.id}",
            "pantheon",
            f"Игра {format_kirov(g.ended_at)}" if g.ended_at else "Игра без времени окончания",
            g.reason or "Не удалось определить матч.",
            "/pantheon",
            "Разместить на странице Pantheon",
        )
        for g in rows
    ]


def _bot_items(session: Session, bot_configured: bool) -> list[DeskItem]:
    items = []
    status = session.get(BotStatus, 1)
    if (
        status is not None
        and status.last_error
        and (
            status.last_delivery_at is None or (status.last_error_at and status.last_error_at > status.last_delivery_at)
        )
    ):
        when = format_kirov(status.last_error_at) if status.last_error_at else ""
        items.append(
            DeskItem("bot-error", "bot", "Последняя ошибка бота", f"{when}: {status.last_error}", "/announcements")
        )
    if bot_configured:
        waiting = session.exec(
            select(func.count()).select_from(OutboxEvent).where(col(OutboxEvent.delivered_at).is_(None))
        ).one()
        if waiting:
            items.append(
                DeskItem(
                    "bot-waiting",
                    "bot",
                    "Недоставленные события",
                    f"Ждут отправки в Telegram: {waiting}.",
                    "/announcements",
                    "Состояние бота",
                )
            )
    return items


def _roster_items(session: Session, season_id: int, draw_approved: bool, rules: Ruleset) -> list[DeskItem]:
    main = session.exec(
        select(Player.id, User.display_name)
        .join(User, col(User.id) == Player.user_id)
        .where(Player.season_id == season_id, Player.status == RosterStatus.MAIN)
        .order_by(col(Player.registration_order))
    ).all()
    items = []
    # Регламент §1: a registration-time rule; after the draw a withdrawal is settled by substitutes (§6.1).
    if not draw_approved and len(main) % rules.roster_multiple:
        items.append(
            DeskItem(
                "roster-four",
                "roster",
                f"В основном составе {len(main)}",
                f"Основной состав строго кратен {rules.roster_multiple} (Регламент §1): "
                "переведите лишних в резерв или доберите.",
                "/roster",
                "Состав",
            )
        )
    if draw_approved:
        seated: set[int | None] = set()
        for pair in session.exec(
            select(Seat.player_id, Seat.substitute_for_player_id)
            .join(Match, col(Match.id) == Seat.match_id)
            .join(Round, col(Round.id) == Match.round_id)
            .join(Stage, col(Stage.id) == Round.stage_id)
            .where(Stage.season_id == season_id, Match.status != MatchStatus.DRAFT)
        ).all():
            seated.update(pair)
        for player_id, name in main:
            if player_id not in seated:
                items.append(
                    DeskItem(
                        f"roster-unseated-{player_id}",
                        "roster",
                        name,
                        "В основном составе, но без матчей: переведите в резерв или посадите заменой.",
                        "/roster",
                        "Состав",
                    )
                )
    return items


def _substitute_items(session: Session, season_id: int, draw_approved: bool, now: datetime) -> list[DeskItem]:
    """Регламент §6.1: every match not yet played where a withdrawn (or, §5 and §6.3, disqualified) player still
    holds a seat needs a technical substitute — the players `results.hanchans.seated_out_of_season` names; the match
    page's «Замена» form seats one (a seated substitute takes the seat, and the item goes). The season's matches
    come from the approved draw (Регламент §2): before it there is nothing to read."""
    if not draw_approved:
        return []
    on = kirov_date(now)
    disqualified = select(Disqualification.user_id).where(
        col(Disqualification.starts_on) <= on,
        col(Disqualification.ends_on).is_(None) | (col(Disqualification.ends_on) > on),
    )
    # sqlmodel types select() up to four columns; this one reads six
    rows = session.exec(
        select(Match, Round, Stage, Player.id, Player.status, User.display_name)  # type: ignore[call-overload]
        .join(Round, col(Round.id) == Match.round_id)
        .join(Stage, col(Stage.id) == Round.stage_id)
        .join(Seat, col(Seat.match_id) == Match.id)
        .join(Player, col(Player.id) == Seat.player_id)
        .join(User, col(User.id) == Player.user_id)
        .where(
            Stage.season_id == season_id,
            (col(Player.status) == RosterStatus.WITHDRAWN) | col(Player.user_id).in_(disqualified),
            col(Match.status).in_([MatchStatus.SCHEDULING, MatchStatus.PLAYING]),
            ~exists().where(col(Hanchan.match_id) == Match.id, col(Hanchan.superseded_by_id).is_(None)),
        )
        .order_by(col(Round.id), col(Match.id))
    ).all()
    return [
        DeskItem(
            f"substitute-{match.id}-{player_id}",
            "substitutes",
            match_title(stage.kind, round_.code, match.table),
            f"{name}: "
            + (
                "участие в сезоне прекращено (Регламент §6.1)"
                if status == RosterStatus.WITHDRAWN
                else "дисквалифицирован(а) (Регламент §5), но ещё сидит за столом"
            )
            + "; матч не сыгран — за стол нужна техническая замена.",
            match_url(match.id),
            "Посадить замену",
        )
        for match, round_, stage, player_id, status, name in rows
    ]


def _call_items(session: Session, user: User | None, now: datetime) -> list[DeskItem]:
    """Регламент §6.2: open judge calls — the judge's own at once, the organizer's after ten minutes unanswered."""
    if user is None:
        return []
    calls = open_calls_for(session, user, now=now)
    if not calls:
        return []
    titles = {c.match_id: match_info(session, c.match_id).title for c in calls}  # a handful at a time
    callers = {
        u.id: u.display_name
        for u in session.exec(select(User).where(col(User.id).in_([c.called_by_user_id for c in calls])))
    }
    items = []
    for c in calls:
        title = titles[c.match_id] + (f", ханчан {c.hanchan_number}" if c.hanchan_number else "")
        status = f"судья идёт с {format_kirov(c.answered_at)[-5:]}" if c.answered_at else "ещё без ответа"
        waited = int((now - c.called_at).total_seconds() // 60)
        items.append(
            DeskItem(
                f"call-{c.id}",
                "calls",
                title,
                f"{c.description} — зовёт {callers.get(c.called_by_user_id, '?')}, {waited} мин назад; {status}.",
                match_url(c.match_id),
                "Страница матча",
                CLOSE_CALL if c.answered_at else ANSWER_CALL,
                str(c.id),
                "Записать решение" if c.answered_at else "Иду",
            )
        )
    return items


def _lock_items(session: Session, now: datetime) -> list[DeskItem]:
    """Login names closed to new browsers after a run of wrong passwords (login_guard): the organizer may open them
    at once, e.g. when the person asks from a new phone."""
    return [
        DeskItem(
            f"lock-{lock.login_name}",
            "logins",
            lock.display_name,
            f"Вход с новых устройств закрыт до {format_kirov(lock.until)}: {lock.reason}. "
            "Со своих устройств человек входит.",
            action=LIFT_LOCK,
            target=lock.login_name,
            action_label="Открыть вход",
        )
        for lock in login_guard.locks(session, now=now)
    ]


def _capacity_items(season: Season, board: Board, now: datetime) -> list[DeskItem]:
    """Issue 27, item 2: each tour not over whose window cannot hold its matches, or whose §6.1 fallback Sunday
    cannot seat the matches still to agree, while there is time to act (another room, a table, the next tour)."""
    items = []
    for cap in board_capacity(board, season):
        if cap.window.end <= now:
            continue
        todo = [
            m
            for m in board.matches
            if m.info.window_round.code == cap.tour
            and m.info.stage_kind == "regular"
            and not m.complete
            and m.remaining > 0
        ]
        unseated = [m for m in todo if fallback_place(board, m) is None]
        if cap.fits and not unseated:
            continue
        detail = cap.text
        if unseated:
            detail += f" Сейчас не согласовано {len(todo)}, запасная дата вместит {len(todo) - len(unseated)}."
        round_id = todo[0].info.window_round.id if todo else None
        action = (
            {"action": WINDOW_FALLBACK, "target": str(round_id), "action_label": "Запасная дата для всего тура"}
            if round_id is not None and cap.fallback is not None and cap.fallback.start > now
            else {}
        )
        items.append(DeskItem(f"capacity-{cap.tour}", "capacity", f"Тур {cap.tour}", detail, "/schedule",
                              "Расписание", **action))  # fmt: skip
    return items


def build_desk(session: Session, *, now: datetime, user: User | None = None, bot_configured: bool = False) -> Desk:
    """Everything that waits for the organizer in the current season, most urgent first; a judge sees the calls.
    `bot_configured`: the deployment has a bot (its settings, passed in), so undelivered events are news."""
    if user is not None and user.role == Role.JUDGE:
        return Desk(_call_items(session, user, now))
    season = current_season(session)
    if season is None:
        return Desk(_call_items(session, user, now) + _lock_items(session, now))
    board = load_board(session, now=now, season_id=season.id)
    items = _call_items(session, user, now)
    items += _dispute_items(session, saved(season.id))
    items += _lock_items(session, now)
    items += _warning_items(session, board, now)
    items += _scheduling_items(board, now)
    items += _capacity_items(season, board, now)
    items += _tie_items(session, saved(season.id), of_season(season))
    items += _pantheon_items(session, saved(season.id))
    items += _substitute_items(session, saved(season.id), season.draw_approved_at is not None, now)
    items += _bot_items(session, bot_configured)
    items += _roster_items(session, saved(season.id), season.draw_approved_at is not None, of_season(season))
    order = {key: n for n, (key, _) in enumerate(GROUPS)}
    return Desk(sorted(items, key=lambda i: order[i.group]))


def desk_version(session: Session, *, now: datetime) -> tuple[Any, ...]:
    """One cheap statement that changes whenever anything the desk shows may have changed (and each minute, for
    the windows and meetings that end): the page recomputes the desk only then."""
    newest = [
        select(func.max(AuditRecord.id)).scalar_subquery(),
        select(func.max(OutboxEvent.id)).scalar_subquery(),
        select(func.count()).select_from(OutboxEvent).where(col(OutboxEvent.delivered_at).is_(None)).scalar_subquery(),
        select(func.max(Hanchan.id)).scalar_subquery(),
        select(func.count()).select_from(Hanchan).where(Hanchan.disputed).scalar_subquery(),
        select(func.max(MeetingProposal.id)).scalar_subquery(),
        select(func.max(AvailabilityAnswer.id)).scalar_subquery(),
        select(func.max(AvailabilityInterval.id)).scalar_subquery(),
        select(func.max(PantheonGame.updated_at)).scalar_subquery(),
        select(func.max(BotStatus.last_error_at)).scalar_subquery(),
        select(func.max(Match.id)).scalar_subquery(),
        select(func.count()).select_from(Player).scalar_subquery(),
        select(func.max(JudgeCall.id)).scalar_subquery(),
        select(func.max(LoginLock.locked_at)).scalar_subquery(),  # a lift is audited: AuditRecord above
    ]
    row = session.exec(select(*newest)).one()
    return (*tuple(row), now.replace(second=0, microsecond=0))


def judge_choices(session: Session) -> tuple[list[dict[str, str]], list[dict[str, str]], list[dict[str, str]]]:
    """For the organizer's «Назначить судью» form: the judges, the season's rounds and its matches."""
    judges = [
        {"id": str(u.id), "name": u.display_name}
        for u in session.exec(select(User).where(User.role == Role.JUDGE).order_by(col(User.display_name))).all()
    ]
    season = current_season(session)
    if season is None:
        return judges, [], []
    rows = session.exec(
        select(Match, Round, Stage)
        .join(Round, col(Round.id) == Match.round_id)
        .join(Stage, col(Stage.id) == Round.stage_id)
        .where(Stage.season_id == season.id, Match.status != MatchStatus.DRAFT)
        .order_by(col(Round.id), col(Match.id))
    ).all()
    rounds: dict[int, str] = {}
    matches = []
    for match, round_, stage in rows:
        rounds.setdefault(saved(round_.id), round_title(stage.kind, round_.code))
        matches.append({"id": str(match.id), "name": match_title(stage.kind, round_.code, match.table)})
    return judges, [{"id": str(k), "name": v} for k, v in rounds.items()], matches
