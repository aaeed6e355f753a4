"""The organizer's season desk: a new season, its roster (copied or from CSV with a preview), finishing it."""

from __future__ import annotations

from datetime import date, datetime
from typing import TypedDict

import reflex as rx

from discard_app import texts
from discard_app.components.secret import show_secret
from discard_app.state.auth import AuthState
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import Role, Season, User
from services.league import roster, seasons
from services.league.seasons import SeasonError

CSV_ID = "roster_csv"
PASSWORDS_BOX = "season-issued-passwords"  # the imported players' passwords, shown once (components/secret.py)
MAX_CSV_BYTES = 512 * 1024


class PreviewRow(TypedDict):
    line: int
    name: str
    fee: str
    outcome: str
    accepted: bool


def season_status(season: Season) -> str:
    if season.finished_at:
        return texts.SEASON_STATUS_FINISHED.format(date=f"{season.finished_at.astimezone(settings.tz):%d.%m.%Y}")
    if season.draw_approved_at:
        return texts.SEASON_STATUS_RUNNING
    return texts.SEASON_STATUS_CLOSED if season.registration_closed else texts.SEASON_STATUS_REGISTRATION


def _day(value: str) -> date | None:
    value = (value or "").strip()
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError as error:
        raise SeasonError(texts.SEASON_BAD_DATE.format(value=value)) from error


def _today() -> date:
    return datetime.now(settings.tz).date()


def _decode(data: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1251"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise SeasonError(texts.SEASON_CSV_UNREADABLE)


class SeasonAdminState(AuthState):
    allowed: bool = False
    current: str = ""
    dates: str = ""
    previous_name: str = ""
    can_finish: bool = False
    error: str = ""
    notice: str = ""
    details: list[str] = []
    preview: list[PreviewRow] = []
    _csv_text: str = ""

    def _organizer(self) -> User | None:
        user = self._require_user(Role.ORGANIZER)
        self.allowed = user is not None
        return user

    def _clear(self) -> None:
        self.error = self.notice = ""
        self.details = []

    def _refresh(self) -> None:
        with session_scope() as session:
            season = roster.current_season(session)
            previous = seasons.previous_season(session, season) if season else None
        self.current = texts.SEASON_CURRENT.format(name=season.name, status=season_status(season)) if season else ""
        self.dates = ""
        if season and (season.registration_opens_on or season.registration_closes_on):
            opens, closes = season.registration_opens_on, season.registration_closes_on
            self.dates = texts.SEASON_DATES.format(
                opens=f"{opens:%d.%m.%Y}" if opens else "…", closes=f"{closes:%d.%m.%Y}" if closes else "…"
            )
        self.previous_name = previous.name if previous and season and not season.registration_closed else ""
        self.can_finish = bool(season and season.draw_approved_at and not season.finished_at)

    @rx.event
    def load(self) -> rx.event.EventSpec | None:
        self._clear()
        self.preview, self._csv_text = [], ""
        if self._current_user() is None:
            return self._redirect_to_login()
        if self._organizer() is not None:
            self._refresh()
        return None

    @rx.event
    def create(self, form: dict[str, str]) -> None:
        user = self._organizer()
        if user is None:
            return
        self._clear()
        try:
            with session_scope() as session:
                season = seasons.create_season(
                    session,
                    form.get("name", ""),
                    registration_opens_on=_day(form.get("opens", "")),
                    registration_closes_on=_day(form.get("closes", "")),
                    actor_user_id=user.id,
                )
        except SeasonError as error:
            self.error = str(error)
            return
        self.preview, self._csv_text = [], ""
        self.notice = texts.SEASON_CREATED.format(name=season.name)
        self._refresh()

    @rx.event
    def copy_roster(self) -> None:
        user = self._organizer()
        if user is None:
            return
        self._clear()
        try:
            with session_scope() as session:
                season = roster.current_season(session)
                source = seasons.previous_season(session, season) if season else None
                if season is None or source is None:
                    raise SeasonError(texts.NO_SEASON)
                result = seasons.copy_roster(session, season, source, today=_today(), actor_user_id=user.id)
        except SeasonError as error:
            self.error = str(error)
            return
        self.notice = texts.SEASON_COPIED.format(count=len(result.added))
        self.details = [texts.SEASON_NOT_COPIED.format(reason=r) for r in result.refused]

    @rx.event
    async def check_csv(self, files: list[rx.UploadFile]) -> None:
        # The role is checked before a byte of the file is read.
        user = self._organizer()
        if user is None:
            return
        self._clear()
        self.preview, self._csv_text = [], ""
        try:
            if not files:
                raise SeasonError(texts.SEASON_CSV_NONE)
            data = await files[0].read()
            if len(data) > MAX_CSV_BYTES:
                raise SeasonError(texts.SEASON_CSV_UNREADABLE)
            text = _decode(data)
            with session_scope() as session:
                season = roster.current_season(session)
                if season is None:
                    raise SeasonError(texts.NO_SEASON)
                lines = seasons.preview_roster_csv(session, season, text, today=_today())
        except SeasonError as error:
            self.error = str(error)
            return
        if not lines:
            self.error = texts.SEASON_CSV_EMPTY
            return
        self._csv_text = text
        self.preview = [
            PreviewRow(line=ln.line, name=ln.name, fee=ln.fee, outcome=ln.outcome, accepted=ln.accepted) for ln in lines
        ]
        accepted = sum(ln.accepted for ln in lines)
        self.notice = texts.SEASON_CSV_SUMMARY.format(accepted=accepted, refused=len(lines) - accepted)

    @rx.event
    def import_csv(self) -> rx.event.EventSpec | None:
        user = self._organizer()
        if user is None:
            return None
        self._clear()
        if not self._csv_text:
            self.error = texts.SEASON_CSV_NONE
            return show_secret(PASSWORDS_BOX, [])
        try:
            with session_scope() as session:
                season = roster.current_season(session)
                if season is None:
                    raise SeasonError(texts.NO_SEASON)
                result = seasons.import_roster_csv(
                    session, season, self._csv_text, today=_today(), actor_user_id=user.id
                )
        except SeasonError as error:
            self.error = str(error)
            return show_secret(PASSWORDS_BOX, [])
        self._csv_text = ""
        self.preview = []
        self.notice = texts.SEASON_CSV_DONE.format(count=result.added)
        self.details = [ln.outcome for ln in result.lines if not ln.accepted]
        issued = [f"{name}: {password}" for name, password in result.passwords]
        return [rx.clear_selected_files(CSV_ID), show_secret(PASSWORDS_BOX, issued)]

    @rx.event
    def finish(self) -> None:
        user = self._organizer()
        if user is None:
            return
        self._clear()
        try:
            with session_scope() as session:
                season = roster.current_season(session)
                if season is None:
                    raise SeasonError(texts.NO_SEASON)
                seasons.finish_season(session, season, now=datetime.now(settings.tz), actor_user_id=user.id)
        except SeasonError as error:
            self.error = str(error)
            return
        self.notice = texts.SEASON_FINISHED.format(name=season.name)
        self._refresh()
