"""The organizer's season desk page: current season, a new season, the roster from last season or a CSV file."""

from __future__ import annotations

import reflex as rx

from discard_app import routes, texts
from discard_app.components.confirm import confirm_dialog
from discard_app.components.form import action_form, field
from discard_app.components.secret import secret_box
from discard_app.layout import forbidden, page
from discard_app.pages.league.season_admin_state import (
    CSV_ID,
    NEW_SEASON_FORM_ID,
    PASSWORDS_BOX,
    PreviewRow,
    SeasonAdminState,
)
from discard_app.state.action import KEY_FIELD

S = SeasonAdminState


def _section(title: str, *children: rx.Component) -> rx.Component:
    return rx.card(rx.vstack(rx.heading(title, size="4", as_="h2"), *children, spacing="2", width="100%"), width="100%")


def _messages() -> rx.Component:
    return rx.fragment(
        rx.cond(S.error != "", rx.callout(S.error, color_scheme="red", role="alert", width="100%")),
        rx.cond(S.notice != "", rx.callout(S.notice, color_scheme="green", role="status", width="100%")),
        rx.foreach(S.details, lambda d: rx.text(d, size="2", color_scheme="orange")),
        secret_box(PASSWORDS_BOX),
    )


def _new_season() -> rx.Component:
    return _section(
        texts.SEASON_NEW,
        rx.text(texts.SEASON_NEW_HINT, size="2", color_scheme="gray"),
        action_form(
            S,
            field("name", texts.SEASON_NAME, placeholder=texts.SEASON_NAME_EXAMPLE),
            rx.flex(
                field("opens", texts.SEASON_OPENS, type="date"),
                field("closes", texts.SEASON_CLOSES, type="date"),
                spacing="2",
                direction=rx.breakpoints(initial="column", sm="row"),
                width="100%",
            ),
            on_submit=S.create,
            submit_text=texts.SEASON_CREATE,
            form_id=NEW_SEASON_FORM_ID,
            card=False,
        ),
    )


def _dates() -> rx.Component:
    """Регламент §1: registration until a date — the current season's, set here (the checklist links to it)."""
    return _section(
        texts.SEASON_DATES_TITLE,
        action_form(
            S,
            rx.flex(
                field("opens", texts.SEASON_DATES_OPENS, type="date", default_value=S.opens_value, key=S.opens_value),
                field(
                    "closes", texts.SEASON_DATES_CLOSES, type="date", default_value=S.closes_value, key=S.closes_value
                ),
                spacing="2",
                direction=rx.breakpoints(initial="column", sm="row"),
                width="100%",
            ),
            on_submit=S.set_dates,
            submit_text=texts.SEASON_DATES_SUBMIT,
            submit_props={"variant": "outline"},
            card=False,
        ),
    )


def _copy() -> rx.Component:
    return _section(
        texts.SEASON_COPY,
        rx.text(texts.SEASON_COPY_HINT, size="2", color_scheme="gray"),
        action_form(
            S,
            rx.text(texts.SEASON_COPY, "«", S.previous_name, "»", size="2", weight="medium"),
            on_submit=S.copy_roster,
            submit_text=texts.SEASON_COPY_BUTTON,
            submit_props={"variant": "outline"},
            card=False,
        ),
    )


def _reissue() -> rx.Component:
    return _section(
        texts.SEASON_REISSUE,
        rx.text(texts.SEASON_REISSUE_HINT, size="2", color_scheme="gray"),
        rx.button(texts.SEASON_REISSUE_BUTTON, on_click=S.ask_reissue, variant="outline"),
        confirm_dialog(
            S.reissue_question,
            S.reissue_text,
            confirm=texts.SEASON_REISSUE_CONFIRM,
            on_confirm=S.reissue_unused({KEY_FIELD: S.action_key}),
            cancel=texts.SEASON_REISSUE_CANCEL,
            is_open=S.reissue_question != "",
            on_open_change=S.cancel_reissue,
            danger=True,
        ),
    )


