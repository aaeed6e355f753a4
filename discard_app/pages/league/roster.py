"""The organizer's roster page: players, statuses, new players and new passwords (each asked for first)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, TypedDict

import reflex as rx
from reflex.event import EventSpec
from sqlmodel import Session

from discard_app import routes, texts
from discard_app.components.confirm import confirm_dialog
from discard_app.components.form import action_form
from discard_app.components.secret import password_sheet, secret_box, show_secret
from discard_app.components.wide_table import wide_table
from discard_app.layout import forbidden, page
from discard_app.state.action import KEY_FIELD, GuardedActions, Outcome, guarded
from discard_app.state.auth import AuthState, OrganizerPage
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import Player, Role, RosterStatus, User, saved, utc_now
from services.core.ruleset import multiple_of, of_season
from services.core.wording import declined, gender
from services.league import accounts, fees, issued_passwords, roster, seasons, withdrawal
from services.league.accounts import AccountError, reset_password

ISSUED_BOX = "roster-issued-password"
ADD_FORM_ID = "roster-add"
STATUS_FORM_ID = "roster-status"  # where an issued password is shown once (components/secret.py)
FEE_FORM_ID = "roster-fee"
REPLAY_FORM_ID = "roster-replay"


class RosterRowView(TypedDict):
    player_id: str
    order: int
    name: str
    status: str
    status_label: str
    telegram: str
    fee: str  # Регламент §1: the registration fee; this page is the organizer's only
    deletable: bool  # no seat in any match (and not main once registration closed): «Удалить строку» is offered


STATUS_OPTIONS = [str(s) for s in RosterStatus]


class ReplayChoice(TypedDict):
    value: str  # "<player id>:<match id>"
    label: str


class RosterState(GuardedActions, OrganizerPage, AuthState):
    rows: list[RosterRowView] = []
    error: str = ""
    notice: str = ""
    summary: str = ""
    warning: str = ""
    after_draw: bool = False
    confirm_id: str = ""  # the player whose new password waits for confirmation
    confirm_name: str = ""
    withdraw_question: str = ""  # «Снять X?»: a withdrawal is asked about first, naming the person
    withdraw_text: str = ""  # what it does, in words agreed with that person («Она будет исключена …»)
    _pending_withdrawal: dict[str, str] = {}  # the checked form the question is about
    replay_choices: list[ReplayChoice] = []
    delete_id: str = ""  # the player whose roster line waits for «Удалить строку?»
    delete_question: str = ""
    one_word_question: str = ""  # «Только имя, без фамилии?»: a one-word new name is asked about first
    _pending_add: dict[str, str] = {}  # the add form the question is about
    answer_no: int = 0  # counts the answers: the issued-password line shows only beside the answer it came with
    secret_for: int = -1  # the answer the issued-password line belongs to

    def _refresh(self) -> None:
        with session_scope() as session:
            season = roster.current_season(session)
            rows = roster.list_roster(session, saved(season.id)) if season else []
            fee_of = fees.fee_labels(session, saved(season.id)) if season else {}
            deletable = roster.deletable_player_ids(session, season) if season else set()
        self.rows = [
            RosterRowView(
                player_id=str(r.player_id),
                order=r.registration_order,
                name=r.name,
                status=r.status,
                status_label=roster.STATUS_LABELS[RosterStatus(r.status)],
                telegram=texts.ROSTER_TELEGRAM_LINKED if r.telegram_linked else "—",
                fee=fee_of.get(r.player_id, ""),
                deletable=r.player_id in deletable,
            )
            for r in rows
        ]
        self.replay_choices = self._replay_choices(rows)
        main = sum(r.status == RosterStatus.MAIN for r in rows)
        reserve = sum(r.status == RosterStatus.RESERVE for r in rows)
        self.summary = texts.ROSTER_COUNT.format(main=main, reserve=reserve) if season else texts.NO_SEASON
        # Регламент §1: the main roster is strictly a multiple of four (the season's ruleset) — a registration-time
        # rule: once the draw is approved a withdrawal is settled by substitutes (§6.1), not by the roster's size.
        multiple = of_season(season).roster_multiple
        self.warning = (
            texts.ROSTER_NOT_FOUR.format(main=main, multiple=multiple_of(multiple))
            if season and season.draw_approved_at is None and main % multiple
            else ""
        )
        self.after_draw = bool(season and season.draw_approved_at)

    @staticmethod
    def _replay_choices(rows: list[roster.RosterRow]) -> list[ReplayChoice]:
        """Played matches of withdrawn players: what a replay may be ordered for."""
        choices = []
        with session_scope() as session:
            for r in rows:
                if r.status != RosterStatus.WITHDRAWN:
                    continue
                for m in withdrawal.affected_played_matches(session, session.get_one(Player, r.player_id)):
                    label = f"{r.name} — {m.title} ({', '.join(m.players)})"
                    choices.append(ReplayChoice(value=f"{r.player_id}:{m.match_id}", label=label))
        return choices

    @rx.event
    @guarded(Role.ORGANIZER)
    def order_replay(self, form: dict[str, str]) -> EventSpec | None:
        player_id, _, match_id = (form.get("replay") or "").partition(":")
        title = next((c["label"] for c in self.replay_choices if c["value"] == form.get("replay")), "")

        def run(session: Session, user: User) -> None:
            player = session.get(Player, int(player_id)) if player_id.isdigit() and match_id.isdigit() else None
            if player is None:
                raise withdrawal.WithdrawalError(texts.ROSTER_PICK_PLAYER)
            withdrawal.mark_for_replay(
                session,
                player,
                [int(match_id)],
                reason=form.get("reason", ""),
                participants_agreed=form.get("agreed") == "on",
                actor_user_id=user.id,
                now=utc_now(),
            )

        outcome = self._perform(
            run, key=form.get(KEY_FIELD), done=texts.ROSTER_REPLAY_DONE.format(title=title), action="roster.replay"
        )
        return self._after(outcome, REPLAY_FORM_ID)

    def _after(self, outcome: Outcome, form_id: str = "") -> EventSpec | None:
        """A form that acted is emptied (a refused one keeps what was chosen), the roster read again."""
        if not outcome.ok:
            return None
        self._refresh()
        return rx.call_script(f"document.getElementById('{form_id}')?.reset()") if form_id else None

    @rx.event
    def load(self) -> EventSpec | None:
        return self._load_page(self._refresh)

    def _show_refusal(self, message: str) -> None:
        self.reset()  # nothing of the organizer's view stays in a refused tab (OrganizerPage)

    def _show_answer(self, outcome: Outcome, where: str) -> None:
        """A new answer replaces the one before, an issued password's line with it (issue 45 item 7)."""
        super()._show_answer(outcome, where)
        if not outcome.repeated:  # a double click's second answer is the first one, still on screen
            self.answer_no += 1

    @rx.event
    @guarded(Role.ORGANIZER)
    def add_player(self, form: dict[str, str]) -> list[EventSpec] | EventSpec | None:
        """A one-word name for a new person is asked about first: without a surname the person is hard to find
        and easy to confuse, and the account made with it has a password to hand out."""
        self.one_word_question = ""
        name = " ".join((form.get("name") or "").split())
        if name and " " not in name:
            with session_scope() as session:
                known = accounts.find_user(session, name) is not None
            if not known:
                self._pending_add = {key: form.get(key) or "" for key in ("name", "status", KEY_FIELD)}
                self.one_word_question = texts.ROSTER_ONE_WORD_TITLE.format(name=name)
                return None
        return self._add(form)

    @rx.event
    @guarded(Role.ORGANIZER)
    def confirm_add(self) -> list[EventSpec] | EventSpec | None:
        form, self._pending_add, self.one_word_question = self._pending_add, {}, ""
        return self._add(form) if form else None

    @rx.event
    def cancel_add(self, is_open: bool = False) -> None:
        if not is_open:
            self._pending_add, self.one_word_question = {}, ""

    def _add(self, form: dict[str, str]) -> list[EventSpec] | EventSpec | None:
        status = form.get("status") or ""

        def add(session: Session, user: User) -> tuple[str, str | None, str]:
            season = roster.current_season(session)
            if season is None:
                raise AccountError(texts.NO_SEASON)
            chosen = status or roster.default_status(season)  # after the draw: the reserve
            if chosen not in STATUS_OPTIONS:
                raise AccountError(texts.ROSTER_UNKNOWN_STATUS.format(status=chosen))
            # A known person keeps their account; a disqualified one is refused with the reason (Регламент §5).
            player, password = seasons.add_person(
                session,
                season,
                form.get("name", ""),
                today=datetime.now(settings.tz).date(),
                status=RosterStatus(chosen),
                actor_user_id=user.id,
            )
            return session.get_one(User, player.user_id).display_name, password, season.name

        outcome = self._perform(add, key=form.get(KEY_FIELD), done=texts.ROSTER_ADDED, action="roster.add")
        if not outcome.ok:
            return None  # the line of a password issued before is hidden: its sheet was downloaded with it
        self._refresh()
        if outcome.repeated:  # a double click: the first answer (and its password) is already on screen
            return None
        name, password, season_name = outcome.value
        reset = rx.call_script(f"document.getElementById('{ADD_FORM_ID}')?.reset()")
        if not password:
            return [show_secret(ISSUED_BOX, []), reset]
        self.secret_for = self.answer_no
        return [
            show_secret(ISSUED_BOX, [texts.ROSTER_PASSWORD_ISSUED.format(name=name, password=password)]),
            password_sheet(
                [issued_passwords.issued(name, password)], origin=self.router.url.origin, season_name=season_name
            ),
            reset,
        ]

    @rx.event
    @guarded(Role.ORGANIZER)
    def record_fee(self, form: dict[str, str]) -> EventSpec | None:
        player_id = form.get("player_id") or ""

        def run(session: Session, user: User) -> str:
            player = session.get(Player, int(player_id)) if player_id.isdigit() else None
            if player is None:
                raise fees.FeeError(texts.ROSTER_PICK_PLAYER)
            try:
                on = date.fromisoformat(form.get("on") or datetime.now(settings.tz).date().isoformat())
            except ValueError:  # a date the browser did not send as YYYY-MM-DD
                raise fees.FeeError(texts.SEASON_BAD_DATE.format(value=form.get("on", ""))) from None
            label = fees.record_fee(session, player, form.get("action", ""), on, actor_user_id=user.id)
            return texts.FEE_SAVED.format(name=session.get_one(User, player.user_id).display_name, label=label)

        outcome = self._perform(run, key=form.get(KEY_FIELD), done=lambda message: message, action="roster.fee")
        return self._after(outcome, FEE_FORM_ID)

    @rx.event
    def ask_reset(self, player_id: str) -> None:
        """«Новый пароль» first asks, naming the person: the old password stops working at once."""
        self.confirm_id = player_id
        self.confirm_name = texts.ROSTER_RESET_CONFIRM_TITLE.format(name=declined(self._row_name(player_id), "gen"))

    @rx.event
    def cancel_reset(self, is_open: bool = False) -> None:
        if not is_open:
            self.confirm_id = self.confirm_name = ""

    @rx.event
    @guarded(Role.ORGANIZER)
    def confirm_reset(self, player_id: str, key: str = "") -> EventSpec | list[EventSpec] | None:
        """The question's answer: the person it named gets a new password, once per key."""
        self.confirm_id = self.confirm_name = ""

        def run(session: Session, user: User) -> issued_passwords.IssuedPassword:
            player = session.get(Player, int(player_id)) if str(player_id).isdigit() else None
            target = session.get(User, player.user_id) if player else None
            if target is None:
                raise AccountError(texts.ROSTER_PICK_PLAYER)
            password = reset_password(session, target, actor_user_id=user.id)
            return issued_passwords.IssuedPassword(target.display_name, target.login_name, password)

        outcome = self._perform(run, key=key, done=texts.ROSTER_PASSWORD_RESET_DONE, action="roster.reset")
        if not outcome.ok or outcome.repeated:  # a refusal (it hides the line before), or a double click
            return None
        self.secret_for = self.answer_no
        row = outcome.value
        with session_scope() as session:
            season = roster.current_season(session)
            season_name = season.name if season else ""
        return [
            show_secret(ISSUED_BOX, [texts.ROSTER_PASSWORD_ISSUED.format(name=row.name, password=row.password)]),
            password_sheet([row], origin=self.router.url.origin, season_name=season_name),
        ]

    @rx.event
    def ask_delete(self, player_id: str) -> None:
        """«Удалить строку» first asks, naming the person (issue 25 item 4)."""
        self.delete_id = player_id
        self.delete_question = texts.ROSTER_DELETE_CONFIRM_TITLE.format(name=declined(self._row_name(player_id), "acc"))

    @rx.event
    def cancel_delete(self, is_open: bool = False) -> None:
        if not is_open:
            self.delete_id = self.delete_question = ""

    @rx.event
    @guarded(Role.ORGANIZER)
    def delete_line(self, player_id: str, key: str = "") -> None:
        """A line entered by mistake; the service refuses it once the player has a seat (issue 25 item 4)."""
        self.delete_id = self.delete_question = ""

        def run(session: Session, user: User) -> str:
            player = session.get(Player, int(player_id)) if str(player_id).isdigit() else None
            if player is None:
                raise AccountError(texts.ROSTER_PICK_PLAYER)
            return roster.delete_player(session, player, actor_user_id=user.id, now=utc_now())

        outcome = self._perform(
            run, key=key, done=lambda name: texts.ROSTER_DELETED.format(name=name), action="roster.delete"
        )
        self._after(outcome)

    @staticmethod
    def _status_change(session: Session, user: User, form: dict[str, str]) -> None:
        player_id = form.get("player_id") or ""
        player = session.get(Player, int(player_id)) if player_id.isdigit() else None
        if player is None:
            raise AccountError(texts.ROSTER_PICK_PLAYER)
        status = form.get("status", "")
        if status == RosterStatus.WITHDRAWN:
            # Регламент §6.1: снятие — действие организатора с причиной
            withdrawal.withdraw_player(
                session, player, reason=form.get("reason", ""), actor_user_id=user.id, now=utc_now()
            )
        else:
            roster.set_status(
                session, player, status, reason=form.get("reason", ""), actor_user_id=user.id, now=utc_now()
            )

    def _row_name(self, player_id: str | None) -> str:
        return next((r["name"] for r in self.rows if r["player_id"] == player_id), "")

    def _apply_status(self, form: dict[str, str], done: str) -> bool:
        outcome = self._perform(
            lambda s, u: self._status_change(s, u, form), key=form.get(KEY_FIELD), done=done, action="roster.status"
        )
        return outcome.ok

    @rx.event
    @guarded(Role.ORGANIZER)
    def change_status(self, form: dict[str, str]) -> EventSpec | None:
        """The fields stay as chosen when something is wrong (a missing reason); emptied once it is done."""
        self.error = self.notice = ""
        if form.get("status") == RosterStatus.WITHDRAWN:
            # checked, not done: it takes the person out of the standings, so it is asked first
            if self._check(lambda s, u: self._status_change(s, u, form)):
                self._pending_withdrawal = {key: form.get(key) or "" for key in ("player_id", "reason", KEY_FIELD)}
                name = self._row_name(form.get("player_id"))
                self.withdraw_question = texts.ROSTER_WITHDRAW_CONFIRM_TITLE.format(name=declined(name, "acc"))
                who = texts.ROSTER_WITHDRAW_WHO[gender(name) or ""]
                self.withdraw_text = texts.ROSTER_WITHDRAW_CONFIRM_TEXT.format(who=who)
            return None
        if not self._apply_status(form, texts.ROSTER_STATUS_CHANGED):
            return None
        self._refresh()
        return rx.call_script(f"document.getElementById('{STATUS_FORM_ID}')?.reset()")

    @rx.event
    @guarded(Role.ORGANIZER)
    def confirm_withdrawal(self) -> None:
        form, self._pending_withdrawal, self.withdraw_question = self._pending_withdrawal, {}, ""
        if not form:
            return
        name = self._row_name(form.get("player_id"))
        done = texts.ROSTER_WITHDRAWN.format(who=texts.ROSTER_WITHDRAWN_WHO[gender(name) or ""])
        self._apply_status({**form, "status": RosterStatus.WITHDRAWN}, done)
        self._refresh()

    @rx.event
    def cancel_withdrawal(self, is_open: bool = False) -> None:
        if not is_open:
            self._pending_withdrawal, self.withdraw_question = {}, ""


