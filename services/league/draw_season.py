"""The season's draw on the database: draft, regenerate, swap, approve (Регламент §2); imports no reflex.

The draft is a DrawDraft row (JSON of Player ids), never Match rows: only approval creates matches, so
nothing that reads matches (the players' pages, the bot) can see a draw the organizer has not approved.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from services.core import outbox
from services.core.audit import record_audit
from services.core.models import DrawDraft, Match, MatchStatus, Player, RosterStatus, Season, Seat, User, saved, utc_now
from services.core.ruleset import of_season
from services.league.draw import DrawError, Tours, draw_tours, repeats_report, swap_players, validate_draw
from services.league.draw import max_meetings as count_max
from services.league.draw import repeat_meetings as count_repeats
from services.scheduling.tour_windows import current_windows, tour_rounds

SEED_LIMIT = 2**31  # the seed is stored in an INTEGER column on every database


class _Named(int):
    """A Player id that prints as the player's name, so the pure draw's Russian messages name people."""

    name: str

    def __new__(cls, value: int, name: str) -> _Named:
        obj = super().__new__(cls, value)
        obj.name = name
        return obj

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class DrawView:
    """A draft or an approved draw, with names: what the page and the command line show."""

    seed: int | None
    tours: tuple[tuple[tuple[int, ...], ...], ...]  # Player ids
    names: dict[int, str]
    approved_at: datetime | None = None

    @property
    def max_meetings(self) -> int:
        return count_max(self.tours)

    @property
    def repeat_meetings(self) -> int:
        return count_repeats(self.tours)

    @property
    def repeats(self) -> list[tuple[str, str, int]]:
        return [(self.names.get(a, str(a)), self.names.get(b, str(b)), c) for a, b, c in repeats_report(self.tours)]

    def table_names(self, table: tuple[int, ...]) -> list[str]:
        return [self.names.get(p, str(p)) for p in table]


def main_roster(session: Session, season: Season) -> list[_Named]:
    """The main roster in registration order, ids that print as names."""
    rows = session.exec(
        select(Player.id, User.display_name)
        .join(User, col(User.id) == Player.user_id)
        .where(Player.season_id == season.id, Player.status == RosterStatus.MAIN)
        .order_by(col(Player.registration_order))
    ).all()
    return [_Named(saved(pid), name) for pid, name in rows]


def _names(session: Session, season: Season) -> dict[int, str]:
    rows = session.exec(
        select(Player.id, User.display_name)
        .join(User, col(User.id) == Player.user_id)
        .where(Player.season_id == season.id)
    ).all()
    return {saved(pid): name for pid, name in rows}


def _labelled(tours: Tours, names: dict[int, str]) -> Tours:
    return tuple(tuple(tuple(_Named(p, names.get(p, str(p))) for p in table) for table in tour) for tour in tours)


def _plain(tours: Tours) -> list[list[list[int]]]:
    return [[[int(p) for p in table] for table in tour] for tour in tours]


def _require_open_draw(season: Season) -> None:
    if season.draw_approved_at is not None:
        raise DrawError("Жеребьёвка уже утверждена: черновик больше не меняется.")


def load_draft(session: Session, season: Season) -> DrawView | None:
    draft = session.get(DrawDraft, season.id)
    if draft is None:
        return None
    tours = tuple(tuple(tuple(table) for table in tour) for tour in json.loads(draft.tours))
    return DrawView(seed=draft.seed, tours=tours, names=_names(session, season))


def _stored_draft(session: Session, season: Season) -> DrawView:
    """The draft this transaction has just stored."""
    view = load_draft(session, season)
    assert view is not None  # stored by the caller a moment ago
    return view


def approved_draw(session: Session, season: Season) -> DrawView | None:
    """The approved draw as stored in matches and seats (tables in number order)."""
    if season.draw_approved_at is None:
        return None
    tours = []
    for round_ in tour_rounds(session, season):
        matches = session.exec(
            select(Match).where(Match.round_id == round_.id, Match.replay_of_match_id == None)  # noqa: E711
        ).all()
        tables = []
        for match in sorted(matches, key=lambda m: int(m.table) if m.table.isdigit() else 0):
            seats = session.exec(select(Seat.player_id).where(Seat.match_id == match.id).order_by(col(Seat.seed)))
            tables.append(tuple(seats.all()))
        tours.append(tuple(tables))
    return DrawView(season.draw_seed, tuple(tours), _names(session, season), season.draw_approved_at)


def _store(  # noqa: PLR0913
    session: Session, season: Season, seed: int, tours: Tours, actor_user_id: int | None, now: datetime | None
) -> None:
    draft = session.get(DrawDraft, saved(season.id)) or DrawDraft(season_id=saved(season.id), seed=seed, tours="[]")
    draft.seed = seed
    draft.tours = json.dumps(_plain(tours))
    draft.created_by_user_id = actor_user_id
    draft.updated_at = now or utc_now()
    session.add(draft)
    session.flush()


def make_draft(
    session: Session,
    season: Season,
    *,
    seed: int | None = None,
    actor_user_id: int | None,
    now: datetime | None = None,
) -> DrawView:
    """Draws all tours for the main roster (a new draft, or a regenerated one with a new seed) at `now`."""
    _require_open_draw(season)
    # Регламент §2: «Жеребьёвка проводится сразу на все четыре тура после комплектования основного состава»
    if not season.registration_closed:
        raise DrawError("Сначала закройте регистрацию: жеребьёвка проводится после комплектования основного состава.")
    if seed is None:
        seed = random.SystemRandom().randrange(SEED_LIMIT)
    if not 0 <= seed < SEED_LIMIT:
        raise DrawError(f"Зерно должно быть от 0 до {SEED_LIMIT - 1}.")
    rules = of_season(season)
    draw = draw_tours(main_roster(session, season), tours=rules.tours, seed=seed, multiple=rules.roster_multiple)
    _store(session, season, seed, draw.tours, actor_user_id, now)
    view = _stored_draft(session, season)
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="draw.draft",
        entity="season",
        entity_id=season.id,
        after={"seed": seed, "max_meetings": view.max_meetings, "repeat_meetings": view.repeat_meetings},
        now=now,
    )
    return view


def swap_in_draft(
    session: Session,
    season: Season,
    tour_number: int,
    a: int,
    b: int,
    *,
    actor_user_id: int | None,
    now: datetime | None = None,
) -> DrawView:
    """Exchanges two players between their tables in one tour of the draft; the repeats report follows."""
    _require_open_draw(season)
    view = load_draft(session, season)
    if view is None:
        raise DrawError("Черновика жеребьёвки ещё нет: сначала проведите жеребьёвку.")
    names = view.names
    tours = swap_players(
        _labelled(view.tours, names), tour_number - 1, _Named(a, names.get(a, str(a))), _Named(b, names.get(b, str(b)))
    )
    assert view.seed is not None  # a draft is stored with its seed
    _store(session, season, view.seed, tours, actor_user_id, now)
    after = _stored_draft(session, season)
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="draw.swap",
        entity="season",
        entity_id=season.id,
        after={"tour": tour_number, "players": [a, b], "names": [names.get(a), names.get(b)]},
        now=now,
    )
    return after


def approve_draw(
    session: Session, season: Season, *, actor_user_id: int | None, now: datetime | None = None
) -> DrawView:
    """Validates the draft, creates the tours' matches and seats, stores the seed; all or nothing."""
    _require_open_draw(season)
    view = load_draft(session, season)
    if view is None:
        raise DrawError("Черновика жеребьёвки нет: утверждать нечего.")
    rules = of_season(season)
    # Регламент §2, §1: каждый игрок основного состава ровно один раз в каждом туре, столы по четыре
    validate_draw(_labelled(view.tours, view.names), main_roster(session, season), tours_count=rules.tours)
    by_tour = current_windows(session, season)
    windows = [w for w in by_tour if w is not None]
    missing = [n for n, w in enumerate(by_tour, start=1) if w is None]
    if missing:
        tours = ", ".join(str(n) for n in missing)
        raise DrawError(f"Задайте игровые окна туров ({tours}) перед утверждением жеребьёвки.")
    rounds = tour_rounds(session, season)
    if session.exec(select(Match.id).where(col(Match.round_id).in_([r.id for r in rounds]))).first() is not None:
        raise DrawError("Матчи туров уже созданы: повторно утвердить жеребьёвку нельзя.")
    for round_, tour in zip(rounds, view.tours, strict=True):
        for table_number, table in enumerate(tour, start=1):
            match = Match(
                round_id=saved(round_.id),
                table=str(table_number),
                planned_hanchans=rules.hanchans_per_match,  # Регламент §2: обычный матч — правило сезона
                status=MatchStatus.SCHEDULING,
            )
            session.add(match)
            session.flush()
            for position, player_id in enumerate(table, start=1):
                session.add(Seat(match_id=saved(match.id), player_id=player_id, seed=position))
    season.draw_seed = view.seed
    now = now or utc_now()
    season.draw_approved_at = now
    session.add(season)
    session.delete(session.get_one(DrawDraft, season.id))
    # Регламент §2: the approved draw is what players and the bot see; the bot announces it (same transaction).
    outbox.emit(
        session,
        outbox.DRAW_APPROVED,
        season_id=season.id,
        season=season.name,
        matches=sum(len(tour) for tour in view.tours),
        windows=[[start.isoformat(), end.isoformat()] for start, end in windows],
        now=now,
    )
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="draw.approve",
        entity="season",
        entity_id=season.id,
        after={
            "seed": view.seed,
            "tours": _plain(view.tours),
            "max_meetings": view.max_meetings,
            "repeat_meetings": view.repeat_meetings,
        },
        now=now,
    )
    session.flush()
    return DrawView(view.seed, view.tours, view.names, season.draw_approved_at)
