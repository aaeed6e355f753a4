"""Common options, proposal validation, the §6.1 fallback slot and the organizer's scheduling state."""

from datetime import date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.scheduling.decide import free_tables
from services.scheduling.intervals import Interval, at_kirov, intersect_all
from services.scheduling.rules import (
    STATE_LABELS,
    Option,
    binding_fallback,
    common_options_multi,
    fallback_meeting,
    fallback_slot,
    format_duration,
    format_kirov,
    hanchans_word,
    meeting_end,
    scheduling_state,
    validate_proposal,
)


def k(day: int, hour: int = 0, minute: int = 0, month: int = 10) -> datetime:
    return at_kirov(date(2026, month, day), hour, minute)


def iv(day: int, h1: int, m1: int, h2: int, m2: int) -> Interval:
    return Interval(k(day, h1, m1), k(day, h2, m2))


WINDOW = Interval(k(19), k(26))  # Mon 19.10 00:00 – Mon 26.10 00:00 Kirov
PLAYERS = [
    [iv(19, 18, 0, 23, 0), iv(21, 10, 0, 16, 0), iv(24, 12, 0, 22, 0)],
    [iv(19, 19, 0, 22, 0), iv(21, 12, 0, 18, 0), iv(24, 10, 0, 20, 0)],
    [iv(19, 18, 30, 21, 30), iv(21, 9, 0, 15, 0), iv(24, 11, 0, 17, 0), iv(24, 17, 30, 23, 0)],
    [iv(19, 17, 0, 22, 0), iv(21, 11, 0, 14, 30), iv(24, 9, 0, 23, 0), iv(27, 10, 0, 20, 0)],
]
DND = iv(24, 15, 30, 16, 30)
MINUTES = 90  # the planning length these cases are written for (a season's `Ruleset.hanchan_minutes`)


def one_room(window: Interval, players: list, busy: list[Interval], **lengths: int | None) -> list[Option]:
    """The options with the club's one room (the room's bookings `busy`), as the scheduling asks for several."""
    return common_options_multi(window, players, {1: busy}, **({"hanchan_minutes": MINUTES} | lengths))


def spans(options: list[Option]) -> list[tuple[Interval, int]]:
    return [(o.interval, o.hanchans_fit) for o in options]


# --- common options --------------------------------------------------------------------------


def test_four_fragmented_players_no_bookings():
    assert spans(one_room(WINDOW, PLAYERS, [])) == [
        (iv(24, 12, 0, 17, 0), 3),  # 5 h
        (iv(19, 19, 0, 21, 30), 1),  # 2.5 h ties broken by earlier start
        (iv(21, 12, 0, 14, 30), 1),
        (iv(24, 17, 30, 20, 0), 1),
    ]


def test_room_busy_removes_part_of_an_option_and_short_leftovers_drop():
    got = spans(one_room(WINDOW, PLAYERS, [DND, iv(22, 10, 0, 23, 0)]))
    # 24.10 12:00–17:00 minus D&D 15:30–16:30 → 12:00–15:30 (2 hanchans) and 16:30–17:00 (dropped).
    assert got == [
        (iv(24, 12, 0, 15, 30), 2),
        (iv(19, 19, 0, 21, 30), 1),
        (iv(21, 12, 0, 14, 30), 1),
        (iv(24, 17, 30, 20, 0), 1),
    ]


def test_availability_outside_the_window_is_ignored():
    # Player 4 is free on the 27th, after the window: nothing there may become an option.
    assert all(WINDOW.contains(o.interval) for o in one_room(WINDOW, PLAYERS, []))
    late = [[iv(25, 20, 0, 23, 0)], [Interval(k(25, 20), k(27, 3))]] * 2
    assert spans(one_room(WINDOW, late, [])) == [(iv(25, 20, 0, 23, 0), 2)]


def test_a_player_without_answer_means_no_options():
    assert one_room(WINDOW, [*PLAYERS[:3], []], []) == []
    assert one_room(WINDOW, [], []) == []


def test_options_snap_inward_to_half_hours_when_a_booking_is_off_grid():
    got = one_room(WINDOW, PLAYERS, [iv(19, 18, 0, 19, 15)])
    assert got[3].interval == iv(19, 19, 30, 21, 30)  # now 2 h: last in the order
    raw = one_room(WINDOW, PLAYERS, [iv(19, 18, 0, 19, 15)], grid_minutes=None)
    assert raw[3].interval == iv(19, 19, 15, 21, 30)


