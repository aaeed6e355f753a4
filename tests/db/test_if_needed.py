"""«Могу, если нужно», the one who blocks told, the fallback date known in advance and the current tour first on the
home page — through the services, on SQLite and PostgreSQL (issue 27, items 3, 4, 5, 7)."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from sqlmodel import Session

from services.core.db import session_scope
from services.notifier.cards import card_text, unblock_private_text
from services.notifier.snapshot import match_snapshot
from services.scheduling import availability, booking
from services.scheduling.intervals import Interval
from services.scheduling.rules import NO_COMMON_TIME
from services.scheduling.view import match_page
from services.views.todo import home_cards
from tests import factories as f
from tests.db.test_scheduling_cases import (
    act,
    active,
    booked_by_players,
    home_of,
    page_of,
    paint,
    played,
    proposed,
    scene,
    snapshot_of,
)

SLOT = 71  # game windows of their own (see test_scheduling_cases.scene)


def test_if_needed_time_makes_an_option_after_the_fully_free_one_unless_only_it_holds_the_match(db: sa.Engine) -> None:
    sc = scene(db, SLOT)
    now = sc.at(1, 12)  # inside the window
    for n in (0, 1, 2):
        paint(db, sc, n, sc.evening(3), now=now)  # 17–23
    paint(db, sc, 3, Interval(sc.at(3, 17), sc.at(3, 20)), now=now, if_needed=[Interval(sc.at(3, 20), sc.at(3, 23))])
    options = page_of(db, sc, 0, now=now).options
    assert [(o["text"].split(" ", 2)[2], o["level"]) for o in options] == [
        # Регламент §2: the one that holds all three hanchans first, though it needs someone's «если нужно»
        # (issue 45 item 9: the first option taken booked 2 of 3); then the fully free one
        ("17:00–23:00", "для 1 игрока — если нужно"),
        ("17:00–20:00", ""),
    ]
    # the Telegram card says so too, as a count
    assert "17:00–23:00 (хватит на 4 ханчана, для 1 игрока — если нужно)" in card_text(
        snapshot_of(db, sc.league.match.id)
    )
    # nothing in another player's page says whose «если нужно» it is, and their grids are their own
    for n in (0, 1, 2):
        page = page_of(db, sc, n, now=now)
        assert "2" not in {c for row in page.cells for c in row}
        assert page.everyone == []
    own = page_of(db, sc, 3, now=now)
    evening = own.cells[3]
    assert evening[34:40] == ["1"] * 6 and evening[40:46] == ["2"] * 6 and evening[46] == "0"
    # the organizer alone reads it, marked
    with Session(db, expire_on_commit=False) as session:
        everyone = dict(match_page(session, match_id=sc.league.match.id, user=sc.league.organizer, now=now).everyone)
    first, second = everyone[sc.user(3).display_name].split("; ")
    assert "если нужно" not in first and second.endswith("20:00–23:00 (если нужно)")
    # a meeting running into the «если нужно» hours is proposed and confirmed by all four: booked
    booked_by_players(db, sc, [0, 1, 2, 3], sc.at(3, 17), 3)
    [booking] = active(db, sc.league.match.id)
    assert (booking.start_at, booking.end_at) == (sc.at(3, 17), sc.at(3, 21, 30))


def test_repainting_if_needed_as_free_and_back_keeps_the_levels_apart(db: sa.Engine) -> None:
    sc = scene(db, SLOT + 1)
    now = sc.at(1, 12)
    span = sc.evening(4)
    paint(db, sc, 0, span, now=now, if_needed=[span])  # both at once: the time is free
    assert set(page_of(db, sc, 0, now=now).cells[4][34:46]) == {"1"}
    paint(db, sc, 0, now=now, if_needed=[span])
    assert set(page_of(db, sc, 0, now=now).cells[4][34:46]) == {"2"}
    for n in (1, 2, 3):
        paint(db, sc, n, span, now=now)
    [only] = page_of(db, sc, 1, now=now).options
    assert only["level"] == "для 1 игрока — если нужно"


def test_the_one_who_blocks_alone_is_told_when_the_other_three_are_free(db: sa.Engine) -> None:
    sc = scene(db, SLOT + 2)
    now = sc.at(1, 12)
    for n in (0, 1, 2):
        paint(db, sc, n, Interval(sc.at(3, 19), sc.at(3, 23)), sc.evening(5), now=now)
    paint(db, sc, 3, Interval(sc.at(6, 10), sc.at(6, 14)), now=now)
    day3, day5 = (sc.start + timedelta(days=3)), (sc.start + timedelta(days=5))
    wd = ("пн", "вт", "ср", "чт", "пт", "сб", "вс")
    hint = (
        f"Если вы сможете в {wd[day5.weekday()]} {day5:%d.%m} 17:00–23:00 или "
        f"{wd[day3.weekday()]} {day3:%d.%m} 19:00–23:00, у матча будет время."
    )
    assert page_of(db, sc, 3, now=now).unblock == hint
    assert home_of(db, sc.user(3), sc.league.match.id, now).action == hint
    for n in (0, 1, 2):
        assert page_of(db, sc, n, now=now).unblock == ""
        card = home_of(db, sc.user(n), sc.league.match.id, now)
        assert card.state == "общего времени нет" and "Если вы сможете" not in card.action
    snap = snapshot_of(db, sc.league.match.id)
    assert snap.state == NO_COMMON_TIME and "Если вы сможете" not in card_text(snap)
    # once the fourth paints one of those evenings, it is an option and nobody gets a hint
    paint(db, sc, 3, sc.evening(5), now=now)
    assert page_of(db, sc, 3, now=now).unblock == "" and page_of(db, sc, 3, now=now).options


def test_when_no_one_alone_can_unblock_the_two_who_could_together_are_told_the_same_time(db: sa.Engine) -> None:
    """Issue 23: 0 and 1 share an evening, 2 and 3 each gave another: neither of them alone makes the time, the
    two together would. Each of the two sees on their page, their home card and in their private message that
    one more player is asked for the same time (never who); 0 and 1 see nothing of it, nor the group's card."""
    sc = scene(db, SLOT + 3)
    now = sc.at(1, 12)
    paint(db, sc, 0, sc.evening(3), now=now)
    paint(db, sc, 1, sc.evening(3), now=now)
    paint(db, sc, 2, sc.evening(4), now=now)
    paint(db, sc, 3, sc.evening(5), now=now)
    day3 = sc.start + timedelta(days=3)
    wd = ("пн", "вт", "ср", "чт", "пт", "сб", "вс")
    hint = (
        "Если вы и ещё один игрок матча (ему подсказано то же время) сможете в "
        f"{wd[day3.weekday()]} {day3:%d.%m} 17:00–23:00, у матча будет время."
    )
    for n in (2, 3):
        assert page_of(db, sc, n, now=now).unblock == hint
        assert home_of(db, sc.user(n), sc.league.match.id, now).action == hint
    for n in (0, 1):
        assert page_of(db, sc, n, now=now).unblock == ""
        assert "Если вы" not in home_of(db, sc.user(n), sc.league.match.id, now).action
    snap = snapshot_of(db, sc.league.match.id)
    assert set(snap.unblock) == {sc.league.players[2].id, sc.league.players[3].id}
    assert "Если вы" not in card_text(snap)
    private = unblock_private_text(snap, sc.league.players[2].id)
    assert private is not None and hint in private
    assert unblock_private_text(snap, sc.league.players[0].id) is None
    # once one of the two adds the evening, the other is the one who blocks alone and is told as usual
    paint(db, sc, 2, sc.evening(3), sc.evening(4), now=now)
    assert page_of(db, sc, 3, now=now).unblock == (
        f"Если вы сможете в {wd[day3.weekday()]} {day3:%d.%m} 17:00–23:00, у матча будет время."
    )
    assert page_of(db, sc, 2, now=now).unblock == ""


