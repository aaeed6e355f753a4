"""The organizer's season desk page: current season, a new season, the roster from last season or a CSV file."""

from __future__ import annotations

import reflex as rx

from discard_app import routes, texts
from discard_app.components.secret import secret_box
from discard_app.layout import forbidden, page
from discard_app.pages.league.season_admin_state import CSV_ID, PASSWORDS_BOX, PreviewRow, SeasonAdminState

S = SeasonAdminState


def _section(title: str, *children: rx.Component) -> rx.Component:
    return rx.card(rx.vstack(rx.heading(title, size="4", as_="h2"), *children, spacing="2", width="100%"), width="100%")


def _labelled(label: str, name: str, **props) -> rx.Component:  # noqa: ANN003
    return rx.el.label(
        rx.text(label, size="2", weight="medium"),
        rx.input(name=name, aria_label=label, width="100%", **props),
        style={"display": "block", "width": "100%"},
    )


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
        rx.form(
            rx.vstack(
                _labelled(texts.SEASON_NAME, "name", placeholder="Лига Дискарда 2027"),
                rx.flex(
                    _labelled(texts.SEASON_OPENS, "opens", type="date"),
                    _labelled(texts.SEASON_CLOSES, "closes", type="date"),
                    spacing="2",
                    direction=rx.breakpoints(initial="column", sm="row"),
                    width="100%",
                ),
                rx.button(texts.SEASON_CREATE, type="submit"),
                spacing="2",
                width="100%",
            ),
            on_submit=S.create,
            reset_on_submit=True,
            width="100%",
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
        rx.flex(
            rx.button(
                texts.SEASON_CSV_CHECK, on_click=S.check_csv(rx.upload_files(upload_id=CSV_ID)), variant="outline"
            ),
            rx.cond(
                S.preview.length() > 0,
                rx.button(texts.SEASON_CSV_IMPORT, on_click=S.import_csv(rx.upload_files(upload_id=CSV_ID))),
            ),
            spacing="2",
            wrap="wrap",
        ),
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
                rx.cond(
                    S.previous_name != "",
                    _section(
                        texts.SEASON_COPY,
                        rx.text(texts.SEASON_COPY_HINT, size="2", color_scheme="gray"),
                        rx.button(
                            texts.SEASON_COPY,
                            "«",
                            S.previous_name,
                            "»",
                            on_click=S.copy_roster,
                            variant="outline",
                        ),
                    ),
                ),
                _csv(),
                _section(
                    texts.SEASON_REISSUE,
                    rx.text(texts.SEASON_REISSUE_HINT, size="2", color_scheme="gray"),
                    rx.button(texts.SEASON_REISSUE_BUTTON, on_click=S.reissue_unused, variant="outline"),
                ),
                rx.cond(
                    S.can_finish,
                    _section(
                        texts.SEASON_FINISH,
                        rx.text(texts.SEASON_FINISH_HINT, size="2", color_scheme="gray"),
                        rx.button(texts.SEASON_FINISH, on_click=S.finish, color_scheme="orange", variant="outline"),
                    ),
                ),
                _new_season(),
                spacing="3",
                width="100%",
            ),
            forbidden(texts.FORBIDDEN_ORGANIZER),
        ),
    )