def test_hanchan_length_and_minimum():
    assert [o.hanchans_fit for o in one_room(WINDOW, PLAYERS, [], hanchan_minutes=60)] == [5, 2, 2, 2]
    assert spans(one_room(WINDOW, PLAYERS, [], min_hanchans=3)) == [(iv(24, 12, 0, 17, 0), 3)]
    with pytest.raises(ValueError):
        one_room(WINDOW, PLAYERS, [], min_hanchans=0)


def test_bookings_far_outside_window_do_not_matter():
    calendar = [iv(d, 12, 0, 22, 0) for d in (5, 6, 27, 28)]
    assert one_room(WINDOW, PLAYERS, calendar) == one_room(WINDOW, PLAYERS, [])


def test_several_rooms_per_room_options_grouped_and_dominated_dropped():
    got = common_options_multi(WINDOW, PLAYERS, {2: [], 1: [DND]}, hanchan_minutes=MINUTES)
    assert [(o.interval, o.hanchans_fit, o.rooms) for o in got] == [
        (iv(24, 12, 0, 17, 0), 3, (2,)),  # room 1's 12:00–15:30 lies inside it and is dropped
        (iv(19, 19, 0, 21, 30), 1, (1, 2)),
        (iv(21, 12, 0, 14, 30), 1, (1, 2)),
        (iv(24, 17, 30, 20, 0), 1, (1, 2)),
    ]


def test_several_rooms_never_join_intervals_across_rooms():
    players = [[iv(24, 10, 0, 22, 0)]] * 4
    got = common_options_multi(
        WINDOW, players, {1: [iv(24, 15, 0, 22, 0)], 2: [iv(24, 10, 0, 13, 0)]}, hanchan_minutes=MINUTES
    )
    assert [(o.interval, o.rooms) for o in got] == [(iv(24, 13, 0, 22, 0), (2,)), (iv(24, 10, 0, 15, 0), (1,))]
    assert common_options_multi(WINDOW, players, {}, hanchan_minutes=MINUTES) == []


def test_free_rooms():
    busy = {(1, 1): [DND], (2, 1): [iv(24, 17, 0, 18, 0)], (3, 1): []}
    assert free_tables(iv(24, 16, 30, 17, 0), busy) == [(1, 1), (2, 1), (3, 1)]  # touching bookings do not clash
    assert free_tables(iv(24, 16, 0, 17, 30), busy) == [(3, 1)]


SLOT = timedelta(minutes=30)
grid_spans = st.lists(st.tuples(st.integers(0, 95), st.integers(1, 12)), max_size=6)


def slot_iv(first: int, count: int) -> Interval:
    return Interval(k(24) + first * SLOT, k(24) + (first + count) * SLOT)


