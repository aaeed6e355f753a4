"""The organizer's season desk: a new season, its roster (copied or from CSV with a preview), finishing it."""

from __future__ import annotations

import asyncio
import hashlib
from datetime import date, datetime
from typing import TypedDict

import reflex as rx

from discard_app import texts
from discard_app.components.secret import password_sheet, show_secret
from discard_app.state.auth import AuthState
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import Role, Season, User
from services.league import issued_passwords, roster, seasons
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


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _preview(text: str) -> list[seasons.PreviewLine]:
    """In a thread: parsing and the database's answers per line never hold up the event loop."""
    with session_scope() as session:
        season = roster.current_season(session)
        if season is None:
            raise SeasonError(texts.NO_SEASON)
        return seasons.preview_roster_csv(session, season, text, today=_today())


def _import(text: str, actor_user_id: int) -> tuple[seasons.ImportResult, str]:
    with session_scope() as session:
        season = roster.current_season(session)
        if season is None:
            raise SeasonError(texts.NO_SEASON)
        result = seasons.import_roster_csv(session, season, text, today=_today(), actor_user_id=actor_user_id)
        return result, season.name


def _reissue(actor_user_id: int) -> tuple[list[issued_passwords.IssuedPassword], str]:
    with session_scope() as session:
        season = roster.current_season(session)
        if season is None:
            raise SeasonError(texts.NO_SEASON)
        return issued_passwords.reissue_unused(session, season.id, actor_user_id=actor_user_id), season.name


def _decode(data: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1251"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise SeasonError(texts.SEASON_CSV_UNREADABLE)


async def _read_csv(files: list[rx.UploadFile]) -> str:
    if not files:
        raise SeasonError(texts.SEASON_CSV_NONE)
    data = await files[0].read()
    if len(data) > MAX_CSV_BYTES:
        raise SeasonError(texts.SEASON_CSV_UNREADABLE)
    return _decode(data)


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
    # Only the digest of the checked file: its names and contacts never rest in the tab's state (pickled to
    # disk or Redis until the tab has been idle an hour); the import reads the selected file again.
    _previewed: str = ""

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
        self.preview, self._previewed = [], ""
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
        self.preview, self._previewed = [], ""
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
        self.preview, self._previewed = [], ""
        try:
            text = await _read_csv(files)
            lines = await asyncio.to_thread(_preview, text)
        except SeasonError as error:
            self.error = str(error)
            return
        if not lines:
            self.error = texts.SEASON_CSV_EMPTY
            return
        self._previewed = _digest(text)
        self.preview = [
            PreviewRow(line=ln.line, name=ln.name, fee=ln.fee, outcome=ln.outcome, accepted=ln.accepted) for ln in lines
        ]
        accepted = sum(ln.accepted for ln in lines)
        self.notice = texts.SEASON_CSV_SUMMARY.format(accepted=accepted, refused=len(lines) - accepted)

    @rx.event
    async def import_csv(self, files: list[rx.UploadFile]) -> list[rx.event.EventSpec] | None:
        """The selected file once more (nothing of it was kept), imported if it is the one that was checked; the
        new players' passwords are shown once and offered as a printable sheet made now and never stored."""
        user = self._organizer()
        if user is None:
            return None
        self._clear()
        try:
            text = await _read_csv(files)
            if not self._previewed or _digest(text) != self._previewed:
                raise SeasonError(texts.SEASON_CSV_CHANGED)
            result, season_name = await asyncio.to_thread(_import, text, user.id)
        except SeasonError as error:
            self.error = str(error)
            return None
        self._previewed = ""
        self.preview = []
        self.notice = texts.SEASON_CSV_DONE.format(count=result.added)
        self.details = [ln.outcome for ln in result.lines if not ln.accepted]
        rows = [issued_passwords.issued(name, password) for name, password in result.passwords]
        events = [
            rx.clear_selected_files(CSV_ID),
            show_secret(PASSWORDS_BOX, [f"{r.name}: {r.password}" for r in rows]),
        ]
        return events + ([self._sheet(rows, season_name)] if rows else [])

    def _sheet(self, rows: list[issued_passwords.IssuedPassword], season_name: str) -> rx.event.EventSpec:
        return password_sheet(rows, origin=self.router.url.origin, season_name=season_name)

    @rx.event
    async def reissue_unused(self) -> list[rx.event.EventSpec] | None:
        """«Выдать заново» every password not yet used (the sheet was lost): new ones, the old ones stop working."""
        user = self._organizer()
        if user is None:
            return None
        self._clear()
        try:
            rows, season_name = await asyncio.to_thread(_reissue, user.id)
        except SeasonError as error:
            self.error = str(error)
            return None
        if not rows:
            self.notice = texts.SEASON_REISSUE_NONE
            return [show_secret(PASSWORDS_BOX, [])]
        self.notice = texts.SEASON_REISSUE_DONE.format(count=len(rows))
        return [show_secret(PASSWORDS_BOX, [f"{r.name}: {r.password}" for r in rows]), self._sheet(rows, season_name)]

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