def _status_select(name: str, placeholder: str | rx.Var[Any] = texts.ROSTER_STATUS) -> rx.Component:
    return rx.select.root(
        rx.select.trigger(placeholder=placeholder, aria_label=texts.ROSTER_STATUS, max_width="100%"),
        rx.select.content(
            *[rx.select.item(roster.STATUS_LABELS[s], value=str(s)) for s in RosterStatus],
        ),
        name=name,
    )


def _confirm_reset() -> rx.Component:
    return confirm_dialog(
        RosterState.confirm_name,
        texts.ROSTER_RESET_CONFIRM_TEXT,
        confirm=texts.ROSTER_RESET_CONFIRM,
        on_confirm=RosterState.confirm_reset(RosterState.confirm_id, RosterState.action_key),
        cancel=texts.ROSTER_RESET_CANCEL,
        is_open=RosterState.confirm_id != "",
        on_open_change=RosterState.cancel_reset,
    )


def _confirm_delete() -> rx.Component:
    return confirm_dialog(
        RosterState.delete_question,
        texts.ROSTER_DELETE_CONFIRM_TEXT,
        confirm=texts.ROSTER_DELETE_CONFIRM,
        on_confirm=RosterState.delete_line(RosterState.delete_id, RosterState.action_key),
        cancel=texts.ROSTER_DELETE_CANCEL,
        is_open=RosterState.delete_question != "",
        on_open_change=RosterState.cancel_delete,
        danger=True,
    )


