"""Export and import of the whole season as `discard-season/1` JSON; imports no reflex.

Import maps the file onto the current season:
- players by name (the display name, spaces and case ignored); a name not in the roster is registered with the
  file's status (the organizer issues its password on the roster page); a different status is updated;
- matches by their slot: regular — tour and table, playoff — round; a missing round, match or seating is created;
  an existing seating must hold exactly the file's players;
- hanchans by number: an equal one is left alone, a different one is a correction (the old row is kept and
  superseded, Регламент §6.2), a new one is entered; hanchans and penalties absent from the file are kept;
- penalties by (player, points, reason): a missing one is added.
Everything is checked first; one problem and nothing changes, and every problem is listed.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from services.core.audit import record_audit
from services.core.models import (
    Hanchan,
    HanchanResult,
    Match,
    MatchStatus,
    Penalty,
    Player,
    Role,
    RosterStatus,
    Round,
    Seat,
    Stage,
    User,
    saved,
)
from services.core.models import Season as SeasonRow
from services.core.ruleset import PLANNING, of_season
from services.core.text_limits import person_name_problem
from services.league.accounts import normalize_login
from services.league.roster import add_player
from services.league.season_rules import adopt_rules, has_results
from services.results import scoring
from services.results.repo import current_season_id, effective_hanchans, load_season, seated_player_ids
from services.results.season_file import Season, SeasonFileError, dump_season, parse_season

IMPORT_REASON = "импорт файла сезона"


@dataclass(frozen=True)
class ImportSummary:
    players_added: int = 0
    matches_added: int = 0
    hanchans_added: int = 0
    hanchans_corrected: int = 0
    penalties_added: int = 0


def export_season(session: Session, season_id: int | None = None) -> dict[str, Any]:
    season_id = season_id or current_season_id(session)
    if season_id is None:
        raise SeasonFileError(["в базе нет сезона"])
    return dump_season(load_season(session, season_id))


def _key(name: str) -> str:
    return normalize_login(name)


def _roster(session: Session, season_id: int) -> dict[str, Player]:
    rows = session.exec(
        select(Player, User).join(User, col(User.id) == Player.user_id).where(Player.season_id == season_id)
    ).all()
    return {_key(u.display_name): p for p, u in rows}


def _find_match(session: Session, season_id: int, m: scoring.Match) -> Match | None:
    query = (
        select(Match)
        .join(Round, col(Round.id) == Match.round_id)
        .join(Stage, col(Stage.id) == Round.stage_id)
        .where(Stage.season_id == season_id, Stage.kind == m.stage, Round.code == str(m.round))
        .where(Match.status != MatchStatus.REPLAY)
    )
    if m.stage == scoring.REGULAR:
        query = query.where(Match.table == str(m.table))
    return session.exec(query.order_by(col(Match.id).desc())).first()


def _players_of(m: scoring.Match) -> set[Any]:
    return {r.player for h in m.hanchans for r in h.results}


def check_import(session: Session, season: Season) -> list[str]:
    """Problems that only the database can tell (the file itself is already valid)."""
    problems: list[str] = []
    season_id = current_season_id(session)
    if season_id is None:
        return ["в базе нет сезона: сначала создайте сезон (например, «discard demo»)"]
    if session.exec(select(User.id).where(User.role == Role.ORGANIZER)).first() is None:
        problems.append("в базе нет организатора: от его имени записываются изменения")
    names = Counter(_key(p.name) for p in season.players)
    problems += [f"игрок «{p.name}»: имя повторяется в файле" for p in season.players if names[_key(p.name)] > 1]
    roster = _roster(session, season_id)
    # A new name is registered as an account: one equal to an existing login outside the roster cannot be.
    logins = set(session.exec(select(User.login_name)).all())
    problems += [
        f"игрок «{p.name}»: пользователь с таким именем уже есть, но не в составе сезона — добавьте его в состав "
        "или исправьте имя в файле"
        for p in season.players
        if _key(p.name) not in roster and _key(p.name) in logins
    ]
    # A new person's name follows the one rule of names (the season's own players keep theirs).
    problems += [
        f"игрок «{p.name}»: {problem}"
        for p in season.players
        if _key(p.name) not in roster
        and _key(p.name) not in logins
        and (problem := person_name_problem(" ".join(p.name.split()))) is not None
    ]
    by_file_id = {p.id: p for p in season.players}
    for m in season.matches:
        existing = _find_match(session, season_id, m)
        if existing is None:
            continue
        seats = set(seated_player_ids(session, saved(existing.id)))
        wanted = [roster.get(_key(by_file_id[pid].name)) for pid in _players_of(m)]
        wanted_ids = {p.id for p in wanted if p is not None}
        if seats and wanted and (None in wanted or wanted_ids != seats):
            problems.append(f"матч {m.id}: игроки в файле не совпадают с рассадкой этого матча в базе")
    return problems


def _organizer(session: Session) -> User:
    organizer = session.exec(select(User).where(User.role == Role.ORGANIZER).order_by(col(User.id))).first()
    assert organizer is not None  # the league is made with its organizer (`discard user`)
    return organizer


def _stage_round(session: Session, season_id: int, m: scoring.Match) -> Round:
    stage = session.exec(select(Stage).where(Stage.season_id == season_id, Stage.kind == m.stage)).first()
    if stage is None:
        stage = Stage(season_id=season_id, kind=m.stage)
        session.add(stage)
        session.flush()
    round_ = session.exec(select(Round).where(Round.stage_id == stage.id, Round.code == str(m.round))).first()
    if round_ is None:
        round_ = Round(stage_id=saved(stage.id), code=str(m.round))
        session.add(round_)
        session.flush()
    return round_


def _add_hanchan(
    session: Session, match_id: int, h: scoring.Hanchan, ids: dict[Any, int], actor: int, revision: int = 0
) -> Hanchan:
    row = Hanchan(
        match_id=match_id, number=h.number, revision=revision, riichi_left=h.riichi_left, entered_by_user_id=actor
    )
    session.add(row)
    session.flush()
    for r in h.results:
        session.add(HanchanResult(hanchan_id=saved(row.id), player_id=ids[r.player], points=r.points, chombo=r.chombo))
    return row


def _apply_players(session: Session, season_row: SeasonRow, season: Season, actor: int) -> tuple[dict[Any, int], int]:
    roster = _roster(session, saved(season_row.id))
    ids: dict[Any, int] = {}
    added = 0
    for p in season.players:
        player = roster.get(_key(p.name))
        if player is None:
            player, _ = add_player(session, season_row, p.name, status=RosterStatus(p.status), actor_user_id=actor)
            added += 1
        elif player.status != p.status:
            record_audit(
                session,
                actor_user_id=actor,
                action="player.status",
                entity="player",
                entity_id=player.id,
                before={"status": str(player.status)},
                after={"status": p.status},
                reason=IMPORT_REASON,
            )
            player.status = p.status
            session.add(player)
        ids[p.id] = saved(player.id)
    return ids, added


def import_season(session: Session, data: Any) -> ImportSummary:
    """Validate `data` completely, then apply it to the current season in the caller's transaction.

    Raises SeasonFileError listing every problem; nothing has been written then.
    """
    season = parse_season(data)
    problems = check_import(session, season)
    if problems:
        raise SeasonFileError(problems)
    season_row = session.get_one(SeasonRow, current_season_id(session))
    in_force = of_season(season_row)
    if isinstance(data, dict) and isinstance(data.get("rules"), dict):
        # A file written before the planning numbers were rules names none: the season keeps its own.
        kept = {name: getattr(in_force, name) for name in PLANNING if name not in data["rules"]}
        season = dataclasses.replace(season, rules=dataclasses.replace(season.rules, **kept))
    if isinstance(data, dict) and "rules" in data and season.rules != in_force:
        # The file's rules come with it; after the season's first result only as an amendment (Регламент §6.3).
        if has_results(session, saved(season_row.id)):
            raise SeasonFileError(
                [
                    "правила в файле отличаются от правил сезона, а в сезоне уже есть результаты: "
                    "измените их поправкой на странице «Регламент»"
                ]  # fmt: skip
            )
        adopt_rules(session, season_row, season.rules)
    rules = of_season(season_row)  # the file's own once adopted
    actor = saved(_organizer(session).id)
    ids, players_added = _apply_players(session, season_row, season, actor)
    counts: Counter[str] = Counter()
    for m in season.matches:
        match = _find_match(session, saved(season_row.id), m)
        if match is None:
            round_ = _stage_round(session, saved(season_row.id), m)
            required = m.hanchans_required
            match = Match(
                round_id=saved(round_.id), table=str(m.table), planned_hanchans=required, status=MatchStatus.PLAYING
            )
            session.add(match)
            session.flush()
            counts["matches"] += 1
        if not seated_player_ids(session, saved(match.id)):
            for seed, pid in enumerate(sorted(_players_of(m), key=str), start=1):
                session.add(Seat(match_id=saved(match.id), player_id=ids[pid], seed=seed))
        current = {h.number: h for h in effective_hanchans(session, [saved(match.id)]).get(saved(match.id), [])}
        for h in m.hanchans:
            mapped = scoring.Hanchan(
                h.number,
                h.riichi_left,
                tuple(scoring.TableResult(ids[r.player], r.points, r.chombo) for r in h.results),
            )
            old = current.get(h.number)
            if old is not None and _same(old, mapped):
                continue
            old_row = None
            if old is not None:
                old_row = session.exec(
                    select(Hanchan).where(
                        Hanchan.match_id == match.id,
                        Hanchan.number == h.number,
                        col(Hanchan.superseded_by_id).is_(None),
                    )
                ).one()
            revision = old_row.revision + 1 if old_row is not None else 0
            new = _add_hanchan(session, saved(match.id), h, ids, actor, revision)
            action = "hanchan.enter"
            if old_row is not None:
                old_row.superseded_by_id = new.id
                session.add(old_row)
                action = "hanchan.correct"
                counts["corrected"] += 1
            else:
                counts["hanchans"] += 1
            record_audit(
                session,
                actor_user_id=actor,
                action=action,
                entity="match",
                entity_id=match.id,
                after={"hanchan_id": new.id, "number": h.number, "decision": IMPORT_REASON},
                reason=IMPORT_REASON,
            )
        if m.complete:
            match.status = MatchStatus.COMPLETE
            session.add(match)
        have = Counter(
            (p.player_id, p.points, p.reason)
            for p in session.exec(select(Penalty).where(Penalty.match_id == match.id)).all()
        )
        for p in m.penalties:
            key = (ids[p.player], p.points, p.reason)
            if have[key]:
                have[key] -= 1
                continue
            # Регламент §5: a penalty of the season's no-show size, named a no-show, is one
            no_show = p.points == -rules.no_show_penalty and "неявк" in p.reason.lower()
            penalty = Penalty(
                match_id=saved(match.id),
                player_id=ids[p.player],
                points=p.points,
                kind="no_show" if no_show else "other",
                warning=no_show,
                reason=p.reason,
                decided_by_user_id=actor,
            )
            session.add(penalty)
            session.flush()
            record_audit(
                session,
                actor_user_id=actor,
                action="penalty.add",
                entity="match",
                entity_id=match.id,
                after={"penalty_id": penalty.id, "player": penalty.player_id, "points": p.points},
                reason=IMPORT_REASON,
            )
            counts["penalties"] += 1
    session.flush()
    return ImportSummary(players_added, counts["matches"], counts["hanchans"], counts["corrected"], counts["penalties"])


def _same(a: scoring.Hanchan, b: scoring.Hanchan) -> bool:
    return a.riichi_left == b.riichi_left and sorted(map(_tuple, a.results)) == sorted(map(_tuple, b.results))


def _tuple(r: scoring.TableResult) -> tuple[Any, int, int]:
    return (r.player, r.points, r.chombo)
