"""The club calendar: a week of bookings (matches, D&D and other activities) and the ICS feed links."""

from __future__ import annotations

from datetime import date, timedelta
from typing import TypedDict

import reflex as rx
from reflex.event import EventSpec

from discard_app import routes, texts
from discard_app.components.feed_link import feed_links
from discard_app.components.live import LivePage
from discard_app.layout import page
from discard_app.state import tab_memory
from discard_app.state.auth import AuthState
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import User, utc_now
from services.core.urls import site_address, webcal_url
from services.scheduling.calendar_feed import ensure_calendar_token, week_entries, week_start
from services.scheduling.intervals import kirov_date

MY_FEED = "calendar-my-feed"


class EntryView(TypedDict):
    time: str
    title: str
    kind: str
    room: str
    match_url: str  # "" for a booking that is not a match


class DayView(TypedDict):
    label: str
    entries: list[EntryView]


class ClubCalendarState(LivePage, AuthState):
    monday: str = ""
    week_label: str = ""
    days: list[DayView] = []
    club_feed: str = ""

    @rx.var(cache=False)
    def my_feed(self) -> list[str]:
        """The personal feed link (its token opens the person's matches): from the tab's memory for each update,
        never stored on the state (state/tab_memory.py). A list, because Reflex keeps the last value of an
        uncached string var on the state (to skip resending it) and only a digest of anything else."""
        feed = tab_memory.recall(self.router.session.client_token, MY_FEED, "")
        return [feed] if feed else []

    @rx.var(cache=False)
    def my_webcal(self) -> list[str]:
        """The same feed as a webcal:// link (a one-tap subscription), from the tab's memory too."""
        feed = tab_memory.recall(self.router.session.client_token, MY_FEED, "")
        return [webcal_url(feed)] if feed else []

    def _refresh(self, user: User) -> None:  # noqa: ARG002 - the club's calendar is the same for everyone
        """The week on screen again: a booking made or released anywhere shows within a second."""
        self._show(date.fromisoformat(self.monday) if self.monday else week_start(kirov_date(utc_now())))

    def _show(self, monday: date) -> None:
        self._stamp = self._live_stamp()
        with session_scope() as session:
            entries = week_entries(session, monday)
        self.monday = monday.isoformat()
        self.week_label = f"{monday:%d.%m.%Y} — {monday + timedelta(days=6):%d.%m.%Y}"
        self.days = [
            {
                "label": f"{texts.CALENDAR_WEEKDAYS[n]}, {monday + timedelta(days=n):%d.%m}",
                "entries": [
                    {
                        "time": f"{e.start}–{e.end}",
                        "title": e.title,
                        "kind": e.kind_label,
                        "room": e.room,
                        "match_url": routes.match_url(e.match_id) if e.match_id else "",
                    }
                    for e in entries
                    if e.day == monday + timedelta(days=n)
                ],
            }
            for n in range(7)
        ]

    def _feeds(self, user: User) -> None:
        origin = site_address(settings.public_url, self.router.headers.origin or "")
        with session_scope() as session:
            token = ensure_calendar_token(session, session.merge(user))
        self.club_feed = origin + routes.CLUB_ICS
        tab_memory.remember(self.router.session.client_token, MY_FEED, origin + routes.personal_ics_url(token))

    @rx.event
    def load(self) -> EventSpec | None:
        user = self._viewer()
        if user is None:
            return self._redirect_to_login()
        self._feeds(user)
        self._show(week_start(kirov_date(utc_now())))
        self._start_live()
        return None

    @rx.event
    def shift(self, weeks: int) -> None:
        if self._viewer() is None:
            return
        current = date.fromisoformat(self.monday) if self.monday else week_start(kirov_date(utc_now()))
        self._show(current + timedelta(weeks=weeks) if weeks else week_start(kirov_date(utc_now())))


def _entry(e: EntryView) -> rx.Component:
    return rx.card(
        rx.text(e["time"], weight="bold", size="2"),
        rx.text(e["title"], size="2"),
        rx.hstack(rx.badge(e["kind"]), rx.text(e["room"], size="1", color_scheme="gray"), wrap="wrap"),
        rx.cond(e["match_url"] != "", rx.link(texts.CALENDAR_MATCH_LINK, href=e["match_url"], size="2")),
        width="100%",
    )


def _day(d: DayView) -> rx.Component:
    return rx.vstack(
        rx.heading(d["label"], size="2", as_="h3"),
        rx.cond(
            d["entries"].length() > 0,
            rx.foreach(d["entries"], _entry),
            rx.text(texts.CALENDAR_EMPTY, color_scheme="gray"),
        ),
        min_width="6.5em",  # seven columns fit the page width on a desktop
        flex="1",
        spacing="2",
        width="100%",
    )


def club_calendar_page() -> rx.Component:
    return page(
        texts.CALENDAR_TITLE,
        rx.flex(
            rx.button(texts.CALENDAR_PREV, variant="soft", on_click=ClubCalendarState.shift(-1)),
            rx.button(texts.CALENDAR_TODAY, variant="outline", on_click=ClubCalendarState.shift(0)),
            rx.button(texts.CALENDAR_NEXT, variant="soft", on_click=ClubCalendarState.shift(1)),
            rx.text(ClubCalendarState.week_label, weight="bold"),
            spacing="3",
            wrap="wrap",
            align="center",
        ),
        # A phone lists the days one under another; a wide screen shows the week as seven columns.
        rx.box(
            rx.flex(
                rx.foreach(ClubCalendarState.days, _day),
                spacing="3",
                direction=rx.breakpoints(initial="column", md="row"),
            ),
            overflow_x="auto",
            width="100%",
        ),
        rx.heading(texts.CALENDAR_FEEDS, size="4", as_="h2"),
        # The feed addresses are long unbroken strings: they must wrap, not widen the page.
        rx.text(
            texts.CALENDAR_CLUB_FEED,
            ": ",
            rx.link(ClubCalendarState.club_feed, href=ClubCalendarState.club_feed, word_break="break-all"),
        ),
        rx.text(
            texts.CALENDAR_MY_FEED,
            ": ",
            rx.foreach(ClubCalendarState.my_feed, lambda feed: rx.link(feed, href=feed, word_break="break-all")),
        ),
        feed_links(ClubCalendarState.my_feed, ClubCalendarState.my_webcal, show_address=False),
    )
