"""Where an imported Pantheon game goes: its league match, its hanchan, its number; imports no reflex.

Entering and correcting go through `services.results.hanchans`, so an import leaves the same trail as a person would.
"""

from __future__ import annotations

import json
from datetime import datetime
from fractions import Fraction
from typing import Any

from sqlmodel import Session, col, select

from services.core.audit import record_audit
from services.core.models import (
    Hanchan,
    HanchanResult,
    Match,
    MatchStatus,
    PantheonGame,
    Round,
    Seat,
    Stage,
    User,
    saved,
)
from services.pantheon.reconstruct import Seat as GameSeat
from services.pantheon.reconstruct import TableGame
from services.playoff.hanchan_entry import enter_hanchan
from services.results import hanchans as results
from services.results import scoring
from services.scheduling.intervals import KIROV

IMPORTED, ASSIGNED, PENDING, IGNORED = "imported", "assigned", "pending", "ignored"
PLACED = (IMPORTED, ASSIGNED)
# Регламент §6.2: a game changed in Pantheon is a correction of the hanchan, with this reason.
CHANGED_REASON = "Изменён в Pantheon"
# Регламент §6.2: a game recorded in Pantheon was played, whether or not the site booked its meeting: the import
# enters it as the organizer, with this reason in the protocol (the entry outside a meeting, `record_hanchan`).
IMPORTED_REASON = "Сыгран в Pantheon, окончен {ended}"


def table_from_json(text: str) -> TableGame | None:
    if not text:
        return None
    data: dict[str, Any] = json.loads(text)
    seats = tuple(GameSeat(s["person"], s["points"], s["chombo"], Fraction(0)) for s in data["seats"])
    return TableGame(data["hash"], datetime.fromisoformat(data["ended_at"]), seats, data["riichi_left"])


def _kirov(instant: datetime | None) -> str:
    return "—" if instant is None else instant.astimezone(KIROV).strftime("%d.%m.%Y %H:%M")


def unknown_players(game: TableGame, mapping: dict[int, int], titles: dict[int, str]) -> str | None:
    unknown = [s.person_id for s in game.seats if s.person_id not in mapping]
    if not unknown:
        return None
    names = ", ".join(f"«{titles.get(p, '?')}» (id {p})" for p in unknown)
    return f"Неизвестный игрок Pantheon: {names} — сопоставьте его с игроком лиги"


def _season_matches(session: Session, season_id: int) -> list[tuple[Match, Round]]:
    return list(
        session.exec(
            select(Match, Round)
            .join(Round, col(Round.id) == Match.round_id)
            .join(Stage, col(Stage.id) == Round.stage_id)
            .where(Stage.season_id == season_id, col(Match.status).not_in([MatchStatus.DRAFT, MatchStatus.REPLAY]))
            .order_by(col(Match.id))
        ).all()
    )


def _in_window(window: Round, instant: datetime) -> bool:
    # A round without a window (not yet set) does not restrict the time.
    return (window.window_start is None or window.window_start <= instant) and (
        window.window_end is None or instant < window.window_end
    )


def find_match(
    session: Session, season_id: int, game: TableGame, mapping: dict[int, int], titles: dict[int, str]
) -> tuple[Match | None, str]:
    """The one league match of these four players whose window holds the end time, or the reason there is none."""
    unknown = unknown_players(game, mapping, titles)
    if unknown:
        return None, unknown
    players = {mapping[s.person_id] for s in game.seats}
    if len(players) != 4:
        return None, "Два аккаунта Pantheon одного игрока лиги за одним столом"
    same = []
    for match, round_ in _season_matches(session, season_id):
        seats = set(session.exec(select(Seat.player_id).where(Seat.match_id == match.id)).all())
        if seats == players:
            # Регламент §6.1: a match moved to the next tour plays in that tour's window.
            window = session.get(Round, match.window_round_id) if match.window_round_id else round_
            same.append((match, window or round_))
    if not same:
        return None, "Нет матча лиги с этими четырьмя игроками"
    fitting = [m for m, w in same if _in_window(w, game.ended_at)]
    if not fitting:
        windows = "; ".join(f"матч {m.id}: {_kirov(w.window_start)} – {_kirov(w.window_end)}" for m, w in same)
        return None, f"Игра окончена {_kirov(game.ended_at)} — вне игрового окна матча этих игроков ({windows})"
    if len(fitting) > 1:
        return None, "Подходят несколько матчей: " + ", ".join(str(m.id) for m in fitting)
    return fitting[0], ""


def entry_for(game: TableGame, mapping: dict[int, int]) -> results.Entry:
    rows = tuple(scoring.TableResult(mapping[s.person_id], s.points, s.chombo) for s in game.seats)
    return results.Entry(rows, game.riichi_left)


def _same_result(session: Session, hanchan: Hanchan, entry: results.Entry) -> bool:
    rows = session.exec(select(HanchanResult).where(HanchanResult.hanchan_id == hanchan.id)).all()
    return hanchan.riichi_left == entry.riichi_left and {(r.player_id, r.points, r.chombo) for r in rows} == {
        (r.player, r.points, r.chombo) for r in entry.results
    }


