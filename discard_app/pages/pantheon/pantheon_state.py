"""The Pantheon page's state: event settings, player mapping, the import in the background, the decision list.

Every change is a guarded action (discard_app/state/action.py): organizer only on the server, once per the form's
(or the button's) one-time key. The import itself runs in a thread (`import_runs`); `follow_import` only shows it."""

from __future__ import annotations

import asyncio
from typing import Any, TypedDict

import reflex as rx
from reflex.event import EventSpec

from discard_app import texts
from discard_app.pages.pantheon import import_runs
from discard_app.state.action import KEY_FIELD, GuardedActions, guarded
from discard_app.state.auth import AuthState, OrganizerPage
from services.core.db import session_scope
from services.core.models import Role, User, saved, utc_now
from services.pantheon import event
from services.pantheon.client import PantheonClient, PantheonError
from services.pantheon.games import PlayerInfo
from services.pantheon.sync import NO_SETTINGS, SyncError, SyncSummary
from services.results.repo import current_season_id, season_players
from services.scheduling.intervals import KIROV


class MappingView(TypedDict):
    person_id: str
    title: str
    player_name: str
    suggested_id: str
    suggested_name: str


class DecisionView(TypedDict):
    id: str
    ended: str
    status: str
    pending: bool
    reason: str
    seats: str


class OptionView(TypedDict):
    value: str
    label: str


def _season(session: Any) -> int:
    """The current season's id, which every action of the page is about."""
    season_id = current_season_id(session)
    if season_id is None:
        raise event.SetupError(texts.NO_SEASON)
    return season_id


def _ready_to_import(session: Any, user: User) -> int:
    """The season whose import may start: organizer (checked again by the import), settings stored."""
    season_id = _season(session)
    if event.get_settings(session, season_id) is None:
        raise SyncError(NO_SETTINGS)
    return season_id


