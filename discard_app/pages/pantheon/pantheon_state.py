"""The Pantheon page's state: event settings, player mapping, the import in the background, the decision list."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TypedDict

import reflex as rx

from discard_app import texts
from discard_app.state.auth import AuthState, OrganizerPage
from services.core.db import session_scope
from services.core.models import utc_now
from services.pantheon import event
from services.pantheon.client import PantheonClient, PantheonError
from services.pantheon.games import PlayerInfo
from services.pantheon.sync import SyncError, SyncSummary, run_sync
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


class PantheonState(OrganizerPage, AuthState):
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

    @rx.event(background=True)
    async def fetch_registered(self) -> None:
        """The event's players from Pantheon, in a worker thread: a slow Pantheon delays nobody else's events.
        A failure is shown; the stored mapping stays visible."""
        async with self:
            if self._organizer() is None or self._season_id is None or self.fetching:
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
            players = [(p.id, p.name) for p in season_players(session, self._season_id)]
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
    def load(self) -> rx.event.EventSpec | None:
        self.error = self.notice = ""
        if self._current_user() is None:
            return self._redirect_to_login()
        if self._organizer() is None:
            return None
        self._refresh()
        return PantheonState.fetch_registered

    @rx.event
    def save_settings(self, form: dict[str, str]) -> rx.event.EventSpec | None:
        user = self._organizer()
        if user is None or self._season_id is None:
            return
        self.error = self.notice = ""
        had_token = self.token_set
        try:
            with session_scope() as session:
                event.save_settings(
                    session,
                    user,
                    self._season_id,
                    api_url=form.get("api_url", ""),
                    event_id=form.get("event_id", ""),
                    admin_person_id=form.get("admin_person_id", ""),
                    admin_token=form.get("admin_token", ""),
                    now=utc_now(),
                )
        except event.SetupError as e:
            self.error = str(e)
            return
        self._refresh()
        # A changed address drops the stored token (services/pantheon/event.py): say so, it must be entered again.
        self.notice = texts.PANTHEON_TOKEN_DROPPED if had_token and not self.token_set else texts.PANTHEON_SAVED
        return PantheonState.fetch_registered

    def _map(self, person_id: str, player_id: str) -> None:
        user = self._organizer()
        if user is None or self._season_id is None:
            return
        self.error = self.notice = ""
        if not person_id.isdigit() or (player_id and not player_id.isdigit()):
            self.error = texts.ROSTER_PICK_PLAYER
            return
        title = dict(self._registered).get(int(person_id), "")
        try:
            with session_scope() as session:
                event.map_player(
                    session, user, self._season_id, int(person_id), int(player_id) if player_id else None, title
                )
        except event.SetupError as e:
            self.error = str(e)
            return
        self.notice = texts.PANTHEON_MAPPED
        self._refresh()

    @rx.event
    def accept(self, person_id: str, player_id: str) -> None:
        self._map(person_id, player_id)

    @rx.event
    def map_player(self, form: dict[str, str]) -> None:
        self._map(form.get("person_id", ""), form.get("player_id", ""))

    @rx.event
    def assign(self, form: dict[str, str]) -> None:
        user = self._organizer()
        if user is None or self._season_id is None:
            return
        self.error = self.notice = ""
        game, match = form.get("game_id", ""), form.get("match_id", "")
        if not game.isdigit() or not match.isdigit():
            self.error = "Выберите матч."
            return
        try:
            with session_scope() as session:
                event.assign_game(session, user, self._season_id, int(game), int(match), now=utc_now())
        except event.SetupError as e:
            self.error = str(e)
            return
        self.notice = texts.PANTHEON_ASSIGNED
        self._refresh()

    @rx.event
    def ignore(self, game_id: str) -> None:
        user = self._organizer()
        if user is None or self._season_id is None or not game_id.isdigit():
            return
        self.error = self.notice = ""
        try:
            with session_scope() as session:
                event.ignore_game(session, user, self._season_id, int(game_id), now=utc_now())
        except event.SetupError as e:
            self.error = str(e)
            return
        self.notice = texts.PANTHEON_IGNORED
        self._refresh()

    @rx.event(background=True)
    async def import_now(self) -> None:
        async with self:
            user = self._organizer()
            if user is None or self.running or self._season_id is None:
                return
            self.running, self.error, self.notice, self.summary = True, "", "", ""
            self.progress = texts.PANTHEON_RUNNING.format(read=0)
            season_id, user_id = self._season_id, user.id
        latest: list[SyncSummary] = []
        task = asyncio.create_task(
            asyncio.to_thread(run_sync, season_id, user_id, progress=lambda s: latest.append(replace(s)))
        )
        while not task.done():
            await asyncio.sleep(0.3)
            if latest:
                async with self:
                    self.progress = texts.PANTHEON_RUNNING.format(read=latest[-1].read)
        async with self:
            try:
                summary = task.result()
                if summary.error:  # a failure is red, in Russian, never a class name
                    self.error = summary.text()
                else:
                    self.summary = summary.text()
            except SyncError as e:
                self.error = str(e)
            self.running, self.progress = False, ""
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
