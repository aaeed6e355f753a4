"""«Позвать судью» on the match page (Регламент §6.2): a seated player, during a booked meeting."""

from __future__ import annotations

from typing import Any

import reflex as rx

from discard_app import texts
from discard_app.components.form import action_form
from discard_app.components.text_limit import limit_hint
from services.core.text_limits import limit_for


def judge_call_form(state: Any) -> rx.Component:
    """An `action_form`: its one-time key makes a double tap one call (issue 40)."""
    return action_form(
        state,
        rx.text(texts.JUDGE_CALL_HINT, size="2", color_scheme="gray"),
        rx.flex(
            rx.el.label(
                rx.text(texts.JUDGE_CALL_HANCHAN, size="1", color_scheme="gray"),
                rx.el.select(
                    rx.el.option(texts.CHOOSE_HANCHAN, value=""),
                    rx.foreach(state.hanchan_numbers, lambda n: rx.el.option(n, value=n)),
                    name="hanchan",
                ),
                display="flex",
                flex_direction="column",
            ),
            rx.el.label(
                rx.text(texts.JUDGE_CALL_DESCRIPTION, size="1", color_scheme="gray"),
                rx.input(name="description", max_length=limit_for("description"), min_width="16em"),
                limit_hint("description"),
                display="flex",
                flex_direction="column",
                flex_grow="1",
            ),
            spacing="2",
            wrap="wrap",
            align="end",
            width="100%",
        ),
        on_submit=state.call_judge,
        submit_text=texts.JUDGE_CALL_SUBMIT,
        title=texts.JUDGE_CALL_TITLE,
        submit_props={"color_scheme": "orange"},
        card=False,
    )
