"""The desk after a withdrawal (Регламент §6.1): the withdrawn player's matches not yet played wait for a technical
substitute until one is seated; the registration-time multiple-of-four advice (§1) is gone once the draw is approved."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, col, select

from services.core.models import Player, RosterStatus, Round, Seat, User
from services.league.substitution import seat_substitute
from services.league.withdrawal import withdraw_player
from services.playoff.hanchan_entry import enter_hanchan
from services.results.disqualifications import record_disqualification
from services.results.entry import Entry
from services.results.scoring import TableResult
from services.results.view import match_view
from services.scheduling.intervals import kirov_date
from services.views.desk import build_desk
from tests.db.test_withdrawal import _approved, _matches_of
from tests.factories import PLAYED, begun_meeting


def test_a_withdrawn_players_remaining_matches_wait_for_a_substitute(session: Session) -> None:
    season, organizer = _approved(session)
    player = session.exec(select(Player).where(Player.season_id == season.id)).first()
    first, second, *rest = _matches_of(session, player)
    # The first match is played in part before the withdrawal: it stays out of the substitutes' list.
    seated = session.exec(select(Seat.player_id).where(Seat.match_id == first.id).order_by(col(Seat.seed))).all()
    start = session.get(Round, first.round_id).window_start
    entry = Entry(
        tuple(TableResult(pid, pts) for pid, pts in zip(seated, [40000, 30000, 30000, 20000], strict=True)), 0
    )
    begun_meeting(session, first.id, start)
    enter_hanchan(session, organizer, first.id, entry, now=start + timedelta(hours=1))
    withdraw_player(session, player, reason="переезд", actor_user_id=organizer.id, now=PLAYED)
    session.commit()

    desk = build_desk(session, now=PLAYED)
    keys = {item.key for item in desk.items}
    waiting = {k for k in keys if k.startswith("substitute-")}
    assert waiting == {f"substitute-{m.id}-{player.id}" for m in [second, *rest]}
    assert "roster-four" not in keys  # 15 in the main roster, but the draw is approved (Регламент §1)
    item = next(i for i in desk.items if i.key == f"substitute-{second.id}-{player.id}")
    assert item.group == "substitutes" and item.link == f"/match/{second.id}" and item.link_label == "Посадить замену"

    # The match page offers no points field for her: the result form waits for the substitute.
    name = session.get(User, player.user_id).display_name
    assert match_view(session, organizer, second.id, now=PLAYED).needs_substitute == name
    assert match_view(session, organizer, first.id, now=PLAYED).needs_substitute == ""  # played: the same four stay

    seat_substitute(session, organizer, second.id, player.id, new_name="Запасной Игрок", reason="переезд", now=PLAYED)
    session.commit()
    keys = {item.key for item in build_desk(session, now=PLAYED).items}
    assert f"substitute-{second.id}-{player.id}" not in keys
    assert {k for k in keys if k.startswith("substitute-")} == {f"substitute-{m.id}-{player.id}" for m in rest}
    view = match_view(session, organizer, second.id, now=PLAYED)
    assert view.needs_substitute == ""
    assert name not in [p["name"] for p in view.form_players] and "Запасной Игрок" in [
        p["name"] for p in view.form_players
    ]


def test_a_disqualified_player_still_seated_waits_for_a_substitute(session: Session) -> None:
    """Issue 28: a disqualification (Регламент §5) does not withdraw the player by itself; while they still sit at a
    match not yet played, the desk asks for a technical substitute, and once seated the item goes."""
    season, organizer = _approved(session)
    player = session.exec(select(Player).where(Player.season_id == season.id)).first()
    first, *rest = _matches_of(session, player)
    user = session.get(User, player.user_id)
    today = kirov_date(PLAYED)

    def waiting() -> set[str]:
        return {i.key for i in build_desk(session, now=PLAYED).items if i.key.startswith("substitute-")}

    record_disqualification(session, user, term="year", reason="саботаж", match_id=None, starts_on=today + timedelta(
        days=1), actor_user_id=organizer.id)  # fmt: skip
    session.commit()
    assert waiting() == set()  # not in force yet
    record_disqualification(session, user, term="year", reason="саботаж", match_id=None, starts_on=today,
                            actor_user_id=organizer.id)  # fmt: skip
    session.commit()
    assert session.get(Player, player.id).status != RosterStatus.WITHDRAWN
    assert waiting() == {f"substitute-{m.id}-{player.id}" for m in [first, *rest]}
    item = next(i for i in build_desk(session, now=PLAYED).items if i.key == f"substitute-{first.id}-{player.id}")
    assert item.group == "substitutes" and "дисквалифицирован(а)" in item.detail and item.link == f"/match/{first.id}"
    assert match_view(session, organizer, first.id, now=PLAYED).needs_substitute == user.display_name

    seat_substitute(session, organizer, first.id, player.id, new_name="Запасной Игрок", reason="дисквалификация",
                    now=PLAYED)  # fmt: skip
    session.commit()
    assert waiting() == {f"substitute-{m.id}-{player.id}" for m in rest}
    # A one-year disqualification ends the day before its anniversary: then nothing waits for it.
    later = PLAYED + timedelta(days=366)
    assert not {i.key for i in build_desk(session, now=later).items if i.key.startswith("substitute-")}
