"""The organizer's season desk: a new season, its roster (copied or from CSV with a preview), finishing it.

Every action is guarded (discard_app/state/action.py) and performed once per form key; finishing the season and
issuing passwords again ask first, naming what they will do."""

from __future__ import annotations

import asyncio
import hashlib
from datetime import date, datetime
from typing import Any, TypedDict

import reflex as rx
from reflex.event import EventSpec

from discard_app import texts
from discard_app.components.secret import password_sheet, show_secret
from discard_app.state.action import KEY_FIELD, GuardedActions, guarded, refusing
from discard_app.state.auth import AuthState, OrganizerPage
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import Role, Season, User, saved, utc_now
from services.core.wording import counted
from services.league import issued_passwords, roster, seasons
from services.league.seasons import SeasonError

CSV_ID = "roster_csv"
NEW_SEASON_FORM_ID = "season-new"
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


class SeasonAdminState(GuardedActions, OrganizerPage, AuthState):
    current: str = ""
    dates: str = ""
    previous_name: str = ""
    can_finish: bool = False
    error: str = ""
    notice: str = ""
    details: list[str] = []
    preview: list[PreviewRow] = []
    has_season: bool = False
    opens_value: str = ""  # the current season's registration dates, as the date fields take them
    closes_value: str = ""
    finish_question: str = ""  # «Завершить сезон «X»?» naming what follows; "" while not asked
    reissue_question: str = ""  # «Выдать заново N паролей?»; "" while not asked
    reissue_text: str = ""
    # Only the digest of the checked file: its names and contacts never rest in the tab's state (pickled to
    # disk or Redis until the tab has been idle an hour); the import reads the selected file again.
    _previewed: str = ""

    def _show_refusal(self, message: str) -> None:
        self.reset()  # nothing of the organizer's view stays in a refused tab

    def _clear(self) -> None:
        self.error = self.notice = ""
        self.details = []

    def _refresh(self) -> None:
        with session_scope() as session:
            season = roster.current_season(session)
            previous = seasons.previous_season(session, season) if season else None
        self.current = texts.SEASON_CURRENT.format(name=season.name, status=season_status(season)) if season else ""
        self.dates = ""
        self.has_season = season is not None
        self.opens_value = f"{season.registration_opens_on:%Y-%m-%d}" if season and season.registration_opens_on else ""
        self.closes_value = (
            f"{season.registration_closes_on:%Y-%m-%d}" if season and season.registration_closes_on else ""
        )
        if season and (season.registration_opens_on or season.registration_closes_on):
            opens, closes = season.registration_opens_on, season.registration_closes_on
            self.dates = texts.SEASON_DATES.format(
                opens=f"{opens:%d.%m.%Y}" if opens else "…", closes=f"{closes:%d.%m.%Y}" if closes else "…"
            )
        self.previous_name = previous.name if previous and season and not season.registration_closed else ""
        self.can_finish = bool(season and season.draw_approved_at and not season.finished_at)

    @rx.event
    def load(self) -> EventSpec | None:
        self.details, self.preview, self._previewed = [], [], ""
        self.finish_question = self.reissue_question = self.reissue_text = ""
        return self._load_page(self._refresh)

    @rx.event
    @guarded(Role.ORGANIZER)
    def create(self, form: dict[str, str]) -> EventSpec | None:
        self._clear()

        def create(session: Any, user: User) -> Season:
            return seasons.create_season(
                session,
                form.get("name", ""),
                registration_opens_on=_day(form.get("opens", "")),
                registration_closes_on=_day(form.get("closes", "")),
                actor_user_id=user.id,
                now=utc_now(),
            )

        done = lambda season: texts.SEASON_CREATED.format(name=season.name)  # noqa: E731
        if not self._perform(create, key=form.get(KEY_FIELD), done=done, action="season.create").ok:
            return None
        self.preview, self._previewed = [], ""
        self._refresh()
        return rx.call_script(f"document.getElementById('{NEW_SEASON_FORM_ID}')?.reset()")

    @rx.event
    @guarded(Role.ORGANIZER)
    def set_dates(self, form: dict[str, str]) -> None:
        """Регламент §1: the current season's registration dates (the desk's checklist asks for them)."""
        self._clear()

        def run(session: Any, user: User) -> Season:
            season = roster.current_season(session)
            if season is None:
                raise SeasonError(texts.NO_SEASON)
            opens, closes = _day(form.get("opens", "")), _day(form.get("closes", ""))
            return seasons.set_registration_dates(
                session, season, opens, closes, actor_user_id=saved(user.id), now=utc_now()
            )

        if self._perform(run, key=form.get(KEY_FIELD), done=texts.SEASON_DATES_SAVED, action="season.dates").ok:
            self._refresh()

    @rx.event
    @guarded(Role.ORGANIZER)
    def copy_roster(self, form: dict[str, str]) -> None:
        self._clear()

        def copy(session: Any, user: User) -> seasons.CopyResult:
            season = roster.current_season(session)
            source = seasons.previous_season(session, season) if season else None
            if season is None or source is None:
                raise SeasonError(texts.NO_SEASON)
            return seasons.copy_roster(session, season, source, today=_today(), actor_user_id=user.id)

        done = lambda result: texts.SEASON_COPIED.format(count=len(result.added))  # noqa: E731
        outcome = self._perform(copy, key=form.get(KEY_FIELD), done=done, action="season.copy_roster")
        if outcome.ok and outcome.value is not None:
            self.details = [texts.SEASON_NOT_COPIED.format(reason=r) for r in outcome.value.refused]

    @rx.event
    @guarded(Role.ORGANIZER)
    async def check_csv(self, files: list[rx.UploadFile]) -> None:
        # The role is checked (by `guarded`) before a byte of the file is read; the preview changes nothing.
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
    @guarded(Role.ORGANIZER)
    async def import_csv(
        self, files: list[rx.UploadFile], form: dict[str, str] | None = None
    ) -> list[EventSpec] | None:
        """The selected file once more (nothing of it was kept), imported if it is the one that was checked; the
        new players' passwords are shown once and offered as a printable sheet made now and never stored."""
        self._clear()

        def run(session: Any, user: User) -> tuple[seasons.ImportResult, str]:
            season = roster.current_season(session)
            if season is None:
                raise SeasonError(texts.NO_SEASON)
            result = seasons.import_roster_csv(session, season, text, today=_today(), actor_user_id=user.id)
            return result, season.name

        try:
            text = await _read_csv(files)
            if not self._previewed or _digest(text) != self._previewed:
                raise SeasonError(texts.SEASON_CSV_CHANGED)
        except SeasonError as error:
            run = refusing(error)  # type: ignore[assignment]

        done = lambda value: texts.SEASON_CSV_DONE.format(count=value[0].added)  # noqa: E731
        # In a thread: new accounts' passwords are hashed there, never holding up the event loop.
        outcome = await asyncio.to_thread(
            self._perform, run, key=(form or {}).get(KEY_FIELD), done=done, action="season.import_csv"
        )
        if not outcome.ok:
            return None
        self._previewed = ""
        self.preview = []
        if outcome.value is None:  # a second send of the same form: the first one's answer is on screen
            return [rx.clear_selected_files(CSV_ID)]
        result, season_name = outcome.value
        self.details = [ln.outcome for ln in result.lines if not ln.accepted]
        rows = [issued_passwords.issued(name, password) for name, password in result.passwords]
        events = [
            rx.clear_selected_files(CSV_ID),
            show_secret(PASSWORDS_BOX, [f"{r.name}: {r.password}" for r in rows]),
        ]
        return events + ([self._sheet(rows, season_name)] if rows else [])

    def _sheet(self, rows: list[issued_passwords.IssuedPassword], season_name: str) -> EventSpec:
        return password_sheet(rows, origin=self.router.url.origin, season_name=season_name)

    @rx.event
    def ask_reissue(self) -> EventSpec | None:
        """«Выдать заново» first asks, naming how many passwords it will replace (the old ones stop working)."""
        if self._viewer() is None:
            return None
        self._clear()
        with session_scope() as session:
            season = roster.current_season(session)
            count = len(issued_passwords.not_yet_used(session, saved(season.id))) if season else 0
        if season is None:
            self.error = texts.NO_SEASON
            return None
        if not count:
            self.notice = texts.SEASON_REISSUE_NONE
            return show_secret(PASSWORDS_BOX, [])
        self.reissue_question = texts.SEASON_REISSUE_CONFIRM_TITLE.format(
            count=counted(count, *texts.SEASON_PASSWORD_FORMS)
        )
        self.reissue_text = texts.SEASON_REISSUE_CONFIRM_TEXT.format(
            count=counted(count, *texts.SEASON_OF_PLAYERS_FORMS)
        )
        return None

    @rx.event
    def cancel_reissue(self, is_open: bool = False) -> None:
        if not is_open:
            self.reissue_question = self.reissue_text = ""

    @rx.event
    @guarded(Role.ORGANIZER)
    async def reissue_unused(self, form: dict[str, str]) -> list[EventSpec] | None:
        """Every password not yet used (the sheet was lost): new ones, the old ones stop working."""
        self._clear()
        self.reissue_question = self.reissue_text = ""

        def run(session: Any, user: User) -> tuple[list[issued_passwords.IssuedPassword], str]:
            season = roster.current_season(session)
            if season is None:
                raise SeasonError(texts.NO_SEASON)
            return issued_passwords.reissue_unused(session, saved(season.id), actor_user_id=saved(user.id)), season.name

        def done(value: tuple[list[Any], str]) -> str:
            return texts.SEASON_REISSUE_DONE.format(count=len(value[0])) if value[0] else texts.SEASON_REISSUE_NONE

        outcome = await asyncio.to_thread(
            self._perform, run, key=form.get(KEY_FIELD), done=done, action="season.reissue"
        )
        if not outcome.ok or outcome.value is None:
            return None
        rows, season_name = outcome.value
        if not rows:
            return [show_secret(PASSWORDS_BOX, [])]
        return [show_secret(PASSWORDS_BOX, [f"{r.name}: {r.password}" for r in rows]), self._sheet(rows, season_name)]

    @rx.event
    def ask_finish(self) -> None:
        """«Завершить сезон» first asks, naming what it does: the season ends, its results freeze, what follows."""
        if self._viewer() is None:
            return
        self._clear()
        with session_scope() as session:
            season = roster.current_season(session)
            preview = seasons.finish_preview(session, season) if season else None
        if preview is None or preview.refusal:
            self.error = preview.refusal if preview else texts.NO_SEASON
            return
        self.finish_question = texts.SEASON_FINISH_CONFIRM.format(
            season=preview.season, champion=preview.champion, podium=", ".join(preview.podium)
        )

    @rx.event
    def cancel_finish(self, is_open: bool = False) -> None:
        if not is_open:
            self.finish_question = ""

    @rx.event
    @guarded(Role.ORGANIZER)
    def finish(self, form: dict[str, str]) -> None:
        self._clear()
        self.finish_question = ""

        def run(session: Any, user: User) -> str:
            season = roster.current_season(session)
            if season is None:
                raise SeasonError(texts.NO_SEASON)
            seasons.finish_season(session, season, now=datetime.now(settings.tz), actor_user_id=user.id)
            return season.name

        done = lambda name: texts.SEASON_FINISHED.format(name=name)  # noqa: E731
        self._perform(run, key=form.get(KEY_FIELD), done=done, action="season.finish")

        self._refresh()
