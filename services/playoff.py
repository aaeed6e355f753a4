"""The playoff in the database: closing the regular stage, round windows, the next rounds' matches, seat winds
(Регламент §2, §3, §4, §6.1); imports no reflex.

Storage: one playoff Stage; Round codes "1", "2", "3", "F" (one game window each); Match.table "A"/"B" in round 1,
"U"/"L" (upper/lower) in round 2, "3" in round 3 and "F" for the final (five planned hanchans). Round-1 seats keep
the seeding (Seat.seed 1..4: table A seats places 1, 3, 5, 7, table B 2, 4, 6, 8), so later corrections to the
regular stage never reshuffle a running bracket.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from services import results_repo, scoring
from services.audit import record_audit
from services.bracket import Bracket, Seating, Table, build_bracket, seed_players
from services.models import (
    Match,
    MatchStatus,
    Player,
    Role,
    RosterStatus,
    Round,
    Season,
    Seat,
    Stage,
    StageKind,
    TieDecision,
    User,
)
from services.scheduling import format_kirov
from services.winds import attach_winds

TABLE_OF = {"1A": ("1", "A"), "1B": ("1", "B"), "2U": ("2", "U"), "2L": ("2", "L"), "3": ("3", "3"), "F": ("F", "F")}
ROUND_OF = {v: k for k, v in TABLE_OF.items()}
ROUND_CODES = ("1", "2", "3", "F")
Window = tuple[datetime, datetime]


class PlayoffError(ValueError):
    """A refused playoff action; the message is Russian and shown as is, and nothing has changed."""


@dataclass(frozen=True)
class PlayoffView:
    started: bool  # the regular stage is closed and the playoff stage exists
    bracket: Bracket  # before the start: the seeds it would take, or what stops closing
    names: dict[int, str]
    windows: dict[str, tuple[datetime | None, datetime | None]]  # round code → window
    match_ids: dict[str, int]  # bracket round (1A…F) → match id


def playoff_stage(session: Session, season_id: int) -> Stage | None:
    return session.exec(
        select(Stage).where(Stage.season_id == season_id, Stage.kind == StageKind.PLAYOFF).order_by(col(Stage.id))
    ).first()


def _rounds(session: Session, stage: Stage) -> dict[str, Round]:
    return {r.code: r for r in session.exec(select(Round).where(Round.stage_id == stage.id)).all()}


def regular_preview(session: Session, season: Season) -> tuple[tuple[int, ...], list[str]]:
    """The seeds closing would take now, or every reason it cannot (Регламент §2, §4)."""
    loaded = results_repo.load_season(session, season.id)
    regular = [m for m in loaded.matches if m.stage == scoring.REGULAR]
    unfinished = sum(not m.complete for m in regular)
    if not regular:
        return (), ["регулярный этап ещё не начат: матчей нет"]
    if unfinished:
        return (), [f"регулярный этап не завершён: не доиграно матчей — {unfinished}"]
    rows = results_repo.db_standings(session, season.id)
    seeds, problems = seed_players(rows, season.playoff_size)
    return tuple(int(p) for p in seeds), problems


def _seeds_from_round_one(session: Session, rounds: dict[str, Round]) -> tuple[int, ...]:
    first = rounds.get("1")
    if first is None:
        return ()
    places: dict[int, int] = {}
    matches = session.exec(select(Match).where(Match.round_id == first.id).order_by(col(Match.id))).all()
    for match in matches:
        offset = {"A": -1, "B": 0}.get(match.table)
        if offset is None or match.replay_of_match_id is not None:
            continue
        for seat in session.exec(select(Seat).where(Seat.match_id == match.id)).all():
            # A substitute seated in round 1 stands in for the seed he replaces (Регламент §6.1).
            places.setdefault(2 * seat.seed + offset, seat.substitute_for_player_id or seat.player_id)
    return tuple(places[k] for k in sorted(places))


def load_bracket(session: Session, season: Season) -> PlayoffView:
    """The bracket as it stands, from the database through the same pure code as the command line."""
    names = {p.id: p.name for p in results_repo.season_players(session, season.id)}
    stage = playoff_stage(session, season.id)
    if stage is None:
        seeds, problems = regular_preview(session, season)
        return PlayoffView(False, Bracket(seeds, (), tuple(problems)), names, {}, {})
    rounds = _rounds(session, stage)
    round_of_id = {r.id: r.code for r in rounds.values()}
    loaded = results_repo.load_season(session, season.id)
    rows = {m.id: m for m, _, s in results_repo.season_match_rows(session, season.id) if s.id == stage.id}
    seatings, match_ids = [], {}
    for m in loaded.matches:
        row = rows.get(m.id)
        round_ = ROUND_OF.get((round_of_id.get(row.round_id, ""), row.table)) if row else None
        if round_ is None:
            continue
        match_ids[round_] = m.id
        players = tuple(results_repo.seated_player_ids(session, m.id))
        seatings.append(Seating(round_, players, dataclasses.replace(m, round=round_)))
    decisions: dict[int, list[list[int]]] = defaultdict(list)
    for d in session.exec(select(TieDecision).where(col(TieDecision.match_id).in_(list(match_ids.values())))):
        decisions[d.match_id].append([int(x) for x in d.ordered_player_ids.split(",") if x.strip()])
    eligible = session.exec(
        select(Player.id).where(Player.season_id == season.id, Player.status == RosterStatus.MAIN)
    ).all()
    seeds = _seeds_from_round_one(session, rounds)
    bracket = build_bracket(seeds, seatings, eligible=eligible, names=names, tie_decisions=decisions)
    windows = {code: (r.window_start, r.window_end) for code, r in rounds.items()}
    return PlayoffView(True, bracket, names, windows, match_ids)


def _require_organizer(actor: User) -> None:
    if actor.role != Role.ORGANIZER:
        raise PlayoffError("Это может сделать только организатор.")


def _create_table(session: Session, round_row: Round, table: Table, actor_user_id: int | None) -> Match:
    code, letter = TABLE_OF[table.round]
    # Регламент §2: финал — пять ханчанов за одну встречу; остальные матчи плей-офф — три.
    hanchans = scoring.FINAL_HANCHANS if table.round == scoring.FINAL_ROUND else scoring.MATCH_HANCHANS
    match = Match(round_id=round_row.id, table=letter, planned_hanchans=hanchans, status=MatchStatus.SCHEDULING)
    session.add(match)
    session.flush()
    for position, player in enumerate(table.due, start=1):
        session.add(Seat(match_id=match.id, player_id=int(player), seed=position))
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="playoff.table",
        entity="match",
        entity_id=match.id,
        after={"round": table.round, "players": list(table.due), "hanchans": hanchans},
    )
    return match


def _check_window(session: Session, stage: Stage, code: str, start: datetime, end: datetime) -> None:
    if start.tzinfo is None or end.tzinfo is None:
        raise PlayoffError("Время окна должно быть с часовым поясом.")
    if end <= start:
        raise PlayoffError("Конец игрового окна должен быть позже начала.")
    rounds = _rounds(session, stage)
    index = ROUND_CODES.index(code)
    before = [rounds.get(c) for c in ROUND_CODES[:index]]
    after = [rounds.get(c) for c in ROUND_CODES[index + 1 :]]
    for r in before:
        if r is not None and r.window_end is not None and start < r.window_end:
            raise PlayoffError(
                f"Окно начинается раньше, чем заканчивается раунд {r.code} ({format_kirov(r.window_end)})."
            )
    for r in after:
        if r is not None and r.window_start is not None and end > r.window_start:
            raise PlayoffError(
                f"Окно заканчивается позже, чем начинается раунд {r.code} ({format_kirov(r.window_start)})."
            )


def close_regular_stage(
    session: Session, season: Season, *, actor: User, round_one_window: Window | None = None
) -> Bracket:
    """Регламент §2: after the four tours the top eight go on; creates the playoff and the round-1 matches.

    Refused, naming the reason, while a regular match is unfinished or a tie in the top eight (the line
    included) waits for the organizer's decision.
    """
    _require_organizer(actor)
    if playoff_stage(session, season.id) is not None:
        raise PlayoffError("Регулярный этап уже закрыт: плей-офф идёт.")
    seeds, problems = regular_preview(session, season)
    if problems:
        raise PlayoffError("Нельзя закрыть регулярный этап: " + "; ".join(problems) + ".")
    stage = Stage(season_id=season.id, kind=StageKind.PLAYOFF)
    session.add(stage)
    session.flush()
    rounds = {}
    for code in ROUND_CODES:
        rounds[code] = Round(stage_id=stage.id, code=code)
        session.add(rounds[code])
    session.flush()
    if round_one_window is not None:
        _check_window(session, stage, "1", *round_one_window)
        rounds["1"].window_start, rounds["1"].window_end = round_one_window
        session.add(rounds["1"])
    record_audit(
        session,
        actor_user_id=actor.id,
        action="playoff.open",
        entity="season",
        entity_id=season.id,
        after={"seeds": list(seeds), "round_one_window": round_one_window},
    )
    bracket = build_bracket(seeds, ())
    for table in bracket.to_create:
        _create_table(session, rounds["1"], table, actor.id)
    session.flush()
    return load_bracket(session, season).bracket


def set_round_window(
    session: Session, season: Season, code: str, start: datetime, end: datetime, *, actor: User
) -> None:
    """The organizer sets a playoff round's game window; rounds follow each other without overlapping."""
    _require_organizer(actor)
    stage = playoff_stage(session, season.id)
    if stage is None:
        raise PlayoffError("Плей-офф ещё не начался: сначала закройте регулярный этап.")
    round_row = _rounds(session, stage).get(code)
    if round_row is None:
        raise PlayoffError(f"Нет раунда «{code}»: раунды плей-офф — {', '.join(ROUND_CODES)}.")
    _check_window(session, stage, code, start, end)
    before = {"start": round_row.window_start, "end": round_row.window_end}
    round_row.window_start, round_row.window_end = start, end
    session.add(round_row)
    record_audit(
        session,
        actor_user_id=actor.id,
        action="round.window",
        entity="round",
        entity_id=round_row.id,
        before=before,
        after={"playoff_round": code, "start": start, "end": end},
    )
    session.flush()


