"""The playoff as it stands in the database: its stage, rounds, seeds and bracket (Регламент §2, §4); reads only,
imports no reflex. Changing the playoff is `services.playoff.stage`.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from services.core.errors import LeagueError
from services.core.models import Match, Player, RosterStatus, Round, Season, Seat, Stage, StageKind, TieDecision, saved
from services.core.ruleset import of_season
from services.playoff.bracket import Bracket, Seating, build_bracket, seed_players
from services.results import repo as results_repo
from services.results import scoring
from services.results.repo import Scored
from services.results.scoring import MatchId, PlayerId

TABLE_OF = {"1A": ("1", "A"), "1B": ("1", "B"), "2U": ("2", "U"), "2L": ("2", "L"), "3": ("3", "3"), "F": ("F", "F")}
ROUND_OF = {v: k for k, v in TABLE_OF.items()}
ROUND_CODES = ("1", "2", "3", "F")
Window = tuple[datetime, datetime]


class PlayoffError(LeagueError):
    """A refused playoff action; the message is Russian and shown as is, and nothing has changed."""


@dataclass(frozen=True)
class PlayoffView:
    started: bool  # the regular stage is closed and the playoff stage exists
    bracket: Bracket  # before the start: the seeds it would take, or what stops closing
    names: dict[PlayerId, str]
    windows: dict[str, tuple[datetime | None, datetime | None]]  # round code → window
    match_ids: dict[str, int]  # bracket round (1A…F) → match id


def playoff_stage(session: Session, season_id: int) -> Stage | None:
    return session.exec(
        select(Stage).where(Stage.season_id == season_id, Stage.kind == StageKind.PLAYOFF).order_by(col(Stage.id))
    ).first()


def _rounds(session: Session, stage: Stage) -> dict[str, Round]:
    return {r.code: r for r in session.exec(select(Round).where(Round.stage_id == stage.id)).all()}


def regular_preview(
    session: Session, season: Season, scored: Scored | None = None
) -> tuple[tuple[int, ...], list[str]]:
    """The seeds closing would take now, or every reason it cannot (Регламент §2, §4); `scored`: the season's
    `season_scores` when the caller has them (the season is read and scored once)."""
    scored = scored or results_repo.season_scores(session, saved(season.id))
    regular = [m for m in scored[0].matches if m.stage == scoring.REGULAR]
    unfinished = sum(not m.complete for m in regular)
    if not regular:
        return (), ["регулярный этап ещё не начат: матчей нет"]
    if unfinished:
        return (), [f"регулярный этап не завершён: не доиграно матчей — {unfinished}"]
    rows = results_repo.db_standings(session, saved(season.id), scored)
    seeds, problems = seed_players(rows, of_season(season).playoff_size)
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


def load_bracket(session: Session, season: Season, scored: Scored | None = None) -> PlayoffView:
    """The bracket as it stands, from the database through the same pure code as the command line; `scored` as
    for `regular_preview`."""
    scored = scored or results_repo.season_scores(session, saved(season.id))
    loaded = scored[0]
    names = {p.id: p.name for p in loaded.players}
    stage = playoff_stage(session, saved(season.id))
    if stage is None:
        seeds, problems = regular_preview(session, season, scored)
        return PlayoffView(False, Bracket(seeds, (), tuple(problems)), names, {}, {})
    rounds = _rounds(session, stage)
    round_of_id = {r.id: r.code for r in rounds.values()}
    rows = {
        saved(m.id): m
        for m, _, s in results_repo.season_match_rows(session, saved(season.id))
        if saved(s.id) == saved(stage.id)
    }
    seatings, match_ids = [], dict[str, int]()
    for m in loaded.matches:
        row = rows.get(saved(m.id)) if isinstance(m.id, int) else None  # the season's matches: stored ids
        round_ = ROUND_OF.get((round_of_id.get(row.round_id, ""), row.table)) if row else None
        if row is None or round_ is None:
            continue
        match_ids[round_] = saved(row.id)
        players = tuple(results_repo.seated_player_ids(session, saved(row.id)))
        seatings.append(Seating(round_, players, dataclasses.replace(m, round=round_)))
    decisions: dict[MatchId, list[list[PlayerId]]] = defaultdict(list)
    for d in session.exec(select(TieDecision).where(col(TieDecision.match_id).in_(list(match_ids.values())))):
        assert d.match_id is not None  # read by match id
        decisions[d.match_id].append([int(x) for x in d.ordered_player_ids.split(",") if x.strip()])
    eligible = [
        saved(pid)
        for pid in session.exec(
            select(Player.id).where(Player.season_id == season.id, Player.status == RosterStatus.MAIN)
        ).all()
    ]
    seeds = _seeds_from_round_one(session, rounds)
    bracket = build_bracket(seeds, seatings, eligible=eligible, names=names, tie_decisions=decisions)
    windows = {code: (r.window_start, r.window_end) for code, r in rounds.items()}
    return PlayoffView(True, bracket, names, windows, match_ids)
