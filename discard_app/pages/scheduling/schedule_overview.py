"""The organizer's scheduling overview: every match's state with its actions on its own row (a card on a phone),
each opening a dialog that names the match; rooms and club activities below."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.event import EventHandler

from discard_app import routes, texts
from discard_app.components.form import action_form, field
from discard_app.components.text_limit import limit_hint
from discard_app.layout import forbidden, page
from discard_app.pages.scheduling.schedule_overview_state import (
    ASSIGN,
    FALLBACK,
    MOVE,
    NEXT_WINDOW,
    RELEASE,
    ROOMS_ID,
    ScheduleOverviewState,
)
from services.core.text_limits import limit_for

S = ScheduleOverviewState


def _caption(label: str, control: rx.Component) -> rx.Component:
    return rx.flex(rx.text(label, size="1", color_scheme="gray"), control, direction="column", spacing="1")


def _filters() -> rx.Component:
    return rx.flex(
        _caption(
            texts.SCHEDULE_TOUR_FILTER,
            rx.el.select(
                rx.el.option(texts.SCHEDULE_TOUR_FILTER_ALL, value="all"),
                rx.foreach(S.tours, lambda t: rx.el.option(t, value=t)),
                value=rx.cond(S.tour_filter == "", "all", S.tour_filter),
                on_change=lambda v: S.set_filter("tour", v),
                aria_label=texts.SCHEDULE_TOUR_FILTER,
            ),
        ),
        _caption(
            texts.SCHEDULE_STATE_FILTER,
            rx.el.select(
                *[rx.el.option(label, value=key) for key, label in texts.SCHEDULE_STATE_FILTERS],
                value=rx.cond(S.state_filter == "", "all", S.state_filter),
                on_change=lambda v: S.set_filter("state", v),
                aria_label=texts.SCHEDULE_STATE_FILTER,
            ),
        ),
        spacing="3",
        wrap="wrap",
    )


def _action_buttons(r: dict[str, Any]) -> rx.Component:
    def button(kind: str, label: str, allowed: rx.Var[Any]) -> rx.Component:
        return rx.cond(
            allowed != "",
            rx.button(
                label,
                size="1",
                variant="soft",
                on_click=S.open_dialog(kind, r["id"]),
                aria_label=label + ": " + r["title"],
            ),
        )

    return rx.flex(
        button(ASSIGN, texts.SCHEDULE_ASSIGN, r["can_assign"]),
        button(MOVE, texts.SCHEDULE_MOVE, r["can_move"]),
        button(RELEASE, texts.SCHEDULE_RELEASE, r["can_move"]),  # the same bookings: active, of a match not yet played
        button(FALLBACK, texts.SCHEDULE_APPLY_FALLBACK, r["can_fallback"]),
        button(NEXT_WINDOW, texts.SCHEDULE_NEXT_WINDOW, r["can_next_window"]),
        spacing="1",
        wrap="wrap",
    )


def _match_link(r: dict[str, Any]) -> rx.Component:
    return rx.link(r["title"], href="/match/" + r["id"] + "/schedule")


def _row(r: dict[str, Any]) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(_match_link(r), white_space="nowrap"),
        rx.table.cell(r["players"]),
        rx.table.cell(r["window"], white_space="nowrap"),
        rx.table.cell(r["state"]),
        rx.table.cell(r["booking"]),
        rx.table.cell(r["fallback"]),
        rx.table.cell(_action_buttons(r)),
    )


def _card(r: dict[str, Any]) -> rx.Component:
    """The phone's view of a row: everything the table shows, one line each, and the same buttons."""
    return rx.card(
        rx.vstack(
            rx.heading(_match_link(r), size="3", as_="h3"),
            rx.text(r["players"], size="2"),
            rx.text(texts.SCHEDULE_COL_WINDOW + ": ", r["window"], size="2"),
            rx.text(texts.SCHEDULE_COL_STATE + ": ", r["state"], size="2", weight="medium"),
            rx.text(texts.SCHEDULE_COL_BOOKING + ": ", r["booking"], size="2"),
            rx.text(texts.SCHEDULE_COL_FALLBACK + ": ", r["fallback"], size="2"),
            _action_buttons(r),
            spacing="1",
        ),
        width="100%",
        role="group",
        aria_label=r["title"],
    )


def _field(label: str, control: rx.Component) -> rx.Component:
    return rx.el.label(rx.text(label, size="1", color_scheme="gray"), control, display="flex", flex_direction="column")


def _datetime(name: str, label: str) -> rx.Component:
    return _field(
        label + texts.SCHEDULE_KIROV_SUFFIX,
        rx.input(
            type="datetime-local",
            name=name,
            step=1800,
            value=getattr(S, name),
            on_change=lambda v: S.set_field(name, v),
            aria_label=label,
        ),
    )


