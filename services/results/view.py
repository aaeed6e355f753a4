"""What the match, player and standings pages show, as rows of display strings; imports no reflex."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any

from sqlmodel import Session, col, select

from services.core.models import (
    AuditRecord,
    Hanchan,
    JudgeRuling,
    Match,
    Penalty,
    Player,
    Round,
    Seat,
    Stage,
    User,
    saved,
    utc_now,
)
from services.core.ruleset import Ruleset
from services.core.wording import declined, format_average, format_points, format_signed, match_heading
from services.results import scoring
from services.results.hanchans import archived, can_enter, entry_closed, is_staff, season_of, seated_out_of_season
from services.results.repo import (
    current_season_id,
    db_standings,
    effective_hanchans,
    season_rules,
    season_scores,
    user_player_in_match,
)
from services.results.standings import StandingsRow
from services.scheduling.intervals import KIROV, kirov_date

ACTIONS = {
    "hanchan.enter": "внесён результат",
    "hanchan.dispute": "результат оспорен",
    "hanchan.dispute_resolved": "спор рассмотрен",
    "hanchan.correct": "исправление результата",
    "hanchan.replay": "переигровка ханчана",
    "match.replay": "переигровка матча",
    "penalty.add": "штраф",
    "penalty.cancel": "штраф отменён",
    "ruling.add": "решение судьи",
    "seat.substitute": "техническая замена",
    "judge.call": "вызов судьи",  # Регламент §6.2: the call, its answer and the ruling that closes it
    "judge.answer": "судья принял вызов",
    "judge.close": "вызов закрыт решением судьи",
}
KINDS = {"no_show": "неявка", "conduct": "поведение", "other": "штраф"}


def place_text(value: Fraction | None) -> str:
    """A hanchan's place: 2, or 5/2 → "2,5" when two share it (Регламент §4)."""
    if value is None:
        return "—"
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.1f}".replace(".", ",")


def standings_rows(rows: list[StandingsRow], top: int) -> list[dict[str, str]]:
    """Регламент §1: the season's playoff size (`top`, eight) best are marked, the line drawn under the last."""
    return [
        {
            "place": f"{r.place}{'=' if r.unresolved_tie else ''}",
            "player_id": str(r.player),
            "name": r.name,
            "total": format_signed(r.total),
            "matches": str(r.matches),
            "hanchans": str(r.hanchans),
            "average": format_average(r.average_place),
            "tie": "равенство: решает организатор" if r.unresolved_tie else "",
            "top": "1" if r.place <= top else "",
            "line": "1" if i == top - 1 else "",
        }
        for i, r in enumerate(rows)
    ]


def season_standings(session: Session) -> list[dict[str, str]]:
    season_id = current_season_id(session)
    if not season_id:
        return []
    return standings_rows(db_standings(session, season_id), season_rules(session, season_id).playoff_size)


@dataclass
class MatchView:
    title: str
    status: str
    seats: list[dict[str, str]]
    hanchans: list[dict[str, Any]]
    lines: list[dict[str, str]]
    penalties: list[dict[str, str]]
    protocol: list[dict[str, str]]
    rulings: list[dict[str, str]]
    can_enter: bool  # the forms are shown: never for a past season's match (read-only, Регламент §6.2's protocol)
    participant: bool
    staff: bool
    organizer: bool
    next_number: int | None
    planned: int  # the match's hanchans: 3, the final 5
    read_only: bool  # a past season: the protocol is shown, nothing is entered
    rules: Ruleset  # the season's: what the forms quote (the table total, the no-show penalty)
    # Регламент §6.2: why the next hanchan cannot be entered yet (its meeting has not begun, or there is none): shown
    # instead of the form to a player and the judge, above the form's reason field to the organizer (§6.3)
    entry_closed: str = ""
    form_players: list[dict[str, str]] = field(default_factory=list)
    # Регламент §6.1: a withdrawn participant still seated in a match not yet played — no points field for her; the
    # organizer seats a technical substitute first (the names, shown instead of the result form)
    needs_substitute: str = ""


def _names(session: Session, player_ids: set[int]) -> dict[scoring.PlayerId, str]:
    rows = session.exec(
        select(Player.id, User.display_name)
        .join(User, col(User.id) == Player.user_id)
        .where(col(Player.id).in_(list(player_ids)))
    ).all()
    return {saved(pid): name for pid, name in rows}


def _kirov(instant: datetime) -> str:
    return instant.astimezone(KIROV).strftime("%d.%m.%Y %H:%M")


