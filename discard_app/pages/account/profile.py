"""The player's profile: link Telegram by a one-time code and deep link, private messages, unlink; change one's
own password; renew the personal calendar link."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator
from typing import Any

import reflex as rx
from reflex.event import EventSpec

from discard_app import routes, texts
from discard_app.components.feed_link import feed_links
from discard_app.components.form import action_form
from discard_app.layout import page
from discard_app.state import tab_memory
from discard_app.state.action import KEY_FIELD, Anyone, GuardedActions, Outcome, guarded, outcome_of
from discard_app.state.auth import AuthState
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import User, saved, utc_now
from services.core.password_pool import PoolBusy, password_pool
from services.core.urls import site_address, webcal_url
from services.league import accounts, login_guard
from services.notifier import linking as telegram_link
from services.scheduling.calendar_feed import renew_calendar_token

NEW_FEED = "profile-new-feed"  # the renewed feed link, shown once in this tab (state/tab_memory.py)
LINK_CODE = "profile-link-code"  # the Telegram code asked for, shown in this tab only (state/tab_memory.py)


PASSWORD_FORM_ID = "change-password"


class ProfileState(GuardedActions, AuthState):
    # The Telegram block waits for the page's load: before it, a linked person saw «не привязан», and a code asked
    # for at once was wiped by the load that came after it.
    loaded: bool = False
    linked: bool = False
    telegram_username: str = ""
    private_messages: bool = False

    notice: str = ""
    password_error: str = ""
    password_notice: str = ""
    has_feed: bool = False

    @rx.var(cache=False)
    def my_feed(self) -> list[str]:
        """Shown only after «new link» (otherwise the club calendar page shows it); from the tab's memory, never
        stored on the state (state/tab_memory.py; a list: Reflex keeps only a digest of it, see club_calendar)."""
        feed = tab_memory.recall(self.router.session.client_token, NEW_FEED, "")
        return [feed] if feed else []

    @rx.var(cache=False)
    def my_webcal(self) -> list[str]:
        """The same feed as a webcal:// link (a one-tap subscription), from the tab's memory too."""
        feed = tab_memory.recall(self.router.session.client_token, NEW_FEED, "")
        return [webcal_url(feed)] if feed else []

    @rx.var(cache=False)
    def link_code(self) -> list[str]:
        """The caller's one-time Telegram code and its deep link, once asked for: from the tab's memory, never
        stored on the state (the code, typed to the bot within its life, links the account)."""
        code = tab_memory.recall(self.router.session.client_token, LINK_CODE, "")
        return [code] if code else []

    @rx.var(cache=False)
    def link_url(self) -> list[str]:
        code = tab_memory.recall(self.router.session.client_token, LINK_CODE, "")
        return [telegram_link.deep_link(settings.bot_username, code)] if code and settings.bot_username else []

    feed_notice: str = ""

    def _site(self) -> str:
        return site_address(settings.public_url, self.router.headers.origin or "")

    def _show(self, user: User) -> None:
        self.has_feed = bool(user.calendar_token)
        if user.calendar_token:  # offered here too, for a subscription; kept in the tab's memory, not on the state
            feed = self._site() + routes.personal_ics_url(user.calendar_token)
            tab_memory.remember(self.router.session.client_token, NEW_FEED, feed)
        self.linked = user.telegram_user_id is not None
        self.telegram_username = user.telegram_username or ""
        self.private_messages = bool(user.telegram_private_messages)

    @rx.event
    def load(self) -> EventSpec | None:
        tab_memory.remember(self.router.session.client_token, NEW_FEED, "")
        self._renew_key()
        user = self._viewer()
        if user is None:
            return self._redirect_to_login()
        self._show(user)
        self.loaded = True
        return None

    @rx.event
    @guarded(Anyone.OWN_ACCOUNT)
    def new_code(self) -> None:
        """A new code replaces the last one: a second press answers with the newer code, which works."""
        outcome = self._perform(
            lambda session, user: telegram_link.create_link_code(session, saved(user.id), now=utc_now()).code,
            action="profile.code",
        )
        if outcome.ok:
            tab_memory.remember(self.router.session.client_token, LINK_CODE, outcome.value)

    @rx.event
    @guarded(Anyone.OWN_ACCOUNT)
    def set_private_messages(self, enabled: bool) -> None:
        """Idempotent (on is on): no key needed."""

        def run(session: Any, user: User) -> None:
            telegram_link.set_private_messages(session, session.get(User, user.id), enabled)

        if self._perform(run, done=texts.PROFILE_SAVED, action="profile.private").ok:
            self._show(self._viewer_row())

    @rx.event
    @guarded(Anyone.OWN_ACCOUNT)
    def unlink(self) -> None:
        """Idempotent (an unlinked account stays unlinked): no key needed."""
        outcome = self._perform(
            lambda session, user: telegram_link.unlink(session, session.get(User, user.id)),
            done=texts.PROFILE_UNLINKED,
            action="profile.unlink",
        )
        if outcome.ok:
            tab_memory.remember(self.router.session.client_token, LINK_CODE, "")
            self._show(self._viewer_row())

    def _viewer_row(self) -> User:
        with session_scope() as session:
            row = session.get_one(User, self._admitted_user().id)
            session.expunge(row)
        return row

    def _show_refusal(self, message: str) -> None:
        self.password_error, self.password_notice = message, ""

    def _show_answer(self, outcome: Outcome, where: str) -> None:
        """The Telegram block's answer («Сохранено», «Отвязано»; a new code clears it); the calendar's and the
        password form's beside them."""
        message = outcome.message if outcome.ok else "; ".join(outcome.problems)
        if where == PASSWORD_FORM_ID:
            self.password_error, self.password_notice = ("", message) if outcome.ok else (message, "")
        elif where == NEW_FEED:
            self.feed_notice = message
        else:
            self.notice = message

    @rx.event
    @guarded(Anyone.OWN_ACCOUNT)
    async def change_password(self, form: dict[str, str]) -> AsyncIterator[EventSpec | None]:
        """The fields stay as typed when something is wrong; they are emptied once the password is changed. A
        second send of the same form (a double tap) answers «Пароль изменён» again and changes nothing."""
        user, key = self._admitted_user(), str(form.get(KEY_FIELD) or "")
        self.busy, self.password_error, self.password_notice = True, "", ""
        yield None
        current, new, repeat = (str(form.get(name) or "") for name in ("current", "new", "repeat"))
        digest = self._session_digest

        def change(session: Any, user: User) -> None:
            row = session.get(User, user.id)
            if row is None:
                raise accounts.AccountError(texts.FORBIDDEN_TITLE)
            accounts.change_password(session, row, current, new, repeat, keep_session_digest=digest)

        if refusal := await asyncio.to_thread(login_guard.admit_password_change, saved(user.id)):
            outcome = Outcome(ok=False, problems=[refusal])  # before the pool: the logins' turn is not taken
        else:
            try:
                # argon2 twice (check the current, hash the new): in the password pool, off the event loop.
                outcome = await password_pool.run(
                    functools.partial(
                        outcome_of,
                        user,
                        change,
                        key=key,
                        done=texts.PROFILE_PASSWORD_CHANGED,
                        action="profile.password",
                    )
                )
            except PoolBusy:
                outcome = Outcome(ok=False, problems=[texts.LOGIN_BUSY])
        self.busy = False
        if isinstance(outcome.error, accounts.WrongCurrentPassword):
            await asyncio.to_thread(_count_wrong_current, user.login_name)
        self._answered(outcome, key, PASSWORD_FORM_ID)
        if outcome.ok:
            yield rx.call_script(f"document.getElementById('{PASSWORD_FORM_ID}')?.reset()")

    @rx.event
    @guarded(Anyone.OWN_ACCOUNT)
    def renew_feed(self) -> None:
        """A second press makes another link, which replaces the first (only the newest works)."""

        def renew(session: Any, user: User) -> tuple[bool, str]:
            own = session.get_one(User, user.id)
            return bool(own.calendar_token), renew_calendar_token(session, own)  # (had a link, the new one)

        outcome = self._perform(
            renew,
            done=lambda made: texts.PROFILE_CALENDAR_RENEWED if made[0] else texts.PROFILE_CALENDAR_MADE,
            action="profile.feed",
            where=NEW_FEED,
        )
        if outcome.ok:
            self.has_feed = True
            feed = self._site() + routes.personal_ics_url(outcome.value[1])
            tab_memory.remember(self.router.session.client_token, NEW_FEED, feed)


