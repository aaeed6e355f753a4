"""The match page's forms: result entry, dispute, judge's ruling, and the organizer's decisions."""

from __future__ import annotations

from typing import Any

import reflex as rx

from discard_app import texts


def _field(name: str, label: str | rx.Var, **props: Any) -> rx.Component:
    return rx.input(name=name, placeholder=label, aria_label=label, min_width="10em", **props)


def _area(name: str, label: str) -> rx.Component:
    return rx.text_area(name=name, placeholder=label, aria_label=label, width="100%")


def _points_fields(state: Any) -> rx.Component:
    return rx.flex(
        rx.foreach(
            state.form_players,
            lambda p: rx.flex(
                rx.text(p["name"], weight="medium", min_width="9em"),
                rx.input(
                    name="points_" + p["id"],
                    placeholder="30000",
                    aria_label="Очки: " + p["name"],
                    input_mode="numeric",
                    width="8em",
                ),
                rx.input(
                    name="chombo_" + p["id"],
                    placeholder="0",
                    aria_label="Чомбо: " + p["name"],
                    input_mode="numeric",
                    width="4em",
                ),
                gap="2",
                align="center",
                wrap="wrap",
            ),
        ),
        rx.flex(
            rx.text(texts.ENTER_RIICHI, min_width="9em"),
            rx.input(
                name="riichi_left", placeholder="0", aria_label=texts.ENTER_RIICHI, input_mode="numeric", width="4em"
            ),
            gap="2",
            align="center",
        ),
        direction="column",
        gap="2",
    )


def _player_select(state: Any) -> rx.Component:
    return rx.select.root(
        rx.select.trigger(placeholder=texts.PENALTY_PLAYER, aria_label=texts.PENALTY_PLAYER),
        rx.select.content(rx.foreach(state.form_players, lambda p: rx.select.item(p["name"], value=p["id"]))),
        name="player_id",
    )


def _section(title: str, *children: rx.Component, on_submit: Any) -> rx.Component:
    return rx.card(
        rx.form(
            rx.vstack(rx.heading(title, size="3", as_="h3"), *children, spacing="2", width="100%"),
            on_submit=on_submit,
            reset_on_submit=False,
        ),
        width="100%",
    )


def result_forms(state: Any) -> rx.Component:
    """Entry for participants, the judge and the organizer; dispute for participants; rulings for the judge."""
    enter = _section(
        "Внести ханчан " + state.next_number.to_string(),
        rx.text(texts.ENTER_HINT, size="2", color_scheme="gray"),
        _points_fields(state),
        rx.button(texts.ENTER_SUBMIT, type="submit"),
        on_submit=state.enter,
    )
    dispute = _section(
        texts.DISPUTE_TITLE,
        rx.select.root(
            rx.select.trigger(placeholder=texts.DISPUTE_HANCHAN, aria_label=texts.DISPUTE_HANCHAN),
            rx.select.content(
                rx.foreach(state.hanchans, lambda h: rx.select.item("Ханчан " + h["number"], value=h["id"]))
            ),
            name="hanchan_id",
        ),
        _area("note", texts.DISPUTE_NOTE),
        rx.button(texts.DISPUTE_SUBMIT, type="submit", variant="outline", color_scheme="red"),
        on_submit=state.dispute,
    )
    ruling = _section(
        texts.RULING_TITLE,
        _field("hanchan_number", texts.RULING_HANCHAN, input_mode="numeric"),
        _area("actions", texts.RULING_ACTIONS),
        _area("disagreement", texts.RULING_DISAGREEMENT),
        _area("decision", texts.RULING_DECISION),
        rx.button(texts.RULING_SUBMIT, type="submit", variant="outline"),
        on_submit=state.ruling,
    )
    return rx.vstack(
        rx.cond(state.can_enter & (state.next_number > 0), enter),
        rx.cond(state.participant & (state.hanchans.length() > 0), dispute),
        rx.cond(state.staff, ruling),
        spacing="3",
        width="100%",
    )


def _hanchan_select(state: Any) -> rx.Component:
    return rx.select.root(
        rx.select.trigger(placeholder=texts.DISPUTE_HANCHAN, aria_label=texts.DISPUTE_HANCHAN),
        rx.select.content(rx.foreach(state.hanchans, lambda h: rx.select.item("Ханчан " + h["number"], value=h["id"]))),
        name="hanchan_id",
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
                    _hanchan_select(state),
                    _points_fields(state),
                    rx.checkbox(texts.CORRECT_REPLAY, name="replay"),
                    _field("reason", texts.CORRECT_REASON),
                    _field("decision", texts.CORRECT_DECISION),
                    rx.button(texts.CORRECT_SUBMIT, type="submit", variant="outline"),
                    on_submit=state.correct,
                ),
                _section(
                    texts.RESOLVE_TITLE,
                    _hanchan_select(state),
                    _field("decision", texts.CORRECT_DECISION),
                    rx.button(texts.RESOLVE_SUBMIT, type="submit", variant="outline"),
                    on_submit=state.resolve,
                ),
            ),
        ),
        _section(
            texts.NO_SHOW_TITLE,
            _player_select(state),
            rx.button(texts.NO_SHOW_SUBMIT, type="submit", variant="outline", color_scheme="red"),
            on_submit=state.no_show,
        ),
        _section(
            texts.CONDUCT_TITLE,
            rx.vstack(rx.foreach(state.suggestions, lambda s: rx.text(s, size="1", color_scheme="gray"))),
            _player_select(state),
            _field("amount", texts.CONDUCT_AMOUNT, input_mode="numeric"),
            _field("violation", texts.CONDUCT_VIOLATION),
            _field("basis", texts.CONDUCT_BASIS),
            rx.button(texts.CONDUCT_SUBMIT, type="submit", variant="outline", color_scheme="red"),
            on_submit=state.conduct,
        ),
        _section(
            texts.REPLAY_TITLE,
            _field("reason", texts.CORRECT_REASON),
            _field("decision", texts.CORRECT_DECISION),
            rx.button(texts.REPLAY_SUBMIT, type="submit", variant="outline", color_scheme="red"),
            on_submit=state.replay_match,
        ),
        spacing="3",
        width="100%",
    )