def _confirm_one_word() -> rx.Component:
    return confirm_dialog(
        RosterState.one_word_question,
        texts.ROSTER_ONE_WORD_TEXT,
        confirm=texts.ROSTER_ONE_WORD_CONFIRM,
        on_confirm=RosterState.confirm_add,
        cancel=texts.ROSTER_ONE_WORD_CANCEL,
        is_open=RosterState.one_word_question != "",
        on_open_change=RosterState.cancel_add,
    )


def _confirm_withdrawal() -> rx.Component:
    return confirm_dialog(
        RosterState.withdraw_question,
        RosterState.withdraw_text,
        confirm=texts.ROSTER_WITHDRAW_CONFIRM,
        on_confirm=RosterState.confirm_withdrawal,
        cancel=texts.ROSTER_WITHDRAW_CANCEL,
        is_open=RosterState.withdraw_question != "",
        on_open_change=RosterState.cancel_withdrawal,
        danger=True,
    )


def _row(row: RosterRowView) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row["order"]),
        rx.table.row_header_cell(row["name"]),
        rx.table.cell(row["status_label"]),
        rx.table.cell(row["telegram"]),
        rx.table.cell(row["fee"], white_space="nowrap"),
        rx.table.cell(
            rx.button(
                texts.ROSTER_RESET,
                size="1",
                variant="soft",
                on_click=RosterState.ask_reset(row["player_id"]),
                aria_label=texts.ROSTER_RESET + ": " + row["name"],
            ),
            rx.cond(
                row["deletable"],
                rx.button(
                    texts.ROSTER_DELETE,
                    size="1",
                    variant="soft",
                    color_scheme="red",
                    on_click=RosterState.ask_delete(row["player_id"]),
                    aria_label=texts.ROSTER_DELETE + ": " + row["name"],
                ),
            ),
            white_space="nowrap",
        ),
    )


