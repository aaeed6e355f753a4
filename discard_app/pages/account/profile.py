"""The player's profile: link Telegram by a one-time code and deep link, private messages, unlink."""

from __future__ import annotations

import reflex as rx

from discard_app import texts
from discard_app.layout import page
from discard_app.state.auth import AuthState
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import User, utc_now
from services.notifier import linking as telegram_link


class ProfileState(AuthState):
    linked: bool = False
    telegram_username: str = ""
    private_messages: bool = False
    code: str = ""  # the caller's own one-time code: fine in their browser, useless to anyone else
    link_url: str = ""
    notice: str = ""

    def _show(self, user: User) -> None:
        self.linked = user.telegram_user_id is not None
        self.telegram_username = user.telegram_username or ""
        self.private_messages = bool(user.telegram_private_messages)

    @rx.event
    def load(self) -> rx.event.EventSpec | None:
        self.code = self.link_url = self.notice = ""
        user = self._require_user()
        if user is None:
            return self._redirect_to_login()
        self._show(user)
        return None

    @rx.event
    def new_code(self) -> None:
        user = self._require_user()
        if user is None:
            return
        with session_scope() as session:
            code = telegram_link.create_link_code(session, user.id, now=utc_now()).code
        self.code = code
        self.link_url = telegram_link.deep_link(settings.bot_username, code) if settings.bot_username else ""
        self.notice = ""

    @rx.event
    def set_private_messages(self, enabled: bool) -> None:
        user = self._require_user()
        if user is None:
            return
        with session_scope() as session:
            row = session.get(User, user.id)
            telegram_link.set_private_messages(session, row, enabled)
            self._show(row)
        self.notice = texts.PROFILE_SAVED

    @rx.event
    def unlink(self) -> None:
        user = self._require_user()
        if user is None:
            return
        with session_scope() as session:
            row = session.get(User, user.id)
            telegram_link.unlink(session, row)
            self._show(row)
        self.code = self.link_url = ""
        self.notice = texts.PROFILE_UNLINKED


def _linked() -> rx.Component:
    return rx.vstack(
        rx.text(
            texts.PROFILE_LINKED,
            rx.cond(ProfileState.telegram_username != "", " @" + ProfileState.telegram_username, ""),
        ),
        rx.hstack(
            rx.switch(
                checked=ProfileState.private_messages,
                on_change=ProfileState.set_private_messages,
                id="private-messages",
            ),
            rx.el.label(texts.PROFILE_PRIVATE, html_for="private-messages"),
            align="center",
        ),
        rx.text(texts.PROFILE_PRIVATE_HINT, color_scheme="gray", size="2"),
        rx.button(texts.PROFILE_UNLINK, on_click=ProfileState.unlink, variant="outline", color_scheme="red"),
        spacing="3",
    )


def _not_linked() -> rx.Component:
    return rx.vstack(
        rx.text(texts.PROFILE_NOT_LINKED),
        rx.button(texts.PROFILE_GET_CODE, on_click=ProfileState.new_code),
        rx.cond(
            ProfileState.code != "",
            rx.vstack(
                rx.text(texts.PROFILE_CODE, rx.code(ProfileState.code)),
                rx.cond(
                    ProfileState.link_url != "",
                    rx.link(texts.PROFILE_OPEN_BOT, href=ProfileState.link_url, is_external=True),
                    rx.text(texts.PROFILE_NO_BOT, color_scheme="gray", size="2"),
                ),
                rx.text(texts.PROFILE_CODE_HINT, color_scheme="gray", size="2"),
                spacing="2",
            ),
        ),
        spacing="3",
    )


def profile_page() -> rx.Component:
    return page(
        texts.PROFILE_TITLE,
        rx.heading(texts.PROFILE_TELEGRAM, size="4", as_="h2"),
        rx.cond(ProfileState.notice != "", rx.callout(ProfileState.notice, color_scheme="green", role="status")),
        rx.cond(ProfileState.linked, _linked(), _not_linked()),
    )
