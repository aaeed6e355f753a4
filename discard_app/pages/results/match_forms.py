"""The match page's forms: result entry, dispute, judge's ruling, and the organizer's decisions."""

from __future__ import annotations

from typing import Any

import reflex as rx

from discard_app import texts
from discard_app.components.form import action_form, area, field, labelled
from services.results import ruling_photos
from services.results.hanchans import OUTSIDE_MEETING

PHOTOS_ID = "ruling_photos"
ENTER_FORM_ID = "enter_hanchan"
PHOTO_TYPES = {
    "image/jpeg": [".jpg", ".jpeg"],
    "image/png": [".png"],
    "image/webp": [".webp"],
    "image/heic": [".heic"],
    "image/heif": [".heif"],
}


_labelled, _field, _area = labelled, field, area  # the site's one form (components/form.py)


def _number(
    name: rx.Var[Any] | str, label: str, aria_label: rx.Var[Any] | str, width: str, mode: str = "numeric"
) -> rx.Component:
    return _labelled(label, rx.input(name=name, aria_label=aria_label, input_mode=mode, width=width))


def _points_fields(state: Any) -> rx.Component:
    # Per player: the name, then "Очки" and "Чомбо" with their own labels; on a phone the name sits above them.
    return rx.flex(
        rx.foreach(
            state.form_players,
            lambda p: rx.flex(
                rx.text(p["name"], weight="bold", width=rx.breakpoints(initial="100%", sm="11em")),
                rx.flex(
                    # "text": a phone's numeric keypad has no minus sign, and points below zero are common.
                    _number(
                        "points_" + p["id"],
                        texts.ENTER_POINTS_LABEL,
                        texts.ENTER_POINTS_OF + p["name"],
                        "9em",
                        mode="text",
                    ),
                    _number("chombo_" + p["id"], texts.ENTER_CHOMBO_LABEL, texts.ENTER_CHOMBO_OF + p["name"], "6em"),
                    spacing="3",
                ),
                direction=rx.breakpoints(initial="column", sm="row"),
                align=rx.breakpoints(initial="start", sm="end"),
                spacing="1",
                padding_bottom="0.5em",
                border_bottom="1px solid var(--gray-a4)",
                width="100%",
            ),
        ),
        _labelled(
            texts.ENTER_RIICHI,
            rx.input(name="riichi_left", aria_label=texts.ENTER_RIICHI, input_mode="numeric", width="6em"),
        ),
        direction="column",
        spacing="3",
        width="100%",
    )


def _player_select(state: Any) -> rx.Component:
    return _labelled(
        texts.PENALTY_PLAYER,
        rx.select.root(
            rx.select.trigger(placeholder=texts.CHOOSE_PLAYER, aria_label=texts.PENALTY_PLAYER),
            # Регламент §5: the seated players and those a substitute replaced.
            rx.select.content(rx.foreach(state.penalty_players, lambda p: rx.select.item(p["name"], value=p["id"]))),
            name="player_id",
        ),
    )


def _section(
    title: str | rx.Var[Any],
    *children: rx.Component,
    state: Any,
    submit_text: str,
    on_submit: Any,
    form_id: str | None = None,
    **submit_props: Any,
) -> rx.Component:
    """One form of the match page; disabled while any form's event of this page runs (`saving`)."""
    return action_form(
        state,
        *children,
        title=title,
        on_submit=on_submit,
        submit_text=submit_text,
        busy=state.saving,
        form_id=form_id,
        submit_props=submit_props,
    )