def test_the_fallback_date_is_on_the_page_and_the_home_card_from_the_windows_opening(db: sa.Engine) -> None:
    sc = scene(db, SLOT + 4)
    sunday = sc.start + timedelta(days=13)
    text = f"Если не договоритесь — вс {sunday:%d.%m} 18:00 (Регламент §6.1)"
    before = sc.at(0) - timedelta(hours=1)
    assert page_of(db, sc, 0, now=before).fallback == ""
    assert home_of(db, sc.user(0), sc.league.match.id, before).fallback == ""
    inside = sc.at(2, 12)
    assert page_of(db, sc, 0, now=inside).fallback == text
    assert home_of(db, sc.user(0), sc.league.match.id, inside).fallback == text
    snap_text = card_text(snapshot_of_at(db, sc.league.match.id, inside))
    assert text in snap_text
    after = sc.at(13, 18, 30)  # the fallback has begun: no longer announced
    assert page_of(db, sc, 0, now=after).fallback == ""
    # a booked match has nothing to fall back on
    for n in range(4):
        paint(db, sc, n, sc.evening(3), now=inside)
    booked_by_players(db, sc, [0, 1, 2, 3], sc.at(3, 17), 3)
    assert page_of(db, sc, 0, now=inside).fallback == ""


def test_home_shows_the_current_tour_first_and_folds_later_tours_asking_nothing(db: sa.Engine) -> None:
    sc = scene(db, SLOT + 5)
    with session_scope(db) as session:
        players = [session.merge(p) for p in sc.league.players[:4]]
        later_id = f.match(session, session.merge(sc.league.rounds[1]), players, table="1").id
    now = sc.at(2, 12)

    def cards(at):  # noqa: ANN001, ANN202
        with Session(db, expire_on_commit=False) as session:
            return [c for c in home_cards(session, session.merge(sc.user(0)), at) if c.match_id in
                    (sc.league.match.id, later_id)]  # fmt: skip

    first, second = cards(now)
    assert (first.match_id, first.later, first.mine) == (sc.league.match.id, False, True)
    opens = sc.start + timedelta(days=14)
    assert (second.match_id, second.later, second.mine) == (later_id, True, False)
    assert second.action == f"ждёт своего игрового окна (откроется {opens:%d.%m})" and second.fallback == ""
    # before the season's first window opens, tour 1 is the current one: it asks, tour 2 waits
    early = cards(sc.at(0) - timedelta(days=2))
    assert [c.later for c in early] == [False, True]
    # once tour 2's window opens it asks too
    assert [c.later for c in cards(sc.at(15, 12))] == [False, False]
    # Issue 43 item 7: tour 1's match played early does not make tour 2 «your move» while tour 1's window is open
    played(db, sc, 3, sc.at(3, 20))
    waiting, done = cards(sc.at(4, 12))  # the played one folds below
    assert (done.past, waiting.later, waiting.mine) == (True, True, False)
    assert waiting.action == f"ждёт своего игрового окна (откроется {opens:%d.%m})"


