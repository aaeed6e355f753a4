"""The personal calendar feed offered for subscription: the address itself, a webcal:// link that opens the
calendar app in one tap, and a copy button. The address comes from the tab's memory (state/tab_memory.py)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from discard_app import texts


def feed_links(feeds: rx.Var[Any], webcals: rx.Var[Any], *, show_address: bool = True) -> rx.Component:
    """`feeds` and `webcals`: one-item lists (or empty) of the same feed as https:// and as webcal://."""
    return rx.vstack(
        rx.foreach(feeds, lambda feed: rx.code(feed, word_break="break-all")) if show_address else rx.fragment(),
        rx.hstack(
            rx.foreach(
                webcals,
                lambda webcal: rx.link(
                    rx.button(texts.FEED_SUBSCRIBE, type="button"), href=webcal, data_testid="webcal-link"
                ),
            ),
            rx.foreach(
                feeds,
                lambda feed: rx.button(
                    texts.FEED_COPY,
                    type="button",
                    variant="outline",
                    on_click=[rx.set_clipboard(feed), rx.toast.success(texts.FEED_COPIED)],
                ),
            ),
            wrap="wrap",
            spacing="2",
        ),
        spacing="2",
        width="100%",
    )
