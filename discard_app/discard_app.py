"""Creates the Reflex app and registers its pages; no logic lives here."""

import reflex as rx

import services.models  # noqa: F401  (registers the tables for `reflex db`)
from discard_app import routes, texts
from discard_app.api import calendar_api
from discard_app.pages.announcements import AnnouncementsState, announcements_page
from discard_app.pages.club_calendar import ClubCalendarState, club_calendar_page
from discard_app.pages.draw import DrawState, draw_page
from discard_app.pages.home import HomeState, home_page
from discard_app.pages.login import LoginState, login_page
from discard_app.pages.match import MatchState, match_page
from discard_app.pages.match_schedule import MatchScheduleState, match_schedule_page
from discard_app.pages.pantheon import PantheonState, pantheon_page
from discard_app.pages.player import PlayerState, player_page
from discard_app.pages.playoff import PlayoffState, playoff_page
from discard_app.pages.profile import ProfileState, profile_page
from discard_app.pages.roster import RosterState, roster_page
from discard_app.pages.schedule_overview import ScheduleOverviewState, schedule_overview_page
from discard_app.pages.standings import LiveStandingsState, standings_page
from discard_app.pages.standings_ties import TieState

app = rx.App(
    html_lang="ru",
    head_components=[rx.el.meta(name="viewport", content="width=device-width, initial-scale=1")],
    api_transformer=calendar_api,  # the ICS feeds: /calendar/club.ics, /calendar/me/<token>.ics
)
app.add_page(login_page, route=routes.LOGIN, title=f"{texts.LOGIN_TITLE} · {texts.APP_TITLE}", on_load=LoginState.load)
app.add_page(home_page, route=routes.HOME, title=texts.APP_TITLE, on_load=HomeState.load)
app.add_page(
    roster_page, route=routes.ROSTER, title=f"{texts.ROSTER_TITLE} · {texts.APP_TITLE}", on_load=RosterState.load
)
app.add_page(draw_page, route=routes.DRAW, title=f"{texts.DRAW_TITLE} · {texts.APP_TITLE}", on_load=DrawState.load)
app.add_page(
    match_schedule_page,
    route=routes.MATCH_SCHEDULE,
    title=f"Согласование · {texts.APP_TITLE}",
    on_load=MatchScheduleState.load,
)
app.add_page(
    schedule_overview_page,
    route=routes.SCHEDULE_OVERVIEW,
    title=f"{texts.NAV_SCHEDULE} · {texts.APP_TITLE}",
    on_load=ScheduleOverviewState.load,
)
app.add_page(
    club_calendar_page,
    route=routes.CLUB_CALENDAR,
    title=f"{texts.NAV_CALENDAR} · {texts.APP_TITLE}",
    on_load=ClubCalendarState.load,
)
app.add_page(
    playoff_page, route=routes.PLAYOFF, title=f"{texts.PLAYOFF_TITLE} · {texts.APP_TITLE}", on_load=PlayoffState.load
)
app.add_page(
    announcements_page,
    route=routes.ANNOUNCEMENTS,
    title=f"{texts.ANNOUNCEMENTS_TITLE} · {texts.APP_TITLE}",
    on_load=AnnouncementsState.load,
)
app.add_page(
    profile_page, route=routes.PROFILE, title=f"{texts.PROFILE_TITLE} · {texts.APP_TITLE}", on_load=ProfileState.load
)
app.add_page(
    standings_page,
    route=routes.STANDINGS,
    title=f"{texts.STANDINGS_TITLE} · {texts.APP_TITLE}",
    on_load=[LiveStandingsState.join, TieState.load],
)
app.add_page(match_page, route=routes.MATCH, title=f"Матч · {texts.APP_TITLE}", on_load=MatchState.load)
app.add_page(player_page, route=routes.PLAYER, title=f"Игрок · {texts.APP_TITLE}", on_load=PlayerState.load)
app.add_page(
    pantheon_page,
    route=routes.PANTHEON,
    title=f"{texts.PANTHEON_TITLE} · {texts.APP_TITLE}",
    on_load=PantheonState.load,
)
