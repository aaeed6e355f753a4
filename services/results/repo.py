"""The season in the database as the pure scoring dataclasses, and standings from it; imports no reflex.

The same code path as the season file: load `season_file.Season`, then `score_match` + `compute_standings`.
"""

from __future__ import annotations

from collections import defaultdict

from sqlmodel import Session, col, select

from services.core.models import (
    Hanchan,
    HanchanResult,
    Match,
    MatchStatus,
    Penalty,
    Player,
    Round,
    Seat,
    Stage,
    TieDecision,
    User,
    saved,
)
from services.core.models import Season as SeasonRow
from services.core.ruleset import Ruleset, of_season
from services.results import scoring, standings
from services.results.season_file import Season


def current_season_id(session: Session) -> int | None:
    # The season marked current (services/league/seasons.py); rows made without it: the newest.
    return session.exec(
        select(SeasonRow.id).order_by(col(SeasonRow.is_current).desc(), col(SeasonRow.id).desc())
    ).first()


def season_players(session: Session, season_id: int) -> list[standings.Player]:
    rows = session.exec(
        select(Player.id, User.display_name, Player.status)
        .join(User, col(User.id) == Player.user_id)
        .where(Player.season_id == season_id)
        .order_by(col(Player.registration_order))
    ).all()
    return [standings.Player(saved(pid), name, str(status)) for pid, name, status in rows]


def table_number(table: str) -> int:
    """The scoring model numbers tables from 1; playoff tables are letters ("A", "U"), one match a round."""
    return int(table) if table.isdigit() else 1


def round_value(kind: str, code: str) -> int | str:
    return int(code) if kind == scoring.REGULAR and code.isdigit() else code


def season_match_rows(session: Session, season_id: int) -> list[tuple[Match, Round, Stage]]:
    """Every match of the season that the draw has released (drafts stay hidden: Регламент §2)."""
    return list(
        session.exec(
            select(Match, Round, Stage)
            .join(Round, col(Round.id) == Match.round_id)
            .join(Stage, col(Stage.id) == Round.stage_id)
            .where(Stage.season_id == season_id, Match.status != MatchStatus.DRAFT)
            .order_by(col(Stage.id), col(Round.id), col(Match.id))
        ).all()
    )


def replacement_of(rows: list[tuple[Match, Round, Stage]]) -> dict[int, int]:
    """Original match id → the match that finally replaces it (a replay of a replay follows the chain)."""
    direct = {m.replay_of_match_id: saved(m.id) for m, _, _ in rows if m.replay_of_match_id is not None}
    final: dict[int, int] = {}
    for original in direct:
        target = direct[original]
        seen = {original}
        while target in direct and target not in seen:
            seen.add(target)
            target = direct[target]
        final[original] = target
    return final


def effective_hanchans(session: Session, match_ids: list[int]) -> dict[int, list[scoring.Hanchan]]:
    """Hanchans not superseded by a correction or replay, with their results, by match id (Регламент §6.2)."""
    if not match_ids:
        return {}
    hanchans = session.exec(
        select(Hanchan).where(col(Hanchan.match_id).in_(match_ids), col(Hanchan.superseded_by_id).is_(None))
    ).all()
    by_id = {h.id: h for h in hanchans}
    results: dict[int, list[scoring.TableResult]] = defaultdict(list)
    if by_id:
        for r in session.exec(
            select(HanchanResult).where(col(HanchanResult.hanchan_id).in_(list(by_id))).order_by(col(HanchanResult.id))
        ).all():
            results[r.hanchan_id].append(scoring.TableResult(r.player_id, r.points, r.chombo))
    out: dict[int, list[scoring.Hanchan]] = defaultdict(list)
    for h in sorted(hanchans, key=lambda h: (h.match_id, h.number)):
        out[h.match_id].append(scoring.Hanchan(h.number, h.riichi_left, tuple(results[saved(h.id)])))
    return out


def season_rules(session: Session, season_id: int | None) -> Ruleset:
    """The season's ruleset (Регламент §4 and the rest: services/core/ruleset.py)."""
    return of_season(session.get(SeasonRow, season_id) if season_id is not None else None)


def match_scores(
    session: Session, matches: dict[int, tuple[str, str]], rules: Ruleset
) -> dict[int, scoring.MatchScore]:
    """Match id → (stage kind, round code) in, all of one season with its `rules`; each match scored as its page
    shows it (effective hanchans, its own penalties with points) out, in three statements however many matches."""
    hanchans = effective_hanchans(session, list(matches))
    penalties: dict[int, list[scoring.Penalty]] = defaultdict(list)
    for p in session.exec(
        select(Penalty).where(col(Penalty.match_id).in_(list(matches)), Penalty.points != 0).order_by(col(Penalty.id))
    ).all():
        penalties[p.match_id].append(scoring.Penalty(p.player_id, p.points, p.reason))
    return {
        match_id: scoring.score_match(
            scoring.Match(
                match_id,
                kind,
                round_value(kind, code),
                1,
                tuple(hanchans.get(match_id, ())),
                tuple(penalties.get(match_id, ())),
                rules=rules,
            )  # fmt: skip
        )
        for match_id, (kind, code) in matches.items()
    }


