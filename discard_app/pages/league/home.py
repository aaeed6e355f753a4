"""The home page: the player's to-do list — per match its state and the one next action — kept current."""

from __future__ import annotations

from typing import TypedDict

import reflex as rx
from reflex.event import EventSpec

from discard_app import routes, texts
from discard_app.components.live import LivePage, watch_of
from discard_app.layout import notice, page
from discard_app.state.auth import AuthState
from services.core.changes import Watch
from services.core.db import session_scope
from services.core.models import Role, User, utc_now
from services.core.wording import ROLE_NAMES
from services.views.standing_note import standing_notes
from services.views.todo import home_cards


class MatchRow(TypedDict):
    title: str
    opponents: str
    state: str
    action: str
    mine: str
    when: str
    schedule_url: str
    match_url: str
    booked: str
    fallback: str


class NoteRow(TypedDict):
    title: str
    text: str
    tone: str
    to_desk: str


class HomeState(LivePage, AuthState):
    notes: list[NoteRow] = []  # where the person stands this season: their own, no one else's
    matches: list[MatchRow] = []
    past: list[MatchRow] = []
    later: list[MatchRow] = []  # later tours' matches: folded, they ask for nothing until their window opens
    awaiting: int = 0
    staff_note: str = ""
    is_staff: bool = False

    def _live_watch(self) -> Watch:
        return watch_of(user_id=self._user_id)  # the person's own matches: another table's news is not theirs

    def _refresh(self, user: User) -> None:
        self._stamp = self._live_stamp()
        now = utc_now()
        with session_scope() as session:
            cards = home_cards(session, user, now)
            notes = standing_notes(session, user, now)
        self.notes = [NoteRow(title=n.title, text=n.text, tone=n.tone, to_desk="1" if n.to_desk else "") for n in notes]
        rows = [
            (
                "past" if c.past else "later" if c.later else "now",
                MatchRow(
                    title=c.title,
                    opponents=c.opponents,
                    state=c.state,
                    action=c.action,
                    mine="1" if c.mine else "",
                    when=c.when,
                    schedule_url=routes.match_schedule_url(c.match_id),
                    match_url=routes.match_url(c.match_id),
                    booked="1" if c.booked else "",
                    fallback=c.fallback,
                ),
            )
            for c in cards
        ]
        self.matches = [r for group, r in rows if group == "now"]
        self.later = [r for group, r in rows if group == "later"]
        self.past = [r for group, r in rows if group == "past"]
        self.awaiting = sum(1 for c in cards if c.mine)
        role = ROLE_NAMES.get(str(user.role), str(user.role))
        self.staff_note = texts.HOME_STAFF_TEXT.format(role=role) if user.role != Role.PLAYER else ""
        self.is_staff = user.role != Role.PLAYER

    @rx.event
    def load(self) -> EventSpec | list[EventSpec] | None:
        user = self._viewer()
        if user is None:
            return self._redirect_to_login()
        self._refresh(user)
        self._start_live()
        return None


def _note(row: NoteRow) -> rx.Component:
    return rx.callout.root(
        rx.callout.text(rx.text.strong(row["title"])),
        rx.callout.text(row["text"]),
        rx.cond(row["to_desk"] != "", rx.link(texts.HOME_TO_DESK, href=routes.DESK, weight="bold")),
        color_scheme=rx.match(row["tone"], ("red", "red"), ("amber", "amber"), ("green", "green"), "blue"),
        role="status",
        width="100%",
    )


def _match_card(row: MatchRow) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading(row["title"], size="4", as_="h2"),
            rx.text(texts.HOME_OPPONENTS, row["opponents"]),
            rx.text(texts.HOME_STATE, rx.text.strong(row["state"])),
            rx.cond(
                row["mine"] != "",
                rx.callout(texts.HOME_YOUR_MOVE + row["action"], color_scheme="amber", size="1", width="100%"),
                rx.text(row["action"], color_scheme="gray"),
            ),
            rx.text(row["when"], color_scheme="gray", size="2"),
            rx.cond(row["fallback"] != "", rx.text(row["fallback"], size="2", weight="medium")),
            rx.flex(
                rx.link(texts.HOME_SCHEDULE_LINK, href=row["schedule_url"]),
                rx.link(texts.HOME_MATCH_LINK, href=row["match_url"]),
                rx.cond(row["booked"] != "", rx.link(texts.HOME_CALENDAR_LINK, href=routes.CLUB_CALENDAR)),
                spacing="4",
                wrap="wrap",
            ),
            spacing="1",
            width="100%",
        ),
        role="group",
        aria_label=row["title"],
        width="100%",
    )


def home_page() -> rx.Component:
    return page(
        texts.HOME_TITLE,
        rx.foreach(HomeState.notes, _note),
        rx.cond(HomeState.staff_note != "", rx.text(HomeState.staff_note, color_scheme="gray")),
        # The organizer's home points to the desk: «Матчей пока нет… когда жеребьёвка будет утверждена» is for players.
        rx.cond(
            AuthState.is_organizer | (AuthState.user_role == "judge"),
            rx.link(
                rx.cond(
                    AuthState.is_organizer,
                    texts.HOME_STAFF_DESK.format(desk=texts.NAV_DESK),
                    texts.HOME_STAFF_DESK.format(desk=texts.NAV_DESK_JUDGE),
                ),
                href=routes.DESK,
                weight="bold",
            ),
        ),
        rx.cond(
            HomeState.awaiting > 0,
            rx.badge(texts.HOME_AWAITING, HomeState.awaiting, color_scheme="amber", size="3"),
        ),
        rx.cond(
            (HomeState.matches.length() > 0) | (HomeState.past.length() > 0) | (HomeState.later.length() > 0),
            rx.vstack(
                rx.foreach(HomeState.matches, _match_card),
                rx.cond(
                    HomeState.later.length() > 0,
                    rx.el.details(
                        rx.el.summary(texts.HOME_LATER, " (", HomeState.later.length(), ")", cursor="pointer"),
                        rx.vstack(rx.foreach(HomeState.later, _match_card), spacing="3", padding_top="0.75em"),
                        width="100%",
                    ),
                ),
                rx.cond(
                    HomeState.past.length() > 0,
                    rx.el.details(
                        rx.el.summary(texts.HOME_PAST, " (", HomeState.past.length(), ")", cursor="pointer"),
                        rx.vstack(rx.foreach(HomeState.past, _match_card), spacing="3", padding_top="0.75em"),
                        width="100%",
                    ),
                ),
                width="100%",
                spacing="3",
            ),
            rx.cond(
                HomeState.is_staff | (HomeState.notes.length() > 0),  # the note says why there are no matches
                rx.fragment(),
                notice(texts.HOME_EMPTY_TITLE, texts.HOME_EMPTY_TEXT),
            ),
        ),
    )
