"""What frames every page outside the pages themselves: the connection-lost banner and the 404 page, in Russian."""

from __future__ import annotations

import reflex as rx
from reflex_components_core.core.banner import has_too_many_connection_errors

from discard_app import routes, texts


def connection_overlay(stateful: bool) -> rx.Component | None:
    """Replaces Reflex's English overlay ("Cannot connect to server: websocket error…"); shown after two failed
    connection attempts, as Reflex's own toast was, at the top of the viewport."""
    if not stateful:
        return None
    return rx.cond(
        has_too_many_connection_errors,
        rx.box(
            rx.callout(texts.CONNECTION_LOST, icon="wifi_off", color_scheme="red", role="alert", variant="surface"),
            position="fixed",
            top="0.5em",
            left="50%",
            transform="translateX(-50%)",
            width="min(36em, calc(100% - 1em))",
            z_index="100",
        ),
    )


def not_found_page() -> rx.Component:
    return rx.center(
        rx.vstack(
            rx.heading(texts.NOT_FOUND_TITLE, size="7", as_="h1"),
            rx.text(texts.NOT_FOUND_TEXT),
            rx.link(texts.NOT_FOUND_HOME, href=routes.HOME),
            spacing="3",
            align="center",
            padding="2em",
        ),
        width="100%",
    )
