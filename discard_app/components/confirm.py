"""A question asked before an action that cannot simply be taken back: what it is, what follows, two buttons."""

from __future__ import annotations

from typing import Any

import reflex as rx


def confirm_dialog(
    title: Any,
    text: Any,
    *,
    confirm: Any,
    on_confirm: Any,
    cancel: str,
    is_open: rx.Var[Any],
    on_cancel: Any = None,
    on_open_change: Any = None,
    danger: bool = False,
    extra: rx.Component | None = None,
) -> rx.Component:
    """Open while `is_open`; `on_confirm` acts, the cancel button (or `on_open_change` on Escape) changes nothing."""
    cancel_button = rx.button(
        cancel, variant="soft", color_scheme="gray", **({"on_click": on_cancel} if on_cancel else {})
    )
    confirm_button = rx.button(confirm, on_click=on_confirm, **({"color_scheme": "red"} if danger else {}))
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(title),
            rx.alert_dialog.description(text),
            *([extra] if extra is not None else []),  # e.g. a checkbox that shapes what the confirmation does
            rx.flex(
                rx.alert_dialog.cancel(cancel_button),
                rx.alert_dialog.action(confirm_button),
                spacing="3",
                justify="end",
                wrap="wrap",
                margin_top="1em",
            ),
            overflow_wrap="anywhere",  # a long name without spaces stays inside a phone's width
        ),
        open=is_open,
        **({"on_open_change": on_open_change} if on_open_change is not None else {}),
    )