def result_forms(state: Any) -> rx.Component:
    """Entry for participants, the judge and the organizer; dispute for participants; rulings for the judge."""
    enter = _section(
        texts.ENTER_HANCHAN_PREFIX + state.entry_number.to_string(),
        rx.text(state.enter_hint, size="2", color_scheme="gray"),
        rx.text(texts.ENTER_POINTS_HINT, size="2", color_scheme="gray"),
        _points_fields(state),
        rx.cond(state.repeat_asked, rx.checkbox(texts.ENTER_REPEAT, name="repeat")),
        # Регламент §6.2, §6.3: outside a meeting only the organizer enters, and says why (the protocol records it)
        rx.cond(
            state.entry_closed != "",
            rx.vstack(
                rx.text(state.entry_closed, " ", OUTSIDE_MEETING, size="2", color_scheme="orange"),
                _area("reason", texts.ENTER_REASON),
                spacing="1",
                width="100%",
            ),
        ),
        rx.el.input(type="hidden", name="form_rev", value=state.form_rev.to_string()),
        state=state,
        submit_text=texts.ENTER_SUBMIT,
        on_submit=state.enter,
        form_id=ENTER_FORM_ID,
    )
    dispute = _section(
        texts.DISPUTE_TITLE,
        _hanchan_select(state),
        _area("note", texts.DISPUTE_NOTE),
        state=state,
        submit_text=texts.DISPUTE_SUBMIT,
        variant="outline",
        color_scheme="red",
        on_submit=state.dispute,
    )
    ruling = _section(
        texts.RULING_TITLE,
        _field("hanchan_number", texts.RULING_HANCHAN, input_mode="numeric"),
        _area("actions", texts.RULING_ACTIONS),
        _area("disagreement", texts.RULING_DISAGREEMENT),
        _area("decision", texts.RULING_DECISION),
        _photos_zone(state),
        state=state,
        submit_text=texts.RULING_SUBMIT,
        variant="outline",
        # The photos go with the form in one request; the handler checks the role before reading them.
        on_submit=lambda form: state.ruling(rx.upload_files(upload_id=PHOTOS_ID), form),
    )
    return rx.vstack(
        rx.cond(
            state.can_enter & (state.next_number > 0),
            rx.cond(
                state.needs_substitute != "",
                # Регламент §6.1: the withdrawn have no points here; a technical substitute takes the seat first
                rx.text(texts.ENTER_NEEDS_SUBSTITUTE, state.needs_substitute, ".", color_scheme="gray"),
                rx.cond(
                    (state.entry_closed == "") | state.organizer,
                    enter,
                    rx.text(state.entry_closed, color_scheme="gray"),  # Регламент §6.2: when entry opens
                ),
            ),
        ),
        rx.cond(state.participant & (state.hanchans.length() > 0), dispute),
        rx.cond(state.staff, ruling),
        spacing="3",
        width="100%",
    )


def _photos_zone(state: Any) -> rx.Component:
    """Регламент §6.2: «приложите фотографии при необходимости». The browser's limits only save a useless upload;
    the server checks the same limits and the content (services.results.ruling_photos)."""
    return rx.vstack(
        rx.text(texts.RULING_PHOTOS, size="2", weight="medium"),
        rx.upload.root(
            rx.vstack(
                rx.text(texts.RULING_PHOTOS_HINT, size="2", color_scheme="gray"),
                rx.foreach(rx.selected_files(PHOTOS_ID), lambda name: rx.text(name, size="1")),
                spacing="1",
            ),
            id=PHOTOS_ID,
            accept=PHOTO_TYPES,
            max_files=ruling_photos.MAX_PHOTOS,
            max_size=ruling_photos.MAX_BYTES,
            multiple=True,
            on_drop_rejected=state.photos_rejected,
            aria_label=texts.RULING_PHOTOS,
            border="1px dashed var(--gray-a8)",
            border_radius="var(--radius-2)",
            padding="0.75em",
            cursor="pointer",
            width="100%",
        ),
        spacing="1",
        width="100%",
    )


def _hanchan_select(state: Any) -> rx.Component:
    return _labelled(
        texts.DISPUTE_HANCHAN,
        rx.select.root(
            rx.select.trigger(placeholder=texts.CHOOSE_HANCHAN, aria_label=texts.DISPUTE_HANCHAN),
            rx.select.content(
                rx.foreach(
                    state.hanchans, lambda h: rx.select.item(texts.FORM_HANCHAN_PREFIX + h["number"], value=h["id"])
                )
            ),
            name="hanchan_id",
        ),
    )


def _correction_select(state: Any) -> rx.Component:
    """Регламент §6.2: by number, chosen explicitly, and it stays chosen (a correction keeps the number)."""
    return _labelled(
        texts.DISPUTE_HANCHAN,
        rx.select.root(
            rx.select.trigger(placeholder=texts.CHOOSE_HANCHAN, aria_label=texts.CORRECT_HANCHAN),
            rx.select.content(
                rx.foreach(
                    state.hanchans, lambda h: rx.select.item(texts.FORM_HANCHAN_PREFIX + h["number"], value=h["number"])
                )
            ),
            name="hanchan_number",
            value=state.correct_number,
            on_change=state.pick_correction,
        ),
    )


def _prefilled(name: rx.Var[Any], label: str, aria_label: rx.Var[Any] | str, width: str, state: Any) -> rx.Component:
    key = state.correct_number + "-" + state.correct_rev.to_string() + "-" + name
    control = rx.input(name=name, aria_label=aria_label, default_value=state.correct_values[name], key=key, width=width)
    return _labelled(label, control)


