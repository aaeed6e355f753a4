"""«Судьи и эксперты» (Регламент §1, §6.3): the organizer makes the league's judge and experts on the site — a new
account with a password shown once — and gives or takes a role; the desk's checklist links here."""

from __future__ import annotations

from typing import Any, TypedDict

import reflex as rx
from reflex.event import EventSpec

from discard_app import texts
from discard_app.components.form import action_form, field, labelled
from discard_app.components.secret import password_sheet, secret_box, show_secret
from discard_app.layout import forbidden, page
from discard_app.state.action import KEY_FIELD, GuardedActions, guarded
from discard_app.state.auth import AuthState, OrganizerPage
from services.core.db import session_scope
from services.core.models import Role, User, utc_now
from services.core.wording import ROLE_NAMES, agreed
from services.league import issued_passwords, staff

ADD_FORM_ID = "staff-add"
ISSUED_BOX = "staff-issued-password"


class StaffRow(TypedDict):
    user_id: str
    name: str
    role: str
    telegram: str


class StaffState(GuardedActions, OrganizerPage, AuthState):
    rows: list[StaffRow] = []
    error: str = ""
    notice: str = ""

    def _refresh(self) -> None:
        with session_scope() as session:
            members = staff.staff(session)
        self.rows = [
            StaffRow(
                user_id=str(m.user_id),
                name=m.name,
                role=ROLE_NAMES[m.role],
                telegram=texts.STAFF_TELEGRAM_YES if m.telegram else texts.STAFF_TELEGRAM_NO,
            )
            for m in members
        ]

    @rx.event
    def load(self) -> EventSpec | None:
        return self._load_page(self._refresh)

    def _show_refusal(self, message: str) -> None:
        self.error, self.notice = texts.FORBIDDEN_ORGANIZER, ""

    @rx.event
    @guarded(Role.ORGANIZER)
    def add(self, form: dict[str, str]) -> list[EventSpec] | EventSpec | None:
        """Once per form: a double click makes one account, whose password is shown once."""

        def add(session: Any, user: User) -> tuple[str, str]:
            member, password = staff.add_staff(
                session, form.get("name", ""), form.get("role", ""), actor_user_id=user.id, now=utc_now()
            )
            return member.display_name, password

        outcome = self._perform(
            add,
            key=form.get(KEY_FIELD),
            done=lambda v: texts.STAFF_ADDED.format(added=agreed(v[0], *texts.STAFF_ADDED_WORDS), name=v[0]),
            action="staff.add",
        )
        if not outcome.ok:
            return None  # the fields stay, to be fixed; a password issued just before stays on screen
        self._refresh()
        if outcome.repeated:  # a double click: the first answer (and its password) is already on screen
            return None
        name, password = outcome.value
        return [
            show_secret(ISSUED_BOX, [texts.ROSTER_PASSWORD_ISSUED.format(name=name, password=password)]),
            password_sheet(
                [issued_passwords.issued(name, password)], origin=self.router.url.origin, season_name=texts.STAFF_SHEET
            ),
            rx.call_script(f"document.getElementById('{ADD_FORM_ID}')?.reset()"),
        ]

    @rx.event
    @guarded(Role.ORGANIZER)
    def set_role(self, form: dict[str, str]) -> None:
        user_id = form.get("user_id", "")

        def change(session: Any, user: User) -> str:
            member = staff.set_role(
                session, int(user_id) if user_id.isdigit() else 0, form.get("role", ""), actor_user_id=user.id,
                now=utc_now(),
            )  # fmt: skip
            return texts.STAFF_ROLE_SET.format(name=member.display_name, role=ROLE_NAMES[str(member.role)])

        if self._perform(change, key=form.get(KEY_FIELD), done=lambda message: message, action="staff.role").ok:
            self._refresh()


S = StaffState


def _role_select(name: str = "role", *, with_player: bool = False) -> rx.Component:
    roles = [*staff.STAFF_ROLES, Role.PLAYER] if with_player else list(staff.STAFF_ROLES)
    return rx.select.root(
        rx.select.trigger(placeholder=texts.STAFF_ROLE_PICK, aria_label=texts.STAFF_ROLE, width="100%"),
        rx.select.content(*[rx.select.item(ROLE_NAMES[str(r)], value=str(r)) for r in roles]),
        name=name,
        default_value="" if with_player else str(Role.JUDGE),
    )


def _member(row: StaffRow) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading(row["name"], size="3", as_="h3"),
            rx.text(row["role"], " · ", row["telegram"], size="2", color_scheme="gray"),
            action_form(
                S,
                rx.el.input(type="hidden", name="user_id", value=row["user_id"]),
                labelled(texts.STAFF_NEW_ROLE, _role_select(with_player=True), width="100%", max_width="20em"),
                on_submit=S.set_role,
                submit_text=texts.STAFF_ROLE_SAVE,
                card=False,
            ),
            spacing="2",
            width="100%",
        ),
        role="group",
        aria_label=row["name"],
        width="100%",
    )


def _add_form() -> rx.Component:
    return action_form(
        S,
        field("name", texts.STAFF_NAME),
        labelled(texts.STAFF_ROLE, _role_select(), width="100%", max_width="20em"),
        on_submit=S.add,
        submit_text=texts.STAFF_ADD,
        title=texts.STAFF_ADD_TITLE,
        form_id=ADD_FORM_ID,
    )


def staff_page() -> rx.Component:
    return page(
        texts.STAFF_TITLE,
        rx.cond(
            S.allowed,
            rx.vstack(
                rx.text(texts.STAFF_HINT, size="2", color_scheme="gray"),
                rx.cond(S.error != "", rx.callout(S.error, color_scheme="red", role="alert", width="100%")),
                rx.cond(S.notice != "", rx.callout(S.notice, color_scheme="green", role="status", width="100%")),
                secret_box(ISSUED_BOX),
                _add_form(),
                rx.cond(
                    S.rows.length() > 0,
                    rx.vstack(rx.foreach(S.rows, _member), spacing="3", width="100%"),
                    rx.text(texts.STAFF_EMPTY),
                ),
                spacing="3",
                width="100%",
            ),
            forbidden(texts.FORBIDDEN_ORGANIZER),
        ),
    )
