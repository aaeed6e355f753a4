"""The regulation page (Регламент §7): the text in force now or on a date, its dated amendments; the organizer
publishes an amendment, announced on the site and through the bot."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import TypedDict

import reflex as rx
from reflex.event import EventSpec

from discard_app import texts
from discard_app.components.form import action_form
from discard_app.components.live import LivePage
from discard_app.layout import page
from discard_app.pages.league.regulation_rules import rules_section
from discard_app.state.action import KEY_FIELD, GuardedActions, guarded, reading
from discard_app.state.auth import AuthState
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import RegulationVersion, Role, User
from services.league import regulation

FILE_ID = "regulation_file"
MAX_FILE_BYTES = 400_000


class Amendment(TypedDict):
    label: str


def _label(v: RegulationVersion) -> str:
    return texts.REGULATION_VERSION.format(
        date=f"{v.announced_at.astimezone(settings.tz):%d.%m.%Y %H:%M}", reason=v.reason
    )


class RegulationState(GuardedActions, LivePage, AuthState):
    """The text in force (or on a chosen date), its history and, for the organizer, the editor. It follows a
    publication made anywhere (`LivePage`): the amendment's audit row moves the league's stamp."""

    text: str = ""
    version: str = ""
    on_date: str = ""
    history: list[Amendment] = []
    draft: str = ""
    draft_key: int = 0  # a new key remounts the text field with a new draft (it is not sent per keystroke)
    error: str = ""
    notice: str = ""

    def _show(self, at: datetime) -> None:
        with session_scope() as session:
            shown = regulation.in_force(session, at)
            every = regulation.versions(session)
        self.text = shown.text if shown else ""
        self.version = _label(shown) if shown else ""
        self.history = [Amendment(label=_label(v)) for v in reversed(every)]
        latest = every[-1] if every else None
        draft = latest.text if latest and self.is_organizer else ""
        if draft != self.draft:  # a remount drops what is typed: a page's load must not wipe a draft begun before it
            self.draft = draft
            self.draft_key += 1

    def _shown_at(self) -> datetime:
        """Now, or the end of the Kirov day asked for: in force on a day is whatever was announced by its end."""
        if not self.on_date:
            return datetime.now(settings.tz)
        day = date.fromisoformat(self.on_date)
        return datetime.combine(day + timedelta(days=1), time.min, settings.tz) - timedelta(microseconds=1)

    def _refresh(self, user: User) -> None:  # noqa: ARG002 — the regulation is everyone's
        self._stamp = self._live_stamp()
        self._show(self._shown_at())

    @rx.event
    def load(self) -> EventSpec | None:
        self._renew_key()
        user = self._viewer()
        if user is None:
            return self._redirect_to_login()
        self.on_date = ""
        self._refresh(user)
        self._start_live()
        return None

    @rx.event
    def show_on(self, form: dict[str, str]) -> None:
        if self._current_user() is None:
            return
        self.error = self.notice = ""
        raw = (form.get("on") or "").strip()
        if not raw:  # the walk: «Дата «» не распознана»
            self.error = texts.REGULATION_PICK_DATE
            return
        try:
            day = date.fromisoformat(raw)
        except ValueError:
            self.error = texts.SEASON_BAD_DATE.format(value=raw)
            return
        self.on_date = day.isoformat()
        self._show(self._shown_at())
        if not self.text:
            self.error = texts.REGULATION_NONE_ON_DATE.format(date=f"{day:%d.%m.%Y}")

    @rx.event
    @reading(Role.ORGANIZER)
    async def load_file(self, files: list[rx.UploadFile]) -> None:
        self.error = self.notice = ""
        data = await files[0].read() if files else b""
        try:
            if not data or len(data) > MAX_FILE_BYTES:
                raise UnicodeDecodeError("utf-8", b"", 0, 1, "size")
            self.draft = data.decode("utf-8-sig")
            self.draft_key += 1
        except UnicodeDecodeError:
            self.error = texts.SEASON_CSV_UNREADABLE

    def _show_refusal(self, message: str) -> None:
        self.error, self.notice = texts.FORBIDDEN_ORGANIZER, ""

    @rx.event
    def dismiss(self) -> None:
        """Another form of the page acts (the rules' preview): this form's answer belongs to its own action."""
        self.error = self.notice = ""

    @rx.event
    @guarded(Role.ORGANIZER)
    def publish(self, form: dict[str, str]) -> None:
        """Once per form: a double click publishes (and announces) one amendment."""
        outcome = self._perform(
            lambda session, user: regulation.publish(
                session,
                form.get("regulation", ""),
                reason=form.get("reason", ""),
                now=datetime.now(settings.tz),
                author_user_id=user.id,
            ),
            key=form.get(KEY_FIELD),
            done=texts.REGULATION_PUBLISHED,
            action="regulation",
        )
        if not outcome.ok:
            self.draft = form.get("regulation", "")
            self.draft_key += 1
            return
        self.on_date = ""
        self._refresh(self._admitted_user())


S = RegulationState


def _editor() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading(texts.REGULATION_EDIT, size="4", as_="h2"),
            rx.text(texts.REGULATION_EDIT_HINT, size="2", color_scheme="gray"),
            rx.upload.root(
                rx.text(texts.REGULATION_FILE, size="2", color_scheme="gray"),
                id=FILE_ID,
                accept={"text/plain": [".txt"]},
                max_files=1,
                on_drop=S.load_file(rx.upload_files(upload_id=FILE_ID)),
                border="1px dashed var(--gray-a8)",
                border_radius="var(--radius-2)",
                padding="0.5em",
                cursor="pointer",
                width="100%",
            ),
            action_form(
                S,
                rx.el.label(
                    rx.text(texts.REGULATION_TEXT, size="2", weight="medium"),
                    rx.text_area(name="regulation", default_value=S.draft, key=S.draft_key, rows="16", width="100%"),
                    style={"display": "block", "width": "100%"},
                ),
                rx.el.label(
                    rx.text(texts.REGULATION_REASON, size="2", weight="medium"),
                    rx.input(name="reason", width="100%"),
                    style={"display": "block", "width": "100%"},
                ),
                on_submit=S.publish,
                submit_text=texts.REGULATION_EDIT,
                card=False,
            ),
            spacing="2",
            width="100%",
        ),
        width="100%",
    )


def regulation_page() -> rx.Component:
    return page(
        texts.REGULATION_TITLE,
        rx.text(texts.REGULATION_HINT, size="2", color_scheme="gray"),
        rx.cond(S.error != "", rx.callout(S.error, color_scheme="red", role="alert", width="100%")),
        rx.cond(S.notice != "", rx.callout(S.notice, color_scheme="green", role="status", width="100%")),
        action_form(  # reading only: the hidden key goes unused
            S,
            rx.el.label(
                rx.text(texts.REGULATION_ON_DATE, size="2", weight="medium"),
                rx.input(name="on", type="date", aria_label=texts.REGULATION_ON_DATE),
            ),
            on_submit=S.show_on,
            submit_text=texts.REGULATION_SHOW,
            submit_props={"variant": "outline"},
            card=False,
        ),
        rx.cond(
            S.text != "",
            rx.vstack(
                rx.text(S.version, weight="medium"),
                rx.box(
                    rx.text(S.text, white_space="pre-wrap", size="2"),
                    border="1px solid var(--gray-a5)",
                    border_radius="var(--radius-2)",
                    padding="1em",
                    max_height="70vh",
                    overflow_y="auto",
                    width="100%",
                    aria_label=texts.REGULATION_SHOWN,
                    role="region",
                ),
                spacing="2",
                width="100%",
            ),
            rx.text(texts.REGULATION_NONE),
        ),
        rx.cond(
            S.history.length() > 0,
            rx.vstack(
                rx.heading(texts.REGULATION_HISTORY, size="4", as_="h2"),
                rx.el.ul(rx.foreach(S.history, lambda a: rx.el.li(a["label"])), style={"margin": "0 0 0 1.25em"}),
                spacing="1",
                width="100%",
            ),
        ),
        rules_section(clear_others=S.dismiss),
        rx.cond(AuthState.is_organizer, _editor()),
    )
