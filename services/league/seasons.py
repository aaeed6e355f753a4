"""The season's lifecycle: a new season, its roster (copied or imported from CSV), closing it after the final.

Exactly one season is current; the database refuses a second (the partial unique index `uq_season_current`).
Rooms belong to the club, not to a season: a new season keeps them. Imports no reflex.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core.audit import record_audit
from services.core.db import lock_row
from services.core.errors import LeagueError
from services.core.models import Player, Registration, Role, RosterStatus, Season, Stage, StageKind, User, saved
from services.core.text_limits import SEASON_NAME_MAX, person_name_problem
from services.league import roster
from services.league.accounts import AccountError, find_user
from services.league.roster_csv import CsvEntry, CsvProblem, TooManyLines, has_invisible, parse_roster_csv
from services.playoff.repo import load_bracket
from services.results.disqualifications import active_disqualification, refusal_text


class SeasonError(LeagueError):
    """A refused season action; the message is Russian and nothing has changed."""


def create_season(
    session: Session,
    name: str,
    *,
    registration_opens_on: date | None = None,
    registration_closes_on: date | None = None,
    actor_user_id: int | None,
    now: datetime | None = None,
) -> Season:
    """A new, empty current season; the previous one stays readable as it was. `now`: the shell's clock."""
    name = " ".join(name.split())
    if not name:
        raise SeasonError("Укажите название сезона.")
    if len(name) > SEASON_NAME_MAX:
        raise SeasonError(f"Название длиннее {SEASON_NAME_MAX} символов.")
    if registration_opens_on and registration_closes_on and registration_closes_on < registration_opens_on:
        raise SeasonError("Регистрация не может закрыться раньше, чем откроется.")
    # SQLite's lower() knows only Latin letters: compare the names here.
    if name.casefold() in {n.casefold() for n in session.exec(select(Season.name)).all()}:
        raise SeasonError(f"Сезон «{name}» уже есть.")
    previous = roster.current_season(session)
    if previous is not None and previous.draw_approved_at is not None and previous.finished_at is None:
        raise SeasonError(f"Сезон «{previous.name}» ещё идёт: завершите его после финала, затем начинайте новый.")
    for row in session.exec(select(Season).where(col(Season.is_current))).all():
        row.is_current = False
        session.add(row)
    session.flush()
    season = Season(
        name=name,
        is_current=True,
        registration_opens_on=registration_opens_on,
        registration_closes_on=registration_closes_on,
    )
    session.add(season)
    try:
        session.flush()
    except sa.exc.IntegrityError as error:  # another organizer started a season at the same moment
        raise SeasonError("Другой сезон только что стал текущим: обновите страницу.") from error
    session.add(Stage(season_id=saved(season.id), kind=StageKind.REGULAR))
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="season.create",
        entity="season",
        entity_id=season.id,
        before={"current": previous.id} if previous else None,
        after={"name": name},
        now=now,
    )
    session.flush()
    return season


def set_registration_dates(
    session: Session, season: Season, opens: date | None, closes: date | None, *, actor_user_id: int, now: datetime
) -> Season:
    """Регламент §1: registration runs until a date — the current season's dates set on the site, audited."""
    if opens is None or closes is None:
        raise SeasonError("Укажите обе даты регистрации: когда она открывается и когда закрывается.")
    if closes < opens:
        raise SeasonError("Регистрация не может закрыться раньше, чем откроется.")
    before = {"opens": _iso(season.registration_opens_on), "closes": _iso(season.registration_closes_on)}
    season.registration_opens_on, season.registration_closes_on = opens, closes
    session.add(season)
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="season.registration_dates",
        entity="season",
        entity_id=season.id,
        before=before,
        after={"opens": opens.isoformat(), "closes": closes.isoformat()},
        now=now,
    )
    session.flush()
    return season


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None


def previous_season(session: Session, season: Season) -> Season | None:
    return session.exec(select(Season).where(col(Season.id) < season.id).order_by(col(Season.id).desc())).first()