def match_view(session: Session, user: User, match_id: int, now: datetime | None = None) -> MatchView | None:
    match = session.get(Match, match_id)
    if match is None or match.status == "draft":
        return None
    round_, stage = session.exec(
        select(Round, Stage).join(Stage, col(Stage.id) == Round.stage_id).where(Round.id == match.round_id)
    ).one()
    seats = session.exec(select(Seat).where(Seat.match_id == match.id).order_by(col(Seat.seed))).all()
    penalties = session.exec(select(Penalty).where(Penalty.match_id == match.id).order_by(col(Penalty.id))).all()
    names = _names(
        session,
        {s.player_id for s in seats}
        | {s.substitute_for_player_id or 0 for s in seats}
        | {p.player_id for p in penalties},
    )
    hanchans = effective_hanchans(session, [saved(match.id)]).get(saved(match.id), [])

    rows = {
        h.number: h
        for h in session.exec(
            select(Hanchan).where(Hanchan.match_id == match.id, col(Hanchan.superseded_by_id).is_(None))
        ).all()
    }
    rules = season_rules(session, stage.season_id)
    hanchan_views = []
    for h in hanchans:
        scores = scoring.score_hanchan(h, rules)
        row = rows[h.number]
        hanchan_views.append(
            {
                "id": str(row.id),
                "number": str(h.number),
                "riichi": str(h.riichi_left),
                "disputed": "1" if row.disputed else "",
                "scores": [
                    {
                        "name": names.get(s.player, str(s.player)),
                        "points": format_points(s.points),
                        "place": place_text(s.place),
                        "score": format_signed(s.score),
                        "chombo": str(r.chombo) if r.chombo else "",
                    }
                    for s, r in zip(scores, h.results, strict=True)
                ],
            }
        )
    kind = stage.kind
    smatch = scoring.Match(
        saved(match.id),
        kind,
        round_.code,
        1,
        tuple(hanchans),
        tuple(scoring.Penalty(p.player_id, p.points, p.reason) for p in penalties if p.points),
        rules=rules,
    )
    lines = [
        {
            "name": names.get(line.player, str(line.player)),
            "hanchans": " / ".join(format_signed(x) for x in line.hanchans),
            "penalties": format_signed(line.penalties) if line.penalties else "",
            "uma": format_signed(line.match_uma) if line.match_uma else "",
            "total": format_signed(line.total),
            "place": str(line.place) if line.place else "—",
        }
        for line in scoring.score_match(smatch).lines
    ]
    audit = session.exec(
        select(AuditRecord, User.display_name)
        .join(User, col(User.id) == AuditRecord.actor_user_id, isouter=True)
        .where(AuditRecord.entity == "match", AuditRecord.entity_id == match.id)
        .order_by(col(AuditRecord.id))
    ).all()
    protocol = [
        {
            "at": _kirov(a.at),
            "who": who or "система",
            "what": ACTIONS.get(a.action, a.action),
            "detail": _detail(a, names),
            "reason": a.reason,
        }
        for a, who in audit
    ]
    rulings = [
        {
            "at": _kirov(r.at),
            "hanchan": str(r.hanchan_number or "—"),
            "actions": r.actions,
            "disagreement": r.disagreement,
            "decision": r.decision,
            "photos": r.photos,  # paths in the upload directory, one per line (Регламент §6.2)
        }
        for r in session.exec(select(JudgeRuling).where(JudgeRuling.match_id == match.id).order_by(col(JudgeRuling.id)))
    ]
    season = season_of(session, match)
    read_only = season is not None and archived(session, season)
    allowed = can_enter(session, user, saved(match.id)) and not read_only
    done = len(hanchans)
    next_number = done + 1 if done < match.planned_hanchans and match.status != "replay" else None
    closed = entry_closed(session, saved(match.id), next_number, now=now or utc_now()) if next_number else None
    # the same players record_hanchan refuses a participant's result for (Регламент §6.1)
    withdrawn = (
        [pid for pid, _ in seated_out_of_season(session, saved(match.id), on=kirov_date(now or utc_now()))]
        if not done
        else []
    )
    return MatchView(
        title=match_heading(saved(match.id), kind, round_.code, match.table),
        status=str(match.status),
        seats=[
            {
                "name": names.get(s.player_id, "?"),
                "player_id": str(s.player_id),
                "note": f"— замена, заменяет {declined(names.get(s.substitute_for_player_id, '?'), 'acc')}"
                if s.substitute_for_player_id
                else "",
            }
            for s in seats
        ],
        hanchans=hanchan_views,
        lines=lines,
        penalties=[
            {
                "id": str(p.id),
                "label": f"{names.get(p.player_id, '?')}: {KINDS.get(p.kind, p.kind)}, {format_signed(p.points)}",
                "name": names.get(p.player_id, "?"),
                "points": format_signed(p.points),
                "kind": KINDS.get(p.kind, p.kind),
                "warning": "предупреждение" if p.warning else "",
                "reason": p.reason,
            }
            for p in penalties
        ],
        protocol=protocol,
        rulings=rulings,
        can_enter=allowed,
        entry_closed=closed or "",
        participant=not read_only and user_player_in_match(session, saved(user.id), saved(match.id)) is not None,
        staff=not read_only and is_staff(user),
        organizer=not read_only and user.role == "organizer",
        next_number=next_number,
        planned=match.planned_hanchans,
        read_only=read_only,
        rules=rules,
        form_players=[{"id": str(s.player_id), "name": names.get(s.player_id, "?")} for s in seats],
        needs_substitute=", ".join(names.get(pid, "?") for pid in withdrawn),
    )


