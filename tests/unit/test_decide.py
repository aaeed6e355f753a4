"""The scheduling decisions without a database (services/scheduling/decide.py)."""

from __future__ import annotations

from datetime import date, timedelta

from services.scheduling import decide
from services.scheduling.intervals import Interval, at_kirov
from services.scheduling.rules import Option, fallback_text, if_needed_text, unblock_text


def k(day: int, hour: int = 0, minute: int = 0) -> object:
    return at_kirov(date(2026, 11, day), hour, minute)


WINDOW = Interval(k(16), k(30))
EVENING = Interval(k(20, 17), k(20, 23))
M = 90  # the planning length of a hanchan these cases are written for (a season's `Ruleset.hanchan_minutes`)


def test_remaining_hanchans_count_bookings_or_results_whichever_is_more() -> None:
    assert decide.remaining_hanchans(3, booked=0, recorded=0) == 3
    assert decide.remaining_hanchans(3, booked=2, recorded=2) == 1  # a split match: the third still needs time
    assert decide.remaining_hanchans(3, booked=0, recorded=3) == 0  # results entered without a booking
    assert decide.remaining_hanchans(3, booked=3, recorded=1) == 0
    assert decide.remaining_hanchans(5, booked=6, recorded=0) == 0  # never negative


def test_options_leave_out_any_time_one_of_the_four_sits_in_a_meeting() -> None:
    four = [[EVENING]] * 4
    rooms = {1: [], 2: []}
    [whole] = decide.need_options(WINDOW, four, rooms, [], now=None, hanchan_minutes=M)
    assert (whole.start, whole.end, whole.rooms) == (k(20, 17), k(20, 23), (1, 2))
    # one player's meeting (of this match or another, in any room) takes the time out of every room
    options = decide.need_options(WINDOW, four, rooms, [Interval(k(20, 18), k(20, 21))], now=None, hanchan_minutes=M)
    assert [(o.start, o.end) for o in options] == [(k(20, 21), k(20, 23))]


def test_options_that_have_begun_are_not_offered() -> None:
    four = [[EVENING]] * 4
    [late] = decide.need_options(WINDOW, four, {1: []}, [], now=k(20, 19, 10), hanchan_minutes=M)
    assert (late.start, late.end) == (k(20, 19, 30), k(20, 23))  # the next half hour of the grid
    assert decide.need_options(WINDOW, four, {1: []}, [], now=k(30), hanchan_minutes=M) == []  # the window is over
    assert decide.need_options(WINDOW, four, {}, [], now=None, hanchan_minutes=M) == []  # no room at all


def test_a_busy_player_is_named_and_a_free_room_is_found() -> None:
    meeting = Interval(k(29, 18), k(29, 22, 30))
    busy = {"Анна": [Interval(k(29, 20), k(29, 23))], "Борис": [], "Вера": [Interval(k(28, 18), k(28, 22))]}
    assert decide.busy_players(meeting, busy) == ["Анна"]
    assert "Анна уже играет" in decide.busy_refusal(meeting, busy)
    assert decide.busy_refusal(meeting, {"Борис": []}) is None
    assert decide.free_tables(meeting, {(1, 1): [Interval(k(29, 17), k(29, 19))], (2, 1): []}) == [(2, 1)]
    assert decide.free_tables(meeting, {(1, 1): [meeting], (2, 1): [meeting]}) == []


def test_a_confirmation_is_refused_once_the_time_has_begun_or_outside_ones_own_time() -> None:
    meeting = Interval(k(20, 18), k(20, 22, 30))
    assert decide.answer_refusal(meeting, now=k(19), own_free=[EVENING], confirmed=True) is None
    assert decide.answer_refusal(meeting, now=k(20, 18, 1), own_free=[EVENING], confirmed=True) == decide.BEGUN
    # the start itself may still be confirmed (as it may be proposed: `bookable_from`); a minute later it may not
    assert decide.answer_refusal(meeting, now=meeting.start, own_free=[EVENING], confirmed=True) is None
    assert "доступность" in decide.answer_refusal(meeting, now=k(19), own_free=[], confirmed=True)
    assert decide.answer_refusal(meeting, now=k(21), own_free=[], confirmed=False) is None  # a refusal always goes