def _count_wrong_current(login_name: str) -> None:
    with session_scope() as session:
        login_guard.count_guess(session, login_name=login_name, now=utc_now())


def _password_input(label: str, name: str, autocomplete: str) -> rx.Component:
    return rx.vstack(
        rx.el.label(label, html_for=f"password-{name}"),
        rx.input(
            id=f"password-{name}",
            name=name,
            type="password",
            auto_complete=autocomplete,
            max_length=accounts.PASSWORD_MAX_LENGTH,
            width="100%",
        ),
        spacing="1",
        width="100%",
    )


def _password_form() -> rx.Component:
    message = rx.fragment(
        rx.cond(
            ProfileState.password_error != "",
            rx.callout(ProfileState.password_error, icon="triangle_alert", color_scheme="red", role="alert"),
        ),
        rx.cond(
            ProfileState.password_notice != "",
            rx.callout(ProfileState.password_notice, color_scheme="green", role="status"),
        ),
    )
    return rx.box(
        action_form(
            ProfileState,
            _password_input(texts.PROFILE_PASSWORD_CURRENT, "current", "current-password"),
            _password_input(texts.PROFILE_PASSWORD_NEW, "new", "new-password"),
            _password_input(texts.PROFILE_PASSWORD_REPEAT, "repeat", "new-password"),
            rx.text(
                texts.PROFILE_PASSWORD_HINT.format(min=accounts.PASSWORD_MIN_LENGTH), color_scheme="gray", size="2"
            ),
            on_submit=ProfileState.change_password,
            submit_text=texts.PROFILE_PASSWORD_SUBMIT,
            message=message,
            form_id=PASSWORD_FORM_ID,
            card=False,
        ),
        width="100%",
        max_width="26em",
    )