def _finish() -> rx.Component:
    return _section(
        texts.SEASON_FINISH,
        rx.text(texts.SEASON_FINISH_HINT, size="2", color_scheme="gray"),
        rx.button(texts.SEASON_FINISH, on_click=S.ask_finish, color_scheme="orange", variant="outline"),
        confirm_dialog(
            texts.SEASON_FINISH_CONFIRM_TITLE,
            S.finish_question,
            confirm=texts.SEASON_FINISH,
            on_confirm=S.finish({KEY_FIELD: S.action_key}),
            cancel=texts.SEASON_FINISH_CANCEL,
            is_open=S.finish_question != "",
            on_open_change=S.cancel_finish,
            danger=True,
        ),
    )


def _preview_row(row: PreviewRow) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row["line"]),
        rx.table.row_header_cell(row["name"]),
        rx.table.cell(row["fee"]),
        rx.table.cell(rx.text(row["outcome"], color_scheme=rx.cond(row["accepted"], "green", "red"), size="2")),
    )


def _csv() -> rx.Component:
    return _section(
        texts.SEASON_CSV,
        rx.text(texts.SEASON_CSV_HINT, size="2", color_scheme="gray"),
        rx.upload.root(
            rx.vstack(
                rx.text(texts.SEASON_CSV_PICK, size="2", color_scheme="gray"),
                rx.foreach(rx.selected_files(CSV_ID), lambda name: rx.text(name, size="2", weight="medium")),
                spacing="1",
            ),
            id=CSV_ID,
            accept={"text/csv": [".csv"], "text/plain": [".txt"]},
            max_files=1,
            aria_label=texts.SEASON_CSV,
            border="1px dashed var(--gray-a8)",
            border_radius="var(--radius-2)",
            padding="0.75em",
            cursor="pointer",
            width="100%",
        ),
        rx.button(texts.SEASON_CSV_CHECK, on_click=S.check_csv(rx.upload_files(upload_id=CSV_ID)), variant="outline"),
        rx.cond(
            S.preview.length() > 0,
            rx.box(
                rx.table.root(
                    rx.table.header(
                        rx.table.row(
                            rx.table.column_header_cell(texts.SEASON_CSV_LINE),
                            rx.table.column_header_cell(texts.SEASON_CSV_WHO),
                            rx.table.column_header_cell(texts.SEASON_CSV_FEE),
                            rx.table.column_header_cell(texts.SEASON_CSV_OUTCOME),
                        )
                    ),
                    rx.table.body(rx.foreach(S.preview, _preview_row)),
                    width="100%",
                    min_width="30em",
                ),
                overflow_x="auto",
                width="100%",
            ),
        ),
        rx.cond(
            S.preview.length() > 0,
            action_form(
                S,
                on_submit=lambda form: S.import_csv(rx.upload_files(upload_id=CSV_ID), form),
                submit_text=texts.SEASON_CSV_IMPORT,
                card=False,
            ),
        ),
    )


def season_admin_page() -> rx.Component:
    return page(
        texts.SEASON_ADMIN_TITLE,
        rx.cond(
            S.allowed,
            rx.vstack(
                rx.text(S.current, weight="medium"),
                rx.cond(S.dates != "", rx.text(S.dates, size="2", color_scheme="gray")),
                rx.flex(
                    rx.link(texts.SEASON_GO_ROSTER, href=routes.ROSTER),
                    rx.link(texts.SEASON_GO_DRAW, href=routes.DRAW),
                    rx.link(texts.SEASONS_TITLE, href=routes.SEASONS),
                    column_gap="1.25em",
                    wrap="wrap",
                ),
                _messages(),
                rx.cond(S.has_season, _dates()),
                rx.cond(S.previous_name != "", _copy()),
                _csv(),
                _reissue(),
                rx.cond(S.can_finish, _finish()),
                _new_season(),
                spacing="3",
                width="100%",
            ),
            forbidden(texts.FORBIDDEN_ORGANIZER),
        ),
    )
