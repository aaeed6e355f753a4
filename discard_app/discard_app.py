"""Creates the Reflex app and registers its pages; no logic lives here."""

import reflex as rx

import services.core.models  # noqa: F401  (registers the tables for `reflex db`)
from discard_app import live_push, log_redaction, routes, texts
from discard_app.api import http_api
from discard_app.components.form import FORMS_SCRIPT
from discard_app.components.season_checklist import ChecklistState
from discard_app.components.site_frame import connection_overlay, not_found_page
from discard_app.components.text_limit import max_length_script
from discard_app.errors import unexpected_error
from discard_app.http_guard import security_guard
from discard_app.pages.account.login import LoginState, login_page
from discard_app.pages.account.profile import ProfileState, profile_page
from discard_app.pages.league.announcements import AnnouncementsState, announcements_page
from discard_app.pages.league.desk import desk_page
from discard_app.pages.league.disqualifications import DisqualificationsState, disqualifications_page
from discard_app.pages.league.draw import DrawState, draw_page
from discard_app.pages.league.home import HomeState, home_page
from discard_app.pages.league.regulation import RegulationState, regulation_page
from discard_app.pages.league.regulation_rules import RulesState
from discard_app.pages.league.roster import RosterState, roster_page
from discard_app.pages.league.season_admin import season_admin_page
from discard_app.pages.league.season_admin_state import SeasonAdminState
from discard_app.pages.league.seasons import SeasonRecordState, SeasonsState, season_record_page, seasons_page
from discard_app.pages.league.staff import StaffState, staff_page
from discard_app.pages.pantheon.pantheon import PantheonState, pantheon_page
from discard_app.pages.playoff.playoff import PlayoffState, playoff_page
from discard_app.pages.results.match import MatchState, match_page
from discard_app.pages.results.player import PlayerState, player_page
from discard_app.pages.results.standings import StandingsViewerState, standings_page
from discard_app.pages.results.standings_state import LiveStandingsState
from discard_app.pages.results.standings_ties import TieState
from discard_app.pages.scheduling.club_calendar import ClubCalendarState, club_calendar_page
from discard_app.pages.scheduling.match_schedule import MatchScheduleState, match_schedule_page
from discard_app.pages.scheduling.schedule_overview import schedule_overview_page
from discard_app.pages.scheduling.schedule_overview_state import ScheduleOverviewState
from discard_app.session_cookie import OTHER_TABS_SCRIPT
from discard_app.session_purge import session_purge_loop
from discard_app.state.desk import DeskState
from discard_app.state.session_binding import SessionBinding
from discard_app.sunday_reminder import sunday_reminder_loop
from services.core.config import settings
from services.core.db import use_database
from services.core.files import keep_files_private
from services.league.login_guard import use_storage

log_redaction.install()  # tab tokens never reach the logs
use_database(settings.database_url)  # the site names its database: services never read the settings
use_storage(settings.redis_url)  # the login limits' counts: in Redis when the workers share it
keep_files_private(settings.database_url)  # the state files, the database and the uploads: this account's only

app = rx.App(
    html_lang="ru",
    stylesheets=["/forms.css"],  # native selects drawn like the text fields beside them
    head_components=[
        rx.el.meta(name="viewport", content="width=device-width, initial-scale=1"),
        rx.script(OTHER_TABS_SCRIPT),
        rx.script(max_length_script()),  # every free-text input stops at its limit (services/core/text_limits)
        rx.script(FORMS_SCRIPT),  # unsaved input asks before leaving; a second press is the first's (assets/forms.js)
    ],
    # The ICS feeds and the session cookie's two steps; around everything the guard (cookies to digests,
    # security headers, uploads refused before their body is read).
    api_transformer=[http_api, security_guard],
    toaster=rx.toast.provider(custom_attrs={"containerAriaLabel": texts.NOTIFICATIONS_LABEL}),
    backend_exception_handler=unexpected_error,  # in Russian, not Reflex's «An error occurred»
)
app.add_middleware(SessionBinding(), index=0)  # every event acts as the session that sent it
# Регламент §3: the Sunday reminder is written by whichever process sees its moment first, the site included.
app.register_lifespan_task(sunday_reminder_loop)
live_push.install(app)  # one watcher per worker pushes every change to the open pages it concerns
app.register_lifespan_task(session_purge_loop)
# Reflex's own overlay says "Cannot connect to server: websocket error…" in English: ours says it in Russian.
app.app_wraps[(5, "Overlay")] = connection_overlay
# (page, route, title, on_load): every page of the site, its browser title ends with the league's name.
PAGES = [
    (login_page, routes.LOGIN, texts.LOGIN_TITLE, LoginState.load),
    (home_page, routes.HOME, None, HomeState.load),
    (desk_page, routes.DESK, texts.DESK_TITLE, [DeskState.load, ChecklistState.load]),
    (staff_page, routes.STAFF, texts.STAFF_TITLE, StaffState.load),
    (roster_page, routes.ROSTER, texts.ROSTER_TITLE, RosterState.load),
    (draw_page, routes.DRAW, texts.DRAW_TITLE, DrawState.load),
    (match_schedule_page, routes.MATCH_SCHEDULE, texts.SCHEDULE_PAGE_TITLE, MatchScheduleState.load),
    (schedule_overview_page, routes.SCHEDULE_OVERVIEW, texts.NAV_SCHEDULE, ScheduleOverviewState.load),
    (club_calendar_page, routes.CLUB_CALENDAR, texts.NAV_CALENDAR, ClubCalendarState.load),
    (playoff_page, routes.PLAYOFF, texts.PLAYOFF_TITLE, PlayoffState.load),
    (announcements_page, routes.ANNOUNCEMENTS, texts.ANNOUNCEMENTS_TITLE, AnnouncementsState.load),
    (profile_page, routes.PROFILE, texts.PROFILE_TITLE, ProfileState.load),
    (
        standings_page,
        routes.STANDINGS,
        texts.STANDINGS_TITLE,
        [LiveStandingsState.join, TieState.load, StandingsViewerState.load],
    ),
    (match_page, routes.MATCH, texts.MATCH_PAGE_TITLE, MatchState.load),
    (player_page, routes.PLAYER, texts.PLAYER_PAGE_TITLE, PlayerState.load),
    (pantheon_page, routes.PANTHEON, texts.PANTHEON_TITLE, PantheonState.load),
    (seasons_page, routes.SEASONS, texts.SEASONS_TITLE, SeasonsState.load),
    (season_admin_page, routes.SEASON_ADMIN, texts.SEASON_ADMIN_TITLE, SeasonAdminState.load),
    (season_record_page, routes.SEASON_RECORD, texts.SEASONS_TITLE, SeasonRecordState.load),
    (disqualifications_page, routes.DISQUALIFICATIONS, texts.DQ_TITLE, DisqualificationsState.load),
    (regulation_page, routes.REGULATION, texts.REGULATION_TITLE, [RegulationState.load, RulesState.load]),
]
app.add_page(not_found_page, route="404", title=f"{texts.NOT_FOUND_TITLE} · {texts.APP_TITLE}")
for component, route, title, on_load in PAGES:
    app.add_page(
        component,
        route=route,
        title=f"{title} · {texts.APP_TITLE}" if title else texts.APP_TITLE,
        on_load=on_load,
    )