def _detail(a: AuditRecord, names: dict[scoring.PlayerId, str]) -> str:
    data = json.loads(a.after) if a.after else {}
    parts = []
    if "number" in data:
        parts.append(f"ханчан {data['number']}")
    if a.action == "judge.call":
        parts.append(
            (f"ханчан {data['hanchan']}; " if data.get("hanchan") else "") + f"судья: {data.get('judge') or '—'}"
        )
    before = json.loads(a.before) if a.before else {}
    if a.action == "penalty.cancel":  # what was cancelled: whose, how much; the reason has its own column
        who, kind = names.get(before.get("player", 0), "?"), KINDS.get(before.get("kind", ""), "")
        return f"{who} {format_signed(before.get('points', 0))}, {kind}"
    if "results" in data and "results" in before:  # a correction: which hanchan, from what to what (Регламент §6.2)
        return "; ".join([*parts, _changes(before, data, names), *_decision(data)])
    if "results" in data:
        parts.append(
            ", ".join(f"{names.get(r['player'], r['player'])} {format_points(r['points'])}" for r in data["results"])
        )
    if "substitute_for" in data:  # Регламент §6.1: who sat in whose place
        absent = declined(names.get(data["substitute_for"], "?"), "acc")
        parts.append(f"{names.get(data['player'], data['player'])} заменяет {absent}")
    if "points" in data and "player" in data:
        parts.append(f"{names.get(data['player'], data['player'])} {format_signed(data['points'])}")
    if a.before:
        before = json.loads(a.before)
        if "results" in before:
            parts.append(
                "было: "
                + ", ".join(
                    f"{names.get(r['player'], r['player'])} {format_points(r['points'])}" for r in before["results"]
                )
            )
    if data.get("decision"):
        parts.append(f"решение: {data['decision']}")
    return "; ".join(parts)


def _changes(before: dict[str, Any], after: dict[str, Any], names: dict[scoring.PlayerId, str]) -> str:
    """«Игрок 05: 45 000 → 50 000», one per changed player (chombo and sticks too); nothing changed is said so."""
    old = {r["player"]: r for r in before["results"]}
    changed = []
    for r in after["results"]:
        was = old.get(r["player"], {})
        name = names.get(r["player"], r["player"])
        if was.get("points") != r["points"]:
            was_points = format_points(was["points"]) if "points" in was else "—"
            changed.append(f"{name}: {was_points} → {format_points(r['points'])}")
        if was.get("chombo", 0) != r.get("chombo", 0):
            changed.append(f"{name}: чомбо {was.get('chombo', 0)} → {r.get('chombo', 0)}")
    if before.get("riichi_left") != after.get("riichi_left"):
        changed.append(f"палочки риичи: {before.get('riichi_left')} → {after.get('riichi_left')}")
    return ", ".join(changed) or "очки те же"


def _decision(data: dict[str, Any]) -> list[str]:
    return [f"решение: {data['decision']}"] if data.get("decision") else []


def player_view(session: Session, player_id: int, leaders: int = 3) -> dict[str, Any] | None:
    """A player's regular and playoff matches, and cumulative totals after each tour beside the leaders'.

    A chart line has a point (the total so far) only for the tours in which that player has a line: a seat with
    hanchans or a penalty counted there (Регламент §5: a replaced no-show). Other tours are None, a gap.
    """
    player = session.get(Player, player_id)
    if player is None:
        return None
    season, scores = season_scores(session, player.season_id)
    names = {p.id: p.name for p in season.players}
    matches = []
    by_tour: dict[scoring.PlayerId, dict[int, int]] = defaultdict(dict)
    for ms in scores:
        for line in ms.lines:
            if ms.match.stage == scoring.REGULAR and isinstance(ms.match.round, int):  # a tour's number
                tours = by_tour[line.player]
                tours[ms.match.round] = tours.get(ms.match.round, 0) + line.total
            if line.player == player_id:
                others = [names.get(x.player, "?") for x in ms.lines if x.player != player_id and x.seated]
                matches.append(
                    {
                        "id": str(ms.match.id),
                        "round": str(ms.match.round),
                        "stage": ms.match.stage,
                        "opponents": ", ".join(others),
                        "total": format_signed(line.total),
                        "place": str(line.place) if line.place else "—",
                        "hanchans": str(len(line.hanchans)),
                    }
                )
    table = db_standings(session, player.season_id, (season, scores))
    shown = [player_id] + [int(r.player) for r in table[:leaders] if int(r.player) != player_id]
    series = [{"key": f"p{i}", "name": names.get(pid, "?")} for i, pid in enumerate(shown)]
    chart = []
    for tour in range(1, season.rules.tours + 1):
        point: dict[str, Any] = {"tour": f"Тур {tour}"}
        for i, pid in enumerate(shown):
            played = by_tour[pid]
            point[f"p{i}"] = sum(v for t, v in played.items() if t <= tour) if tour in played else None
        chart.append(point)
    return {"name": names.get(player_id, "?"), "matches": matches, "chart": chart, "series": series}