class PantheonState(GuardedActions, OrganizerPage, AuthState):
    configured: bool = False
    api_url: str = ""
    event_id: str = ""
    admin_person_id: str = ""
    token_set: bool = False
    mapping: list[MappingView] = []
    unmapped: int = 0
    players: list[OptionView] = []
    matches: list[OptionView] = []
    decisions: list[DecisionView] = []
    games_seen: bool = False  # «Все игры размещены» only once something was read
    running: bool = False
    progress: str = ""
    summary: str = ""
    error: str = ""
    notice: str = ""
    fetching: bool = False  # the event's players are being read from Pantheon
    _season_id: int | None = None
    _registered: list[tuple[int, str]] = []
    _import_run: str = ""  # the import this tab started (import_runs), while it runs

    @rx.event(background=True)
    async def fetch_registered(self) -> None:
        """The event's players from Pantheon, in a worker thread: a slow Pantheon delays nobody else's events.
        A failure is shown; the stored mapping stays visible."""
        async with self:
            if self._viewer() is None or self._season_id is None or self.fetching:
                return
            self.fetching, season_id = True, self._season_id
        try:
            registered, error = await asyncio.to_thread(_registered_players, season_id)
        finally:
            async with self:
                self.fetching = False
        async with self:
            if error:
                self.error = error
            if registered is not None:
                self._registered = registered
                self._refresh()

    def _refresh(self) -> None:
        with session_scope() as session:
            self._season_id = current_season_id(session)
            if self._season_id is None:
                self.error = texts.NO_SEASON
                return
            settings = event.get_settings(session, self._season_id)
            players = [(p.id, p.name) for p in season_players(session, self._season_id) if isinstance(p.id, int)]
            names = dict(players)
            registered = [PlayerInfo(i, t) for i, t in self._registered]
            rows = event.mapping_rows(session, self._season_id, registered, players)
            decisions = event.decision_rows(session, self._season_id)
            self.games_seen = event.games_seen(session, self._season_id) > 0
            matches = event.match_options(session, self._season_id)
        self.configured = settings is not None
        self.api_url = settings.api_url if settings else ""
        self.event_id = str(settings.event_id) if settings else ""
        self.admin_person_id = str(settings.admin_person_id or "") if settings else ""
        self.token_set = bool(settings and settings.admin_token)
        summary = event.last_summary(settings)
        if summary and not self.running:
            self.summary = SyncSummary(**summary).text()
        self.players = [OptionView(value=str(i), label=n) for i, n in players]
        self.matches = [OptionView(value=str(i), label=label) for i, label in matches]
        self.mapping = [
            MappingView(
                person_id=str(r.person_id),
                title=f"{r.title} (id {r.person_id})",
                player_name=names.get(r.player_id, "") if r.player_id else texts.PANTHEON_NOT_MAPPED,
                suggested_id=str(r.suggested_player_id or ""),
                suggested_name=names.get(r.suggested_player_id, "") if r.suggested_player_id else "",
            )
            for r in rows
        ]
        self.unmapped = sum(r.player_id is None for r in rows)
        self.decisions = [
            DecisionView(
                id=str(d.id),
                ended=d.ended_at.astimezone(KIROV).strftime("%d.%m.%Y %H:%M") if d.ended_at else "—",
                status=texts.PANTHEON_STATUS.get(d.status, d.status),
                pending=d.status == "pending",
                reason=d.reason,
                seats=d.seats,
            )
            for d in decisions
        ]

    @rx.event
    def load(self) -> EventSpec | None:
        self._renew_key()  # this tab's forms carry their own one-time key
        if self._current_user() is None:
            return self._redirect_to_login()
        if self._viewer() is None:
            return None
        self._refresh()
        return PantheonState.fetch_registered

    def _show_refusal(self, message: str) -> None:
        self.reset()  # nothing of the organizer's view stays in a refused tab (OrganizerPage)

    def _change(self, run: Any, key: Any, done: str) -> bool:
        """One guarded change, and the page read again when it was done."""
        if not self._perform(run, key=key, done=done, action="pantheon").ok:
            return False
        self._refresh()
        return True

    @rx.event
    @guarded(Role.ORGANIZER)
    def save_settings(self, form: dict[str, Any]) -> EventSpec | None:
        had_token = self.token_set
        fields = {name: str(form.get(name) or "") for name in ("api_url", "event_id", "admin_person_id", "admin_token")}
        if not self._change(
            lambda s, u: event.save_settings(s, u, _season(s), now=utc_now(), **fields),
            form.get(KEY_FIELD),
            texts.PANTHEON_SAVED,
        ):
            return None
        # A changed address drops the stored token (services/pantheon/event.py): say so, it must be entered again.
        if had_token and not self.token_set:
            self.notice = texts.PANTHEON_TOKEN_DROPPED
        return PantheonState.fetch_registered

    def _map(self, person_id: str, player_id: str, key: Any) -> None:
        picked = person_id.isdigit() and (not player_id or player_id.isdigit())
        title = dict(self._registered).get(int(person_id), "") if picked else ""

        def run(session: Any, user: User) -> None:
            if not picked:
                raise event.SetupError(texts.ROSTER_PICK_PLAYER)
            event.map_player(session, user, _season(session), int(person_id), int(player_id or 0) or None, title)

        self._change(run, key, texts.PANTHEON_MAPPED)

    @rx.event
    @guarded(Role.ORGANIZER)
    def accept(self, person_id: str, player_id: str, key: str = "") -> None:
        """The suggested player, one button per row: its key comes with the click."""
        self._map(str(person_id), str(player_id), key)

    @rx.event
    @guarded(Role.ORGANIZER)
    def map_player(self, form: dict[str, Any]) -> None:
        self._map(str(form.get("person_id") or ""), str(form.get("player_id") or ""), form.get(KEY_FIELD))

    @rx.event
    @guarded(Role.ORGANIZER)
    def assign(self, form: dict[str, Any]) -> None:
        game, match = str(form.get("game_id") or ""), str(form.get("match_id") or "")

        def run(session: Any, user: User) -> None:
            if not game.isdigit() or not match.isdigit():
                raise event.SetupError(texts.PANTHEON_PICK_MATCH)
            event.assign_game(session, user, _season(session), int(game), int(match), now=utc_now())

        self._change(run, form.get(KEY_FIELD), texts.PANTHEON_ASSIGNED)

    @rx.event
    @guarded(Role.ORGANIZER)
    def ignore(self, game_id: str, key: str = "") -> None:
        game_id = str(game_id)
        if not game_id.isdigit():
            return
        self._change(
            lambda s, u: event.ignore_game(s, u, _season(s), int(game_id), now=utc_now()), key, texts.PANTHEON_IGNORED
        )

    @rx.event
    @guarded(Role.ORGANIZER)
    def import_now(self, key: str = "") -> EventSpec | None:
        """Starts the import once per key; a thread does the work (blocking HTTP), `follow_import` shows it."""
        if self.running:
            return None
        self.summary = ""
        outcome = self._perform(_ready_to_import, key=key, action="pantheon.import")
        if not outcome.ok or outcome.repeated:  # refused, or a second send of the click whose import runs
            return None

        self._import_run = import_runs.start(outcome.value, saved(self._admitted_user().id))
        self.running, self.progress = True, texts.PANTHEON_RUNNING.format(read=0)
        return PantheonState.follow_import

    @rx.event(background=True)
    async def follow_import(self) -> None:
        """Shows the running import's progress, then its summary; reads only (the import started in import_now)."""
        async with self:
            run_id = self._import_run
        if not run_id:
            return
        shown = 0
        while not import_runs.over(run_id):
            await asyncio.sleep(0.3)
            read = import_runs.read_so_far(run_id) or 0
            if read != shown:
                shown = read
                async with self:
                    self.progress = texts.PANTHEON_RUNNING.format(read=read)
        run = import_runs.finish(run_id)
        async with self:
            self.running, self.progress, self._import_run = False, "", ""
            if self._viewer() is None:  # logged out meanwhile: nothing of the organizer's view comes back
                return
            if run is not None and run.error:
                self.error = run.error
            elif run is not None and run.summary is not None:
                summary: SyncSummary = run.summary
                if summary.error:  # a failure is red, in Russian, never a class name
                    self.error = summary.text()
                else:
                    self.summary = summary.text()
            self._refresh()


def _registered_players(season_id: int) -> tuple[list[tuple[int, str]] | None, str]:
    """The event's players (id, title) as Pantheon lists them, or the error to show; blocking HTTP, so the state
    runs it in a thread."""
    with session_scope() as session:
        settings = event.get_settings(session, season_id)
    if settings is None:
        return None, ""
    try:
        with PantheonClient(settings.api_url) as client:
            return [(p.id, p.title) for p in client.get_registered_players(settings.event_id)], ""
    except PantheonError as e:
        return None, str(e)
