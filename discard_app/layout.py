"""The page template: navigation with the user's name and logout, and the refusal block."""

from __future__ import annotations

import reflex as rx

from discard_app import routes, texts
from discard_app.state.auth import AuthState


def _nav_link(label: str, href: str) -> rx.Component:
    return rx.link(label, href=href, size="3", weight="medium")


def navbar() -> rx.Component:
    return rx.flex(
        rx.link(rx.heading(texts.APP_TITLE, size="5"), href=routes.HOME, underline="none"),
        rx.flex(
            _nav_link(texts.NAV_HOME, routes.HOME),
            rx.cond(AuthState.is_organizer, _nav_link(texts.NAV_ROSTER, routes.ROSTER)),
            rx.cond(AuthState.is_organizer, _nav_link(texts.NAV_DRAW, routes.DRAW)),
            rx.cond(AuthState.is_organizer, _nav_link(texts.NAV_SCHEDULE, routes.SCHEDULE_OVERVIEW)),
            rx.cond(AuthState.is_organizer, _nav_link(texts.NAV_PANTHEON, routes.PANTHEON)),
            _nav_link(texts.NAV_STANDINGS, routes.STANDINGS),
            _nav_link(texts.NAV_CALENDAR, routes.CLUB_CALENDAR),
            _nav_link(texts.NAV_PLAYOFF, routes.PLAYOFF),
            _nav_link(texts.NAV_ANNOUNCEMENTS, routes.ANNOUNCEMENTS),
            _nav_link(texts.NAV_PROFILE, routes.PROFILE),
            spacing="4",
            wrap="wrap",
        ),
        rx.spacer(),
        rx.flex(
            rx.text(AuthState.user_name, weight="bold"),
            rx.button(texts.LOGOUT, on_click=AuthState.logout, variant="soft", size="2"),
            spacing="3",
            align="center",
        ),
        as_="nav",
        align="center",
        wrap="wrap",
        gap="3",
        padding="0.75em 1em",
        border_bottom="1px solid var(--gray-a5)",
        width="100%",
    )


def page(title: str, *children: rx.Component) -> rx.Component:
    """A logged-in page: navigation on top, content in a column that fits a phone."""
    return rx.box(
        navbar(),
        rx.container(
            rx.cond(
                AuthState.user_name != "",
                rx.vstack(rx.heading(title, size="7", as_="h1"), *children, spacing="4", width="100%"),
                rx.center(rx.spinner(size="3"), padding="3em"),
            ),
            size="3",
            padding_x="1em",
            padding_y="1.5em",
        ),
        width="100%",
    )


def notice(
    title: str, text: str | rx.Var, *, icon: str = "info", color: str = "blue", role: str = "status"
) -> rx.Component:
    """A callout with a bold title line, then the explanation."""
    return rx.callout.root(
        rx.callout.icon(rx.icon(icon)),
        rx.callout.text(rx.text.strong(title), rx.el.br(), text),
        color_scheme=color,
        role=role,
        width="100%",
    )


def forbidden(message: str) -> rx.Component:
    return notice(texts.FORBIDDEN_TITLE, message, icon="ban", color="red", role="alert")
