"""The start-of-season checklist on the organizer's desk (issue 28 item 1), in the season's own order: the club's
rooms and tables, the judge and the experts, registration, the fees, the main roster's multiple, closing registration,
the draw, the tours' windows, the playoff rounds' windows, the bot in the chat. Each line says done or what is missing
and names the page where it is done. Reads only; imports no reflex."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, func, select

from services.core.bot_status import bot_status
from services.core.models import Player, Registration, Role, Room, RosterStatus, Round, Season, User
from services.core.ruleset import multiple_of, of_season
from services.core.wording import counted
from services.playoff.repo import ROUND_CODES, playoff_stage
from services.scheduling.tour_windows import current_windows


@dataclass(frozen=True)
class CheckLine:
    key: str
    title: str
    done: bool
    detail: str  # what there is, or what is missing
    page: str  # where it is done: a key of the site's routes (the shell maps it to a link)


def season_checklist(session: Session, season: Season, *, now: datetime) -> list[CheckLine]:
    rules = of_season(season)
    main = session.exec(
        select(func.count())
        .select_from(Player)
        .where(Player.season_id == season.id, Player.status == RosterStatus.MAIN)
    ).one()
    return [
        _rooms(session),
        *_staff(session),
        _registration(season),
        _fees(session, season),
        _multiple(season, main, rules.roster_multiple),
        CheckLine("closed", "Регистрация закрыта", season.registration_closed, "", "draw"),
        _windows(session, season),
        CheckLine(  # Регламент §2: the draw of all tours at once, approved by the organizer
            "draw", "Жеребьёвка утверждена", season.draw_approved_at is not None, "", "draw"
        ),
        _playoff_windows(session, season),
        _bot(session, now),
    ]


def _multiple(season: Season, main: int, multiple: int) -> CheckLine:
    """Регламент §1: the main roster strictly a multiple of four — at registration. Once the draw is approved a
    withdrawal leaves the roster short, and the tables are made up by technical substitutes (§6.1): the line stays
    done and says so."""
    title, players = f"Основной состав кратен {multiple_of(multiple)}", counted(main, "игрок", "игрока", "игроков")
    if season.draw_approved_at is not None:
        detail = f"в основном составе {players}; после жеребьёвки столы добирают технические замены (Регламент §6.1)"
        return CheckLine("multiple", title, True, detail, "roster")
    return CheckLine("multiple", title, main > 0 and main % multiple == 0, f"в основном составе {players}", "roster")


def _rooms(session: Session) -> CheckLine:
    rooms = session.exec(select(Room).order_by(col(Room.id))).all()
    detail = ", ".join(f"{r.name}: {counted(r.tables, 'стол', 'стола', 'столов')}" for r in rooms)
    return CheckLine("rooms", "Помещения клуба и столы", bool(rooms), detail or "ни одного помещения: брони невозможны",
                     "rooms")  # fmt: skip


def _staff(session: Session) -> list[CheckLine]:
    """Регламент §1: the chief judge and the experts for disputed cases."""
    lines = []
    for role, title, none in ((Role.JUDGE, "Судья лиги", "судьи нет"), (Role.EXPERT, "Эксперты", "экспертов нет")):
        names = session.exec(select(User.display_name).where(User.role == role).order_by(User.display_name)).all()
        lines.append(CheckLine(str(role), title, bool(names), ", ".join(names) or none, "staff"))
    return lines


def _registration(season: Season) -> CheckLine:
    opens, closes = season.registration_opens_on, season.registration_closes_on
    detail = (
        f"{opens:%d.%m.%Y} – {closes:%d.%m.%Y}" if opens and closes else "даты регистрации не заданы"
    )  # Регламент §1: registration until a date
    return CheckLine("dates", "Даты регистрации", bool(opens and closes), detail, "season_admin")


def _fees(session: Session, season: Season) -> CheckLine:
    """Регламент §1: the fee, paid to the organizer's treasurer; recorded per player on the roster."""
    rows = session.exec(
        select(col(Player.id), col(Registration.fee_paid_on))
        .outerjoin(Registration, col(Registration.player_id) == Player.id)
        .where(Player.season_id == season.id, Player.status == RosterStatus.MAIN)
    ).all()
    paid = sum(1 for _, paid_on in rows if paid_on is not None)
    return CheckLine("fees", "Взносы основного состава", bool(rows) and paid == len(rows),
                     f"оплатили {paid} из {len(rows)}", "roster")  # fmt: skip


def _windows(session: Session, season: Season) -> CheckLine:
    windows = current_windows(session, season)
    missing = [str(n) for n, w in enumerate(windows, start=1) if w is None]
    detail = f"не заданы окна туров {', '.join(missing)}" if missing else f"все {len(windows)} окна заданы"
    return CheckLine("windows", "Игровые окна туров", not missing, detail, "draw")


def _playoff_windows(session: Session, season: Season) -> CheckLine:
    stage = playoff_stage(session, season.id) if season.id is not None else None
    if stage is None:  # the first round's window is asked for when the regular stage is closed
        return CheckLine("playoff", "Окна раундов плей-офф", False, "после регулярного этапа", "playoff")
    rounds = {r.code: r for r in session.exec(select(Round).where(Round.stage_id == stage.id)).all()}
    missing = [c for c in ROUND_CODES if c not in rounds or rounds[c].window_start is None]
    names = ", ".join("финал" if c == "F" else f"раунд {c}" for c in missing)
    return CheckLine(
        "playoff", "Окна раундов плей-офф", not missing, f"не заданы: {names}" if missing else "", "playoff"
    )


def _bot(session: Session, now: datetime) -> CheckLine:
    """Регламент §3: the bot posts to the league's chat; a fresh heartbeat says it runs."""
    status = bot_status(session, now=now)
    detail = f"@{status.bot_username}" if status.connected else "бот не запущен или не в сети"
    return CheckLine("bot", "Бот в чате лиги", status.connected, detail, "")
