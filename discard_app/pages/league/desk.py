"""The organizer's desk page: every open item with the action that settles it, updating live."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.event import EventHandler

from discard_app import texts
from discard_app.components.form import action_form
from discard_app.components.season_checklist import season_checklist_card
from discard_app.layout import forbidden, notice, page
from discard_app.state.auth import AuthState
from discard_app.state.desk import ASSIGN, REFUSED, DeskState
from services.core.text_limits import limit_for
from services.views.desk import (
    ANSWER_CALL,
    CLOSE_CALL,
    FALLBACK,
    LIFT_LOCK,
    NEXT_WINDOW,
    RESOLVE_DISPUTE,
    WINDOW_FALLBACK,
)


def _item_form(item: dict[str, Any], handler: EventHandler, *fields: rx.Component) -> rx.Component:
    """The item's action as its own small form: the item and its row as hidden fields, the one-time key, the busy
    button; a refused submit keeps what was typed (components/form.py)."""
    return action_form(
        DeskState,
        rx.el.input(type="hidden", name="item", value=item["key"]),
        rx.el.input(type="hidden", name="title", value=item["title"]),
        rx.el.input(type="hidden", name="target", value=item["target"]),
        *([rx.flex(*fields, spacing="2", wrap="wrap", width="100%")] if fields else []),
        on_submit=handler,
        submit_text=item["action_label"],
        busy=DeskState.working == item["key"],
        submit_props={"aria_label": item["action_label"] + ": " + item["title"]},
        card=False,
    )


def _overrule(item: dict[str, Any]) -> rx.Component:
    """The question before a fallback (one match's or a tour's) that would end other matches' holds, and its tick
    (Регламент §3, §6.3)."""
    return rx.cond(
        DeskState.overrule_key == item["key"],
        rx.vstack(
            rx.callout(DeskState.overrule_text, color_scheme="amber", icon="triangle_alert", width="100%"),
            rx.checkbox(texts.SCHEDULE_OVERRULE_CONFIRM, name="overrule"),
            width="100%",
        ),
    )


def _text(item: dict[str, Any], name: str, label: str) -> rx.Component:
    return rx.input(
        name=name,
        placeholder=label,
        aria_label=label + ": " + item["title"],
        max_length=limit_for(name),
        min_width="14em",
    )


def _ruling_form(item: dict[str, Any]) -> rx.Component:
    """Регламент §6.2: the ruling that closes a call — the sequence of actions, the disagreement, the decision."""
    return _item_form(
        item,
        DeskState.close,
        _text(item, "actions", texts.DESK_RULING_ACTIONS),
        _text(item, "disagreement", texts.DESK_RULING_DISAGREEMENT),
        _text(item, "reason", texts.DESK_RULING_DECISION),
    )


def _choice(name: str, label: str, options: rx.Var[Any], empty: str) -> rx.Component:
    return rx.el.label(
        rx.text(label, size="1", color_scheme="gray"),
        rx.el.select(
            rx.el.option(empty, value=""),
            rx.foreach(options, lambda o: rx.el.option(o["name"], value=o["id"])),
            name=name,
        ),
        display="flex",
        flex_direction="column",
    )


def _assign_judge_form() -> rx.Component:
    """Регламент §6.3: the organizer assigns a judge to a match, a day or a tour; a call goes to that judge first."""
    return action_form(
        DeskState,
        rx.flex(
            rx.text(texts.DESK_ASSIGN_TITLE, weight="bold", width="100%"),
            _choice("judge", texts.DESK_JUDGE, DeskState.judges, texts.CHOOSE_JUDGE),
            _choice("match", texts.DESK_ASSIGN_MATCH, DeskState.matches, texts.CHOOSE_MATCH),
            _choice("round", texts.DESK_ASSIGN_ROUND, DeskState.rounds, texts.CHOOSE_ROUND),
            rx.el.label(
                rx.text(texts.DESK_ASSIGN_DAY, size="1", color_scheme="gray"),
                rx.input(type="date", name="day"),
                display="flex",
                flex_direction="column",
            ),
            spacing="2",
            wrap="wrap",
            align="end",
            width="100%",
        ),
        on_submit=DeskState.assign,
        submit_text=texts.DESK_ASSIGN_SUBMIT,
        busy=DeskState.working == ASSIGN,
        submit_props={"variant": "outline"},
        message=rx.fragment(
            rx.cond(
                (DeskState.error != "") & (DeskState.error_key == ASSIGN),
                rx.callout(DeskState.error, color_scheme="red", role="alert", width="100%"),
            ),
            rx.cond(
                (DeskState.notice != "") & (DeskState.notice_key == ASSIGN),
                rx.callout(DeskState.notice, color_scheme="green", role="status", width="100%"),
            ),
        ),
        card=False,
    )


def _action(item: dict[str, Any]) -> rx.Component:
    return rx.match(
        item["action"],
        (FALLBACK, _item_form(item, DeskState.apply_fallback, _overrule(item))),
        (WINDOW_FALLBACK, _item_form(item, DeskState.apply_window_fallback, _overrule(item))),
        (ANSWER_CALL, _item_form(item, DeskState.answer)),
        (LIFT_LOCK, _item_form(item, DeskState.lift_lock)),
        (CLOSE_CALL, _ruling_form(item)),
        (NEXT_WINDOW, _item_form(item, DeskState.next_window, _text(item, "reason", texts.DESK_REASON))),
        (RESOLVE_DISPUTE, _item_form(item, DeskState.resolve, _text(item, "reason", texts.DESK_DECISION))),
        rx.fragment(),
    )


def _item(item: dict[str, Any]) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text(item["title"], weight="bold"),
            rx.text(item["detail"], size="2"),
            rx.flex(
                _action(item),
                rx.cond(item["link"] != "", rx.link(item["link_label"], href=item["link"])),
                spacing="3",
                wrap="wrap",
                align="center",
                width="100%",
            ),
            rx.cond(
                (DeskState.error != "") & (DeskState.error_key == item["key"]),
                rx.callout(DeskState.error, color_scheme="red", role="alert", width="100%"),
            ),
            spacing="2",
            width="100%",
        ),
        width="100%",
        data_item=item["key"],
        role="group",
        aria_label=item["title"],
    )


def _group(group: dict[str, Any]) -> rx.Component:
    return rx.vstack(
        rx.heading(group["title"], " · ", group["count"], size="4", as_="h2"),
        rx.foreach(DeskState.items, lambda item: rx.cond(item["group"] == group["key"], _item(item))),
        spacing="2",
        width="100%",
    )


def desk_page() -> rx.Component:
    return page(
        rx.cond(AuthState.is_organizer, texts.DESK_TITLE, texts.DESK_TITLE_JUDGE),
        rx.cond(
            DeskState.allowed,
            rx.vstack(
                rx.text(texts.DESK_INTRO, color_scheme="gray", size="2"),
                season_checklist_card(),  # the organizer's only (its state checks the role)
                rx.cond(
                    (DeskState.notice != "") & (DeskState.notice_key != ASSIGN),  # beside the button that caused it
                    rx.callout(DeskState.notice, color_scheme="green", role="status", width="100%"),
                ),
                rx.cond(
                    (DeskState.error != "") & (DeskState.error_key == REFUSED),
                    rx.callout(DeskState.error, color_scheme="red", role="alert", width="100%"),
                ),
                rx.cond(
                    DeskState.count > 0,
                    rx.vstack(rx.foreach(DeskState.groups, _group), spacing="5", width="100%"),
                    notice(texts.DESK_EMPTY_TITLE, texts.DESK_EMPTY_TEXT, color="green"),
                ),
                rx.cond(DeskState.organizer, _assign_judge_form()),
                spacing="4",
                width="100%",
            ),
            forbidden(texts.FORBIDDEN_STAFF),
        ),
    )
