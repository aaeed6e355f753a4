"""The login page: name and the permanent password the organizer issued (Регламент §3)."""

from __future__ import annotations

import reflex as rx

from discard_app import routes, texts
from discard_app.state.auth import AuthState
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import utc_now
from services.league import accounts


class LoginState(AuthState):
    error: str = ""
    busy: bool = False

    @rx.event
    async def load(self) -> rx.event.EventSpec | None:
        if self._current_user() is not None:
            self.error = ""
            self.busy = False
            return rx.redirect(routes.safe_next(self.router.url.query_parameters.get("next")))
        # An expired session lands here: what the last user saw leaves this tab before anyone else logs in.
        await self._forget_pages()
        return None

    @rx.event
    async def submit(self, form: dict[str, str]):  # noqa: ANN201  (a generator: shows progress first)
        name = (form.get("name") or "").strip()
        password = form.get("password") or ""
        if not name or not password:
            self.error = texts.LOGIN_EMPTY
            return
        self.busy = True
        yield
        with session_scope() as session:
            result = accounts.login(session, name, password, now=utc_now(), session_days=settings.session_days)
        self.busy = False
        if result.error:
            self.error = result.error
            return
        await self._forget_pages()  # a new user at this tab: nothing of the previous one's pages stays
        self.auth_token = result.token or ""
        self._current_user()
        yield rx.redirect(routes.safe_next(self.router.url.query_parameters.get("next")))


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
                    rx.input(id="login-name", name="name", auto_complete="username", size="3", width="100%"),
                    rx.el.label(texts.LOGIN_PASSWORD, html_for="login-password"),
                    rx.input(
                        id="login-password",
                        name="password",
                        type="password",
                        auto_complete="current-password",
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
