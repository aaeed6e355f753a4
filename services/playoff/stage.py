"""The playoff in the database: closing the regular stage, round windows, the next rounds' matches, seat winds
(Регламент §2, §3, §4, §6.1); imports no reflex.

Storage: one playoff Stage; Round codes "1", "2", "3", "F" (one game window each); Match.table "A"/"B" in round 1,
"U"/"L" (upper/lower) in round 2, "3" in round 3 and "F" for the final (five planned hanchans). Round-1 seats keep
the seeding (Seat.seed 1..4: table A seats places 1, 3, 5, 7, table B 2, 4, 6, 8), so later corrections to the
regular stage never reshuffle a running bracket.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from sqlmodel import Session

from services.core.audit import record_audit
from services.core.db import lock_row
from services.core.models import (
    Match,
    MatchStatus,
    Role,
    Round,
    Season,
    Seat,
    Stage,
    StageKind,
    TieDecision,
    User,
    saved,
)
from services.core.ruleset import Ruleset, of_season
from services.playoff.bracket import Bracket, Table, build_bracket
from services.playoff.repo import (
    ROUND_CODES,
    ROUND_OF,
    TABLE_OF,
    PlayoffError,
    PlayoffView,
    Window,
    _rounds,
    load_bracket,
    playoff_stage,
    regular_preview,
)
from services.results import scoring
from services.results.winds import attach_winds
from services.scheduling.rules import format_kirov
from services.scheduling.tour_windows import tell_window_changed

__all__ = [  # the read side lives in services.playoff.repo; callers keep importing it from here
    "ROUND_CODES",
    "ROUND_OF",
    "TABLE_OF",
    "PlayoffError",
    "PlayoffView",
    "Window",
    "advance_playoff",
    "close_regular_stage",
    "decide_match_tie",
    "load_bracket",
    "playoff_stage",
    "regular_preview",
    "set_round_window",
]


def _require_organizer(actor: User) -> None:
    if actor.role != Role.ORGANIZER:
        raise PlayoffError("Это может сделать только организатор.")


def _create_table(session: Session, round_row: Round, table: Table, actor_user_id: int | None, rules: Ruleset) -> Match:
    code, letter = TABLE_OF[table.round]
    # Регламент §2: финал — пять ханчанов за одну встречу; остальные матчи плей-офф — три (правила сезона).
    hanchans = rules.hanchans(final=table.round == scoring.FINAL_ROUND)
    match = Match(round_id=saved(round_row.id), table=letter, planned_hanchans=hanchans, status=MatchStatus.SCHEDULING)
    session.add(match)
    session.flush()
    for position, player in enumerate(table.due, start=1):
        session.add(Seat(match_id=saved(match.id), player_id=int(player), seed=position))
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
    lock_row(session, Season, saved(season.id))  # two organizers closing at once: the second is told it is closed
    if playoff_stage(session, saved(season.id)) is not None:
        raise PlayoffError("Регулярный этап уже закрыт: плей-офф идёт.")
    seeds, problems = regular_preview(session, season)
    if problems:
        raise PlayoffError("Нельзя закрыть регулярный этап: " + "; ".join(problems) + ".")
    stage = Stage(season_id=saved(season.id), kind=StageKind.PLAYOFF)
    session.add(stage)
    session.flush()
    rounds = {}
    for code in ROUND_CODES:
        rounds[code] = Round(stage_id=saved(stage.id), code=code)
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
        _create_table(session, rounds["1"], table, actor.id, of_season(season))
    session.flush()
    return load_bracket(session, season).bracket


def set_round_window(
    session: Session, season: Season, code: str, start: datetime, end: datetime, *, actor: User, now: datetime
) -> None:
    """The organizer sets a playoff round's game window; rounds follow each other without overlapping. Recorded in
    the audit log and told to the round's matches at `now` (the shell's clock), as `tour_windows.set_windows`."""
    _require_organizer(actor)
    stage = playoff_stage(session, saved(season.id))
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
        now=now,
    )
    tell_window_changed(session, round_row, now=now)
    session.flush()


def advance_playoff(
    session: Session, season: Season, *, actor_user_id: int | None = None, after_change: bool = False
) -> list[str]:
    """Creates every next-round match whose players are now known; returns their rounds (1A…F). Idempotent,
    also under concurrency: a load that finds something to create takes the playoff stage's lock and decides
    again, so two loads of the bracket page at once create a round once (and the database refuses a second
    match at one round and table).

    `after_change`: called in the transaction that stored a playoff result or a tie decision, which takes the
    stage's lock before reading: two tables finished at once each wait for the other and the second creates the
    next round (without the lock each would see the other's table unfinished, and neither would).
    """
    stage = playoff_stage(session, saved(season.id))
    if stage is None:
        return []
    if after_change:
        lock_row(session, Stage, saved(stage.id))
        session.flush()
        session.expire_all()  # decide on what the lock's previous holder committed
    view = load_bracket(session, season)
    created = []
    if any(table.due for table in view.bracket.to_create):
        lock_row(session, Stage, saved(stage.id))
        session.flush()
        session.expire_all()  # decide again on what the lock's previous holder committed
        view = load_bracket(session, season)
        rounds = _rounds(session, stage)
        for table in view.bracket.to_create:
            if table.due:
                _create_table(session, rounds[TABLE_OF[table.round][0]], table, actor_user_id, of_season(season))
                created.append(table.round)
    for match_id in view.match_ids.values():
        attach_winds(session, match_id)
    session.flush()
    return created


def decide_match_tie(
    session: Session, season: Season, match_id: int, ordered: list[int], *, reason: str, actor: User, now: datetime
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
            season_id=saved(season.id),
            match_id=match_id,
            ordered_player_ids=",".join(map(str, ordered)),
            reason=reason.strip(),
            decided_by_user_id=saved(actor.id),
            decided_at=now,
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
        now=now,
    )
    session.flush()
    advance_playoff(session, season, actor_user_id=actor.id, after_change=True)  # the places may complete a table
