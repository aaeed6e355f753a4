"""Entering, disputing, correcting and replaying hanchan results (Регламент §4, §6.2); imports no reflex.

Who may act is checked here too, not only in the page: a seated participant, the judge or the organizer
enters; a participant disputes; only the organizer corrects, replays and resolves a dispute.
Everything is written to the audit trail with `entity="match"`, so the match protocol is one query.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from services.core import outbox
from services.core.audit import record_audit
from services.core.db import lock_row
from services.core.models import (
    Hanchan,
    HanchanResult,
    Match,
    MatchStatus,
    Player,
    Role,
    RosterStatus,
    Round,
    Season,
    Seat,
    Stage,
    User,
    saved,
)
from services.core.ruleset import Ruleset, of_season
from services.core.wording import counted
from services.results import scoring
from services.results.disqualifications import disqualified_on
from services.results.entry import Entry as Entry  # re-exported: the importers enter hanchans with it
from services.results.entry import ResultsError as ResultsError
from services.results.entry import _int as _int  # re-exported: the pages parse numbers the same way
from services.results.entry import parse_entry as parse_entry
from services.results.repo import seated_player_ids, user_player_in_match
from services.results.winds import attach_winds
from services.scheduling.decide import entry_refusal
from services.scheduling.intervals import kirov_date
from services.scheduling.repo import active_bookings


def is_staff(user: User) -> bool:
    return user.role in (Role.ORGANIZER, Role.JUDGE)


def can_enter(session: Session, user: User, match_id: int) -> bool:
    """Регламент §6.2: a participant of the match, the judge or the organizer."""
    return is_staff(user) or user_player_in_match(session, saved(user.id), match_id) is not None


def require_organizer(user: User) -> None:
    if user.role != Role.ORGANIZER:
        raise ResultsError("Это может сделать только организатор.")


def get_match(session: Session, match_id: int) -> Match:
    match = session.get(Match, match_id, populate_existing=True)
    if match is None or match.status == MatchStatus.DRAFT:
        raise ResultsError(f"Матч {match_id} не найден.")
    season = season_of(session, match)
    if season is not None and archived(session, season):
        raise ResultsError(f"Сезон «{season.name}» в архиве: его протоколы только для чтения.")
    return match


def season_of(session: Session, match: Match) -> Season | None:
    return session.exec(
        select(Season)
        .join(Stage, col(Stage.season_id) == Season.id)
        .join(Round, col(Round.stage_id) == Stage.id)
        .where(Round.id == match.round_id)
    ).first()


def archived(session: Session, season: Season) -> bool:
    """A finished season, or one a newer current season replaced, is read-only (services/league/seasons.py)."""
    if season.finished_at is not None:
        return True
    return not season.is_current and session.exec(select(Season.id).where(col(Season.is_current))).first() is not None


def effective(session: Session, match_id: int) -> list[Hanchan]:
    return list(
        session.exec(
            select(Hanchan)
            .where(Hanchan.match_id == match_id, col(Hanchan.superseded_by_id).is_(None))
            .order_by(col(Hanchan.number))
        ).all()
    )


def match_rules(session: Session, match_id: int) -> Ruleset:
    """The ruleset of the match's season (the regulation's when the match is unknown)."""
    match = session.get(Match, match_id)
    return of_season(season_of(session, match) if match is not None else None)


def seated_out_of_season(session: Session, match_id: int, *, on: date) -> list[tuple[int, str]]:
    """Регламент §6.1: the seated players (id, name) who no longer play the season — withdrawn, or disqualified on
    `on` (§5, §6.3) — so a technical substitute takes the seat before the table plays."""
    rows = session.exec(
        select(Player.id, Player.user_id, Player.status, User.display_name)
        .join(Seat, col(Seat.player_id) == Player.id)
        .join(User, col(User.id) == Player.user_id)
        .where(Seat.match_id == match_id)
        .order_by(col(Seat.seed))
    ).all()
    disqualified = disqualified_on(session, [user_id for _, user_id, _, _ in rows], on)
    return [
        (saved(pid), name)
        for pid, user_id, status, name in rows
        if status == RosterStatus.WITHDRAWN or user_id in disqualified
    ]


def _require_full_table(session: Session, user: User, match: Match, now: datetime) -> None:
    """Регламент §6.1: a withdrawn (or disqualified) participant is replaced by a technical substitute «для
    комплектования стола»; until the organizer seats one, the table cannot have played. The organizer alone may
    still record a hanchan — how an unfinished match ends and which played hanchans count is his decision for the
    case («определяет организатор отдельно для конкретной ситуации»), e.g. hanchans played before the withdrawal."""
    if user.role == Role.ORGANIZER:
        return
    out = seated_out_of_season(session, saved(match.id), on=kirov_date(now))
    if out:
        names = ", ".join(f"«{name}»" for _, name in out)
        raise ResultsError(
            f"За столом этого матча ещё числится {names}, а в сезоне больше не играет: результат вносится после "
            "того, как организатор посадит техническую замену (Регламент §6.1)."
        )


def _check(session: Session, match: Match, entry: Entry) -> None:
    seats = set(seated_player_ids(session, saved(match.id)))
    if not seats:
        raise ResultsError("В матче нет рассадки: результат вносить некуда.")
    problems = scoring.hanchan_problems(entry.results, entry.riichi_left, of_season(season_of(session, match)))
    entered = {r.player for r in entry.results}
    if entered != seats:
        problems.append("результаты нужны ровно для четырёх игроков этого матча")
    if problems:
        raise ResultsError(problems)


def _store(
    session: Session, match: Match, number: int, entry: Entry, user: User, *, now: datetime, revision: int = 0
) -> Hanchan:
    """The database refuses a second row of one (match, number, revision): the loser of a race that slipped
    past the lock is told what a later caller would be told."""
    hanchan = Hanchan(
        match_id=saved(match.id),
        number=number,
        revision=revision,
        riichi_left=entry.riichi_left,
        entered_by_user_id=user.id,
        entered_at=now,
    )
    try:
        with session.begin_nested():
            session.add(hanchan)
            session.flush()
    except IntegrityError as error:
        raise ResultsError(f"Ханчан {number} этого матча уже внесён или исправлен: обновите страницу.") from error
    for r in entry.results:
        assert isinstance(r.player, int)  # an entry names the seated players by their stored ids
        session.add(HanchanResult(hanchan_id=saved(hanchan.id), player_id=r.player, points=r.points, chombo=r.chombo))
    return hanchan


def _hanchan_json(
    hanchan_id: int | None, number: int, riichi_left: int, results: Sequence[tuple[scoring.PlayerId, int, int]]
) -> dict[str, Any]:
    # One shape for the audit's "before" (stored rows) and "after" (the entry), so the protocol compares them.
    return {
        "hanchan_id": hanchan_id,
        "number": number,
        "riichi_left": riichi_left,
        "results": [{"player": player, "points": points, "chombo": chombo} for player, points, chombo in results],
    }


def _snapshot(session: Session, hanchan: Hanchan) -> dict[str, Any]:
    rows = session.exec(
        select(HanchanResult).where(HanchanResult.hanchan_id == hanchan.id).order_by(col(HanchanResult.id))
    ).all()
    return _hanchan_json(
        hanchan.id, hanchan.number, hanchan.riichi_left, [(r.player_id, r.points, r.chombo) for r in rows]
    )


def _entry_json(entry: Entry, number: int, hanchan_id: int | None) -> dict[str, Any]:
    return _hanchan_json(hanchan_id, number, entry.riichi_left, [(r.player, r.points, r.chombo) for r in entry.results])


REPEAT_WINDOW = timedelta(minutes=1)
REPEAT_MESSAGE = (
    "Такие же очки вы внесли для предыдущего ханчана меньше минуты назад — похоже на повторное нажатие. "
    "Если ханчан действительно закончился с тем же счётом, отметьте «Да, те же очки ещё раз» и сохраните снова."
)


class RepeatedResult(ResultsError):
    """The same four scores as the previous hanchan, entered by the same user a moment ago: most likely a second
    tap on the save button. Stored only when the user says explicitly that the scores repeat."""


def _is_repeat(session: Session, previous: Hanchan | None, entry: Entry, user: User, now: datetime) -> bool:
    if previous is None or previous.entered_by_user_id != user.id or now - previous.entered_at > REPEAT_WINDOW:
        return False
    stored = _snapshot(session, previous)
    same_scores = {(r["player"], r["points"], r["chombo"]) for r in stored["results"]} == {
        (r.player, r.points, r.chombo) for r in entry.results
    }
    return same_scores and stored["riichi_left"] == entry.riichi_left


def record_hanchan(  # noqa: PLR0913
    session: Session,
    user: User,
    match_id: int,
    entry: Entry,
    *,
    now: datetime,
    repeat_ok: bool = True,
    reason: str = "",
    number: int | None = None,
) -> Hanchan:
    """Store the next hanchan of the match; the number follows the effective ones. Called only by the one door,
    `services.playoff.hanchan_entry.enter_hanchan`, which then advances the playoff (Регламент §2): every caller —
    the match page, the Pantheon import, the demo, the tests — enters there (`tests/unit/test_architecture.py`).
    A form a person submits passes `repeat_ok=False` unless they ticked "the same scores again": then the same
    scores as the previous hanchan by the same user within a minute are refused (a double submit must not count
    twice). Imports and files, which carry real repeats, keep the default. Holds the match lock: of two
    participants entering the last hanchan at once, the second is told it is in. `now` is the entry's instant: the
    meeting's start, the double-submit check and the stored `entered_at` all use it. `reason`: why the organizer
    enters a hanchan outside its meeting (`_require_meeting`), recorded in the audit row the protocol shows.
    `number`: the hanchan a person's form was opened for; when another's entry took it meanwhile (two players at
    the table typing the same hanchan), the form is refused rather than stored as the next one (`HanchanTaken`)."""
    lock_row(session, Match, match_id)
    match = get_match(session, match_id)
    if not can_enter(session, user, saved(match.id)):
        raise ResultsError("Вносить результат могут только участники матча, судья и организатор.")
    if match.status == MatchStatus.REPLAY:
        raise ResultsError("Этот матч заменён переигровкой: результат вносится в матч-переигровку.")
    done = effective(session, saved(match.id))
    if len(done) >= match.planned_hanchans:
        raise ResultsError(
            (
                "Ханчан матча уже внесён"
                if match.planned_hanchans == 1
                else f"Все {counted(match.planned_hanchans, 'ханчан', 'ханчана', 'ханчанов')} матча уже внесены"
            )
            + "; исправить результат может организатор."
        )
    if number is not None and done and done[-1].number >= number:
        raise HanchanTaken(_taken(session, done, number))
    number = (done[-1].number if done else 0) + 1
    _require_meeting(session, user, saved(match.id), number, now=now, reason=reason)
    _require_full_table(session, user, match, now)
    _check(session, match, entry)
    if not repeat_ok and _is_repeat(session, done[-1] if done else None, entry, user, now):
        raise RepeatedResult(REPEAT_MESSAGE)
    hanchan = _store(session, match, number, entry, user, now=now)
    # Регламент §4 «Выбор начальных ветров»: the hanchan takes the winds drawn for it, as it is entered (a page
    # that shows it reads only).
    attach_winds(session, saved(match.id))
    record_audit(
        session,
        actor_user_id=user.id,
        action="hanchan.enter",
        entity="match",
        entity_id=match.id,
        after=_entry_json(entry, number, hanchan.id),
        reason=reason.strip(),
        now=now,
    )
    if number >= match.planned_hanchans:
        match.status = MatchStatus.COMPLETE
        session.add(match)
    outbox.emit(session, outbox.RESULT_ENTERED, match.id, hanchan=number, now=now)  # the card shows what is played
    return hanchan


class HanchanTaken(ResultsError):
    """The hanchan a form was opened for was entered meanwhile by someone else."""


def _taken(session: Session, done: list[Hanchan], number: int) -> str:
    """Регламент §6.2: one result per hanchan. Two people at the table typed hanchan `number`; the first is in."""
    first = next((h for h in done if h.number == number), done[-1])
    by = session.get(User, first.entered_by_user_id) if first.entered_by_user_id else None
    who = f" ({by.display_name})" if by is not None else ""
    return (
        f"Ханчан {number} уже внесён{who}, пока вы вводили результат: сверьте его очки в протоколе выше. "
        f"Если ваши очки — это следующий ханчан, сохраните ещё раз: форма теперь для ханчана {done[-1].number + 1}; "
        "если они расходятся с внесёнными — оспорьте результат."
    )


OUTSIDE_MEETING = (
    "Вне встречи результат вносит только организатор, указав причину: она будет записана в протокол матча."
)


def entry_closed(session: Session, match_id: int, number: int, *, now: datetime) -> str | None:
    """Why the match's hanchan `number` cannot be entered at `now` by a player or the judge, or None: its meeting
    (the match's booked ones, in order) has not begun, or there is none (`decide.entry_refusal`)."""
    meetings = [(b.start_at, b.hanchans or 0) for b in active_bookings(session, match_id)]
    return entry_refusal(meetings, number, now=now)


def _require_meeting(session: Session, user: User, match_id: int, number: int, *, now: datetime, reason: str) -> None:
    """Регламент §6.2: a hanchan is entered once its meeting has begun (the issue: a player entered two hanchans two
    days before the booked meeting). Outside a meeting only the organizer enters one — an organizational decision,
    recorded with its reason (§6.3: «Решение и его основание фиксируются»): a match played without a booking, a
    meeting moved after the fact, an import."""
    refused = entry_closed(session, match_id, number, now=now)
    if refused is None:
        return
    if user.role != Role.ORGANIZER:
        raise ResultsError(refused)
    if not reason.strip():
        raise ResultsError(f"{refused} {OUTSIDE_MEETING}")


def chosen_hanchan(hanchan_id: int | None) -> int:
    """The hanchan a form names; none chosen is said so (not «Ханчан 0 не найден»)."""
    if not hanchan_id:
        raise ResultsError("Выберите ханчан.")
    return hanchan_id


def current_hanchan(session: Session, match_id: int, number: int | None) -> Hanchan:
    """The effective row of the match's hanchan with this number — what a correction form names: the number
    stays when a correction replaces the row, so the chosen hanchan stays chosen (Регламент §6.2)."""
    if not number:
        raise ResultsError("Выберите ханчан.")
    hanchan = session.exec(
        select(Hanchan).where(
            Hanchan.match_id == match_id, Hanchan.number == number, col(Hanchan.superseded_by_id).is_(None)
        )
    ).first()
    if hanchan is None:
        raise ResultsError(f"Ханчан {number} не найден.")
    return hanchan


def current_scores(session: Session, match_id: int, number: int | None) -> dict[str, str]:
    """The hanchan's points, chombo and sticks as the correction form's fields hold them (its pre-filling)."""
    hanchan = current_hanchan(session, match_id, number)
    values = {"riichi_left": str(hanchan.riichi_left)}
    for r in session.exec(select(HanchanResult).where(HanchanResult.hanchan_id == hanchan.id)).all():
        values[f"points_{r.player_id}"], values[f"chombo_{r.player_id}"] = str(r.points), str(r.chombo)
    return values


def _hanchan_of_match(session: Session, hanchan_id: int) -> tuple[Hanchan, Match]:
    hanchan = session.get(Hanchan, chosen_hanchan(hanchan_id), populate_existing=True)
    if hanchan is None:
        raise ResultsError(f"Ханчан {hanchan_id} не найден.")
    if hanchan.superseded_by_id is not None:
        raise ResultsError(f"Ханчан {hanchan.number} уже заменён исправлением или переигровкой.")
    return hanchan, get_match(session, hanchan.match_id)


def _set_disputed(
    session: Session,
    user: User,
    hanchan: Hanchan,
    match: Match,
    disputed: bool,
    *,
    reason: str,
    now: datetime,
    **extra: str,
) -> None:
    hanchan.disputed = disputed
    session.add(hanchan)
    record_audit(
        session,
        actor_user_id=user.id,
        action="hanchan.dispute" if disputed else "hanchan.dispute_resolved",
        entity="match",
        entity_id=match.id,
        after={"hanchan_id": hanchan.id, "number": hanchan.number, **extra},
        reason=reason,
        now=now,
    )


def dispute_hanchan(session: Session, user: User, hanchan_id: int, note: str, *, now: datetime) -> None:
    """A participant flags a result for the organizer (Регламент §6.2); the note says what is wrong."""
    hanchan, match = _hanchan_of_match(session, hanchan_id)
    if user_player_in_match(session, saved(user.id), saved(match.id)) is None:
        raise ResultsError("Оспорить результат может только участник этого матча.")
    if not note.strip():
        raise ResultsError("Опишите, что не так с результатом.")
    _set_disputed(session, user, hanchan, match, True, reason=note.strip(), now=now)


def resolve_dispute(session: Session, user: User, hanchan_id: int, decision: str, *, now: datetime) -> None:
    """The organizer keeps the result as it is and records why (a correction resolves a dispute too)."""
    require_organizer(user)
    hanchan, match = _hanchan_of_match(session, hanchan_id)
    if not decision.strip():
        raise ResultsError("Укажите решение по спору.")
    _set_disputed(session, user, hanchan, match, False, reason=decision.strip(), now=now, decision=decision.strip())


def _require_reason_and_decision(reason: str, decision: str) -> None:
    # Регламент §6.2: a correction or a replay keeps the reason and the decision, so neither may be empty.
    problems = [] if reason.strip() else ["укажите причину"]
    if not decision.strip():
        problems.append("укажите решение")
    if problems:
        raise ResultsError(problems)


def correct_hanchan(
    session: Session,
    user: User,
    hanchan_id: int,
    entry: Entry,
    *,
    reason: str,
    decision: str,
    now: datetime,
    replay: bool = False,
) -> Hanchan:
    """Регламент §6.2: a correction or a replay keeps the original row, the reason and the decision.

    The new row takes the same number and the original points to it (`superseded_by_id`), so the standings
    count the new result in place of the old one, never both.
    """
    require_organizer(user)
    match_id = session.exec(select(Hanchan.match_id).where(Hanchan.id == hanchan_id)).first()
    if match_id is not None:
        lock_row(session, Match, match_id)
    old, match = _hanchan_of_match(session, hanchan_id)
    _require_reason_and_decision(reason, decision)
    _check(session, match, entry)
    before = _snapshot(session, old)
    new = _store(session, match, old.number, entry, user, now=now, revision=old.revision + 1)
    old.superseded_by_id = new.id
    session.add(old)
    record_audit(
        session,
        actor_user_id=user.id,
        action="hanchan.replay" if replay else "hanchan.correct",
        entity="match",
        entity_id=match.id,
        before=before,
        after={**_entry_json(entry, old.number, new.id), "decision": decision.strip()},
        reason=reason.strip(),
        now=now,
    )
    return new


def replay_match(session: Session, user: User, match_id: int, *, reason: str, decision: str, now: datetime) -> Match:
    """Регламент §6.1: the organizer orders a match replayed; the new match replaces it in the standings.

    The original keeps its hanchans for the record and gets status `replay`; the new match has the same tour,
    table and seats and goes through scheduling again.
    """
    require_organizer(user)
    lock_row(session, Match, match_id)
    original = get_match(session, match_id)
    if original.status == MatchStatus.REPLAY:
        raise ResultsError("Этот матч уже заменён переигровкой.")
    _require_reason_and_decision(reason, decision)
    original.status = MatchStatus.REPLAY  # first: one playing match per round and table (migration 0012)
    session.add(original)
    session.flush()
    new = Match(
        round_id=original.round_id,
        table=original.table,
        planned_hanchans=original.planned_hanchans,
        status=MatchStatus.SCHEDULING,
        replay_of_match_id=original.id,
        window_round_id=original.window_round_id,
    )
    session.add(new)
    session.flush()
    for seat in session.exec(select(Seat).where(Seat.match_id == original.id)).all():
        session.add(
            Seat(
                match_id=saved(new.id),
                player_id=seat.player_id,
                seed=seat.seed,
                substitute_for_player_id=seat.substitute_for_player_id,
            )
        )
    for entity_id in (original.id, new.id):
        record_audit(
            session,
            actor_user_id=user.id,
            action="match.replay",
            entity="match",
            entity_id=entity_id,
            after={"original_match_id": original.id, "replay_match_id": new.id, "decision": decision.strip()},
            reason=reason.strip(),
            now=now,
        )
    return new
