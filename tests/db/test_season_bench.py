"""The season bench (bench/season.py): its invariant checks catch what they are for, and a short run through the
services completes and runs every one of them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bench import season_checks as checks
from bench.season import CHECKS, run_season
from bench.season_sim import call

T0 = datetime(2026, 10, 20, 15, 0, tzinfo=UTC)


def meeting(booking_id: int, match_id: int | None, room: int, start_h: float, end_h: float, hanchans: int = 3):
    return checks.Meeting(
        booking_id, match_id, room, T0 + timedelta(hours=start_h), T0 + timedelta(hours=end_h), hanchans
    )


def test_double_booking_is_reported_and_touching_bookings_are_not() -> None:
    overlapping = [meeting(1, 10, 1, 0, 4.5), meeting(2, 11, 1, 4, 8)]
    assert len(checks.room_double_bookings(overlapping)) == 1
    assert checks.room_double_bookings([meeting(1, 10, 1, 0, 4.5), meeting(2, 11, 1, 4.5, 9)]) == []
    assert checks.room_double_bookings([meeting(1, 10, 1, 0, 4.5), meeting(2, 11, 2, 0, 4.5)]) == []


def test_two_tables_of_one_room_at_once_are_not_a_double_booking_one_table_twice_is() -> None:
    table = lambda m, n: checks.Meeting(m.booking_id, m.match_id, m.room_id, m.start, m.end, m.hanchans, n)  # noqa: E731
    a, b = meeting(1, 10, 1, 0, 4.5), meeting(2, 11, 1, 1, 5)
    assert checks.room_double_bookings([table(a, 1), table(b, 2)]) == []
    [clash] = checks.room_double_bookings([table(a, 2), table(b, 2)])
    assert "room 1 table 2 double-booked" in clash


def test_a_player_in_two_meetings_at_once_is_reported() -> None:
    seats = {10: [1, 2, 3, 4], 11: [4, 5, 6, 7]}
    clash = checks.player_clashes([meeting(1, 10, 1, 0, 4.5), meeting(2, 11, 2, 3, 6)], seats)
    assert clash and "player 4" in clash[0] and "two matches" in clash[0]
    twice = checks.player_clashes([meeting(1, 10, 1, 0, 3, 2), meeting(2, 10, 2, 0, 1.5, 1)], seats)
    assert len(twice) == 4 and "one match booked twice at once" in twice[0]
    assert checks.player_clashes([meeting(1, 10, 1, 0, 3), meeting(2, 11, 2, 0, 3)], {10: [1], 11: [2]}) == []


def test_over_hanchans_and_outside_window_are_reported() -> None:
    assert checks.over_hanchans([meeting(1, 10, 1, 0, 4.5, 3), meeting(2, 10, 2, 5, 6.5, 1)], {10: 3}, {}) != []
    assert checks.over_hanchans([], {10: 3}, {10: 4}) != []
    assert checks.over_hanchans([meeting(1, 10, 1, 0, 4.5, 3)], {10: 3}, {10: 3}) == []
    window = {10: (T0, T0 + timedelta(hours=4))}
    assert checks.outside_window([meeting(1, 10, 1, 0, 4.5)], window) != []
    assert checks.outside_window([meeting(1, 10, 1, 0, 4)], window) == []
    # a meeting held in the window the match later moved out of stays valid; one left there after the move opens
    # its new window does not, nor one in a window the match never had
    moved = {10: (T0 + timedelta(days=14), T0 + timedelta(days=28))}
    before = {10: [(T0, T0 + timedelta(days=14))]}
    assert checks.outside_window([meeting(1, 10, 1, 0, 1.5, 1)], moved, before) == []
    assert checks.outside_window([meeting(1, 10, 1, 0, 1.5, 1)], moved) != []
    assert checks.outside_window([meeting(1, 10, 1, 24 * 30, 24 * 30 + 1.5, 1)], moved, before) != []


def test_the_independent_sum_scores_and_catches_a_wrong_total() -> None:
    record = checks.HanchanRecord({1: 40_000, 2: 30_000, 3: 27_000, 4: 22_000}, {4: 1}, sticks=1)
    assert checks.hanchan_scores(record) == {1: 26_000, 2: 5_000, 3: -8_000, 4: -63_000}
    one_hanchan = checks.independent_totals({7: ([1, 2, 3, 4], {1: record}, [(2, -80_000)], 3)})
    assert one_hanchan == {1: 26_000, 2: -75_000, 3: -8_000, 4: -63_000}  # no match uma before three hanchans
    full = checks.independent_totals({7: ([1, 2, 3, 4], {1: record, 2: record, 3: record}, [], 3)})
    assert full == {1: 93_000, 2: 20_000, 3: -29_000, 4: -204_000}
    assert checks.standings_mismatch(full, full) == []
    assert checks.standings_mismatch({**full, 1: 0}, full) != []


def test_outbox_violations_report_undelivered_and_doubly_sent() -> None:
    ok = checks.outbox_violations(events=3, undelivered=0, delivered_by_passes=3, sent_ids=[1, 2], recorded_ids=[2, 1])
    assert ok == []
    assert checks.outbox_violations(events=3, undelivered=1, delivered_by_passes=2, sent_ids=[], recorded_ids=[])
    twice = checks.outbox_violations(events=3, undelivered=0, delivered_by_passes=4, sent_ids=[1], recorded_ids=[1])
    assert len(twice) == 1
    unrecorded = checks.outbox_violations(
        events=1, undelivered=0, delivered_by_passes=1, sent_ids=[1, 2], recorded_ids=[1]
    )
    assert unrecorded and "unrecorded: [2]" in unrecorded[0]


def test_a_card_that_differs_from_the_read_model_is_reported() -> None:
    truth = {1: "<b>Тур 1, стол 1</b>\nСостояние: <b>Сыгран</b>", 2: "<b>Тур 1, стол 2</b>"}
    assert checks.stale_cards(truth, dict(truth)) == []
    [stale] = checks.stale_cards(truth, {1: "<b>Тур 1, стол 1</b>\nСостояние: <b>Забронировано</b>", 2: truth[2]})
    assert stale.startswith("match 1:") and "Забронировано" in stale
    assert len(checks.stale_cards(truth, {1: truth[1]})) == 1  # a card never posted is not the read model either


def test_call_passes_the_clock_only_to_a_service_that_takes_it() -> None:
    def with_now(*, x: int, now: datetime) -> tuple[int, datetime]:
        return x, now

    def without(*, x: int) -> int:
        return x

    assert call(with_now, x=1, now=T0) == (1, T0)
    assert call(without, x=2, now=T0) == 2


def test_a_short_season_runs_through_the_services_and_checks_every_invariant() -> None:
    report = run_season(16, 1, seed=1, days=9)
    assert report.checked == list(CHECKS)
    assert report.matches == 16
    assert report.statements > 0 and report.sim.stats.delivered > 0  # the bot delivered the draw and the cards
    assert report.ceiling > 0 and report.days  # some fours answered and booked in the first nine days


def test_the_people_follow_a_blockers_hint_about_half_the_time_and_only_as_far_as_is_plausible() -> None:
    """Issue 23: the bench's people answer the hint as people would (bench/season_people.py `answer_hint`)."""
    from datetime import date

    from bench.season_people import Person, answer_hint
    from services.scheduling.intervals import Interval, at_kirov

    hanchan = timedelta(minutes=90)
    thursday = date(2026, 10, 29)  # weekday 3
    evening = Interval(at_kirov(thursday, 19), at_kirov(thursday, 22))
    hinted = [Interval(at_kirov(thursday, 19), at_kirov(thursday, 24))]  # the other three: until midnight
    early = at_kirov(thursday, 9)
    regular = Person(1, 1, busy=False, late=False, confirm_chance=0.8, week={3: (19.0, 22.0)})

    def follow(person: Person, key: str, spans: list[Interval] = hinted, hanchans: int = 3) -> Interval | None:
        return answer_hint(person, spans, [evening], hanchans=hanchans, earliest=early, key=key, hanchan=hanchan)

    taken = [follow(regular, str(n)) for n in range(200)]
    willing = [t for t in taken if t is not None]
    assert 60 <= len(willing) <= 140  # about half of the people asked are willing
    # staying an hour and a half after their usual evening: the whole match at once, touching their own time
    assert set(willing) == {Interval(at_kirov(thursday, 19), at_kirov(thursday, 23, 30))}
    assert [follow(regular, str(n)) for n in range(200)] == taken  # the same keys, the same answers: seeded
    # not on a day they are never free, however willing
    sunday = [Interval(at_kirov(date(2026, 11, 1), 12), at_kirov(date(2026, 11, 1), 19))]
    assert all(follow(regular, str(n), sunday) is None for n in range(50))
    # a busy person only stays one hanchan longer next to the time they gave: the rest of a match booked 19–22
    busy = Person(2, 2, busy=True, late=False, confirm_chance=0.8, week={3: (19.0, 22.0)})
    after = [Interval(at_kirov(thursday, 22), at_kirov(thursday, 24))]
    rest = Interval(at_kirov(thursday, 22), at_kirov(thursday, 23, 30))
    assert {follow(busy, str(n), after, hanchans=1) for n in range(50)} == {None, rest}
    assert all(follow(busy, str(n), sunday, hanchans=1) is None for n in range(50))
    # and not two hanchans more: a time that starts two hanchans away from their own is not followed
    far = [Interval(at_kirov(thursday, 13), at_kirov(thursday, 16))]
    assert all(follow(busy, str(n), far, hanchans=1) is None for n in range(50))