def _dialog_fields() -> rx.Component:
    reason = _field(
        texts.SCHEDULE_REASON,
        rx.fragment(
            rx.input(
                name="reason",
                value=S.reason,
                on_change=lambda v: S.set_field("reason", v),
                aria_label=texts.SCHEDULE_REASON,
                max_length=limit_for("reason"),
            ),
            limit_hint("reason"),
        ),
    )
    # One booking is chosen already (open_dialog): named, not offered in a list a phone may show unselected.
    booking = _field(
        texts.SCHEDULE_BOOKING,
        rx.cond(
            S.dialog_bookings.length() == 1,
            rx.text(S.dialog_bookings[0]["text"], weight="medium"),
            rx.el.select(
                rx.el.option(texts.CHOOSE_BOOKING, value="", disabled=True),
                rx.foreach(S.dialog_bookings, lambda b: rx.el.option(b["text"], value=b["id"])),
                value=S.booking_id,
                on_change=S.pick_booking,
                aria_label=texts.SCHEDULE_BOOKING,
            ),
        ),
    )
    return rx.match(
        S.dialog,
        (
            ASSIGN,
            rx.vstack(
                _datetime("start", texts.SCHEDULE_START),
                _field(
                    texts.SCHEDULE_HANCHANS,
                    rx.el.select(
                        rx.foreach(S.hanchan_choices, lambda n: rx.el.option(n, value=n)),
                        name="hanchans",
                        value=S.hanchans,
                        on_change=lambda v: S.set_field("hanchans", v),
                        aria_label=texts.SCHEDULE_HANCHANS,
                    ),
                ),
                _field(
                    texts.SCHEDULE_ROOM,
                    rx.el.select(
                        rx.foreach(S.rooms, lambda r: rx.el.option(r["name"], value=r["id"])),
                        name="room_id",
                        value=S.room_id,
                        on_change=lambda v: S.set_field("room_id", v),
                        aria_label=texts.SCHEDULE_ROOM,
                    ),
                ),
            ),
        ),
        (
            MOVE,
            rx.vstack(
                booking,
                _datetime("start", texts.SCHEDULE_NEW_START),
                _datetime("end", texts.SCHEDULE_NEW_END),
                reason,
            ),
        ),
        (
            RELEASE,
            rx.vstack(
                booking,
                rx.text(texts.SCHEDULE_RELEASE_HINT),
                reason,
            ),
        ),
        (
            NEXT_WINDOW,
            rx.vstack(rx.text(texts.SCHEDULE_NEXT_WINDOW_HINT), reason),
        ),
        (FALLBACK, rx.text(texts.SCHEDULE_FALLBACK_HINT, S.dialog_fallback, texts.SCHEDULE_KIROV_SUFFIX, ".")),
        rx.fragment(),
    )


def _dialog() -> rx.Component:
    # The form names its action and match, so the server acts on what the organizer saw, once per its key.
    form = action_form(
        S,
        _dialog_fields(),
        rx.el.input(type="hidden", name="dialog", value=S.dialog),
        rx.el.input(type="hidden", name="match_id", value=S.dialog_match_id),
        rx.el.input(type="hidden", name="booking_id", value=S.booking_id),
        rx.cond(S.dialog_error != "", rx.callout(S.dialog_error, color_scheme="red", role="alert", width="100%")),
        rx.cond(
            S.dialog_overrules != "",
            rx.vstack(
                rx.callout(S.dialog_overrules, color_scheme="amber", icon="triangle_alert", width="100%"),
                rx.checkbox(texts.SCHEDULE_OVERRULE_CONFIRM, name="overrule"),
                width="100%",
            ),
        ),
        on_submit=S.submit_dialog,
        submit_text=S.dialog_action,
        card=False,
    )
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(S.dialog_heading),
            rx.dialog.description(texts.SCHEDULE_DIALOG_CHECK, size="2"),
            rx.vstack(
                form,
                rx.flex(
                    rx.dialog.close(
                        rx.button(texts.SCHEDULE_CANCEL, type="button", variant="soft", color_scheme="gray")
                    ),
                    justify="end",
                    width="100%",
                ),
                spacing="3",
                padding_top="1em",
            ),
            max_width="30em",
        ),
        open=S.dialog != "",
        on_open_change=S.close_dialog,
    )


def _when(name: str, label: str) -> rx.Component:
    return _caption(
        label + texts.SCHEDULE_KIROV_SUFFIX, rx.input(type="datetime-local", name=name, step=1800, aria_label=label)
    )