@settings(max_examples=150, deadline=None)
@given(st.lists(grid_spans, min_size=4, max_size=4), grid_spans)
def test_common_options_match_a_slot_by_slot_model(players, busy):
    """Two Kirov days of half-hour slots: options = maximal runs where all four and the room are free."""
    window = Interval(k(24), k(26))
    avail = [[slot_iv(a, n) for a, n in p] for p in players]
    taken = [slot_iv(a, n) for a, n in busy]

    def free(slot: int) -> bool:
        cell = slot_iv(slot, 1)
        return all(any(x.contains(cell) for x in p) for p in avail) and not any(b.overlaps(cell) for b in taken)

    runs, slot = [], 0
    while slot < 96:
        if free(slot):
            first = slot
            while slot < 96 and free(slot):
                slot += 1
            if slot - first >= 3:  # one 90-minute hanchan
                runs.append((slot_iv(first, slot - first), (slot - first) // 3))
        slot += 1
    runs.sort(key=lambda r: (-r[0].duration, r[0].start))
    assert spans(one_room(window, avail, taken)) == runs


# --- proposals --------------------------------------------------------------------------------

OPTIONS = [o.interval for o in one_room(WINDOW, PLAYERS, [DND])]


def check(start, end, hanchans=1, **kw):
    args = dict(
        window=WINDOW, option_intervals=OPTIONS, hanchans_remaining=3, final_hanchans=None, hanchan_minutes=MINUTES
    )
    return validate_proposal(start, end, hanchans, **(args | kw))


def test_valid_proposals():
    assert check(k(24, 12), k(24, 15, 30), 2) == []
    assert check(k(24, 12), k(24, 15), 2) == []  # exactly 2 × 90 min
    assert check(k(19, 19), k(19, 21, 30), 1) == []  # longer than needed is fine
    assert check(k(24, 12), k(24, 13, 30), 1, hanchans_remaining=1, now=k(24, 11)) == []


def test_end_before_start():
    assert check(k(24, 15), k(24, 12)) == ["Окончание встречи должно быть позже начала."]


def test_outside_window_and_options():
    window = Interval(k(19), k(24, 14))
    assert check(k(24, 12), k(24, 15), 2, window=window) == [
        "Встреча должна пройти в пределах игрового окна: пн 19.10.2026 00:00 — сб 24.10.2026 14:00."
    ]
    assert check(k(24, 15), k(24, 16, 30)) == [
        "Выбранное время не входит целиком ни в один общий вариант: "
        "кто-то из игроков занят или помещение уже забронировано."
    ]
    # The walk: with two still to answer there is no option at all, and the refusal says that, not «занят»
    assert check(k(24, 15), k(24, 16, 30), option_intervals=[], waiting_for=["Анна Ли", "Олег Ким"]) == [
        "Общего времени пока нет: своё время ещё не отметили Анна Ли, Олег Ким. "
        "Предложить встречу можно, когда ответят все четверо."
    ]
    assert check(k(24, 15), k(24, 16, 30), option_intervals=[], waiting_for=["Олег Ким"])[0].startswith(
        "Общего времени пока нет: своё время ещё не отметил Олег Ким."
    )


def test_option_check_does_not_join_options_of_different_rooms():
    options = [iv(24, 10, 0, 15, 0), iv(24, 13, 0, 22, 0)]
    assert check(k(24, 12), k(24, 16, 30), 3, option_intervals=options) != []


def test_hanchan_count_errors():
    assert check(k(24, 12), k(24, 13, 30), 0) == ["Встреча должна включать хотя бы один ханчан."]
    assert check(k(24, 12), k(24, 15, 30), 2, hanchans_remaining=1) == [
        "В матче осталось запланировать 1 ханчан, а во встрече 2 ханчана."
    ]
    assert check(k(24, 12), k(24, 13, 30), 1, hanchans_remaining=0) == [
        "В матче не осталось ханчанов для новой встречи."
    ]


def test_too_short_for_the_hanchans():
    assert check(k(24, 12), k(24, 14, 30), 2) == ["На 2 ханчана нужно не меньше 3 ч, а выбрано 2 ч 30 мин."]
    assert check(k(24, 12), k(24, 15), 2, hanchan_minutes=100) == [
        "На 2 ханчана нужно не меньше 3 ч 20 мин, а выбрано 3 ч."
    ]


def test_grid_and_past():
    assert check(k(24, 12, 10), k(24, 13, 50)) == [
        "Начало и окончание встречи выбираются с шагом 30 минут по времени Кирова."
    ]
    assert check(k(24, 12), k(24, 13, 30), now=k(24, 12, 1)) == ["Нельзя назначить встречу на прошедшее время."]


FINAL_WINDOW = Interval(k(14, month=12), k(28, month=12))


def final(start, end, hanchans=5, options=None):
    opts = options or [Interval(k(19, 10, month=12), k(21, 4, month=12))]
    return validate_proposal(
        start,
        end,
        hanchans,
        window=FINAL_WINDOW,
        option_intervals=opts,
        hanchans_remaining=5,
        final_hanchans=5,
        hanchan_minutes=MINUTES,
    )


def test_final_is_one_meeting_of_five_on_one_day():
    assert final(k(19, 12, month=12), k(19, 19, 30, month=12)) == []
    assert final(k(19, 16, 30, month=12), k(20, 0, month=12)) == []  # ends at midnight: same day
    assert final(k(19, 20, month=12), k(20, 3, 30, month=12)) == [
        "Финал проводится целиком в один день: встреча должна закончиться "
        "в тот же день по времени Кирова, в который началась."
    ]
    assert final(k(19, 12, month=12), k(19, 16, 30, month=12), hanchans=3) == [
        "Финал проводится за одну встречу: в ней все 5 ханчанов."
    ]


def test_several_errors_are_all_reported():
    errors = check(k(27, 12), k(27, 13), 4)
    assert len(errors) == 4  # window, option, remaining, too short


# --- fallback --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "window,expected",
    [
        (Interval(k(19), k(26)), k(25, 18)),  # one-week tour ending Monday midnight
        (Interval(k(19), k(2, month=11)), k(1, 18, month=11)),  # two-week window
        (Interval(k(12), k(25, 17)), k(18, 18)),  # ends Sunday 17:00 → previous Sunday
        (Interval(k(12), k(25, 18)), k(18, 18)),  # ends exactly 18:00 (excluded) → previous Sunday
        (Interval(k(12), k(25, 19)), k(25, 18)),  # ends Sunday 19:00 → that Sunday
        (Interval(k(25, 18), k(26)), k(25, 18)),  # starts exactly at 18:00 (included)
        (Interval(k(12), k(29)), k(25, 18)),  # ends on a Thursday
    ],
)
def test_fallback_slot(window, expected):
    assert fallback_slot(window) == expected
    assert format_kirov(fallback_slot(window)).startswith("вс ")


def test_fallback_slot_without_a_sunday_evening():
    with pytest.raises(ValueError, match="нет воскресенья"):
        fallback_slot(Interval(k(19), k(25, 17)))
    with pytest.raises(ValueError):
        fallback_slot(Interval(k(25, 18, 30), k(30)))


@pytest.mark.parametrize(
    "start,proposal_id,binding",
    [
        (k(25, 18), None, True),  # the organizer's fallback (WINDOW's last Sunday, 18:00)
        (k(25, 19, 30), None, True),  # a split match's rest after its own meeting that evening
        (k(25, 18), 7, False),  # the four agreed on that time themselves: theirs to release
        (k(25, 17), None, False),  # the organizer's meeting before the fallback's hour
        (k(24, 18), None, False),  # another day
    ],
)
def test_only_the_organizers_meeting_on_the_fallback_evening_binds(start, proposal_id, binding):
    """Регламент §6.1 «Это время обязательно для участников»: «Не смогу» does not release it."""
    assert binding_fallback(WINDOW, start, proposal_id) is binding
    assert binding_fallback(None, start, None) is False
    assert binding_fallback(Interval(k(19), k(25, 17)), start, None) is False  # no Sunday evening in the window


def test_fallback_meeting_and_meeting_end():
    assert fallback_meeting(WINDOW, 3, MINUTES) == Interval(k(25, 18), k(25, 22, 30))
    assert fallback_meeting(WINDOW, 5, 60) == Interval(k(25, 18), k(25, 23))
    assert meeting_end(k(24, 12), 2, MINUTES) == k(24, 15)


# --- state and wording --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "answered,kw,state",
    [
        ([False] * 4, {"options_count": 0}, "nobody_answered"),
        ([True, False, True, False], {"options_count": 0}, "waiting"),
        ([True] * 4, {"options_count": 0}, "no_common_time"),
        ([True] * 4, {"options_count": 3}, "options"),
        ([True] * 4, {"options_count": 3, "proposal_confirmations": 0}, "proposed"),
        ([True] * 4, {"options_count": 3, "proposal_confirmations": 3}, "confirmed_3"),
        ([True] * 4, {"options_count": 0, "proposal_confirmations": 1, "booked": True}, "booked"),
        ([False] * 4, {"options_count": 0, "booked": True}, "booked"),  # organizer assigned, §3
    ],
)
def test_scheduling_state(answered, kw, state):
    assert scheduling_state(answered, **kw) == state
    assert state in STATE_LABELS


def test_state_labels_are_russian_and_complete():
    assert STATE_LABELS["confirmed_2"] == "Подтвердили 2 из 4"
    assert len(STATE_LABELS) == 14
    # The true reason of no option (issue 43 item 4): the people's time, or the club's tables
    assert scheduling_state([True] * 4, options_count=0) == "no_common_time"
    assert scheduling_state([True] * 4, options_count=0, tables_short=True) == "no_free_table"
    with pytest.raises(ValueError):
        scheduling_state([True] * 4, options_count=1, proposal_confirmations=5)


def test_words():
    assert [hanchans_word(n) for n in (1, 2, 5, 11, 12, 21, 22, 25)] == [
        "1 ханчан",
        "2 ханчана",
        "5 ханчанов",
        "11 ханчанов",
        "12 ханчанов",
        "21 ханчан",
        "22 ханчана",
        "25 ханчанов",
    ]
    assert format_duration(timedelta(minutes=270)) == "4 ч 30 мин"
    assert format_duration(timedelta(minutes=30)) == "30 мин"
    assert intersect_all([[WINDOW]]) == [WINDOW]