def _messages() -> rx.Component:
    return rx.fragment(
        rx.cond(RosterState.error != "", rx.callout(RosterState.error, color_scheme="red", role="alert")),
        rx.cond(RosterState.notice != "", rx.callout(RosterState.notice, color_scheme="green", role="status")),
        secret_box(ISSUED_BOX, shown=RosterState.secret_for == RosterState.answer_no),
    )


def _forms() -> rx.Component:
    add_form = action_form(
        RosterState,
        rx.flex(
            rx.input(name="name", placeholder=texts.ROSTER_NAME, aria_label=texts.ROSTER_NAME, min_width="14em"),
            _status_select(
                "status", rx.cond(RosterState.after_draw, texts.ROSTER_DEFAULT_RESERVE, texts.ROSTER_DEFAULT_MAIN)
            ),
            spacing="2",
            wrap="wrap",
            width="100%",  # the long status choice shortens on a phone instead of widening the page
        ),
        on_submit=RosterState.add_player,
        submit_text=texts.ROSTER_ADD,
        form_id=ADD_FORM_ID,
        card=False,
    )
    status_form = action_form(
        RosterState,
        rx.flex(
            rx.select.root(
                rx.select.trigger(placeholder=texts.ROSTER_PLAYER, aria_label=texts.ROSTER_PLAYER, max_width="100%"),
                rx.select.content(
                    rx.foreach(RosterState.rows, lambda r: rx.select.item(r["name"], value=r["player_id"]))
                ),
                name="player_id",
            ),
            _status_select("status"),
            rx.input(name="reason", placeholder=texts.ROSTER_REASON, aria_label=texts.ROSTER_REASON, min_width="14em"),
            spacing="2",
            wrap="wrap",
            width="100%",
        ),
        on_submit=RosterState.change_status,
        submit_text=texts.ROSTER_CHANGE,
        submit_props={"variant": "outline"},
        form_id=STATUS_FORM_ID,
        card=False,
    )
    replay_form = rx.cond(RosterState.replay_choices.length() > 0, _replay_form())
    return rx.vstack(add_form, status_form, _fee_form(), replay_form, spacing="3", width="100%")


