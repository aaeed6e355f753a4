"""The season's ruleset on the database (Регламент §6.3, §7): the organizer sets it freely until the season's first
result; after that a change is an amendment — previewed (standings before and after), recorded with its date and
reason, announced on the site and through the bot. Imports no reflex.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from services.core.audit import record_audit
from services.core.db import lock_row
from services.core.errors import LeagueError
from services.core.models import (
    AuditRecord,
    Hanchan,
    Match,
    MatchStatus,
    Penalty,
    Role,
    Round,
    Season,
    Stage,
    StageKind,
    User,
)
from services.core.ruleset import CLUB_ZONE, LABELS, Ruleset, of_season, shown, with_numbers
from services.core.wording import format_signed
from services.league.announcements import publish_announcement
from services.results.repo import db_standings, load_season
from services.results.scoring import score_match
from services.results.standings import StandingsRow

SET = "ruleset.set"  # before the first result: the season is still being prepared
AMEND = "ruleset.amend"  # after it: an amendment of the regulation (Регламент §6.3, §7)
MAX_REASON = 1000  # as a regulation amendment's: the announcement fits one Telegram message


class RulesError(LeagueError):
    """A refused change; the message is Russian and nothing has changed."""


@dataclass(frozen=True)
class RulesChange:
    before: Ruleset
    after: Ruleset
    lines: tuple[str, ...]  # «Чомбо: 40 000 → 20 000», one per changed rule
    amendment: bool  # the season has a result: a reason is needed and the change is announced
    standings_before: tuple[StandingsRow, ...]
    standings_after: tuple[StandingsRow, ...]
    problems: tuple[str, ...] = ()


def has_results(session: Session, season_id: int) -> bool:
    """Регламент §6.3: once a hanchan or a penalty counts, the season's rules change only by an amendment."""
    in_season = (
        select(Match.id)
        .join(Round, col(Round.id) == Match.round_id)
        .join(Stage, col(Stage.id) == Round.stage_id)
        .where(Stage.season_id == season_id)
    )
    hanchan = session.exec(select(Hanchan.id).where(col(Hanchan.match_id).in_(in_season)).limit(1)).first()
    penalty = session.exec(
        select(Penalty.id).where(col(Penalty.match_id).in_(in_season), Penalty.points != 0).limit(1)
    ).first()
    return hanchan is not None or penalty is not None


def standings_under(session: Session, season_id: int, rules: Ruleset) -> list[StandingsRow]:
    """The regular standings as they would be with every match of the season scored by `rules`."""
    season = load_season(session, season_id)
    season = dataclasses.replace(
        season, rules=rules, matches=tuple(dataclasses.replace(m, rules=rules) for m in season.matches)
    )
    return db_standings(session, season_id, (season, [score_match(m) for m in season.matches]))


def _saved(season: Season) -> int:
    if season.id is None:
        raise RulesError("Сезон ещё не сохранён.")
    return season.id


def preview_rules(session: Session, season: Season, values: dict[str, str]) -> RulesChange:
    """What the form's values would change; nothing is written."""
    before = of_season(season)
    after, problems = with_numbers(before, values)
    season_id = _saved(season)
    amendment = has_results(session, season_id)
    return RulesChange(
        before,
        after,
        tuple(before.changes(after)),
        amendment,
        tuple(db_standings(session, season_id)) if amendment else (),
        tuple(standings_under(session, season_id, after)) if amendment and not problems else (),
        tuple(problems),
    )


def apply_rules(
    session: Session, season: Season, values: dict[str, str], *, reason: str, actor: User, now: datetime
) -> RulesChange:
    """Set the season's ruleset; after the first result, as an announced amendment with its reason."""
    if actor.role != Role.ORGANIZER:
        raise RulesError("Правила сезона меняет только организатор.")
    lock_row(session, Season, _saved(season))  # two organizers at once: the second one sees the first one's rules
    session.refresh(season)
    change = preview_rules(session, season, values)
    if change.problems:
        raise RulesError("; ".join(change.problems))
    if not change.lines:
        raise RulesError("Правила не изменились.")
    reason = " ".join(reason.split())
    if change.amendment and not reason:
        # Регламент §6.3, §7: a change during the season is an amendment, with its reason, in force once announced.
        raise RulesError("В сезоне уже есть результаты: укажите причину изменения, оно будет объявлено.")
    if len(reason) > MAX_REASON:
        raise RulesError(f"Причина длиннее {MAX_REASON} символов.")
    adopt_rules(session, season, change.after)
    record_audit(
        session,
        actor_user_id=actor.id,
        action=AMEND if change.amendment else SET,
        entity="season",
        entity_id=season.id,
        before=change.before.as_columns(),
        after=change.after.as_columns(),
        reason=reason,
        now=now,
    )
    if change.amendment and actor.id is not None:
        local = now.astimezone(CLUB_ZONE)
        publish_announcement(
            session,
            season,
            f"Изменение регламента от {local:%d.%m.%Y %H:%M} (действует с момента объявления): "
            f"{'; '.join(change.lines)}. Причина: {reason}. Таблица пересчитана.",
            author_user_id=actor.id,
            now=now,
        )
    session.flush()
    return change


def adopt_rules(session: Session, season: Season, rules: Ruleset) -> None:
    """Write `rules` to the season's row and replan its matches; the caller has checked that it may."""
    for name, value in rules.as_columns().items():
        setattr(season, name, value)
    session.add(season)
    _replan(session, _saved(season), rules)


def _replan(session: Session, season_id: int, rules: Ruleset) -> None:
    """Every match of the season plans the hanchans the new rules give it (the final its own)."""
    rows = session.exec(
        select(Match, Round, Stage)
        .join(Round, col(Round.id) == Match.round_id)
        .join(Stage, col(Stage.id) == Round.stage_id)
        .where(Stage.season_id == season_id, Match.status != MatchStatus.REPLAY)
    ).all()
    for match, round_, stage in rows:
        planned = rules.hanchans(final=stage.kind == StageKind.PLAYOFF and round_.code == "F")
        if match.planned_hanchans != planned:
            match.planned_hanchans = planned
            session.add(match)


def rule_changes(session: Session, season_id: int) -> list[AuditRecord]:
    """The season's ruleset changes, oldest first: amendments and the settings before the first result."""
    return list(
        session.exec(
            select(AuditRecord)
            .where(
                col(AuditRecord.action).in_((SET, AMEND)),
                AuditRecord.entity == "season",
                AuditRecord.entity_id == season_id,
            )
            .order_by(col(AuditRecord.id))
        ).all()
    )


@dataclass(frozen=True)
class RuleLine:
    name: str  # the Season column
    label: str
    value: str  # as the form shows and takes it
    shown: str  # as a reader sees it: «40 000», a format's Russian name rather than its code


@dataclass(frozen=True)
class StandingsShift:
    name: str
    before: str  # «3 · +12 000»
    after: str
    moved: bool


def rule_lines(rules: Ruleset) -> list[RuleLine]:
    return [RuleLine(name, LABELS[name], str(value), shown(name, value)) for name, value in rules.as_columns().items()]


def standings_shift(change: RulesChange) -> list[StandingsShift]:
    """Each ranked player's place and total before and after, in the new order (an amendment's preview)."""
    before = {r.player: r for r in change.standings_before}

    def shown(row: StandingsRow | None) -> str:
        return "—" if row is None else f"{row.place} · {format_signed(row.total)}"

    return [
        StandingsShift(
            r.name,
            shown(before.get(r.player)),
            shown(r),
            (b := before.get(r.player)) is None or (b.place, b.total) != (r.place, r.total),
        )
        for r in change.standings_after
    ]