def _require_open(season: Season) -> None:
    # Регламент §1: players join while registration is open.
    if season.registration_closed:
        raise SeasonError(f"Регистрация в сезон «{season.name}» закрыта.")


def enroll_user(
    session: Session,
    season: Season,
    user: User,
    *,
    today: date,
    contact: str = "",
    fee_paid_on: date | None = None,
    status: RosterStatus = RosterStatus.MAIN,
    actor_user_id: int | None,
    now: datetime | None = None,
) -> Player:
    """An existing person joins the season; refused with the reason when disqualified (Регламент §5)."""
    dq = active_disqualification(session, saved(user.id), today)
    if dq is not None:
        raise SeasonError(refusal_text(user.display_name, dq))
    if user.role != Role.PLAYER:
        raise SeasonError(f"«{user.display_name}» — не игрок.")
    exists = session.exec(select(Player.id).where(Player.season_id == season.id, Player.user_id == user.id)).first()
    if exists is not None:
        raise SeasonError(f"«{user.display_name}» уже есть в составе.")
    player = roster.enroll(session, season, user, status=status, actor_user_id=actor_user_id, now=now)
    session.add(Registration(player_id=saved(player.id), contact=contact, fee_paid_on=fee_paid_on))
    return player


def add_person(
    session: Session,
    season: Season,
    name: str,
    *,
    today: date,
    status: RosterStatus = RosterStatus.MAIN,
    contact: str = "",
    fee_paid_on: date | None = None,
    actor_user_id: int | None,
) -> tuple[Player, str | None]:
    """A known person (by name) is entered with their account; a new one gets an account and a password."""
    user = find_user(session, name)
    if user is not None:
        player = enroll_user(
            session,
            season,
            user,
            today=today,
            contact=contact,
            fee_paid_on=fee_paid_on,
            status=status,
            actor_user_id=actor_user_id,
        )
        return player, None
    # A new person only: a known one keeps the name the league already has; an empty or invisible-laden name is
    # refused by the account with its own message.
    problem = person_name_problem(" ".join(name.split())) if name.strip() and not has_invisible(name) else None
    if problem is not None:
        raise SeasonError(problem[0].upper() + problem[1:] + ".")
    try:
        player, password = roster.add_player(session, season, name, status=status, actor_user_id=actor_user_id)
    except AccountError as error:
        raise SeasonError(str(error)) from error
    session.add(Registration(player_id=saved(player.id), contact=contact, fee_paid_on=fee_paid_on))
    return player, password


@dataclass(frozen=True)
class CopyResult:
    added: tuple[str, ...]
    refused: tuple[str, ...]  # who was not copied, and why


def copy_roster(
    session: Session, season: Season, source: Season, *, today: date, actor_user_id: int | None
) -> CopyResult:
    """The previous season's players (not those withdrawn) join in their registration order, fee not yet paid."""
    _require_open(season)
    rows = session.exec(
        select(Player, User)
        .join(User, col(User.id) == Player.user_id)
        .where(Player.season_id == source.id, Player.status != RosterStatus.WITHDRAWN)
        .order_by(col(Player.registration_order))
    ).all()
    added, refused = [], []
    for _, user in rows:
        try:
            with session.begin_nested():
                enroll_user(session, season, user, today=today, actor_user_id=actor_user_id)
            added.append(user.display_name)
        except SeasonError as error:
            refused.append(str(error))
    return CopyResult(tuple(added), tuple(refused))


@dataclass(frozen=True)
class PreviewLine:
    line: int
    name: str
    contact: str
    fee: str
    outcome: str  # what the line becomes, or why it is refused
    accepted: bool


def _fee_text(entry: CsvEntry) -> str:
    if not entry.fee_paid:
        return "не оплачен"
    return f"оплачен {entry.paid_on:%d.%m.%Y}" if entry.paid_on else "оплачен"


