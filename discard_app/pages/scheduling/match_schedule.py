"""A match's scheduling page: own availability grid, who answered, common options, proposals, the booking."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.event import EventHandler

from discard_app import texts
from discard_app.components.availability_grid import availability_grid
from discard_app.components.confirm import confirm_dialog
from discard_app.components.form import action_form
from discard_app.layout import forbidden, page
from discard_app.pages.scheduling.match_schedule_state import (
    GRID_FORM_ID,
    MatchGridState,
    MatchScheduleState,
)
from discard_app.state.action import KEY_FIELD

__all__ = ["MatchScheduleState", "match_schedule_page"]  # the state lives in match_schedule_state


def _messages(where: str) -> rx.Component:
    """Shown beside the section whose button caused them (`msg_at`), where the eye already is."""
    return rx.cond(MatchScheduleState.msg_at == where, _message_lines())


def _message_lines() -> rx.Component:
    return rx.fragment(
        rx.cond(MatchScheduleState.error != "", rx.callout(MatchScheduleState.error, color_scheme="red", role="alert")),
        rx.cond(
            MatchScheduleState.notice != "", rx.callout(MatchScheduleState.notice, color_scheme="green", role="status")
        ),
    )


def _grid_section() -> rx.Component:
    return rx.vstack(
        rx.heading(texts.SCHED_MY_AVAILABILITY, size="4", as_="h2"),
        rx.text(texts.SCHED_GRID_HINT, size="2", color_scheme="gray"),
        rx.button(texts.SCHED_COPY, type="button", size="1", variant="soft", on_click=MatchScheduleState.copy_previous),
        _messages("copy"),
        availability_grid(
            MatchGridState.days, MatchGridState.cells, MatchGridState.marks, MatchGridState.past, MatchGridState.weeks
        ),
        # The painted grid goes in the hidden field as the form is sent (assets/availability_grid.js), with the key.
        action_form(
            MatchScheduleState,
            rx.el.input(type="hidden", name="grid"),
            on_submit=MatchScheduleState.save_grid,
            submit_text=texts.SCHED_SAVE,
            message=rx.text(
                texts.SCHED_UNSAVED, id="grid-unsaved", color_scheme="amber", custom_attrs={"data-dirty": "0"}
            ),
            form_id=GRID_FORM_ID,
            card=False,
        ),
        _messages("grid"),
        _release_dialog(),
        width="100%",
    )


def _release_dialog() -> rx.Component:
    """Регламент §6.1: saving a grid that no longer covers a booked meeting releases it — asked before saving."""
    return confirm_dialog(
        texts.SCHED_RELEASE_TITLE,
        MatchScheduleState.drop_warning,
        confirm=texts.SCHED_RELEASE_OK,
        on_confirm=MatchScheduleState.confirm_release(
            {"grid": MatchScheduleState.pending_grid, KEY_FIELD: MatchScheduleState.action_key}
        ),
        cancel=texts.SCHED_RELEASE_CANCEL,
        on_cancel=MatchScheduleState.cancel_release,
        is_open=MatchScheduleState.drop_warning != "",
        danger=True,
    )


def _option(o: dict[str, Any]) -> rx.Component:
    return rx.hstack(
        rx.text(o["text"], weight="medium"),
        rx.badge(o["length"]),
        rx.cond(o["level"] != "", rx.badge(o["level"], color_scheme="amber")),
        rx.text(o["fit"], size="2", color_scheme="gray"),
        rx.cond(
            MatchScheduleState.is_seated,
            rx.button(
                texts.SCHED_PICK,
                size="1",
                variant="soft",
                on_click=MatchScheduleState.pick_option(o["start"], o["end"], o["hanchans"]),
            ),
        ),
        wrap="wrap",
        align="center",
    )


def _time_input(label: str, name: str, value: rx.Var[Any], on_change: EventHandler) -> rx.Component:
    # Half-hour steps: the availability grid and the room bookings are in 30-minute slots.
    return rx.el.label(label, rx.input(type="datetime-local", name=name, step=1800, value=value, on_change=on_change))


def _propose_form() -> rx.Component:
    return action_form(
        MatchScheduleState,
        rx.flex(
            _time_input(texts.SCHED_START, "start", MatchScheduleState.prop_start, MatchScheduleState.set_prop_start),
            _time_input(texts.SCHED_END, "end", MatchScheduleState.prop_end, MatchScheduleState.set_prop_end),
            rx.el.label(
                texts.SCHED_HANCHANS,
                rx.el.select(
                    rx.foreach(MatchScheduleState.hanchan_choices, lambda n: rx.el.option(n, value=n)),
                    name="hanchans",
                    value=MatchScheduleState.prop_hanchans,
                    on_change=MatchScheduleState.set_prop_hanchans,
                ),
            ),
            rx.cond(
                MatchScheduleState.bookings.length() > 0,
                rx.el.label(
                    texts.SCHED_REPLACES,
                    rx.el.select(
                        rx.el.option(texts.SCHED_NEW_MEETING, value=""),
                        rx.foreach(MatchScheduleState.bookings, lambda b: rx.el.option(b["text"], value=b["id"])),
                        name="replaces",
                    ),
                ),
            ),
            spacing="3",
            wrap="wrap",
            align="end",
        ),
        on_submit=MatchScheduleState.propose,
        submit_text=texts.SCHED_PROPOSE,
        card=False,
    )


def _propose_section() -> rx.Component:
    return rx.vstack(
        rx.heading(texts.SCHED_PROPOSE, size="4", as_="h2"), _propose_form(), _messages("propose"), width="100%"
    )


def _proposal(p: dict[str, Any]) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text(p["text"], weight="bold"),
            rx.text(p["status"], " · ", p["confirmed"], size="2"),
            rx.cond(p["declined"] != "", rx.text(p["declined"], size="2", color_scheme="red")),
            rx.cond(p["reason"] != "", rx.text(p["reason"], size="2", color_scheme="red")),
            rx.cond(p["hold"] != "", rx.text(p["hold"], size="2", color_scheme="gray")),
            rx.cond(
                p["can_answer"] != "",
                rx.hstack(
                    rx.button(
                        texts.SCHED_CONFIRM,
                        size="2",
                        on_click=MatchScheduleState.answer(p["id"], True, MatchScheduleState.action_key),
                    ),
                    rx.button(
                        texts.SCHED_DECLINE,
                        size="2",
                        variant="outline",
                        color_scheme="red",
                        on_click=MatchScheduleState.ask_decline(p["id"]),
                    ),
                ),
            ),
            spacing="1",
        ),
        width="100%",
    )


def _booking(b: dict[str, Any]) -> rx.Component:
    return rx.flex(
        rx.text(texts.SCHED_BOOKED_PREFIX, b["text"], ", ", b["room"]),
        rx.cond(
            MatchScheduleState.is_seated,
            rx.button(
                texts.SCHED_CANNOT,
                size="1",
                variant="outline",
                color_scheme="red",
                on_click=MatchScheduleState.ask_cannot(b["id"], b["binding"]),
            ),
        ),
        spacing="3",
        align="center",
        wrap="wrap",
    )


def _cannot_dialog() -> rx.Component:
    return confirm_dialog(
        texts.SCHED_CANNOT_TITLE,
        rx.cond(MatchScheduleState.cannot_binding, texts.SCHED_CANNOT_BINDING_TEXT, texts.SCHED_CANNOT_TEXT),
        confirm=rx.cond(MatchScheduleState.cannot_binding, texts.SCHED_CANNOT_WARN, texts.SCHED_CANNOT_OK),
        on_confirm=MatchScheduleState.cannot_come(
            {
                "booking_id": MatchScheduleState.cannot_booking,
                "take_time_out": MatchScheduleState.cannot_free_time,
                KEY_FIELD: MatchScheduleState.action_key,
            }
        ),
        cancel=texts.SCHED_CANNOT_BACK,
        on_cancel=MatchScheduleState.keep_booking,
        is_open=MatchScheduleState.cannot_booking != "",
        danger=True,
        extra=rx.cond(
            MatchScheduleState.cannot_binding,
            rx.fragment(),  # the binding fallback's time stays the player's: nothing to take out
            rx.checkbox(
                texts.SCHED_CANNOT_FREE,
                checked=MatchScheduleState.cannot_free_time,
                on_change=MatchScheduleState.set_cannot_free_time,
                margin_top="0.75em",
            ),
        ),
    )


def _decline_dialog() -> rx.Component:
    """A refusal ends the proposal for all four: asked first, like «Не смогу»."""
    return confirm_dialog(
        texts.SCHED_DECLINE_TITLE,
        texts.SCHED_DECLINE_TEXT,
        confirm=texts.SCHED_DECLINE,
        on_confirm=MatchScheduleState.confirm_decline(
            {"proposal_id": MatchScheduleState.decline_proposal, KEY_FIELD: MatchScheduleState.action_key}
        ),
        cancel=texts.SCHED_DECLINE_BACK,
        on_cancel=MatchScheduleState.keep_proposal,
        is_open=MatchScheduleState.decline_proposal != "",
        danger=True,
    )


def _content() -> rx.Component:
    return rx.vstack(
        rx.text(MatchScheduleState.title, weight="bold", size="4"),
        rx.text(texts.SCHED_WINDOW_PREFIX, MatchScheduleState.window, color_scheme="gray"),
        rx.link(texts.SCHED_MATCH_PAGE, href=MatchScheduleState.match_url),
        _messages("top"),
        _cannot_dialog(),
        rx.heading(texts.SCHED_BOOKINGS, size="4", as_="h2"),
        rx.cond(
            MatchScheduleState.bookings.length() > 0,
            rx.foreach(MatchScheduleState.bookings, _booking),
            rx.text(texts.SCHED_NO_BOOKINGS, color_scheme="gray"),
        ),
        rx.cond(MatchScheduleState.part_booked != "", rx.text(MatchScheduleState.part_booked, color_scheme="amber")),
        rx.cond(MatchScheduleState.booking_news != "", rx.text(MatchScheduleState.booking_news, color_scheme="amber")),
        rx.cond(MatchScheduleState.fallback != "", rx.text(MatchScheduleState.fallback, weight="medium")),
        rx.heading(texts.SCHED_ANSWERED, size="4", as_="h2"),
        rx.foreach(MatchScheduleState.seats, lambda s: rx.text(s["name"], " — ", s["answer"])),
        rx.cond(MatchScheduleState.is_seated, _grid_section()),
        rx.heading(texts.SCHED_OPTIONS, size="4", as_="h2"),
        rx.cond(
            MatchScheduleState.nothing_to_book,
            rx.text(texts.SCHED_ALL_BOOKED, color_scheme="gray"),
            rx.cond(
                MatchScheduleState.options.length() > 0,
                rx.vstack(rx.foreach(MatchScheduleState.options, _option), spacing="2"),
                rx.vstack(
                    rx.text(
                        rx.cond(
                            MatchScheduleState.tables_short,
                            texts.SCHED_NO_FREE_TABLE,
                            rx.cond(
                                MatchScheduleState.window_over,
                                texts.SCHED_WINDOW_OVER_NO_OPTIONS,
                                rx.cond(
                                    MatchScheduleState.all_answered, texts.SCHED_NO_COMMON_TIME, texts.SCHED_NO_OPTIONS
                                ),
                            ),
                        ),
                        color_scheme="gray",
                    ),
                ),
            ),
        ),
        # the one who blocks — no common time, or too little for the remaining hanchans: this viewer's own hint
        rx.cond(
            MatchScheduleState.unblock != "",
            rx.callout(MatchScheduleState.unblock, color_scheme="amber", role="note"),
        ),
        # Регламент §2: no single option holds the remaining hanchans, several meetings would
        rx.cond(MatchScheduleState.plan != "", rx.callout(MatchScheduleState.plan, color_scheme="blue", role="note")),
        rx.cond(MatchScheduleState.is_seated & ~MatchScheduleState.nothing_to_book, _propose_section()),
        rx.heading(texts.SCHED_PROPOSALS, size="4", as_="h2"),
        rx.cond(
            MatchScheduleState.proposals.length() > 0,
            rx.foreach(MatchScheduleState.proposals, _proposal),
            rx.text(texts.SCHED_NO_PROPOSALS, color_scheme="gray"),
        ),
        _messages("proposals"),
        _decline_dialog(),
        rx.cond(
            MatchScheduleState.everyone.length() > 0,
            rx.vstack(
                rx.heading(texts.SCHED_EVERYONE, size="4", as_="h2"),
                rx.foreach(MatchScheduleState.everyone, lambda e: rx.text(rx.text.strong(e["name"]), ": ", e["text"])),
            ),
        ),
        spacing="3",
        width="100%",
    )


def match_schedule_page() -> rx.Component:
    return page(
        texts.SCHEDULE_PAGE_TITLE,
        rx.cond(MatchScheduleState.allowed, _content(), forbidden(MatchScheduleState.refusal)),
    )
