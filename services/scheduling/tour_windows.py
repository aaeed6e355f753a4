"""The regular stage's tours as Round rows and their game windows, entered in Kirov time; imports no reflex."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core import outbox
from services.core.audit import record_audit
from services.core.errors import LeagueError
from services.core.models import Match, MatchStatus, Round, Season, Stage, StageKind, saved
from services.core.ruleset import of_season
from services.scheduling.intervals import KIROV
from services.scheduling.rules import format_kirov

Window = tuple[datetime, datetime]


class WindowError(LeagueError):
    """A game window the organizer must fix; the message is Russian and shown as is."""


def parse_kirov(text: str, what: str) -> datetime:
    """«2026-11-16T00:00» (what a datetime-local field sends) or «16.11.2026 00:00», Kirov wall time -> aware."""
    text = (text or "").strip()
    if not text:
        raise WindowError(f"{what}: укажите дату и время.")
    for pattern in ("%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%d.%m.%Y %H:%M", "%Y-%m-%dT%H:%M:%S"):
        try:
            return datetime.strptime(text, pattern).replace(tzinfo=KIROV)
        except ValueError:
            continue
    raise WindowError(f"{what}: не понимаю «{text}», нужна дата и время, например 16.11.2026 00:00.")


def kirov_input(instant: datetime | None) -> str:
    """The value a datetime-local field shows for an instant (Kirov wall time)."""
    return "" if instant is None else instant.astimezone(KIROV).strftime("%Y-%m-%dT%H:%M")


def check_windows(windows: Sequence[Window], tours: int) -> None:
    """Every tour has a window, it is not empty, and tours follow each other without overlapping."""
    if len(windows) != tours:
        raise WindowError(f"Нужны игровые окна всех туров: {tours}, а задано {len(windows)}.")
    for number, (start, end) in enumerate(windows, start=1):
        if end <= start:
            raise WindowError(f"Тур {number}: конец окна должен быть позже начала.")
        if number > 1 and start < windows[number - 2][1]:
            raise WindowError(
                f"Тур {number} начинается ({format_kirov(start)}) раньше, "
                f"чем заканчивается тур {number - 1} ({format_kirov(windows[number - 2][1])})."
            )


def regular_stage(session: Session, season: Season, *, create: bool = False) -> Stage | None:
    """The season's regular stage (the first one, if several exist); with create=True it is made if missing."""
    stage = session.exec(
        select(Stage).where(Stage.season_id == season.id, Stage.kind == StageKind.REGULAR).order_by(col(Stage.id))
    ).first()
    if stage is None and create:
        stage = Stage(season_id=saved(season.id), kind=StageKind.REGULAR)
        session.add(stage)
        session.flush()
    return stage


def tour_rounds(session: Session, season: Season, *, create: bool = False) -> list[Round]:
    """Rounds "1".."tours" of the regular stage, in order; with create=True the missing ones are added."""
    stage = regular_stage(session, season, create=create)
    if stage is None:
        return []
    existing = {r.code: r for r in session.exec(select(Round).where(Round.stage_id == stage.id)).all()}
    rounds = []
    for number in range(1, of_season(season).tours + 1):  # Регламент §2: туры регулярного этапа — правило сезона
        round_ = existing.get(str(number))
        if round_ is None and create:
            round_ = Round(stage_id=saved(stage.id), code=str(number))
            session.add(round_)
            session.flush()
        if round_ is not None:
            rounds.append(round_)
    return rounds


def current_windows(session: Session, season: Season) -> list[Window | None]:
    """Each tour's window, None where the organizer has not set one yet."""
    by_code = {r.code: r for r in tour_rounds(session, season)}
    result: list[Window | None] = []
    for number in range(1, of_season(season).tours + 1):
        r = by_code.get(str(number))
        result.append((r.window_start, r.window_end) if r and r.window_start and r.window_end else None)
    return result


def set_windows(
    session: Session,
    season: Season,
    windows: Sequence[Window],
    *,
    actor_user_id: int | None,
    now: datetime | None = None,
) -> None:
    """Sets every tour's game window, before, at or after approval of the draw; recorded in the audit log and told
    to the matches at `now` (the shell's clock)."""
    windows = [(start.astimezone(KIROV), end.astimezone(KIROV)) for start, end in windows]
    check_windows(windows, of_season(season).tours)
    for round_, (start, end) in zip(tour_rounds(session, season, create=True), windows, strict=True):
        if round_.window_start == start and round_.window_end == end:
            continue
        before = {"start": round_.window_start, "end": round_.window_end} if round_.window_start else None
        round_.window_start, round_.window_end = start, end
        session.add(round_)
        record_audit(
            session,
            actor_user_id=actor_user_id,
            action="round.window",
            entity="round",
            entity_id=round_.id,
            before=before,
            after={"tour": round_.code, "start": start, "end": end},
            now=now,
        )
        tell_window_changed(session, round_, now=now)
    session.flush()


def tell_window_changed(session: Session, round_: Round, *, now: datetime | None = None) -> None:
    """Every match playing in the round's window (moved ones included) gets an event: its card and open pages show
    the new window and what it changes (Регламент §2: every meeting falls inside it). Drafts have no card yet."""
    start, end = round_.window_start, round_.window_end
    assert start is not None and end is not None  # told once the window is set
    window_round = sa.func.coalesce(Match.window_round_id, Match.round_id)
    ids = session.exec(select(Match.id).where(window_round == round_.id, Match.status != MatchStatus.DRAFT)).all()
    for match_id in ids:
        outbox.emit(
            session,
            outbox.WINDOW_CHANGED,
            match_id,
            start=start.isoformat(),
            end=end.isoformat(),
            now=now,
        )