def test_the_organizers_assignment_ends_the_proposals_it_leaves_no_room_for() -> None:
    thursday, friday = Interval(k(19, 18), k(19, 22, 30)), Interval(k(20, 18), k(20, 22, 30))
    kept = {"planned": 3, "moves_booking": False}
    assert "уже забронированы" in decide.assignment_ends(thursday, 3, assigned=friday, left=0, **kept)
    assert "осталось 1" in decide.assignment_ends(thursday, 2, assigned=Interval(k(20, 18), k(20, 19, 30)), left=1,
                                                   **kept)  # fmt: skip
    assert decide.assignment_ends(thursday, 1, assigned=Interval(k(20, 18), k(20, 21)), left=1, **kept) is None
    assert "в это же время" in decide.assignment_ends(thursday, 1, assigned=Interval(k(19, 19), k(19, 20, 30)),
                                                       left=1, **kept)  # fmt: skip
    # a proposal moving a meeting already booked needs no hanchans the assignment took
    assert decide.assignment_ends(thursday, 3, assigned=friday, left=0, planned=3, moves_booking=True) is None


def test_a_booking_is_refused_when_the_match_no_longer_needs_it() -> None:
    assert decide.booking_refusal(3, remaining=3, planned=3) is None
    assert "уже забронированы" in decide.booking_refusal(3, remaining=0, planned=3)
    assert "осталось 1" in decide.booking_refusal(2, remaining=1, planned=3)
    assert decide.fully_confirmed([1, 2, 3, 4], [1, 2, 3, 4])
    assert not decide.fully_confirmed([1, 2, 3, 9], [1, 2, 3, 4])  # a confirmation of a player no longer seated


def test_recorded_hanchans_fill_the_meetings_in_order() -> None:
    assert decide.played_meetings([(7, 2), (8, 1)], recorded=0) == set()
    assert decide.played_meetings([(7, 2), (8, 1)], recorded=2) == {7}
    assert decide.played_meetings([(7, 2), (8, 1)], recorded=3) == {7, 8}


def test_a_repaint_withdraws_what_it_no_longer_covers_and_reopens_one_proposal_per_need() -> None:
    first = decide.Confirmed(1, Interval(k(20, 18), k(20, 21)), None, booking_id=11)
    second = decide.Confirmed(2, Interval(k(21, 18), k(21, 19, 30)), None, booking_id=12)
    open_one = decide.Confirmed(3, Interval(k(22, 18), k(22, 19, 30)), None)
    kept = decide.repaint([EVENING], [first, second, open_one], open_needs=[], now=k(19))
    assert [c.proposal_id for c in kept.released] == [2] and [c.proposal_id for c in kept.withdrawn] == [3]
    assert kept.reopened == (2,) and kept.retired == ()
    # nothing painted: both bookings go; only one may collect confirmations again (one open proposal per need)
    gone = decide.repaint([], [first, second], open_needs=[], now=k(19))
    assert gone.reopened == (1,) and gone.retired == (2,)
    assert gone.released_starts == ["пт 20.11.2026 18:00", "сб 21.11.2026 18:00"]
    # the need already has an open proposal: the released one ends instead of crashing on the unique index
    taken = decide.repaint([], [first], open_needs=[None], now=k(19))
    assert taken.reopened == () and taken.retired == (1,)
    begun = decide.repaint([], [first], open_needs=[], now=k(20, 19))
    assert begun.retired == (1,)


def test_the_confirmed_room_is_kept_while_free_else_another_free_one() -> None:
    meeting = Interval(k(29, 18), k(29, 22, 30))
    free = {(1, 1): [], (2, 1): [], (3, 1): []}
    assert decide.free_tables(meeting, free, preferred=(2, 1))[0] == (2, 1)
    assert decide.free_tables(meeting, {**free, (2, 1): [meeting]}, preferred=(2, 1))[0] == (1, 1)
    assert decide.free_tables(meeting, {(1, 1): [meeting], (2, 1): [meeting]}, preferred=(2, 1)) == []


