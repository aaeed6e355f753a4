"""The login page: name and the permanent password the organizer issued (Регламент §3)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import reflex as rx
from reflex.event import EventSpec

from discard_app import routes, texts
from discard_app.http_guard import DEVICE_HEADER, client_key
from discard_app.session_cookie import adopt_script
from discard_app.state.auth import AuthState
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import utc_now
from services.core.password_pool import PoolBusy, password_pool
from services.league import accounts, login_guard


def _admit(name: str, client: str, address: str) -> str | None:
    """In a thread (a short read, never on the event loop): the limits every web worker shares."""
    with session_scope() as session:
        return login_guard.admit(
            session, login_name=accounts.normalize_login(name), client=client, address=address, now=utc_now()
        )


def _attempt(name: str, password: str, client: str, address: str) -> accounts.LoginResult:
    """Runs in the password pool's thread: the database and argon2."""
    with session_scope() as session:
        return login_guard.login(
            session,
            name=name,
            password=password,
            client=client,
            address=address,
            now=utc_now(),
            session_days=settings.session_days,
        )


class LoginState(AuthState):
    error: str = ""
    busy: bool = False

    @rx.event
    async def load(self) -> EventSpec | None:
        self.busy = False  # a tab's events take turns: no login of this tab is running now
        if self._current_user() is not None:
            self.error = ""
            return rx.redirect(routes.safe_next(self.router.url.query_parameters.get("next")))
        # An expired session lands here: what the last user saw leaves this tab before anyone else logs in. The
        # form's own answer stays: a login tapped before the page had connected reaches the server right behind
        # the connection's hydration, which queues this load behind it, and the answer must not vanish.
        await self._forget_pages(keep=LoginState)
        return None

    def _client(self) -> str:
        device = str(self.router_data.get("headers", {}).get(DEVICE_HEADER.decode(), ""))
        return client_key(device, self.router.session.client_ip)

    @rx.event
    async def submit(self, form: dict[str, str]) -> AsyncIterator[EventSpec | None]:  # shows progress first
        name = (form.get("name") or "").strip()
        password = form.get("password") or ""
        if not name or not password:
            self.error = texts.LOGIN_EMPTY
            return
        if len(name) > accounts.NAME_MAX_LENGTH or len(password) > accounts.PASSWORD_MAX_LENGTH:
            self.error = accounts.LOGIN_FAILED
            return
        client = self._client()
        address = str(self.router.session.client_ip)
        refusal = await asyncio.to_thread(_admit, name, client, address)
        if refusal:
            self.error = refusal
            return
        self.busy = True
        yield None
        try:
            result = await password_pool.run(_attempt, name, password, client, address)
        except PoolBusy:
            result = accounts.LoginResult(None, None, texts.LOGIN_BUSY)
        self.busy = False
        if result.error or not result.token:
            self.error = result.error or accounts.LOGIN_FAILED
            return
        self.error = ""
        await self._forget_pages()  # a new user at this tab: nothing of the previous one's pages stays
        # The token goes to the browser once, inside this event (never into the state), and comes back to
        # the server as an HttpOnly cookie; the page then reloads so the websocket carries it.
        next_path = routes.safe_next(self.router.url.query_parameters.get("next"))
        yield rx.call_script(adopt_script(result.token, next_path))


def login_page() -> rx.Component:
    return rx.center(
        rx.card(
            rx.form(
                rx.vstack(
                    rx.heading(texts.APP_TITLE, size="7", as_="h1"),
                    rx.text(texts.LOGIN_HINT, color_scheme="gray"),
                    rx.cond(
                        LoginState.error != "",
                        rx.callout(LoginState.error, icon="triangle_alert", color_scheme="red", role="alert"),
                    ),
                    rx.el.label(texts.LOGIN_NAME, html_for="login-name"),
                    rx.input(
                        id="login-name",
                        name="name",
                        auto_complete="username",
                        size="3",
                        width="100%",
                        max_length=accounts.NAME_MAX_LENGTH,
                    ),
                    rx.text(texts.LOGIN_NAME_HINT, color_scheme="gray", size="1"),
                    rx.el.label(texts.LOGIN_PASSWORD, html_for="login-password"),
                    rx.input(
                        id="login-password",
                        name="password",
                        type="password",
                        auto_complete="current-password",
                        max_length=accounts.PASSWORD_MAX_LENGTH,
                        size="3",
                        width="100%",
                    ),
                    rx.button(texts.LOGIN_SUBMIT, type="submit", size="3", width="100%", loading=LoginState.busy),
                    spacing="3",
                    width="100%",
                ),
                on_submit=LoginState.submit,
                reset_on_submit=False,
            ),
            width="100%",
            max_width="26em",
        ),
        min_height="100vh",
        padding="1em",
    )
