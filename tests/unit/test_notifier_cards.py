"""Telegram texts: escaping, the length limit, states, the reminder. Pure, no database."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from services.core.wording import place
from services.notifier import cards
from services.notifier.snapshot import BookingView, MatchSnapshot, OptionView, ProposalView, SeatView
from services.scheduling.rules import (
    NO_COMMON_TIME,
    OPTIONS,
    STEP_ADD_TIME,
    STEP_COME,
    STEP_CONFIRM,
    STEP_ORGANIZER,
    STEP_PAINT,
    STEP_PAINT_MORE,
    STEP_PROPOSE,
    STEP_WAIT,
    WAITING,
)

T0 = datetime(2026, 12, 12, 10, 0, tzinfo=UTC)  # 13:00 in Kirov


def _seat(i: int, name: str | None = None, *, answered: bool = True, username: str | None = None) -> SeatView:
    return SeatView(i, 100 + i, name or f"Игрок {i}", 5000 + i if username else None, username, False, answered)


def _snap(**changes: object) -> MatchSnapshot:
    base = MatchSnapshot(
        match_id=1,
        stage_kind="regular",
        round_code="2",
        table="1",
        status="scheduling",
        planned_hanchans=3,
        window_start=T0 - timedelta(days=5),
        window_end=T0 + timedelta(days=9),
        seats=tuple(_seat(i) for i in range(1, 5)),
        options=(),
        proposal=None,
        bookings=(),
        state=OPTIONS,
    )
    return replace(base, **changes)


def test_names_are_escaped_for_html() -> None:
    snap = _snap(seats=(_seat(1, "<i>Зоя</i> & Ко", answered=False), *(_seat(i) for i in (2, 3, 4))), state=WAITING)
    text = cards.card_text(snap)
    assert "&lt;i&gt;Зоя&lt;/i&gt; &amp; Ко" in text and "<i>" not in text


def test_card_fits_telegram_even_with_huge_names_and_many_options() -> None:
    seats = tuple(_seat(i, "Щ" * 5000 + "&" * 500) for i in range(1, 5))
    options = tuple(OptionView(T0 + timedelta(days=d), T0 + timedelta(days=d, hours=5), 3) for d in range(40))
    proposal = ProposalView(1, T0, T0 + timedelta(hours=5), 3, "<Зал>" * 100, frozenset({1, 2}), frozenset({3}))
    text = cards.card_text(_snap(seats=seats, options=options, proposal=proposal, state="confirmed_2"))
    assert len(text) <= cards.MAX_MESSAGE
    assert "Общие варианты: 40" in text and "…и ещё 35" in text


def test_options_are_shown_in_kirov_time_with_how_many_hanchans_fit() -> None:
    text = cards.card_text(_snap(options=(OptionView(T0, T0 + timedelta(hours=7), 4),)))
    assert "• сб 12.12.2026 13:00–20:00 (хватит на 4 ханчана)" in text


def test_an_option_needing_if_needed_says_for_how_many_players_never_whose() -> None:
    text = cards.card_text(_snap(options=(OptionView(T0, T0 + timedelta(hours=3), 2, if_needed=1),)))
    assert "• сб 12.12.2026 13:00–16:00 (хватит на 2 ханчана, для 1 игрока — если нужно)" in text


def test_the_fallback_date_is_stated_once_the_window_is_open() -> None:
    assert "Если не договоритесь" not in cards.card_text(_snap())
    text = cards.card_text(_snap(fallback_start=T0 + timedelta(days=1, hours=5)))
    assert "Если не договоритесь — вс 13.12 18:00 (Регламент §6.1)" in text


def test_no_common_time_says_what_to_do_and_sets_no_fallback_date() -> None:
    text = cards.card_text(_snap(state=NO_COMMON_TIME))
    assert "обновите доступность и обратитесь к организатору" in text
    assert "18:00" not in text and "штраф" not in text.lower()


def test_booking_and_proposal_are_shown() -> None:
    proposal = ProposalView(7, T0, T0 + timedelta(minutes=270), 3, "Большой зал", frozenset({1, 2, 3}), frozenset())
    booking = BookingView(T0, T0 + timedelta(minutes=270), "Большой зал", 3)
    text = cards.card_text(_snap(proposal=proposal, state="confirmed_3"))
    assert "Предложено: сб 12.12.2026 13:00–17:30, Большой зал, 3 ханчана" in text
    assert "Подтвердили: Игрок 1, Игрок 2, Игрок 3" in text and "Ждём подтверждения: Игрок 4" in text
    booked = cards.card_text(_snap(bookings=(booking,), state="booked"))
    assert "Бронь: сб 12.12.2026 13:00–17:30, Большой зал, 3 ханчана" in booked


@pytest.mark.parametrize(
    ("steps", "what", "expected"),
    [
        ((STEP_PAINT, STEP_WAIT, STEP_PAINT, STEP_WAIT), "отметить доступность", {1, 3}),
        ((STEP_PAINT_MORE, STEP_ADD_TIME, STEP_PAINT_MORE, STEP_PAINT_MORE), "обновить доступность", {1, 2, 3, 4}),
        ((STEP_PROPOSE,) * 4, "выбрать и предложить время", {1, 2, 3, 4}),
        ((STEP_WAIT, STEP_CONFIRM, STEP_WAIT, STEP_WAIT), "подтвердить предложенное время", {2}),
        ((STEP_COME,) * 4, "", set()),
        ((STEP_ORGANIZER,) * 4, "", set()),  # no free table: the organizer's, not the four's
    ],
)
def test_the_reminder_asks_each_seat_for_its_step(steps: tuple[str, ...], what: str, expected: set[int]) -> None:
    asked, who = cards.still_to_act(_snap(steps=dict(zip(range(1, 5), steps, strict=True))))
    assert asked.startswith(what) and bool(asked) == bool(what)
    assert {s.player_id for s in who} == expected


def test_reminder_mentions_handles_and_splits_long_lists() -> None:
    seat = _seat(1, "Анна", answered=False, username="anna_i")
    steps = {1: STEP_PAINT, 2: STEP_WAIT, 3: STEP_WAIT, 4: STEP_WAIT}
    snap = _snap(seats=(seat, *(_seat(i) for i in (2, 3, 4))), state=WAITING, steps=steps)
    (text,) = cards.reminder_texts([snap])
    assert "Анна (@anna_i)" in text and "Игрок 2" not in text
    many = cards.reminder_texts(
        [replace(snap, table=str(n), seats=(replace(seat, name="Я" * 60),) * 4) for n in range(60)]
    )
    assert len(many) > 1 and all(len(t) <= cards.MAX_MESSAGE for t in many)
    assert sum(t.count("<b>Тур 2") for t in many) == 60
    assert cards.reminder_texts([_snap(state="booked")]) == []


def test_final_and_playoff_titles() -> None:
    assert cards.match_title(_snap(stage_kind="playoff", round_code="F", table="F")) == "Плей-офф: финал"
    # Issue 28 item 6: no Latin letters on screen — tables А/Б, the upper and lower brackets (Регламент §2)
    assert cards.match_title(_snap(stage_kind="playoff", round_code="1", table="A")) == "Плей-офф: 1-й раунд, стол А"
    assert cards.match_title(_snap(stage_kind="playoff", round_code="1", table="B")) == "Плей-офф: 1-й раунд, стол Б"
    assert cards.match_title(_snap(stage_kind="playoff", round_code="2", table="U")) == (
        "Плей-офф: 2-й раунд, верхняя ветка"
    )
    assert (
        cards.match_title(_snap(stage_kind="playoff", round_code="2", table="L")) == "Плей-офф: 2-й раунд, нижняя ветка"
    )
    assert cards.match_title(_snap(stage_kind="playoff", round_code="3", table="3")) == "Плей-офф: 3-й раунд"
    assert cards.match_title(_snap(stage_kind="playoff", round_code="F", table="F")) == "Плей-офф: финал"


def test_the_place_names_the_table_only_when_the_room_has_several() -> None:
    # The card's booking place is worded as the calendar's («Клуб, стол клуба № 2»), by one function; the club's
    # table is named apart from the draw's «Тур 1, стол 2» (issue 45 item 12).
    assert place("Клуб", 4, 2) == "Клуб, стол клуба № 2"
    assert place("Клуб", 4, 1, 2) == "Клуб, столы клуба № 1, 2"
    assert place("Клуб", 2, 1, 2) == place("Клуб", 1, 1) == "Клуб"
    assert place("Клуб", 1, 1) == "Клуб"
    booking = BookingView(T0, T0 + timedelta(minutes=270), place("Клуб", 4, 2), 3)
    assert "Бронь: сб 12.12.2026 13:00–17:30, Клуб, стол клуба № 2, 3 ханчана" in cards.card_text(
        _snap(bookings=(booking,), state="booked")
    )