# --- «если нужно» and the one who blocks ----------------------------------------------------------------------


def test_options_needing_someones_if_needed_rank_after_the_fully_free_and_count_players_not_names() -> None:
    free_evening = Interval(k(20, 18), k(20, 21))
    maybe_late = Interval(k(20, 21), k(20, 23))
    fully = [[free_evening]] * 3 + [[free_evening]]
    loose = [[free_evening, maybe_late]] * 2 + [[free_evening]] + [[Interval(k(20, 18), k(20, 23))]]
    rooms = {1: []}
    strict_opts = decide.need_options(WINDOW, fully, rooms, [], now=None, hanchan_minutes=M)
    loose_opts = decide.need_options(WINDOW, loose, rooms, [], now=None, hanchan_minutes=M)
    # the third player painted nothing late: the loose options stay 18–21; with everyone's «если нужно» late too:
    loose[2] = [free_evening, maybe_late]
    loose_opts = decide.need_options(WINDOW, loose, rooms, [], now=None, hanchan_minutes=M)
    fully_free = [[free_evening], [free_evening], [free_evening], [Interval(k(20, 18), k(20, 23))]]
    ranked = decide.with_levels(strict_opts, loose_opts, fully_free)
    assert [(o.start, o.end, o.if_needed) for o in ranked] == [
        (k(20, 18), k(20, 21), 0),  # fully free first
        (k(20, 18), k(20, 23), 3),  # needs three players' «если нужно»: after, and says how many
    ]
    # an option equal to a fully free one is not repeated
    assert decide.with_levels(strict_opts, strict_opts, fully_free) == strict_opts


def test_with_levels_puts_fewer_if_needed_players_first() -> None:
    a = Interval(k(21, 12), k(21, 18))  # longer, but needs two
    b = Interval(k(22, 18), k(22, 21))  # shorter, needs one
    fully_free = [[b], [b], [b], []]
    fully_free[0] = [a, b]
    fully_free[1] = [a, b]
    loose = [Option(a, 4), Option(b, 2)]
    ranked = decide.with_levels([], loose, fully_free)
    assert [(o.interval, o.if_needed) for o in ranked] == [(b, 1), (a, 2)]


def test_the_one_who_blocks_is_shown_where_the_other_three_are_free() -> None:
    three = Interval(k(26, 19), k(26, 23))
    other = Interval(k(27, 18), k(27, 21))
    free = {1: [three, other], 2: [three, other], 3: [three, other], 4: [Interval(k(21, 10), k(21, 14))]}

    def options(availabilities: list[list[Interval]]) -> list:
        return decide.need_options(WINDOW, availabilities, {1: []}, [], now=None, hanchan_minutes=M)

    hints = decide.unblock_times([1, 2, 3, 4], free, options, WINDOW, hanchan_minutes=M)
    # only player 4 can unblock it alone: the other three share 26.11 19–23 and 27.11 18–21
    assert list(hints) == [4]
    assert [(o.start, o.end) for o in hints[4]] == [(k(26, 19), k(26, 23)), (k(27, 18), k(27, 21))]
    # a room taken then leaves nothing to hint at
    busy = {1: [Interval(k(26, 0), k(28, 0))]}
    assert (
        decide.unblock_times(
            [1, 2, 3, 4],
            free,
            lambda av: decide.need_options(WINDOW, av, busy, [], now=None, hanchan_minutes=M),
            WINDOW,
            hanchan_minutes=M,
        )
        == {}
    )


