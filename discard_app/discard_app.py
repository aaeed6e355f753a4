"""Creates the Reflex app and registers its pages; no logic lives here."""

import reflex as rx

import services.models  # noqa: F401  (registers the tables for `reflex db`)
from discard_app import routes, texts
from discard_app.pages.home import HomeState, home_page
from discard_app.pages.login import LoginState, login_page
from discard_app.pages.roster import RosterState, roster_page

app = rx.App(
    html_lang="ru",
    head_components=[rx.el.meta(name="viewport", content="width=device-width, initial-scale=1")],
)
app.add_page(login_page, route=routes.LOGIN, title=f"{texts.LOGIN_TITLE} · {texts.APP_TITLE}", on_load=LoginState.load)
app.add_page(home_page, route=routes.HOME, title=texts.APP_TITLE, on_load=HomeState.load)
app.add_page(roster_page, route=routes.ROSTER, title=f"{texts.ROSTER_TITLE} · {texts.APP_TITLE}", on_load=RosterState.load)
