"""The league's past seasons as rows of display strings: champion, top eight, standings, bracket, matches, and a
person's seasons with place and totals; reads only, imports no reflex (Регламент §1: the top eight; §4: standings)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from services.core.models import (
    Match,
    Player,
    Round,
    Season,
    Seat,
    Stage,
    StageKind,
    User,
    saved,
)
from services.core.ruleset import CLUB_ZONE, of_season
from services.core.wording import format_signed, match_title
from services.playoff.repo import PlayoffView, load_bracket
from services.results.repo import db_standings, season_rules, season_scores
from services.results.standings import StandingsRow
from services.results.view import standings_rows
from services.scheduling.board import load_board
from services.scheduling.rules import STATE_LABELS

STAGE_NAMES = {StageKind.REGULAR: "Тур", StageKind.PLAYOFF: "Плей-офф"}
DRAFT_STATE = "Черновик"


@dataclass(frozen=True)
class SeasonSummary:
    id: int
    name: str
    status: str
    current: bool
    champion: str
    top: tuple[str, ...]  # «1. Анна», …; a place shared at the cut: «8= Борис», «8= Вера», every one on it


def status_text(season: Season) -> str:
    """A season's stage in a word or two, as /seasons and `discard season list` show it."""
    if season.finished_at:
        return f"завершён {season.finished_at.astimezone(CLUB_ZONE):%d.%m.%Y}"
    if season.draw_approved_at:
        return "идёт"
    return "регистрация закрыта" if season.registration_closed else "регистрация"


def final_order(bracket: PlayoffView, standings: list[StandingsRow]) -> list[int]:
    """Player ids best first: the final's places, then the rest of the regular standings (Регламент §1, §4)."""
    final = [int(p) for p in bracket.bracket.final_places]
    # The standings' own order, as the standings page shows it: a seated player who has not played yet stands
    # at 0 points among the others while the season runs (a finished season has played every seat).
    regular = [int(r.player) for r in standings]
    return final + [p for p in regular if p not in final]


def season_bracket_and_standings(session: Session, season: Season) -> tuple[PlayoffView, list[StandingsRow]]:
    """The season read and scored once for both."""
    scored = season_scores(session, saved(season.id))
    return load_bracket(session, season, scored), db_standings(session, saved(season.id), scored)


def top_lines(bracket: PlayoffView, standings: list[StandingsRow], size: int) -> tuple[str, ...]:
    """Регламент §1: the `size` best — the final's order once it is played; before, the standings' places, where a
    place shared at the cut lists everyone on it («4= …»), not the first of them in the table's order."""
    names = bracket.names
    if bracket.bracket.final_places:
        return tuple(f"{n}. {names.get(p, '?')}" for n, p in enumerate(final_order(bracket, standings)[:size], 1))
    sharing = Counter(r.place for r in standings)
    return tuple(f"{r.place}{'=' if sharing[r.place] > 1 else '.'} {r.name}" for r in standings if r.place <= size)


def season_summaries(session: Session) -> list[SeasonSummary]:
    result = []
    for season in session.exec(select(Season).order_by(col(Season.id).desc())).all():
        bracket, standings = season_bracket_and_standings(session, season)
        champion_ids = bracket.bracket.final_places[:1]
        names = bracket.names
        result.append(
            SeasonSummary(
                saved(season.id),
                season.name,
                status_text(season),
                season.is_current,
                names.get(champion_ids[0], "") if champion_ids else "",
                top_lines(bracket, standings, of_season(season).playoff_size),
            )
        )
    return result


def season_standings_rows(session: Session, season_id: int) -> list[dict[str, str]]:
    return standings_rows(db_standings(session, season_id), season_rules(session, season_id).playoff_size)


def season_matches(session: Session, season_id: int, *, now: datetime) -> list[dict[str, str]]:
    """Every match of the season in order, with its players and its state as every view tells it (the read model's,
    `Board.state`); its protocol is on the match page. A fixed number of statements however long the season."""
    rows = session.exec(
        select(Match, Round, Stage)
        .join(Round, col(Round.id) == Match.round_id)
        .join(Stage, col(Stage.id) == Round.stage_id)
        .where(Stage.season_id == season_id)
        .order_by(col(Stage.id), col(Round.id), col(Match.id))
    ).all()
    names = dict(
        session.exec(
            select(Player.id, User.display_name)
            .join(User, col(User.id) == Player.user_id)
            .where(Player.season_id == season_id)
        ).all()
    )
    seats: dict[int, list[int]] = {}
    for match_id, player_id in session.exec(
        select(Seat.match_id, Seat.player_id)
        .where(col(Seat.match_id).in_([m.id for m, _, _ in rows]))
        .order_by(col(Seat.match_id), col(Seat.seed))
    ).all():
        seats.setdefault(match_id, []).append(player_id)
    board = load_board(session, now=now, season_id=season_id) if rows else None
    states = {item.match.id: STATE_LABELS[board.state(item)] for item in board.matches} if board else {}
    return [
        {
            "id": str(match.id),
            "title": match_title(stage.kind, round_.code, match.table),
            "players": ", ".join(names.get(p, "?") for p in seats.get(saved(match.id), [])),
            "status": states.get(match.id, DRAFT_STATE),  # Регламент §2: a draft's match is not scheduled yet
        }
        for match, round_, stage in rows
    ]


def person_seasons(session: Session, user_id: int) -> list[dict[str, str]]:
    """Every season the person played: place (the final's places first) and regular totals."""
    result = []
    rows = session.exec(
        select(Player, Season)
        .join(Season, col(Season.id) == Player.season_id)
        .where(Player.user_id == user_id)
        .order_by(col(Season.id).desc())
    ).all()
    for player, season in rows:
        bracket, standings = season_bracket_and_standings(session, season)
        row = next((r for r in standings if int(r.player) == player.id), None)
        order = final_order(bracket, standings)
        place = str(order.index(player.id) + 1) if player.id in order else "—"
        result.append(
            {
                "season_id": str(season.id),
                "season": season.name,
                "player_id": str(player.id),
                "place": place,
                "total": format_signed(row.total) if row else "0",
                "matches": str(row.matches) if row else "0",
            }
        )
    return result