def test_at_most_three_unblock_times() -> None:
    days = [Interval(k(d, 19), k(d, 22)) for d in (21, 22, 23, 24, 25)]
    free = {1: days, 2: days, 3: days, 4: []}
    hints = decide.unblock_times(
        [1, 2, 3, 4],
        free,
        lambda av: decide.need_options(WINDOW, av, {1: []}, [], now=None, hanchan_minutes=M),
        WINDOW,
        hanchan_minutes=M,
    )
    assert len(hints[4]) == decide.MAX_UNBLOCK_TIMES == 3


def test_the_texts_of_if_needed_the_hint_and_the_fallback() -> None:
    assert if_needed_text(1) == "для 1 игрока — если нужно"
    assert if_needed_text(2) == "для 2 игроков — если нужно"
    spans = [Interval(k(26, 19), k(26, 23)), Interval(k(27, 21), k(28))]
    assert (
        unblock_text(spans) == "Если вы сможете в чт 26.11 19:00–23:00 или пт 27.11 21:00–24:00, у матча будет время."
    )
    assert unblock_text(spans[:1]) == "Если вы сможете в чт 26.11 19:00–23:00, у матча будет время."
    assert fallback_text(k(29, 18)) == "Если не договоритесь — вс 29.11 18:00 (Регламент §6.1)"


# --- issue 23: the hint when the four's time holds only part of the match ------------------------------------


def test_the_addition_a_hint_asks_for_touches_the_players_own_time() -> None:
    half = timedelta(minutes=30)
    meeting = timedelta(minutes=270)  # three hanchans
    span = Interval(k(26, 17), k(26, 24))
    own = [Interval(k(26, 19), k(26, 22))]
    # 17:00–21:30 or 19:00–23:30 add 1 h 30 min to 19–22; nothing else adds less
    assert decide.addition_needed(span, own, meeting, half) == timedelta(minutes=90)
    assert decide.addition_needed(span, [], meeting, half) == meeting
    assert decide.addition_needed(span, [span], meeting, half) == timedelta(0)


def test_when_the_options_hold_part_of_the_match_the_hint_offers_only_times_for_all_of_it() -> None:
    shared = Interval(k(26, 19), k(26, 22))  # the four: two hanchans
    three = [shared, Interval(k(26, 22), k(26, 24)), Interval(k(28, 12), k(28, 18)), Interval(k(27, 19), k(27, 22))]
    free = {1: three, 2: three, 3: three, 4: [shared]}

    def options(availabilities: list[list[Interval]]) -> list:
        return decide.need_options(WINDOW, availabilities, {1: []}, [], now=None, hanchan_minutes=M)

    hints = decide.unblock_times([1, 2, 3, 4], free, options, WINDOW, hanchan_minutes=M, need=3, at_least=3)
    assert list(hints) == [4]  # the other three share 26.11 19–24 and 28.11 12–18; player 4 alone limits it
    # staying until 23:30 on the evening they gave (1 h 30 min more) comes before a whole Saturday afternoon;
    # 27.11 19–22 holds two hanchans only: not offered, it would leave the match short again
    assert [(o.start, o.end) for o in hints[4]] == [(k(26, 19), k(27, 0)), (k(28, 12), k(28, 18))]
    # with no option at all (at_least=1) the shorter evening is offered too, after those that hold the match
    loose = decide.unblock_times([1, 2, 3, 4], {**free, 4: []}, options, WINDOW, hanchan_minutes=M, need=3)
    assert [(o.start, o.end) for o in loose[4]] == [
        (k(28, 12), k(28, 18)),
        (k(26, 19), k(27, 0)),
        (k(27, 19), k(27, 22)),
    ]


def test_the_hint_for_the_whole_match_says_so() -> None:
    spans = [Interval(k(26, 19), k(27, 0))]
    assert unblock_text(spans, whole=True) == (
        "Если вы сможете в чт 26.11 19:00–24:00, все оставшиеся ханчаны уместятся в одну встречу."
    )
    assert unblock_text(spans) == "Если вы сможете в чт 26.11 19:00–24:00, у матча будет время."


