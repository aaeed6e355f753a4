"""Technical substitutes seated in place of a player for one match (Регламент §6.1); imports no reflex.

A substitute is a Player of the season with status `substitute`: he appears in the match results, never in the
standings (the scoring core leaves every non-main player out). The replaced player keeps his seat's history in
`Seat.substitute_for_player_id`, so a no-show penalty can still be assigned to him (Регламент §5).
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, select

from services.core import outbox
from services.core.audit import record_audit
from services.core.models import (
    Hanchan,
    Match,
    MatchStatus,
    Player,
    RosterStatus,
    Round,
    Season,
    Seat,
    Stage,
    User,
    saved,
)
from services.core.text_limits import person_name_problem
from services.league.accounts import AccountError, normalize_login
from services.league.roster import add_player
from services.league.roster_csv import has_invisible
from services.results.entry import ResultsError
from services.results.hanchans import get_match, require_organizer


def _season_id(session: Session, match: Match) -> int:
    return session.exec(
        select(Stage.season_id).join(Round, col(Round.stage_id) == Stage.id).where(Round.id == match.round_id)
    ).one()


def _named(session: Session, ids: list[int]) -> list[tuple[int, str]]:
    names = dict(
        session.exec(
            select(Player.id, User.display_name)
            .join(User, col(User.id) == Player.user_id)
            .where(col(Player.id).in_(ids))
        ).all()
    )
    return [(pid, names.get(pid, "?")) for pid in ids]


def penalty_candidates(session: Session, match_id: int) -> list[tuple[int, str]]:
    """Those who can be penalised in this match: the seated players, then the players a substitute replaced."""
    seats = session.exec(select(Seat).where(Seat.match_id == match_id).order_by(col(Seat.seed))).all()
    ids = [s.player_id for s in seats]
    ids += [
        s.substitute_for_player_id
        for s in seats
        if s.substitute_for_player_id and s.substitute_for_player_id not in ids
    ]
    return _named(session, ids)


# Регламент §6.1: the organizer completes a table from the season's technical substitutes and its reserve
CANDIDATES = (RosterStatus.SUBSTITUTE, RosterStatus.RESERVE)
RESERVE_MARK = " (резерв)"


def substitute_candidates(session: Session, match_id: int) -> list[tuple[int, str]]:
    """Who may be seated (Регламент §6.1): the season's technical substitutes, then its reserve (marked «резерв»),
    each by registration order, not already seated in this match."""
    match = session.get(Match, match_id)
    if match is None:
        return []
    seated = set(session.exec(select(Seat.player_id).where(Seat.match_id == match_id)).all())
    rows = session.exec(
        select(Player.id, User.display_name, Player.status)
        .join(User, col(User.id) == Player.user_id)
        .where(Player.season_id == _season_id(session, match), col(Player.status).in_(CANDIDATES))
        .order_by(col(Player.registration_order))
    ).all()
    ordered = sorted(rows, key=lambda row: CANDIDATES.index(RosterStatus(row[2])))  # stable: registration order kept
    return [
        (saved(pid), name + (RESERVE_MARK if status == RosterStatus.RESERVE else ""))
        for pid, name, status in ordered
        if pid not in seated
    ]


def _known_candidate(session: Session, season_id: int, name: str) -> Player | None:
    """The season's substitute or reserve player a typed name names (as a login compares names), if any: typing
    the name of someone already in the roster seats that person, not a second account."""
    login = normalize_login(name)
    return session.exec(
        select(Player)
        .join(User, col(User.id) == Player.user_id)
        .where(Player.season_id == season_id, User.login_name == login, col(Player.status).in_(CANDIDATES))
    ).first()


def seat_substitute(
    session: Session,
    user: User,
    match_id: int,
    replaced_player_id: int | None,
    *,
    substitute_player_id: int | None = None,
    new_name: str = "",
    reason: str,
    now: datetime,
) -> Seat:
    """Регламент §6.1: the organizer seats a technical substitute only to complete the table.

    The substitute is chosen from the season's substitutes or registered by name with status `substitute`.
    Only before the first hanchan is entered: a hanchan's four players must be the match's four seats, and how
    already played hanchans count after a replacement is the organizer's separate decision (Регламент §6.1) —
    a correction or a replay of the match. The match's card and open pages follow through the outbox event.
    """
    require_organizer(user)
    match = get_match(session, match_id)
    if match.status == MatchStatus.REPLAY:
        raise ResultsError("Этот матч заменён переигровкой: замену назначают в матче-переигровке.")
    name = " ".join(new_name.split())
    problems = []
    seat = None
    if replaced_player_id is not None:
        seat = session.exec(select(Seat).where(Seat.match_id == match.id, Seat.player_id == replaced_player_id)).first()
    if seat is None:
        problems.append("выберите игрока этого матча, которого заменяют")
    if substitute_player_id is None and not name:
        problems.append("выберите техническую замену из списка или введите имя нового игрока")
    if substitute_player_id is not None and name:
        problems.append("выберите замену из списка или введите имя нового игрока, но не то и другое сразу")
    elif name and not has_invisible(new_name) and (problem := person_name_problem(name)) is not None:
        problems.append(problem)  # the one rule of a new person's name; invisible characters: the account says so
    if not reason.strip():
        problems.append("укажите причину замены")
    if problems:
        raise ResultsError(problems)
    played = session.exec(
        select(Hanchan.id).where(Hanchan.match_id == match.id, col(Hanchan.superseded_by_id).is_(None))
    ).first()
    if played is not None:
        raise ResultsError(
            "В матче уже внесены ханчаны: в сыгранных ханчанах должен остаться тот же состав. Зачёт сыгранных "
            "ханчанов при замене определяет организатор отдельно (Регламент §6.1): исправление или переигровка."
        )
    season_id = _season_id(session, match)
    known = _known_candidate(session, season_id, name) if name else None
    if substitute_player_id is not None or known is not None:
        substitute = known or session.get(Player, substitute_player_id)
        if substitute is None or substitute.season_id != season_id or substitute.status not in CANDIDATES:
            raise ResultsError("Выбранный игрок не числится ни технической заменой, ни в резерве этого сезона.")
        if session.exec(select(Seat.id).where(Seat.match_id == match.id, Seat.player_id == substitute.id)).first():
            raise ResultsError("Этот игрок уже сидит за столом в этом матче.")
        from_reserve = substitute.status == RosterStatus.RESERVE
        if from_reserve:  # Регламент §6.1: seated to complete a table, a technical substitute from now on
            substitute.status = RosterStatus.SUBSTITUTE
            session.add(substitute)
    else:
        from_reserve = False
        try:
            substitute, _ = add_player(
                session,
                session.get_one(Season, season_id),
                name,
                status=RosterStatus.SUBSTITUTE,
                actor_user_id=user.id,
                now=now,
            )
        except AccountError as e:
            raise ResultsError(str(e)) from e
    assert seat is not None
    replaced = seat.player_id
    # A substitute replaced in turn: the seat still stands for the original participant.
    original = seat.substitute_for_player_id or replaced
    seat.player_id = saved(substitute.id)
    seat.substitute_for_player_id = original
    session.add(seat)
    session.flush()
    record_audit(
        session,
        actor_user_id=user.id,
        action="seat.substitute",
        entity="match",
        entity_id=match.id,
        before={"player": replaced},
        after={"player": substitute.id, "substitute_for": original, "seed": seat.seed, "from_reserve": from_reserve},
        reason=reason.strip(),
        now=now,
    )
    names = dict(_named(session, [replaced, saved(substitute.id)]))
    outbox.emit(
        session,
        outbox.SUBSTITUTE_SEATED,
        match.id,
        now=now,
        replaced_player_id=replaced,
        replaced=names[replaced],
        substitute_player_id=substitute.id,
        substitute=names[saved(substitute.id)],
    )
    return seat