def snapshot_of_at(db: sa.Engine, match_id: int, now):  # noqa: ANN001, ANN201
    with Session(db, expire_on_commit=False) as session:
        return match_snapshot(session, match_id, now=now)


def test_copying_the_previous_tour_keeps_the_if_needed_part_apart(db: sa.Engine) -> None:
    sc = scene(db, SLOT + 6)
    with session_scope(db) as session:
        players = [session.merge(p) for p in sc.league.players[:4]]
        second_id = f.match(session, session.merge(sc.league.rounds[1]), players, table="1").id
    late = Interval(sc.at(3, 21), sc.at(3, 23))
    paint(db, sc, 0, Interval(sc.at(3, 18), sc.at(3, 21)), now=sc.at(1, 12), if_needed=[late])
    kwargs = {"match_id": second_id, "user_id": sc.user(0).id}
    with Session(db, expire_on_commit=False) as session:
        _, everything = availability.previous_tour_availability(session, **kwargs)
        _, maybe = availability.previous_tour_availability(session, **kwargs, if_needed_only=True)
    two_weeks = timedelta(weeks=2)
    assert everything == [Interval(sc.at(3, 18) + two_weeks, sc.at(3, 23) + two_weeks)]
    assert maybe == [Interval(late.start + two_weeks, late.end + two_weeks)]


def test_when_the_four_share_time_for_part_of_the_match_its_blocker_is_told_the_times_for_all_of_it(
    db: sa.Engine,
) -> None:
    """Issue 23: the four share an evening holding two of the three hanchans; the one whose time cuts it short is
    told, privately, the times at which the other three could play the whole match in one meeting."""
    sc = scene(db, SLOT + 10)
    now = sc.at(1, 12)
    late = Interval(sc.at(3, 19), sc.at(4, 0))
    for n in (0, 1, 2):
        paint(db, sc, n, late, sc.evening(5), now=now)
    paint(db, sc, 3, Interval(sc.at(3, 19), sc.at(3, 22)), now=now)
    [option] = page_of(db, sc, 0, now=now).options
    assert option["fit"] == "помещается 2 ханчана"
    day3, day5 = (sc.start + timedelta(days=3)), (sc.start + timedelta(days=5))
    wd = ("пн", "вт", "ср", "чт", "пт", "сб", "вс")
    # staying on the evening they gave comes first (an hour and a half more), then another day
    hint = (
        f"Если вы сможете в {wd[day3.weekday()]} {day3:%d.%m} 19:00–24:00 или "
        f"{wd[day5.weekday()]} {day5:%d.%m} 17:00–23:00, все оставшиеся ханчаны уместятся в одну встречу."
    )
    assert page_of(db, sc, 3, now=now).unblock == hint
    for n in (0, 1, 2):
        assert page_of(db, sc, n, now=now).unblock == ""
    snap = snapshot_of(db, sc.league.match.id)
    assert set(snap.unblock) == {sc.league.players[3].id}
    assert "Если вы сможете" not in card_text(snap)  # never in the group's card
    private = unblock_private_text(snap, sc.league.players[3].id)
    assert private is not None and "хватает только на часть матча" in private and hint in private
    # the one who blocked stays until 23:30: the whole match fits, and nobody is hinted any more
    paint(db, sc, 3, Interval(sc.at(3, 19), sc.at(3, 23, 30)), now=now)
    page = page_of(db, sc, 3, now=now)
    assert page.unblock == "" and page.options[0]["fit"] == "помещается 3 ханчана"
    assert snapshot_of(db, sc.league.match.id).unblock == {}