def test_when_no_option_holds_the_match_the_plan_holds_it_in_meetings_earliest_first() -> None:
    tue, wed = Interval(k(24, 19), k(24, 23)), Interval(k(25, 19), k(25, 22, 30))  # two hanchans each
    options = [Option(wed, 2), Option(tue, 2)]
    # proposing Wednesday's two first would let Tuesday pass: the plan starts with Tuesday
    assert decide.split_plan(options, 3, earliest=k(23, 12), hanchan_minutes=M) == [
        Interval(k(24, 19), k(24, 22)),
        Interval(k(25, 19), k(25, 20, 30)),
    ]
    # from Tuesday 21:00 on (a day ahead, say) Tuesday holds one: the rest fits Wednesday
    assert decide.split_plan(options, 3, earliest=k(24, 21), hanchan_minutes=M) == [
        Interval(k(24, 21), k(24, 22, 30)),
        Interval(k(25, 19), k(25, 22)),
    ]
    assert (
        decide.split_plan(options, 3, earliest=k(25, 12), hanchan_minutes=M) == []
    )  # Wednesday alone cannot hold three
    assert (
        decide.split_plan([Option(Interval(k(24, 17), k(24, 23)), 4), *options], 3, earliest=k(23), hanchan_minutes=M)
        == []
    )
    assert decide.split_plan(options, 0, earliest=k(23), hanchan_minutes=M) == []
    # an option that holds exactly the remaining three needs no plan (the common case: issue 41's mutant `>`)
    assert (
        decide.split_plan(
            [Option(Interval(k(24, 17), k(24, 21, 30)), 3), *options], 3, earliest=k(23), hanchan_minutes=M
        )
        == []
    )


def test_for_the_last_hanchan_the_hint_next_to_the_players_own_evening_comes_first() -> None:
    booked_evening = Interval(k(26, 19), k(26, 22))
    after, sunday = Interval(k(26, 22), k(27, 0)), Interval(k(29, 12), k(29, 19))
    assert decide.gap_to(after, [booked_evening]) == timedelta(0)
    assert decide.gap_to(sunday, [booked_evening]) > timedelta(days=2)
    assert decide.gap_to(sunday, []) == timedelta(days=1)
    free = {1: [after, sunday], 2: [after, sunday], 3: [after, sunday], 4: [booked_evening]}
    hints = decide.unblock_times(
        [1, 2, 3, 4],
        free,
        lambda av: decide.need_options(WINDOW, av, {1: []}, [], now=None, hanchan_minutes=M),
        WINDOW,
        hanchan_minutes=M,
        need=1,
    )
    # both need one hanchan (1 h 30 min) added; the longer Sunday comes after staying on past 22:00
    assert [(o.start, o.end) for o in hints[4]] == [(after.start, after.end), (sunday.start, sunday.end)]


def test_a_proposal_is_recalled_a_day_before_its_start_while_a_seated_player_has_not_answered() -> None:
    meeting, early = Interval(k(20, 19), k(20, 22)), k(17, 12)
    due = lambda now, answered=(1, 2), proposed_at=early: decide.proposal_reminder_due(  # noqa: E731
        meeting, proposed_at=proposed_at, now=now, answered=answered, seat_ids=(1, 2, 3, 4)
    )
    assert not due(k(19, 18))  # more than a day ahead
    assert due(k(19, 19)) and due(k(20, 18))
    assert not due(k(20, 19))  # begun: too late to ask
    assert not due(k(19, 20), answered=(1, 2, 3, 4, 9))  # all four answered (a former player's answer aside)
    assert due(k(19, 20), answered=(1, 2, 3, 9))
    assert not due(k(20, 12), proposed_at=k(20, 10))  # proposed within the day: its own message was just sent
    assert not due(k(19, 19), proposed_at=k(19, 19))  # proposed exactly a day before: the same


# --- issue 23: a time two players could make together -------------------------------------------------------