def _form(key: str, title: str, submit: str, handler: EventHandler, *fields: rx.Component) -> rx.Component:
    """One form below the table (components/form.py): a refused submit keeps what was typed, its message beside."""
    return action_form(
        S,
        rx.flex(*fields, spacing="2", wrap="wrap", align="end"),
        title=title,
        on_submit=handler,
        submit_text=submit,
        message=rx.cond(
            (S.error != "") & (S.error_form == key),
            rx.callout(S.error, color_scheme="red", role="alert"),
        ),
        card=False,
    )


def _forms() -> rx.Component:
    return rx.vstack(
        _form(
            "activity",
            texts.SCHEDULE_ACTIVITY,
            texts.SCHEDULE_ADD_ACTIVITY,
            S.add_activity,
            field("title", texts.SCHEDULE_ACTIVITY_NAME),  # labels, not placeholders (issue 45 item 10)
            _when("start", texts.SCHEDULE_ACTIVITY_START),
            _when("end", texts.SCHEDULE_ACTIVITY_END),
            _caption(
                texts.SCHEDULE_ROOM,
                rx.el.select(
                    rx.foreach(S.rooms, lambda r: rx.el.option(r["name"], value=r["id"])),
                    name="room_id",
                    aria_label=texts.SCHEDULE_ROOM,
                ),
            ),
            field("tables", texts.SCHEDULE_ACTIVITY_TABLES, max_width="8em"),
        ),
        rx.box(
            _form(
                "room",
                texts.SCHEDULE_ROOMS + ": ",
                texts.SCHEDULE_ADD_ROOM,
                S.add_room,
                rx.foreach(S.rooms, lambda r: rx.badge(r["label"])),
                field("name", texts.SCHEDULE_ROOM_NAME),
                # a new room takes its tables in the same form (issue 45 item 10)
                field("tables", texts.SCHEDULE_NEW_ROOM_TABLES, type="number", default_value="1", max_width="8em"),
            ),
            id=ROOMS_ID,
            width="100%",
        ),
        _form(
            "tables",
            texts.SCHEDULE_TABLES,
            texts.SCHEDULE_SAVE_TABLES,
            S.set_tables,
            rx.el.select(
                rx.foreach(S.rooms, lambda r: rx.el.option(r["name"], value=r["id"])),
                name="room_id",
                aria_label=texts.SCHEDULE_TABLES_ROOM,
            ),
            rx.input(name="tables", type="number", aria_label=texts.SCHEDULE_TABLES_COUNT, width="6em"),
        ),
        # Регламент §3: the hold is one of the season's rules, set on /regulation with the others (one way to set it).
        rx.cond(
            S.hold_hours != "",
            rx.text(S.hold_label, " ", rx.link(texts.HOLD_HOURS_WHERE, href=routes.REGULATION), size="2"),
        ),
        spacing="4",
        width="100%",
    )


def _notice() -> rx.Component:
    """Success stays in the viewport whatever the scroll position."""
    return rx.cond(
        S.notice != "",
        rx.box(
            rx.callout(S.notice, color_scheme="green", role="status"),
            position="fixed",
            bottom="1em",
            left="1em",
            right="1em",
            z_index="20",
            max_width="40em",
            margin_x="auto",
        ),
    )


def schedule_overview_page() -> rx.Component:
    headers = (
        texts.SCHEDULE_COL_MATCH,
        texts.SCHEDULE_COL_PLAYERS,
        texts.SCHEDULE_COL_WINDOW,
        texts.SCHEDULE_COL_STATE,
        texts.SCHEDULE_COL_BOOKING,
        texts.SCHEDULE_COL_FALLBACK,
        texts.SCHEDULE_COL_ACTIONS,
    )
    return page(
        texts.SCHEDULE_TITLE,
        rx.cond(
            S.allowed,
            rx.vstack(
                _filters(),
                rx.box(
                    rx.table.root(
                        rx.table.header(rx.table.row(*[rx.table.column_header_cell(h) for h in headers])),
                        rx.table.body(rx.foreach(S.visible_rows, _row)),
                        width="100%",
                        size="1",
                    ),
                    width="100%",
                    display=["none", "none", "block"],
                ),
                rx.vstack(rx.foreach(S.visible_rows, _card), width="100%", display=["flex", "flex", "none"]),
                _forms(),
                rx.link(texts.SCHEDULE_CALENDAR_LINK, href=routes.CLUB_CALENDAR),
                _dialog(),
                _notice(),
                spacing="4",
                width="100%",
            ),
            forbidden(texts.FORBIDDEN_ORGANIZER),
        ),
    )