def _correction_fields(state: Any) -> rx.Component:
    """The chosen hanchan's current points, chombo and sticks, to change what is wrong and keep the rest."""
    return rx.flex(
        rx.foreach(
            state.form_players,
            lambda p: rx.flex(
                rx.text(p["name"], weight="bold", width=rx.breakpoints(initial="100%", sm="11em")),
                _prefilled(
                    "points_" + p["id"], texts.ENTER_POINTS_LABEL, texts.CORRECT_POINTS_OF + p["name"], "9em", state
                ),
                _prefilled(
                    "chombo_" + p["id"], texts.ENTER_CHOMBO_LABEL, texts.CORRECT_CHOMBO_OF + p["name"], "6em", state
                ),
                spacing="3",
                align="end",
                wrap="wrap",
            ),
        ),
        _prefilled("riichi_left", texts.ENTER_RIICHI, texts.CORRECT_RIICHI, "6em", state),
        direction="column",
        spacing="3",
        width="100%",
    )


def organizer_forms(state: Any) -> rx.Component:
    """Регламент §5, §6.1–6.3: corrections, replays, dispute decisions and penalties — organizer only."""
    return rx.vstack(
        rx.heading(texts.ORG_TITLE, size="4", as_="h2"),
        rx.cond(
            state.hanchans.length() > 0,
            rx.fragment(
                _section(
                    texts.CORRECT_TITLE,
                    _correction_select(state),
                    rx.cond(state.correct_number != "", _correction_fields(state), rx.text(texts.CORRECT_CHOOSE_FIRST)),
                    rx.checkbox(texts.CORRECT_REPLAY, name="replay"),
                    _field("reason", texts.CORRECT_REASON),
                    _field("decision", texts.CORRECT_DECISION),
                    state=state,
                    submit_text=texts.CORRECT_SUBMIT,
                    variant="outline",
                    on_submit=state.correct,
                ),
                _section(
                    texts.RESOLVE_TITLE,
                    _hanchan_select(state),
                    _field("decision", texts.CORRECT_DECISION),
                    state=state,
                    submit_text=texts.RESOLVE_SUBMIT,
                    variant="outline",
                    on_submit=state.resolve,
                ),
            ),
        ),
        _section(
            state.no_show_title,
            _player_select(state),
            state=state,
            submit_text=texts.NO_SHOW_SUBMIT,
            variant="outline",
            color_scheme="red",
            on_submit=state.ask_no_show,
        ),
        _section(
            texts.CONDUCT_TITLE,
            # The EMA ladder once, then one short line per player.
            rx.box(
                rx.text(texts.CONDUCT_EMA_NOTE, size="1", color_scheme="gray"),
                rx.foreach(state.suggestions, lambda s: rx.text(s, size="1", color_scheme="gray")),
            ),
            _player_select(state),
            _field("amount", texts.CONDUCT_AMOUNT, input_mode="numeric"),
            _field("violation", texts.CONDUCT_VIOLATION),
            _field("basis", texts.CONDUCT_BASIS),
            state=state,
            submit_text=texts.CONDUCT_SUBMIT,
            variant="outline",
            color_scheme="red",
            on_submit=state.conduct,
        ),
        rx.cond(
            state.penalties.length() > 0,
            _section(
                texts.PENALTY_CANCEL_TITLE,
                _labelled(
                    texts.PENALTY_CANCEL_WHICH,
                    rx.select.root(
                        rx.select.trigger(
                            placeholder=texts.PENALTY_CANCEL_CHOOSE, aria_label=texts.PENALTY_CANCEL_WHICH
                        ),
                        rx.select.content(
                            rx.foreach(state.penalties, lambda p: rx.select.item(p["label"], value=p["id"]))
                        ),
                        name="penalty_id",
                    ),
                ),
                _field("reason", texts.PENALTY_CANCEL_REASON),
                state=state,
                submit_text=texts.PENALTY_CANCEL_SUBMIT,
                on_submit=state.cancel_penalty,
                variant="outline",
            ),
        ),
        _section(
            texts.REPLAY_TITLE,
            _field("reason", texts.CORRECT_REASON),
            _field("decision", texts.CORRECT_DECISION),
            state=state,
            submit_text=texts.REPLAY_SUBMIT,
            variant="outline",
            color_scheme="red",
            on_submit=state.replay_match,
        ),
        spacing="3",
        width="100%",
    )


def photos_cell(paths: rx.Var[Any]) -> rx.Component:
    """A ruling's photos in the protocol: thumbnails linking to the file; HEIC, which most browsers cannot draw,
    as a link only. `paths` is the newline-separated column as stored."""

    def one(path: rx.Var[Any]) -> rx.Component:
        url = rx.get_upload_url(path)
        return rx.link(
            rx.cond(
                path.endswith(".heic"),
                rx.text("HEIC", size="1"),
                rx.image(src=url, alt=texts.RULING_PHOTO_ALT, width="64px", height="64px", object_fit="cover"),
            ),
            href=url,
            is_external=True,
        )

    return rx.table.cell(
        rx.cond(paths != "", rx.flex(rx.foreach(paths.split("\n"), one), spacing="1", wrap="wrap")),
        min_width="8em",
    )