def test_the_capacity_ceiling_keeps_only_common_time_at_one_free_table_with_none_of_the_four_elsewhere() -> None:
    from bench.season_checks import table_free_time
    from services.scheduling.intervals import Interval

    common = [Interval(T0, T0 + timedelta(hours=3))]
    places = [(1, 1), (2, 1)]
    # both tables taken for the first 1.5 h: 1.5 h left at each table
    both = [meeting(1, 11, 1, 0, 1.5), meeting(2, 12, 2, 0, 1.5)]
    assert (
        table_free_time(common, both, places, []) == [Interval(T0 + timedelta(hours=1.5), T0 + timedelta(hours=3))] * 2
    )
    # one table free all along, but one of the four sits in another match's meeting for the last two hours
    left = table_free_time(common, both[:1], places, [Interval(T0 + timedelta(hours=1), T0 + timedelta(hours=3))])
    assert max(iv.duration for iv in left) == timedelta(hours=1)
    # table 1 free early and table 2 free late do not make one meeting: the spans stay per table
    split = [meeting(1, 11, 1, 1.5, 3), meeting(2, 12, 2, 0, 1.5)]
    assert max(iv.duration for iv in table_free_time(common, split, places, [])) == timedelta(hours=1.5)
    assert max(iv.duration for iv in table_free_time(common, split + [meeting(3, 13, 1, 0, 1)], places, [])) == (
        timedelta(hours=1.5)
    )


