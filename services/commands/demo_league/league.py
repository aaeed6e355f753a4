"""The demo league a fresh installation starts with; imports no reflex."""

from __future__ import annotations

import logging
from datetime import date, datetime, timedelta
from pathlib import Path

from sqlmodel import Session, select

from services.commands.demo_league.results import seed_demo_results
from services.commands.demo_league.schedule import seed_demo_schedule
from services.core.config import ROOT, settings
from services.core.models import Role, Room, Season, User, saved, utc_now
from services.league.accounts import create_user, new_person_name
from services.league.closing import ClosingMethod, close_registration
from services.league.draw_season import approve_draw, make_draft
from services.league.regulation import publish as publish_regulation
from services.league.roster import add_player
from services.league.seasons import create_season
from services.scheduling.tour_windows import set_windows

log = logging.getLogger(__name__)

DEMO_PLAYERS = (
    "Алексей Смирнов",
    "Мария Кузнецова",
    "Дмитрий Попов",
    "Анна Васильева",
    "Сергей Петров",
    "Екатерина Соколова",
    "Иван Михайлов",
    "Ольга Новикова",
    "Никита Фёдоров",
    "Татьяна Морозова",
    "Андрей Волков",
    "Юлия Алексеева",
    "Павел Лебедев",
    "Наталья Семёнова",
    "Михаил Егоров",
    "Светлана Павлова",
)
REGULATION_FILE = ROOT / "docs" / "league-regulation-2026.ru.txt"
DEMO_ORGANIZER = "Богдан Бойко"
DEMO_JUDGE = "Екатерина Киселёва"
DEMO_ROOM = "Клуб, ул. Московская 78/115"
DEMO_TABLES = 4  # the club room's mahjong tables (issue 27): four matches sit at once
DEMO_DRAW_SEED = 2026
TOUR_DAYS = 14


def database_is_empty(session: Session) -> bool:
    return session.exec(select(User.id)).first() is None


def seed_demo(session: Session, *, today: date | None = None) -> list[tuple[str, str, str]]:
    """Creates the demo season; returns (name, role, password) once, for the organizer to hand out."""
    logins: list[tuple[str, str, str]] = []
    for name in (DEMO_ORGANIZER, DEMO_JUDGE, *DEMO_PLAYERS):
        new_person_name(name)  # the demo's people follow the rule of names like anyone's (AccountError if not)
    organizer, password = create_user(session, display_name=DEMO_ORGANIZER, role=Role.ORGANIZER)
    logins.append((organizer.display_name, "организатор", password))
    judge, password = create_user(session, display_name=DEMO_JUDGE, role=Role.JUDGE, actor_user_id=organizer.id)
    logins.append((judge.display_name, "судья", password))
    season = create_season(session, "Лига Дискарда 2026 «Однажды в Дискарде»", actor_user_id=organizer.id)
    session.add(Room(name=DEMO_ROOM, tables=DEMO_TABLES))
    for name in DEMO_PLAYERS:
        player, password = add_player(session, season, name, actor_user_id=organizer.id)
        logins.append((name, "игрок", password))
    _demo_draw(session, season, saved(organizer.id), today or datetime.now(settings.tz).date())
    seed_demo_results(session, season, organizer, now=utc_now())
    seed_demo_schedule(session, season, organizer, today or datetime.now(settings.tz).date())
    # The league's regulation as published on 2 October 2026 (Регламент §7: the site shows it).
    publish_regulation(
        session,
        REGULATION_FILE.read_text(encoding="utf-8"),
        reason="",
        now=datetime(2026, 10, 2, 12, 0, tzinfo=settings.tz),
        author_user_id=organizer.id,
    )
    return logins


def _demo_draw(session: Session, season: Season, organizer_id: int, today: date) -> None:
    """Registration closed, the draw approved, two-week tours: tour 1 began two Mondays ago, tour 2 is on now."""
    session.flush()
    close_registration(session, season, ClosingMethod.AS_IS, actor_user_id=organizer_id)
    make_draft(session, season, seed=DEMO_DRAW_SEED, actor_user_id=organizer_id)
    first = today - timedelta(days=today.weekday() + TOUR_DAYS)
    starts = [
        datetime.combine(first + timedelta(days=TOUR_DAYS * k), datetime.min.time(), settings.tz) for k in range(5)
    ]
    set_windows(session, season, list(zip(starts, starts[1:], strict=False)), actor_user_id=organizer_id)
    approve_draw(session, season, actor_user_id=organizer_id)


def write_logins(path: Path, logins: list[tuple[str, str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["# Демо-лига: имена для входа и пароли (файл не хранится в git)"]
    lines += [f"{name}\t{role}\t{password}" for name, role, password in logins]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    path.chmod(0o600)