def _calendar() -> rx.Component:
    return rx.vstack(
        rx.text(texts.PROFILE_CALENDAR_HINT, color_scheme="gray", size="2"),
        rx.cond(
            ProfileState.feed_notice != "",
            rx.callout(ProfileState.feed_notice, color_scheme="green", role="status"),
        ),
        feed_links(ProfileState.my_feed, ProfileState.my_webcal),
        rx.cond(
            ProfileState.has_feed,
            rx.button(texts.PROFILE_CALENDAR_NEW, on_click=ProfileState.renew_feed, variant="outline"),
            rx.vstack(
                rx.text(texts.PROFILE_CALENDAR_NONE),
                rx.button(texts.PROFILE_CALENDAR_CREATE, on_click=ProfileState.renew_feed, variant="outline"),
            ),
        ),
        spacing="3",
    )


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
            ProfileState.link_code.length() > 0,
            rx.vstack(
                rx.text(texts.PROFILE_CODE, rx.foreach(ProfileState.link_code, rx.code)),
                rx.cond(
                    ProfileState.link_url.length() > 0,
                    rx.foreach(
                        ProfileState.link_url, lambda url: rx.link(texts.PROFILE_OPEN_BOT, href=url, is_external=True)
                    ),
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
        rx.cond(
            ProfileState.loaded,
            rx.cond(ProfileState.linked, _linked(), _not_linked()),
            rx.text(texts.PROFILE_LOADING, color_scheme="gray"),
        ),
        rx.heading(texts.PROFILE_CALENDAR, size="4", as_="h2"),
        _calendar(),
        rx.heading(texts.PROFILE_PASSWORD, size="4", as_="h2"),
        _password_form(),
    )
