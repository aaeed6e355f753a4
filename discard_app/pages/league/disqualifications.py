"""The register of disqualifications (Регламент §5): the organizer records, the organizer and the judge read."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, ClassVar, TypedDict

import reflex as rx
from reflex.event import EventSpec
from sqlmodel import col, select

from discard_app import routes, texts
from discard_app.components.form import action_form
from discard_app.layout import forbidden, page
from discard_app.state.action import KEY_FIELD, GuardedActions, guarded
from discard_app.state.auth import AuthState
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import Role, User
from services.results import disqualifications as dq

FORM_ID = "disqualification"


class RegisterLine(TypedDict):
    name: str
    reason: str
    term: str
    match_id: str


class Person(TypedDict):
    id: str
    name: str


class DisqualificationsState(GuardedActions, AuthState):
    allowed: bool = False
    can_record: bool = False
    rows: list[RegisterLine] = []
    people: list[Person] = []
    error: str = ""
    notice: str = ""

    VIEWERS: ClassVar[tuple[Role, ...]] = (Role.ORGANIZER, Role.JUDGE)  # the register: the organizer and the judge

    def _viewer(self) -> User | None:
        user = self._require_user(*self.VIEWERS)
        self.allowed = user is not None
        self.can_record = user is not None and user.role == Role.ORGANIZER
        if user is None:
            self.rows, self.people = [], []
        return user

    def _refresh(self) -> None:
        with session_scope() as session:
            register = dq.register(session)
            users = session.exec(
                select(User).where(User.role == Role.PLAYER).order_by(col(User.display_name))
            ).all() if self.can_record else []  # fmt: skip
        self.rows = [
            RegisterLine(
                name=r.name,
                reason=r.reason,
                term=f"{r.starts_on:%d.%m.%Y} — "
                + (
                    texts.DQ_UNTIL_PERMANENT
                    if r.ends_on is None
                    else texts.DQ_UNTIL.format(date=f"{r.ends_on:%d.%m.%Y}")
                ),
                match_id=str(r.match_id or ""),
            )
            for r in register
        ]
        self.people = [Person(id=str(u.id), name=u.display_name) for u in users]

    @rx.event
    def load(self) -> EventSpec | None:
        return self._load_page(self._refresh)

    def _show_refusal(self, message: str) -> None:
        self.error, self.notice = texts.FORBIDDEN_ORGANIZER, ""

    @rx.event
    @guarded(Role.ORGANIZER)
    def record(self, form: dict[str, str]) -> EventSpec | None:
        """Once per form: a double click records one disqualification."""

        def record(session: Any, user: User) -> str:
            raw_match = (form.get("match_id") or "").strip().lstrip("№")
            raw_day = (form.get("starts_on") or "").strip()
            if raw_match and not raw_match.isdigit():
                raise dq.DisqualificationError(texts.DQ_BAD_MATCH)
            try:
                starts = date.fromisoformat(raw_day) if raw_day else datetime.now(settings.tz).date()
            except ValueError as error:
                raise dq.DisqualificationError(texts.SEASON_BAD_DATE.format(value=raw_day)) from error
            person_id = form.get("user_id") or ""
            person = session.get(User, int(person_id)) if person_id.isdigit() else None
            if person is None:
                raise dq.DisqualificationError(texts.DQ_PICK)
            dq.record_disqualification(
                session,
                person,
                term=form.get("term", ""),
                reason=form.get("reason", ""),
                match_id=int(raw_match) if raw_match else None,
                starts_on=starts,
                actor_user_id=user.id,
            )
            return person.display_name

        outcome = self._perform(
            record,
            key=form.get(KEY_FIELD),
            done=lambda name: texts.DQ_SAVED.format(name=name),
            action="disqualification",
        )
        if not outcome.ok:
            return None  # the fields stay, to be fixed
        self._refresh()

        return rx.call_script(f"document.getElementById('{FORM_ID}')?.reset()")


S = DisqualificationsState


def _line(row: RegisterLine) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(row["name"]),
        rx.table.cell(row["term"], white_space="nowrap"),
        rx.table.cell(row["reason"]),
        rx.table.cell(
            rx.cond(
                row["match_id"] != "",
                rx.link(texts.DQ_PROTOCOL + " №" + row["match_id"], href="/match/" + row["match_id"]),
                "—",
            )
        ),
    )


def _field(label: str, control: rx.Component) -> rx.Component:
    return rx.el.label(rx.text(label, size="2", weight="medium"), control, style={"display": "block", "width": "100%"})


def _form() -> rx.Component:
    return action_form(
        S,
        _field(
            texts.DQ_PERSON,
            rx.select.root(
                rx.select.trigger(placeholder=texts.DQ_PICK, aria_label=texts.DQ_PERSON, width="100%"),
                rx.select.content(rx.foreach(S.people, lambda p: rx.select.item(p["name"], value=p["id"]))),
                name="user_id",
            ),
        ),
        _field(
            texts.DQ_TERM,
            rx.select.root(
                rx.select.trigger(aria_label=texts.DQ_TERM, width="100%"),
                rx.select.content(*[rx.select.item(v, value=k) for k, v in texts.DQ_TERMS.items()]),
                name="term",
                default_value="year",
            ),
        ),
        _field(texts.DQ_REASON, rx.text_area(name="reason", aria_label=texts.DQ_REASON, width="100%")),
        _field(texts.DQ_MATCH, rx.input(name="match_id", input_mode="numeric", aria_label=texts.DQ_MATCH)),
        _field(texts.DQ_STARTS, rx.input(name="starts_on", type="date", aria_label=texts.DQ_STARTS)),
        on_submit=S.record,
        submit_text=texts.DQ_SAVE,
        form_id=FORM_ID,
        submit_props={"color_scheme": "red", "variant": "outline"},
    )


def disqualifications_page() -> rx.Component:
    return page(
        texts.DQ_TITLE,
        rx.cond(
            S.allowed,
            rx.vstack(
                rx.text(texts.DQ_HINT, size="2", color_scheme="gray"),
                rx.link("← " + texts.SEASONS_TITLE, href=routes.SEASONS),
                rx.cond(S.error != "", rx.callout(S.error, color_scheme="red", role="alert", width="100%")),
                rx.cond(S.notice != "", rx.callout(S.notice, color_scheme="green", role="status", width="100%")),
                rx.cond(S.can_record, _form()),
                rx.cond(
                    S.rows.length() > 0,
                    rx.box(
                        rx.table.root(
                            # the caption names the table for screen readers (and tests)
                            rx.el.caption(texts.DQ_LINK, style={"text-align": "left", "font-weight": "bold"}),
                            rx.table.body(rx.foreach(S.rows, _line)),
                            width="100%",
                            min_width="30em",
                        ),
                        overflow_x="auto",
                        width="100%",
                    ),
                    rx.text(texts.DQ_EMPTY),
                ),
                spacing="3",
                width="100%",
            ),
            forbidden(texts.DQ_FORBIDDEN),
        ),
    )