def test_when_no_one_alone_can_make_the_time_the_two_who_could_are_both_told_it_shared() -> None:
    """Players 1 and 2 share Thursday; 3 and 4 each gave another evening: neither alone unblocks the match, the
    two together do. Both are told the same times, marked shared; 1 and 2 are told nothing."""
    thursday, friday, saturday = Interval(k(26, 19), k(26, 23)), Interval(k(27, 19), k(27, 23)), k(28, 12)
    free = {
        1: [thursday],
        2: [thursday],
        3: [friday],
        4: [Interval(saturday, k(28, 16))],
    }

    def options(availabilities: list[list[Interval]]) -> list:
        return decide.need_options(WINDOW, availabilities, {1: []}, [], now=None, hanchan_minutes=M)

    assert decide.unblock_times([1, 2, 3, 4], free, options, WINDOW, hanchan_minutes=M, need=2) == {}
    hints = decide.pair_unblock_times([1, 2, 3, 4], free, options, WINDOW, hanchan_minutes=M, need=2)
    assert set(hints) == {3, 4}
    assert [(o.start, o.end, o.shared) for o in hints[3]] == [(k(26, 19), k(26, 23), True)]
    assert hints[3] == hints[4]
    # a player already told a time of their own (`asked`) is left out of every pair
    assert decide.pair_unblock_times([1, 2, 3, 4], free, options, WINDOW, hanchan_minutes=M, need=2, asked=[3]) == {}
    # the text says that one more player is asked too, never who
    assert unblock_text([o.interval for o in hints[3]], shared=True) == (
        "Если вы и ещё один игрок матча (ему подсказано то же время) сможете в чт 26.11 19:00–23:00, "
        "у матча будет время."
    )


def test_a_shared_hint_names_only_times_two_days_ahead() -> None:
    now = k(20, 12)
    assert decide.hint_from(now) == k(21, 12)
    assert decide.hint_from(now, shared=True) == k(22, 12)


def test_a_held_table_is_never_the_players_and_the_organizers_only_when_none_else_is_free() -> None:
    """Регламент §3 (issue 43): a live hold is a promise. The players' booking sits only where nobody holds; the
    organizer (§6.3) takes a held table only when no other is free, learning which proposals it would end."""
    meeting = Interval(k(20, 18), k(20, 22, 30))
    busy = {(1, 1): [], (1, 2): [], (1, 3): [Interval(k(20, 17), k(20, 19))]}  # table 3 booked
    held = {(1, 1): [7]}
    assert decide.seating(meeting, busy, held, preferred=(1, 1)) == [((1, 2), ())]
    assert decide.seating(meeting, busy, held, overrule=True) == [((1, 2), ())]  # a free table first: no overrule
    only_held = {(1, 1): [], (1, 3): busy[(1, 3)]}
    assert decide.seating(meeting, only_held, held) == []  # the players: refused, the hold stands
    assert decide.seating(meeting, only_held, {(1, 1): [7, 8]}, overrule=True) == [((1, 1), (7, 8))]


def test_a_hanchan_opens_with_the_meeting_that_holds_it() -> None:
    """Issue 45 item 2 (Регламент §6.2): results fill the meetings in order, so a split match's third hanchan opens
    with its second meeting; a hanchan no meeting holds is not open at all."""
    wednesday, friday = at_kirov(date(2026, 11, 18), 18), at_kirov(date(2026, 11, 20), 18)
    meetings = [(wednesday, 2), (friday, 1)]
    assert [decide.hanchan_meeting(meetings, n) for n in (1, 2, 3, 4)] == [wednesday, wednesday, friday, None]
    before = "Результаты откроются с началом встречи: ср 18.11.2026 18:00."
    assert decide.entry_refusal(meetings, 1, now=wednesday - timedelta(minutes=1)) == before
    assert decide.entry_refusal(meetings, 2, now=wednesday) is None
    assert decide.entry_refusal(meetings, 3, now=wednesday + timedelta(hours=4)) == before.replace(
        "ср 18.11.2026", "пт 20.11.2026"
    )
    assert decide.entry_refusal(meetings, 3, now=friday) is None
    assert decide.entry_refusal([], 1, now=friday) == decide.NO_MEETING