def _fee_form() -> rx.Component:
    """Регламент §1: the fee paid or refunded, with its date (today when left empty)."""
    return action_form(
        RosterState,
        rx.flex(
            rx.select.root(
                rx.select.trigger(placeholder=texts.FEE_TITLE, aria_label=texts.FEE_TITLE),
                rx.select.content(
                    rx.foreach(RosterState.rows, lambda r: rx.select.item(r["name"], value=r["player_id"]))
                ),
                name="player_id",
            ),
            rx.select.root(
                rx.select.trigger(aria_label=texts.FEE_ACTION),
                rx.select.content(*[rx.select.item(label, value=key) for key, label in texts.FEE_ACTIONS.items()]),
                name="action",
                default_value="paid",
            ),
            rx.input(name="on", type="date", aria_label=texts.FEE_DATE),
            spacing="2",
            wrap="wrap",
        ),
        on_submit=RosterState.record_fee,
        submit_text=texts.FEE_SAVE,
        submit_props={"variant": "outline"},
        form_id=FEE_FORM_ID,
        card=False,
    )


def _replay_form() -> rx.Component:
    return action_form(
        RosterState,
        rx.heading(texts.ROSTER_REPLAY, size="4", as_="h2"),
        rx.text(texts.ROSTER_REPLAY_HINT, color_scheme="gray", size="2"),
        rx.el.label(texts.ROSTER_REPLAY_MATCH, html_for="replay-match"),
        rx.el.select(
            rx.foreach(RosterState.replay_choices, lambda c: rx.el.option(c["label"], value=c["value"])),
            id="replay-match",
            name="replay",
            style={"padding": "0.4em", "font-size": "1rem", "width": "100%"},
        ),
        rx.el.label(rx.el.input(type="checkbox", name="agreed"), " ", texts.ROSTER_REPLAY_AGREED),
        rx.input(
            name="reason",
            placeholder=texts.ROSTER_REPLAY_REASON,
            aria_label=texts.ROSTER_REPLAY_REASON,
            width="100%",
        ),
        on_submit=RosterState.order_replay,
        submit_text=texts.ROSTER_REPLAY_BUTTON,
        submit_props={"variant": "outline", "color_scheme": "orange"},
        form_id=REPLAY_FORM_ID,
        card=False,
    )


