"""The organizer's draw page: close registration, draft, swap, game windows, approve (Регламент §1, §2)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from discard_app import texts
from discard_app.components.confirm import confirm_dialog
from discard_app.components.form import action_form
from discard_app.layout import forbidden, page
from discard_app.pages.league.draw_state import MESSAGES_ID, DrawState, OptionView, TourView, WindowRow

__all__ = ["DrawState", "draw_page"]


def _messages() -> rx.Component:
    return rx.box(
        rx.cond(
            DrawState.error != "", rx.callout(DrawState.error, icon="triangle_alert", color_scheme="red", role="alert")
        ),
        rx.cond(
            DrawState.notice != "", rx.callout(DrawState.notice, icon="check", color_scheme="green", role="status")
        ),
        id=MESSAGES_ID,
        width="100%",
        scroll_margin_top="1em",
    )


def _option_card(option: OptionView) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading(option["title"], size="3", as_="h3"),
            rx.text(option["detail"]),
            rx.cond(
                option["error"] != "",
                rx.callout(option["error"], icon="ban", color_scheme="orange", size="1"),
                rx.fragment(
                    rx.text(option["result"], color_scheme="gray", size="2"),
                    rx.button(
                        option["button"],
                        on_click=DrawState.ask_close(option["method"]),
                        white_space="normal",
                        height="auto",
                        padding_y="0.5em",
                    ),
                ),
            ),
            spacing="2",
        ),
        width="100%",
    )


def _closing_question() -> rx.Component:
    """Issue 25 item 4: asked first, naming whom it moves and the main roster it leaves; «Отмена» changes nothing."""
    return confirm_dialog(
        DrawState.closing_question,
        DrawState.closing_text,
        confirm=texts.DRAW_CLOSE_CONFIRM,
        on_confirm=DrawState.close_registration(DrawState.closing_method, DrawState.action_key),
        cancel=texts.DRAW_CLOSE_CANCEL,
        is_open=DrawState.closing_question != "",
        on_open_change=DrawState.cancel_close,
    )


def _registration() -> rx.Component:
    return rx.vstack(
        rx.heading(texts.DRAW_REGISTRATION, size="5", as_="h2"),
        _closing_question(),
        rx.text(DrawState.registration),
        rx.cond(
            DrawState.options.length() > 0,
            rx.vstack(
                rx.text(DrawState.closing_hint, color_scheme="gray", size="2"),
                rx.foreach(DrawState.options, _option_card),
                width="100%",
                spacing="3",
            ),
        ),
        width="100%",
        spacing="2",
    )


def _tour_card(tour: TourView) -> rx.Component:
    return rx.card(
        rx.table.root(
            # the caption names the table for screen readers (and tests): «Тур 1»
            rx.el.caption(
                tour["title"], style={"text-align": "left", "font-weight": "bold", "padding-bottom": "0.4em"}
            ),
            rx.table.header(
                rx.table.row(
                    rx.table.column_header_cell(texts.DRAW_TABLE, width="4em"),
                    rx.table.column_header_cell(texts.DRAW_PLAYERS),
                )
            ),
            rx.table.body(
                rx.foreach(
                    tour["tables"], lambda t: rx.table.row(rx.table.cell(t["table"]), rx.table.cell(t["players"]))
                )
            ),
            size="1",
            width="100%",
        ),
        width="100%",
    )


def _tours() -> rx.Component:
    return rx.vstack(
        rx.text(DrawState.quality),
        rx.cond(
            DrawState.repeats.length() > 0,
            rx.box(
                rx.heading(texts.DRAW_REPEATS_TITLE, size="3", as_="h3"),
                rx.unordered_list(rx.foreach(DrawState.repeats, rx.list_item)),
            ),
            rx.text(texts.DRAW_NO_REPEATS, color_scheme="gray"),
        ),
        rx.grid(
            rx.foreach(DrawState.tours, _tour_card),
            columns=rx.breakpoints(initial="1", md="2"),
            spacing="3",
            width="100%",
        ),
        width="100%",
        spacing="3",
    )


def _native_select(name: str, label: str, choices: rx.Var[Any]) -> rx.Component:
    # a native select: the phone's own picker, and a plain form field
    return rx.flex(
        rx.el.label(label, html_for=f"draw-{name}"),
        rx.el.select(
            rx.el.option("—", value=""),
            rx.foreach(choices, lambda c: rx.el.option(c["label"], value=c["value"])),
            id=f"draw-{name}",
            name=name,
            style={"padding": "0.4em", "font-size": "1rem", "width": "100%"},
        ),
        direction="column",
        spacing="1",
        min_width="10em",
    )


def _swap_form() -> rx.Component:
    return action_form(
        DrawState,
        rx.heading(texts.DRAW_SWAP, size="4", as_="h3"),
        rx.flex(
            _native_select("tour", texts.DRAW_SWAP_TOUR, DrawState.tour_choices),
            _native_select("first", texts.DRAW_SWAP_FIRST, DrawState.player_choices),
            _native_select("second", texts.DRAW_SWAP_SECOND, DrawState.player_choices),
            spacing="3",
            wrap="wrap",
            align="end",
        ),
        on_submit=DrawState.swap,
        submit_text=texts.DRAW_SWAP_BUTTON,
        submit_props={"variant": "outline"},
        card=False,
    )


def _window_row(row: WindowRow) -> rx.Component:
    def field(kind: str, value: rx.Var[Any], label: rx.Var[Any]) -> rx.Component:
        field_id = "window-" + kind + "-" + row["number"]
        return rx.flex(
            rx.el.label(label, html_for=field_id),
            rx.input(
                id=field_id,
                name=kind + "_" + row["number"],
                type="datetime-local",
                default_value=value,
                key=field_id + "-" + DrawState.form_key.to_string(),
            ),
            direction="column",
            spacing="1",
        )

    return rx.flex(
        field("start", row["start"], row["start_label"]),
        field("end", row["end"], row["end_label"]),
        spacing="3",
        wrap="wrap",
    )


def _windows_form() -> rx.Component:
    return action_form(
        DrawState,
        rx.heading(texts.DRAW_WINDOWS, size="5", as_="h2"),
        rx.text(texts.DRAW_WINDOWS_HINT, color_scheme="gray", size="2"),
        rx.foreach(DrawState.windows, _window_row),
        on_submit=DrawState.save_windows,
        submit_text=texts.DRAW_WINDOWS_SAVE,
        submit_props={"variant": "outline"},
        card=False,
    )


def _approve_button() -> rx.Component:
    return rx.alert_dialog.root(
        rx.alert_dialog.trigger(rx.button(texts.DRAW_APPROVE, size="3", color_scheme="jade")),
        rx.alert_dialog.content(
            rx.alert_dialog.title(texts.DRAW_APPROVE_QUESTION),
            rx.alert_dialog.description(texts.DRAW_APPROVE_TEXT),
            rx.flex(
                rx.alert_dialog.cancel(rx.button(texts.DRAW_CANCEL, variant="soft", color_scheme="gray")),
                rx.alert_dialog.action(
                    rx.button(texts.DRAW_APPROVE_CONFIRM, on_click=DrawState.approve(DrawState.action_key))
                ),
                spacing="3",
                justify="end",
                margin_top="1em",
            ),
            # focus going back to the button would scroll away from the result shown at the top
            on_close_auto_focus=rx.prevent_default,
        ),
    )


def _draft() -> rx.Component:
    return rx.vstack(
        rx.heading(texts.DRAW_DRAFT, size="5", as_="h2"),
        rx.text(texts.DRAW_DRAFT_HINT, color_scheme="gray", size="2"),
        rx.cond(
            DrawState.closed,
            rx.vstack(
                rx.button(
                    rx.cond(DrawState.has_draft, texts.DRAW_REMAKE, texts.DRAW_MAKE),
                    on_click=DrawState.make_draft(DrawState.action_key),
                    loading=DrawState.busy,
                    variant=rx.cond(DrawState.has_draft, "outline", "solid"),
                ),
                rx.cond(DrawState.has_draft, rx.vstack(_tours(), _swap_form(), width="100%", spacing="4")),
                width="100%",
                spacing="3",
            ),
            rx.text(texts.DRAW_NEEDS_CLOSING),
        ),
        width="100%",
        spacing="3",
    )


def _approved() -> rx.Component:
    return rx.vstack(
        rx.callout(DrawState.approved_note, icon="circle_check", color_scheme="green"),
        rx.heading(texts.DRAW_APPROVED_TITLE, size="5", as_="h2"),
        _tours(),
        width="100%",
        spacing="3",
    )


def draw_page() -> rx.Component:
    return page(
        texts.DRAW_TITLE,
        rx.cond(
            DrawState.allowed,
            rx.vstack(
                _messages(),
                rx.cond(
                    DrawState.approved,
                    _approved(),
                    rx.vstack(
                        _registration(),
                        rx.cond(DrawState.has_season, _draft()),
                        width="100%",
                        spacing="5",
                    ),
                ),
                rx.cond(DrawState.has_season, _windows_form()),
                rx.cond(
                    DrawState.capacity != "",
                    rx.callout(
                        DrawState.capacity,
                        icon="triangle_alert",
                        color_scheme=rx.cond(DrawState.capacity_short, "orange", "gray"),
                        aria_label=texts.DRAW_CAPACITY_LABEL,
                    ),
                ),
                rx.cond(DrawState.has_draft & ~DrawState.approved, _approve_button()),
                spacing="5",
                width="100%",
            ),
            forbidden(texts.FORBIDDEN_ORGANIZER),
        ),
    )
