"""Announcements: the organizer writes, everyone logged in reads; the organizer also sees the bot's state."""

from __future__ import annotations

from typing import TypedDict

import reflex as rx
from reflex.event import EventSpec
from sqlmodel import Session

from discard_app import texts
from discard_app.components.form import action_form
from discard_app.components.live import LivePage
from discard_app.components.text_limit import limit_hint
from discard_app.layout import page
from discard_app.state.action import KEY_FIELD, GuardedActions, guarded
from discard_app.state.auth import AuthState
from services.core.bot_status import BotStatusView, bot_status
from services.core.db import session_scope
from services.core.models import Role, User, saved, utc_now
from services.core.text_limits import limit_for
from services.league import roster
from services.league.accounts import AccountError
from services.league.announcements import list_announcements, publish_announcement
from services.scheduling.rules import format_kirov

FORM_ID = "announcement"


class AnnouncementView(TypedDict):
    id: int
    text: str
    at: str


class AnnouncementsState(GuardedActions, LivePage, AuthState):
    items: list[AnnouncementView] = []
    can_write: bool = False
    bot_lines: list[str] = []  # organizer only: connected, last delivery, waiting, last error
    error: str = ""
    notice: str = ""

    def _refresh(self, user: User) -> None:
        self._stamp = self._live_stamp()
        self.can_write = user.role == Role.ORGANIZER
        with session_scope() as session:
            season = roster.current_season(session)
            rows = list_announcements(session, saved(season.id)) if season else []
            status = bot_status(session, now=utc_now()) if self.can_write else None
        self.items = [AnnouncementView(id=saved(a.id), text=a.text, at=format_kirov(a.created_at)) for a in rows]
        self.bot_lines = _bot_lines(status) if status else []

    @rx.event
    def load(self) -> EventSpec | None:
        self._renew_key()
        user = self._viewer()
        if user is None:
            return self._redirect_to_login()
        self._refresh(user)
        self._start_live()
        return None

    def _show_refusal(self, message: str) -> None:
        self.error, self.notice = texts.FORBIDDEN_ORGANIZER, ""

    @rx.event
    @guarded(Role.ORGANIZER)
    def publish(self, form: dict[str, str]) -> EventSpec | None:
        """Once per form: a double click publishes (and sends through the bot) one announcement."""

        def publish(session: Session, user: User) -> None:
            season = roster.current_season(session)
            if season is None:
                raise AccountError(texts.NO_SEASON)
            publish_announcement(session, season, form.get("text", ""), author_user_id=saved(user.id), now=utc_now())

        outcome = self._perform(
            publish, key=form.get(KEY_FIELD), done=texts.ANNOUNCEMENT_PUBLISHED, action="announcement"
        )
        if not outcome.ok:
            return None  # the text stays in the field, to be fixed
        self._refresh(self._admitted_user())

        return rx.call_script(f"document.getElementById('{FORM_ID}')?.reset()")


def _bot_lines(status: BotStatusView) -> list[str]:
    never = texts.BOT_NEVER
    lines = [
        texts.BOT_CONNECTED if status.connected else texts.BOT_DISCONNECTED,
        texts.BOT_LAST_DELIVERY.format(at=format_kirov(status.last_delivery_at) if status.last_delivery_at else never),
        texts.BOT_WAITING.format(count=status.waiting),
    ]
    if status.last_error and status.last_error_at:
        lines.append(texts.BOT_LAST_ERROR.format(at=format_kirov(status.last_error_at), error=status.last_error))
    return lines


def _item(item: AnnouncementView) -> rx.Component:
    return rx.card(
        rx.text(item["at"], color_scheme="gray", size="2"),
        rx.text(item["text"], white_space="pre-wrap"),
        width="100%",
    )


def _organizer_tools() -> rx.Component:
    return rx.vstack(
        rx.card(
            rx.heading(texts.BOT_TITLE, size="3", as_="h2"),
            rx.foreach(AnnouncementsState.bot_lines, lambda line: rx.text(line, size="2")),
            width="100%",
        ),
        action_form(
            AnnouncementsState,
            rx.text_area(
                name="text",
                placeholder=texts.ANNOUNCEMENT_TEXT,
                aria_label=texts.ANNOUNCEMENT_TEXT,
                rows="5",
                width="100%",
                max_length=limit_for("text"),
            ),
            limit_hint("text"),
            on_submit=AnnouncementsState.publish,
            submit_text=texts.ANNOUNCEMENT_PUBLISH,
            form_id=FORM_ID,
            card=False,
        ),
        width="100%",
        spacing="3",
    )


def announcements_page() -> rx.Component:
    return page(
        texts.ANNOUNCEMENTS_TITLE,
        rx.cond(AnnouncementsState.can_write, _organizer_tools()),
        rx.cond(AnnouncementsState.error != "", rx.callout(AnnouncementsState.error, color_scheme="red", role="alert")),
        rx.cond(
            AnnouncementsState.notice != "", rx.callout(AnnouncementsState.notice, color_scheme="green", role="status")
        ),
        rx.cond(
            AnnouncementsState.items.length() > 0,
            rx.vstack(rx.foreach(AnnouncementsState.items, _item), width="100%"),
            rx.text(texts.ANNOUNCEMENTS_EMPTY, color_scheme="gray"),
        ),
    )