def _mark(hanchan: Hanchan, game: TableGame, mapping: dict[int, int]) -> None:
    hanchan.winds = ",".join(str(mapping[s.person_id]) for s in game.seats)
    hanchan.pantheon_hash = game.session_hash


def enter(
    session: Session,
    row: PantheonGame,
    match: Match,
    game: TableGame,
    mapping: dict[int, int],
    actor: User,
    *,
    now: datetime,
    status: str = IMPORTED,
) -> str | None:
    """Store the game as the match's next hanchan; the reason it cannot be stored otherwise (nothing is written)."""
    entry = entry_for(game, mapping)
    done = results.effective(session, saved(match.id))
    # The same hanchan typed in by hand before the import: link it instead of counting it twice.
    twin = next((h for h in done if h.pantheon_hash is None and _same_result(session, h, entry)), None)
    if twin is None and len(done) >= match.planned_hanchans:
        return f"В матче {match.id} уже внесено {len(done)} из {match.planned_hanchans} ханчанов: лишний ханчан"
    if twin is None:
        try:
            reason = IMPORTED_REASON.format(ended=_kirov(game.ended_at))
            twin = enter_hanchan(session, actor, saved(match.id), entry, now=now, reason=reason)
        except results.ResultsError as e:
            return str(e)
    _mark(twin, game, mapping)
    session.add(twin)
    row.match_id, row.hanchan_id, row.reason, row.status = match.id, twin.id, "", status
    session.add(row)
    session.flush()
    renumber(session, saved(match.id), actor, now=now)
    return None


def current_hanchan(session: Session, hanchan_id: int) -> Hanchan:
    """The row now standing for a hanchan: corrections (by hand or from Pantheon) are followed to the newest."""
    hanchan = session.get_one(Hanchan, hanchan_id)
    seen = set()
    while hanchan.superseded_by_id is not None and hanchan.id not in seen:
        seen.add(hanchan.id)
        hanchan = session.get_one(Hanchan, hanchan.superseded_by_id)
    return hanchan


def replace(
    session: Session, row: PantheonGame, game: TableGame, mapping: dict[int, int], actor: User, *, now: datetime
) -> str | None:
    """A placed game changed in Pantheon: correct its hanchan (the original stays, Регламент §6.2), or say why not."""
    assert row.match_id is not None and row.hanchan_id is not None  # a placed game: its match and hanchan
    unknown = unknown_players(game, mapping, {})
    seats = set(session.exec(select(Seat.player_id).where(Seat.match_id == row.match_id)).all())
    if unknown or {mapping[s.person_id] for s in game.seats} != seats:
        return f"{CHANGED_REASON}: игроки больше не совпадают с матчем {row.match_id}"
    old = current_hanchan(session, row.hanchan_id)
    entry = entry_for(game, mapping)
    if _same_result(session, old, entry):
        new = old
    else:
        try:
            new = results.correct_hanchan(
                session,
                actor,
                saved(old.id),
                entry,
                reason=CHANGED_REASON,
                decision=f"Импорт новой версии игры Pantheon {game.session_hash}",
                now=now,
            )
        except results.ResultsError as e:
            return f"{CHANGED_REASON}: {e}"
    _mark(new, game, mapping)
    session.add(new)
    row.hanchan_id = new.id
    session.flush()
    renumber(session, row.match_id, actor, now=now)
    return None


def renumber(session: Session, match_id: int, actor: User, *, now: datetime) -> None:
    """Number the match's hanchans by Pantheon's end time (an older game may be read after a newer one).

    Only when every hanchan standing in the match came from Pantheon: hand-entered numbers are left as they are.
    """
    rows = list(session.exec(select(Hanchan).where(Hanchan.match_id == match_id)).all())
    final = {saved(h.id): saved(current_hanchan(session, saved(h.id)).id) for h in rows}
    ended: dict[int, datetime] = {}
    for g in session.exec(
        select(PantheonGame).where(PantheonGame.match_id == match_id, col(PantheonGame.status).in_(PLACED))
    ).all():
        if g.hanchan_id is not None and g.ended_at is not None:
            ended[final[g.hanchan_id]] = g.ended_at
    standing = [h for h in rows if h.superseded_by_id is None]
    if not standing or any(h.id not in ended for h in standing):
        return
    order = sorted(standing, key=lambda h: (ended[saved(h.id)], h.number))
    moves = {h.id: n for n, h in enumerate(order, start=1) if h.number != n}
    if not moves:
        return
    before = {h.id: h.number for h in standing}
    moved = [h for h in rows if final[saved(h.id)] in moves]
    # Through negative numbers: a hanchan's (number, revision) is unique in its match at every statement.
    for sign in (-1, 1):
        for h in moved:
            h.number = sign * moves[final[saved(h.id)]]
            session.add(h)
        session.flush()
    record_audit(
        session,
        actor_user_id=actor.id,
        action="hanchan.renumber",
        entity="match",
        entity_id=match_id,
        before=before,
        after={h.id: h.number for h in standing},
        reason="Порядок ханчанов по времени окончания в Pantheon",
        now=now,
    )
