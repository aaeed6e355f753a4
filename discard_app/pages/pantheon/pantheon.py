"""The organizer's Pantheon page: event settings, player mapping, the import with progress, the decision list."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reflex as rx

from discard_app import texts
from discard_app.components.form import action_form
from discard_app.layout import forbidden, page
from discard_app.pages.pantheon.pantheon_state import DecisionView, MappingView, PantheonState

__all__ = ["PantheonState", "pantheon_page"]


def _messages() -> rx.Component:
    return rx.fragment(
        rx.cond(PantheonState.error != "", rx.callout(PantheonState.error, color_scheme="red", role="alert")),
        rx.cond(PantheonState.notice != "", rx.callout(PantheonState.notice, color_scheme="green", role="status")),
    )


def _field(name: str, label: str, value: rx.Var[Any] | str = "", kind: str = "text") -> rx.Component:
    return rx.el.label(
        rx.text(label, size="2"),
        rx.input(name=name, default_value=value, type=kind, min_width="14em"),
        display="flex",
        flex_direction="column",
        spacing="1",
    )


def _settings_form() -> rx.Component:
    form = action_form(
        PantheonState,
        rx.heading(texts.PANTHEON_SETTINGS, size="4", as_="h2"),
        rx.flex(
            _field("api_url", texts.PANTHEON_URL, PantheonState.api_url),
            _field("event_id", texts.PANTHEON_EVENT, PantheonState.event_id),
            _field("admin_person_id", texts.PANTHEON_ADMIN_ID, PantheonState.admin_person_id),
            _field("admin_token", texts.PANTHEON_ADMIN_TOKEN, "", "password"),
            spacing="2",
            wrap="wrap",
            align="end",
        ),
        rx.cond(PantheonState.token_set, rx.text(texts.PANTHEON_TOKEN_SET, size="2", color_scheme="gray")),
        on_submit=PantheonState.save_settings,
        submit_text=texts.PANTHEON_SAVE,
        card=False,
    )
    return rx.box(form, key=PantheonState.api_url + PantheonState.event_id, width="100%")  # the saved values show


def _mapping_row(row: MappingView) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(row["title"]),
        rx.table.cell(row["player_name"]),
        rx.table.cell(
            rx.cond(
                row["suggested_id"] != "",
                rx.button(
                    texts.PANTHEON_ACCEPT + ": " + row["suggested_name"],
                    size="1",
                    variant="soft",
                    on_click=PantheonState.accept(row["person_id"], row["suggested_id"], PantheonState.action_key),
                ),
            )
        ),
        rx.table.cell(
            action_form(
                PantheonState,
                rx.flex(
                    rx.el.input(type="hidden", name="person_id", value=row["person_id"]),
                    rx.select.root(
                        rx.select.trigger(
                            placeholder=texts.PANTHEON_LEAGUE_PLAYER,
                            aria_label=texts.PANTHEON_LEAGUE_PLAYER + ": " + row["title"],
                        ),
                        rx.select.content(
                            rx.foreach(PantheonState.players, lambda p: rx.select.item(p["label"], value=p["value"]))
                        ),
                        name="player_id",
                        size="1",
                    ),
                    spacing="1",
                ),
                on_submit=PantheonState.map_player,
                submit_text=texts.PANTHEON_MAP,
                submit_props={"size": "1", "variant": "outline"},
                card=False,
            )
        ),
    )


def _decision_row(row: DecisionView) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row["ended"]),
        rx.table.cell(row["seats"]),
        rx.table.cell(rx.text(row["reason"]), rx.text(row["status"], size="1", color_scheme="gray")),
        rx.table.cell(
            rx.cond(
                row["pending"],
                rx.flex(
                    action_form(
                        PantheonState,
                        rx.flex(
                            rx.el.input(type="hidden", name="game_id", value=row["id"]),
                            rx.select.root(
                                rx.select.trigger(placeholder=texts.PANTHEON_MATCH, aria_label=texts.PANTHEON_MATCH),
                                rx.select.content(
                                    rx.foreach(
                                        PantheonState.matches, lambda m: rx.select.item(m["label"], value=m["value"])
                                    )
                                ),
                                name="match_id",
                                size="1",
                            ),
                            spacing="1",
                        ),
                        on_submit=PantheonState.assign,
                        submit_text=texts.PANTHEON_ASSIGN,
                        submit_props={"size": "1"},
                        card=False,
                    ),
                    rx.button(
                        texts.PANTHEON_IGNORE,
                        size="1",
                        variant="soft",
                        color_scheme="gray",
                        on_click=PantheonState.ignore(row["id"], PantheonState.action_key),
                    ),
                    spacing="2",
                    wrap="wrap",
                ),
            )
        ),
    )


def _table(headers: list[str], rows: rx.Var[Any], render: Callable[[Any], rx.Component]) -> rx.Component:
    return rx.box(
        rx.table.root(
            rx.table.header(rx.table.row(*[rx.table.column_header_cell(h) for h in headers])),
            rx.table.body(rx.foreach(rows, render)),
            width="100%",
        ),
        overflow_x="auto",
        width="100%",
    )


def _content() -> rx.Component:
    return rx.vstack(
        rx.text(texts.PANTHEON_INTRO, color_scheme="gray"),
        _messages(),
        _settings_form(),
        rx.cond(
            PantheonState.configured,
            rx.vstack(
                rx.flex(
                    rx.button(
                        texts.PANTHEON_IMPORT,
                        on_click=PantheonState.import_now(PantheonState.action_key),
                        loading=PantheonState.running,
                        disabled=PantheonState.running,
                    ),
                    rx.cond(PantheonState.progress != "", rx.text(PantheonState.progress, role="status")),
                    spacing="3",
                    align="center",
                    wrap="wrap",
                ),
                rx.cond(PantheonState.summary != "", rx.callout(PantheonState.summary, role="status")),
                rx.heading(texts.PANTHEON_MAPPING, size="4", as_="h2"),
                rx.text(texts.PANTHEON_UNMAPPED.format(n="") + PantheonState.unmapped.to_string(), size="2"),
                rx.cond(
                    PantheonState.fetching,
                    rx.hstack(rx.spinner(size="1"), rx.text(texts.PANTHEON_FETCHING, size="2"), role="status"),
                ),
                _table(
                    [texts.PANTHEON_PERSON, texts.PANTHEON_LEAGUE_PLAYER, texts.PANTHEON_SUGGESTED, ""],
                    PantheonState.mapping,
                    _mapping_row,
                ),
                rx.heading(texts.PANTHEON_DECISIONS, size="4", as_="h2"),
                rx.cond(
                    PantheonState.decisions.length() > 0,
                    _table(
                        [texts.PANTHEON_ENDED, texts.PANTHEON_RESULT, texts.PANTHEON_REASON, ""],
                        PantheonState.decisions,
                        _decision_row,
                    ),
                    rx.text(
                        rx.cond(PantheonState.games_seen, texts.PANTHEON_NO_DECISIONS, texts.PANTHEON_NOTHING_READ),
                        color_scheme="gray",
                    ),
                ),
                spacing="3",
                width="100%",
            ),
            rx.text(texts.PANTHEON_NO_SETTINGS, color_scheme="gray"),
        ),
        spacing="4",
        width="100%",
    )


def pantheon_page() -> rx.Component:
    return page(texts.PANTHEON_TITLE, rx.cond(PantheonState.allowed, _content(), forbidden(texts.FORBIDDEN_ORGANIZER)))
