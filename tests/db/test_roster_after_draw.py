"""A player registered after the draw joins the reserve and is not ranked without a match (Регламент §1, §2)."""

from __future__ import annotations

from sqlmodel import Session

from services.core.models import RosterStatus, utc_now
from services.league.roster import add_player
from services.results.repo import db_standings
from services.views.desk import build_desk
from tests import factories as f
from tests.factories import NOW


def test_a_player_added_after_the_draw_goes_to_the_reserve(session: Session) -> None:
    league = f.league(session, players=4)
    before, _ = add_player(session, league.season, "Ранний Игрок", actor_user_id=league.organizer.id, password="x" * 12)
    assert before.status == RosterStatus.MAIN  # before the draw the main roster is still being completed
    league.season.draw_approved_at = utc_now()
    session.add(league.season)
    after, _ = add_player(session, league.season, "Поздний Игрок", actor_user_id=league.organizer.id, password="y" * 12)
    assert after.status == RosterStatus.RESERVE
    explicit, _ = add_player(session, league.season, "Основной Игрок", status=RosterStatus.MAIN,
                             actor_user_id=league.organizer.id, password="z" * 12)  # fmt: skip
    assert explicit.status == RosterStatus.MAIN
    session.commit()
    keys = {item.key for item in build_desk(session, now=NOW).items}
    # Six in the main roster, two of them without a match: both are warnings on the desk. The multiple-of-four
    # advice is a registration-time rule (Регламент §1): not shown once the draw is approved.
    assert {f"roster-unseated-{before.id}", f"roster-unseated-{explicit.id}"} <= keys
    assert "roster-four" not in keys


def test_a_main_player_without_matches_is_not_ranked(session: Session) -> None:
    league = f.league(session, players=5)  # the fifth is main but has no match
    names = [row.name for row in db_standings(session, league.season.id)]
    assert len(names) == 4 and league.users[4].display_name not in names