def preview_roster_csv(session: Session, season: Season, text: str, *, today: date) -> list[PreviewLine]:
    """What each line of the file would become; changes nothing."""
    lines = []
    in_season = {u for u in session.exec(select(Player.user_id).where(Player.season_id == season.id)).all()}
    try:
        items = parse_roster_csv(text)
    except TooManyLines as error:
        raise SeasonError(str(error)) from error
    for item in items:
        if isinstance(item, CsvProblem):
            lines.append(
                PreviewLine(item.line, item.text, "", "", f"Строка {item.line} отклонена: {item.error}", False)
            )
            continue
        user = find_user(session, item.name)
        outcome, accepted = "новый игрок: будет создан вход и пароль", True
        if user is None and (problem := person_name_problem(item.name)) is not None:
            outcome, accepted = f"Строка {item.line} отклонена: {problem}", False
        elif user is not None:
            dq = active_disqualification(session, saved(user.id), today)
            if dq is not None:
                outcome, accepted = f"Строка {item.line} отклонена: {refusal_text(user.display_name, dq)}", False
            elif user.role != Role.PLAYER:
                outcome, accepted = f"Строка {item.line} отклонена: «{user.display_name}» — не игрок", False
            elif user.id in in_season:
                outcome, accepted = f"Строка {item.line} пропущена: «{user.display_name}» уже есть в составе", False
            else:
                outcome = "игрок прошлых сезонов: войдёт со своим прежним паролем"
        lines.append(PreviewLine(item.line, item.name, item.contact, _fee_text(item), outcome, accepted))
    return lines


@dataclass(frozen=True)
class ImportResult:
    lines: tuple[PreviewLine, ...]
    added: int
    passwords: tuple[tuple[str, str], ...]  # (name, password) of new accounts, shown once


def import_roster_csv(
    session: Session, season: Season, text: str, *, today: date, actor_user_id: int | None
) -> ImportResult:
    """Adds the accepted lines in file order; refused lines change nothing and are reported by number."""
    _require_open(season)
    lines = preview_roster_csv(session, season, text, today=today)
    entries = {e.line: e for e in parse_roster_csv(text) if isinstance(e, CsvEntry)}
    passwords, added = [], 0
    for line in lines:
        if not line.accepted:
            continue
        entry = entries[line.line]
        paid_on = (entry.paid_on or today) if entry.fee_paid else None
        _, password = add_person(
            session, season, entry.name, today=today, contact=entry.contact, fee_paid_on=paid_on,
            actor_user_id=actor_user_id,
        )  # fmt: skip
        added += 1
        if password:
            passwords.append((entry.name, password))
    return ImportResult(tuple(lines), added, tuple(passwords))


@dataclass(frozen=True)
class FinishPreview:
    """What finishing the season will do, for the question asked first (issue 25 item 4)."""

    season: str
    champion: str  # "" while the final is not played: finishing is then refused with `refusal`
    podium: tuple[str, ...]  # the final's places, best first
    refusal: str


def finish_preview(session: Session, season: Season) -> FinishPreview:
    """Регламент §2, §4: the season ends after its final; the champion and the final's places it will keep."""
    view = load_bracket(session, season)
    places = view.bracket.final_places
    names = tuple(view.names.get(p, str(p)) for p in places)
    refusal = ""
    if season.finished_at is not None:
        refusal = f"Сезон «{season.name}» уже завершён."
    elif not places:
        refusal = "Финал ещё не сыгран: сезон завершается после финала."
    return FinishPreview(season.name, names[0] if names else "", names, refusal)


def finish_season(session: Session, season: Season, *, now: datetime, actor_user_id: int | None) -> None:
    """Closes the season once its final is played (Регламент §2, §4); it stays current and readable."""
    lock_row(session, Season, saved(season.id))  # two organizers finishing at once: the second is told it is finished
    session.refresh(season, ["finished_at"])  # what the lock's previous holder committed
    if refusal := finish_preview(session, season).refusal:
        raise SeasonError(refusal)
    season.finished_at = now
    session.add(season)
    record_audit(session, actor_user_id=actor_user_id, action="season.finish", entity="season", entity_id=season.id)
    session.flush()


def all_seasons(session: Session) -> list[Season]:
    return list(session.exec(select(Season).order_by(col(Season.id).desc())).all())