def load_season(session: Session, season_id: int) -> Season:
    """The season as the pure model: effective matches and hanchans only.

    Регламент §6.1, §6.2: a replayed match (status `replay`) and a superseded hanchan are left out, the replay
    stands in their place. A penalty of a replayed match carries over to its replay: it was for conduct, not
    for the game that is replaced. Warnings without points are not part of the numbers.
    """
    rows = season_match_rows(session, season_id)
    replaced_by = replacement_of(rows)
    effective = [(m, r, s) for m, r, s in rows if m.id not in replaced_by and m.status != MatchStatus.REPLAY]
    ids = [m.id for m, _, _ in rows]
    hanchans = effective_hanchans(session, [saved(m.id) for m, _, _ in effective])
    penalties: dict[int, list[scoring.Penalty]] = defaultdict(list)
    if ids:
        for p in session.exec(
            select(Penalty).where(col(Penalty.match_id).in_(ids), Penalty.points != 0).order_by(col(Penalty.id))
        ).all():
            target = replaced_by.get(p.match_id, p.match_id)
            penalties[target].append(scoring.Penalty(p.player_id, p.points, p.reason))
    rules = season_rules(session, season_id)
    matches = tuple(
        scoring.Match(
            saved(m.id),
            s.kind,
            round_value(s.kind, r.code),
            table_number(m.table),
            tuple(hanchans.get(saved(m.id), ())),
            tuple(penalties.get(saved(m.id), ())),
            rules=rules,
        )
        for m, r, s in effective
    )
    return Season(tuple(season_players(session, season_id)), matches, rules)


def tie_decisions(session: Session, season_id: int) -> list[list[int]]:
    """The organizer's standings decisions, oldest first (a later decision on the same group wins)."""
    rows = session.exec(
        select(TieDecision.ordered_player_ids)
        .where(TieDecision.season_id == season_id, col(TieDecision.match_id).is_(None))
        .order_by(col(TieDecision.id))
    ).all()
    return [[int(x) for x in text.split(",") if x.strip()] for text in rows]


Scored = tuple[Season, list[scoring.MatchScore]]  # a season as loaded and its matches scored


def season_scores(session: Session, season_id: int) -> Scored:
    season = load_season(session, season_id)
    return season, [scoring.score_match(m) for m in season.matches]


def db_standings(session: Session, season_id: int, scored: Scored | None = None) -> list[standings.StandingsRow]:
    """Регламент §4, §6.1: the regular-stage table from the database; `scored`: the season's `season_scores`,
    when the caller has them already (the whole season is read and scored once, not twice)."""
    season, scores = scored or season_scores(session, season_id)
    # A main player with no match in the season (registered after the draw) is not ranked: a 0 in ninth place
    # under the playoff line would be a place nobody played for.
    seated: set[int] = set()
    for player_id, replaced_id in session.exec(
        select(Seat.player_id, Seat.substitute_for_player_id)  # a player a substitute replaced still has the match
        .join(Match, col(Match.id) == Seat.match_id)
        .join(Round, col(Round.id) == Match.round_id)
        .join(Stage, col(Stage.id) == Round.stage_id)
        .where(Stage.season_id == season_id, Match.status != MatchStatus.DRAFT)
    ).all():
        seated.update(pid for pid in (player_id, replaced_id) if pid is not None)
    players = [p for p in season.players if p.id in seated]
    return standings.compute_standings(players, scores, tie_decisions(session, season_id))


def seated_player_ids(session: Session, match_id: int) -> list[int]:
    return list(session.exec(select(Seat.player_id).where(Seat.match_id == match_id).order_by(col(Seat.seed))).all())


def user_player_in_match(session: Session, user_id: int, match_id: int) -> int | None:
    """The user's seated player id in this match, if they have a seat."""
    return session.exec(
        select(Player.id)
        .join(Seat, col(Seat.player_id) == Player.id)
        .where(Seat.match_id == match_id, Player.user_id == user_id)
    ).first()


def current_player_id(session: Session, user_id: int) -> int | None:
    """The user's player in the current season, if they play in it."""
    season_id = current_season_id(session)
    if season_id is None:
        return None
    return session.exec(select(Player.id).where(Player.user_id == user_id, Player.season_id == season_id)).first()