def test_the_hard_model_with_the_remote_runs_through_the_services_and_answers_from_the_chat() -> None:
    """Issue 43 item 5, issue 44 item 5: the harder club (declines, «Не смогу», activities, the desk) and linked
    people tapping the private messages' buttons (services/notifier/remote.py's press) break no invariant."""
    from bench.season_people import HARD

    report = run_season(16, 1, seed=1, days=9, model=HARD, remote=True)
    assert report.checked == list(CHECKS) and report.broken == []
    stats = report.sim.stats
    assert stats.by_players["answered from the chat"] > 0
    assert stats.organizer["activity entered"] > 0


def test_a_linked_person_taps_within_hours_and_a_message_at_night_waits_for_the_morning() -> None:
    from bench.season_people import Person, tap_delay
    from services.scheduling.intervals import at_kirov, to_kirov

    person = Person(1, 1, busy=False, late=False, confirm_chance=0.8)
    evening, night = at_kirov(datetime(2026, 10, 21).date(), 9), at_kirov(datetime(2026, 10, 21).date(), 23, 30)
    delays = [tap_delay(person, message, evening) for message in range(200)]
    taken = [d for d in delays if d is not None]
    assert 150 < len(taken) < 200  # about nine in ten answered from the chat, the rest left for the site
    assert sorted(taken)[len(taken) // 2] < timedelta(hours=3)  # the median within hours
    for message in range(50):
        delay = tap_delay(person, message, night)
        assert delay is None or 8 <= to_kirov(night + delay).hour < 23  # nobody taps between 23:00 and 08:00