def test_when_no_option_holds_the_match_the_page_names_the_meetings_that_would_earliest_first(db: sa.Engine) -> None:
    """Issue 23 (Регламент §2): two evenings of two hanchans each; the page suggests the earlier one first."""
    sc = scene(db, SLOT + 11)
    now = sc.at(1, 12)
    first, second = Interval(sc.at(3, 19), sc.at(3, 23)), Interval(sc.at(4, 19), sc.at(4, 22, 30))
    for n in range(4):
        paint(db, sc, n, first, second, now=now)
    day3, day4 = (sc.start + timedelta(days=3)), (sc.start + timedelta(days=4))
    wd = ("пн", "вт", "ср", "чт", "пт", "сб", "вс")
    assert page_of(db, sc, 0, now=now).plan == (
        f"В одну встречу оставшиеся ханчаны не помещаются: предложите сначала {wd[day3.weekday()]} {day3:%d.%m} "
        f"19:00–22:00 — остальные поместятся в {wd[day4.weekday()]} {day4:%d.%m} 19:00–20:30."
    )
    booked_by_players(db, sc, [0, 1, 2, 3], sc.at(3, 19), 2)
    # the rest, one hanchan, fits the second evening: an option holds it, no plan needed
    page = page_of(db, sc, 0, now=now)
    assert page.plan == "" and page.remaining == 1 and page.options


def test_the_hint_skips_times_within_a_day_the_other_three_could_not_confirm_in_time(db: sa.Engine) -> None:
    """Issue 23: a hinted time starts at least a day ahead (`decide.HINT_LEAD`); tonight's evening is left out, so
    the hint names only the times the four can still agree on."""
    sc = scene(db, SLOT + 9)
    early = sc.at(1, 12)
    for n in (0, 1, 2):
        paint(db, sc, n, Interval(sc.at(3, 19), sc.at(3, 23)), sc.evening(5), now=early)
    paint(db, sc, 3, Interval(sc.at(6, 10), sc.at(6, 14)), now=early)
    day3, day5 = (sc.start + timedelta(days=3)), (sc.start + timedelta(days=5))
    wd = ("пн", "вт", "ср", "чт", "пт", "сб", "вс")
    both = (
        f"Если вы сможете в {wd[day5.weekday()]} {day5:%d.%m} 17:00–23:00 или "
        f"{wd[day3.weekday()]} {day3:%d.%m} 19:00–23:00, у матча будет время."
    )
    assert page_of(db, sc, 3, now=early).unblock == both
    # on that day's morning its evening starts within a day: only the later evening is hinted
    morning = sc.at(3, 9)
    only_later = f"Если вы сможете в {wd[day5.weekday()]} {day5:%d.%m} 17:00–23:00, у матча будет время."
    assert page_of(db, sc, 3, now=morning).unblock == only_later
    assert home_of(db, sc.user(3), sc.league.match.id, morning).action == only_later


def test_the_blocker_is_not_hinted_the_very_day_they_declined_and_struck_out(db: sa.Engine) -> None:
    """Issue 43 item 7: a player declines the proposal for an evening and takes that evening out of their time; the
    others are still free then, but the hint names only another day, never the one just turned down."""
    sc = scene(db, SLOT + 12)
    now = sc.at(1, 12)
    for n in range(4):
        paint(db, sc, n, sc.evening(3), sc.evening(5), now=now)
    p = proposed(db, sc, sc.at(3, 17), sc.at(3, 21, 30), 3)
    act(db, booking.answer_meeting, confirmed=False, proposal_id=p.id, user_id=sc.user(3).id, now=now)
    paint(db, sc, 3, Interval(sc.at(6, 10), sc.at(6, 14)), now=now)
    day5 = sc.start + timedelta(days=5)
    wd = ("пн", "вт", "ср", "чт", "пт", "сб", "вс")
    hint = f"Если вы сможете в {wd[day5.weekday()]} {day5:%d.%m} 17:00–23:00, у матча будет время."
    assert page_of(db, sc, 3, now=now).unblock == hint
    assert home_of(db, sc.user(3), sc.league.match.id, now).action == hint
