"""The page template: navigation with the user's name and logout, and the refusal block."""

from __future__ import annotations

from typing import Any

import reflex as rx

from discard_app import routes, texts
from discard_app.components.form import LEAVES
from discard_app.state.auth import AuthState
from discard_app.state.desk import DeskState


def _desk_badge() -> rx.Component:
    """The organizer's count of open items beside the desk link; kept live by the desk's refresh loop."""
    return rx.cond(
        DeskState.count > 0, rx.badge(DeskState.count, color_scheme="red", variant="solid", margin_left="0.3em")
    )


def _nav_link(label: str | rx.Var[Any], href: str) -> rx.Component:
    badge = _desk_badge() if href == routes.DESK else rx.fragment()
    return rx.link(label, badge, href=href, size="3", weight="medium", white_space="nowrap")


def _nav_items() -> list[tuple[str | rx.Var[Any], str, bool | str]]:
    """(label, href, organizer only): one list for the desktop row and the phone menu."""
    return [
        (texts.NAV_HOME, routes.HOME, False),
        # the organizer's and the judge's desk, named for whoever looks
        (rx.cond(AuthState.is_organizer, texts.NAV_DESK, texts.NAV_DESK_JUDGE), routes.DESK, "staff"),
        (texts.NAV_ROSTER, routes.ROSTER, True),
        (texts.NAV_STAFF, routes.STAFF, True),  # the judge and the experts (issue 45 item 10)
        (texts.NAV_DRAW, routes.DRAW, True),
        (texts.NAV_SCHEDULE, routes.SCHEDULE_OVERVIEW, True),
        (texts.NAV_PANTHEON, routes.PANTHEON, True),
        (texts.NAV_STANDINGS, routes.STANDINGS, False),
        (texts.NAV_CALENDAR, routes.CLUB_CALENDAR, False),
        (texts.NAV_PLAYOFF, routes.PLAYOFF, False),
        (texts.NAV_SEASONS, routes.SEASONS, False),
        (texts.NAV_REGULATION, routes.REGULATION, False),
        (texts.NAV_ANNOUNCEMENTS, routes.ANNOUNCEMENTS, False),
        (texts.NAV_PROFILE, routes.PROFILE, False),
    ]


def _only_organizer(organizer_only: bool | str, component: rx.Component) -> rx.Component:
    if organizer_only == "staff":
        return rx.cond(AuthState.is_organizer | (AuthState.user_role == "judge"), component)
    return rx.cond(AuthState.is_organizer, component) if organizer_only else component


def _phone_menu() -> rx.Component:
    """On a phone ten links would take half the screen: they fold into one menu button."""
    return rx.menu.root(
        rx.menu.trigger(rx.button(rx.icon("menu", size=18), texts.NAV_MENU, variant="soft", size="2")),
        rx.menu.content(
            # On a phone the user's name lives here, not in the crowded top row.
            rx.text(
                AuthState.user_name,
                rx.text.span(" · ", AuthState.role_name, weight="regular", color_scheme="gray"),
                weight="bold",
                size="2",
                padding="0.25em 0.75em",
                display=["block", "none"],
            ),
            rx.box(rx.menu.separator(), display=["block", "none"]),
            *[
                _only_organizer(
                    only,
                    rx.menu.item(
                        label,
                        _desk_badge() if href == routes.DESK else rx.fragment(),
                        on_click=rx.redirect(href),
                        custom_attrs=LEAVES,
                    ),
                )
                for label, href, only in _nav_items()
            ],
        ),
    )


def navbar() -> rx.Component:
    # Top row: the club's name, the user and logout. Below it the links in one wrapping row on a wide
    # screen; below 48em (phones, small tablets) they fold into a menu button in the top row instead.
    return rx.el.nav(
        rx.flex(
            rx.link(
                rx.heading(texts.APP_TITLE, size=rx.breakpoints(initial="4", xs="5"), white_space="nowrap"),
                href=routes.HOME,
                underline="none",
            ),
            rx.spacer(),
            rx.box(_phone_menu(), display=["block", "block", "none"]),
            # Who is logged in and as whom: a shared club computer must not be mistaken for one's own.
            rx.text(
                AuthState.user_name,
                rx.text.span(" · ", AuthState.role_name, weight="regular", color_scheme="gray"),
                weight="bold",
                size="2",
                display=["none", "block"],
                aria_label=AuthState.header_label,
            ),
            rx.button(texts.LOGOUT, on_click=AuthState.logout, variant="soft", size="2", custom_attrs=LEAVES),
            spacing="3",
            align="center",
        ),
        rx.flex(
            *[_only_organizer(only, _nav_link(label, href)) for label, href, only in _nav_items()],
            column_gap="1.25em",
            row_gap="0.25em",
            wrap="wrap",
            display=["none", "none", "flex"],
            padding_top="0.5em",
        ),
        padding="0.75em 1em",
        border_bottom="1px solid var(--gray-a5)",
        width="100%",
        on_mount=DeskState.watch,  # the organizer's open-items count stays live on every page
    )


def page(title: str | rx.Var[Any], *children: rx.Component) -> rx.Component:
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
    title: str, text: str | rx.Var[Any], *, icon: str = "info", color: str = "blue", role: str = "status"
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