def advance_playoff(session: Session, season: Season, *, actor_user_id: int | None = None) -> list[str]:
    """Creates every next-round match whose players are now known; returns their rounds (1A…F). Idempotent.

    Call it after a playoff result is stored (the bracket page calls it on load too).
    """
    stage = playoff_stage(session, season.id)
    if stage is None:
        return []
    view = load_bracket(session, season)
    rounds = _rounds(session, stage)
    created = []
    for table in view.bracket.to_create:
        if table.due:
            _create_table(session, rounds[TABLE_OF[table.round][0]], table, actor_user_id)
            created.append(table.round)
    for match_id in view.match_ids.values():
        attach_winds(session, match_id)
    session.flush()
    return created


def decide_match_tie(
    session: Session, season: Season, match_id: int, ordered: list[int], *, reason: str, actor: User
) -> None:
    """Регламент §4: equal total and average place in a playoff match — the organizer orders the group (recorded).

    The order must name exactly one unresolved group of that match, best first.
    """
    _require_organizer(actor)
    if not reason.strip():
        raise PlayoffError("Укажите основание решения.")
    view = load_bracket(session, season)
    table = next((t for t in view.bracket.tables if t.match_id == match_id), None)
    if table is None or not table.complete:
        raise PlayoffError("Решение о равенстве принимается по завершённому матчу плей-офф.")
    groups: dict[int, set[int]] = defaultdict(set)
    for line in table.ranking:
        if line.unresolved_tie and line.place is not None:
            groups[line.place].add(int(line.player))
    if len(set(ordered)) != len(ordered) or set(ordered) not in groups.values():
        raise PlayoffError("Порядок должен назвать ровно всех участников одного неразрешённого равенства в матче.")
    session.add(
        TieDecision(
            season_id=season.id,
            match_id=match_id,
            ordered_player_ids=",".join(map(str, ordered)),
            reason=reason.strip(),
            decided_by_user_id=actor.id,
        )
    )
    record_audit(
        session,
        actor_user_id=actor.id,
        action="tie.decide",
        entity="match",
        entity_id=match_id,
        after={"order": ordered, "round": table.round},
        reason=reason.strip(),
    )
    session.flush()