def roster_page() -> rx.Component:
    return page(
        texts.ROSTER_TITLE,
        rx.cond(
            RosterState.allowed,
            rx.vstack(
                rx.text(RosterState.summary, color_scheme="gray"),
                rx.link(texts.ROSTER_CSV_LINK, href=routes.SEASON_ADMIN, size="2"),  # the checklist's way to a roster
                rx.cond(RosterState.warning != "", rx.callout(RosterState.warning, color_scheme="amber")),
                _messages(),
                _confirm_reset(),
                _confirm_withdrawal(),
                _confirm_one_word(),
                _confirm_delete(),
                _forms(),
                wide_table(  # on a phone: «шире экрана» said, the name kept in view while the rest scrolls
                    rx.table.root(
                        rx.table.header(
                            rx.table.row(
                                rx.table.column_header_cell(texts.ROSTER_ORDER),
                                rx.table.column_header_cell(texts.ROSTER_NAME),
                                rx.table.column_header_cell(texts.ROSTER_STATUS),
                                rx.table.column_header_cell(texts.ROSTER_TELEGRAM),
                                rx.table.column_header_cell(texts.ROSTER_FEE),
                                rx.table.column_header_cell(""),
                            )
                        ),
                        rx.table.body(rx.foreach(RosterState.rows, _row)),
                        width="100%",
                        min_width="40em",  # a phone scrolls the table instead of squeezing the names
                    ),
                    RosterState.rows,
                    sticky_column=2,
                ),
                spacing="3",
                width="100%",
            ),
            forbidden(texts.FORBIDDEN_ORGANIZER),
        ),
    )
