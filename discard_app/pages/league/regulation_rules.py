"""The season's ruleset on the regulation page (Регламент §6.3, §7): everyone sees the numbers in force; the organizer
edits them freely until the first result, later as an amendment previewed with the standings before and after."""

from __future__ import annotations

from typing import Any, TypedDict

import reflex as rx
from sqlmodel import Session

from discard_app import texts
from discard_app.components.form import action_form
from discard_app.state.action import KEY_FIELD, GuardedActions, Outcome, guarded, reading
from discard_app.state.auth import AuthState
from services.core.db import session_scope
from services.core.models import Role, User, saved, utc_now
from services.core.ruleset import CLUB_ZONE, FIELDS, PLAYOFF_FORMAT_NAMES, ZONE_FIELD, of_season
from services.league import season_rules
from services.league.roster import current_season

# What the rules form may send: the season's numbers, and the club's time zone only to be refused when changed.
FORM_FIELDS = (*FIELDS, ZONE_FIELD)


class RuleRow(TypedDict):
    name: str
    label: str
    value: str  # what the form sends
    shown: str  # what a reader sees (a format's name, not its code)


class ShiftRow(TypedDict):
    name: str
    before: str
    after: str
    moved: str  # "1" when the place or the total changes


class RulesChangeRow(TypedDict):
    label: str


class RulesState(GuardedActions, AuthState):
    rules: list[RuleRow] = []
    rules_key: int = 0  # a new key remounts the fields with the values in force
    amendment: bool = False  # the season has results: a change is an announced amendment
    changes: list[str] = []  # the previewed change, one line per rule
    shift: list[ShiftRow] = []  # the standings before and after the previewed change
    rules_history: list[RulesChangeRow] = []
    rules_error: str = ""
    rules_notice: str = ""
    pending: list[RuleRow] = []  # the previewed values, sent back by the preview's form (rules anyone may read)

    def _show(self) -> None:
        with session_scope() as session:
            season = current_season(session)
            self.rules = [
                RuleRow(name=r.name, label=r.label, value=r.value, shown=r.shown)
                for r in season_rules.rule_lines(of_season(season))
            ]
            self.amendment = season is not None and season_rules.has_results(session, saved(season.id))
            changes = season_rules.rule_changes(session, saved(season.id)) if season is not None else []
            zone = CLUB_ZONE
            self.rules_history = [
                RulesChangeRow(
                    label=texts.RULES_CHANGE_LABEL.format(
                        date=f"{a.at.astimezone(zone):%d.%m.%Y %H:%M}",
                        kind=texts.RULES_AMENDED if a.action == season_rules.AMEND else texts.RULES_SET,
                        reason=a.reason or "—",
                    )
                )
                for a in reversed(changes)
            ]
        self.rules_key += 1

    @rx.event
    def load(self) -> None:
        self._renew_key()
        self.changes, self.shift, self.pending = [], [], []
        if self._current_user() is None:
            return
        self._show()

    @rx.event
    @reading(Role.ORGANIZER)
    def preview_rules(self, form: dict[str, str]) -> None:
        self.rules_error = self.rules_notice = ""
        values = {name: str(form.get(name, "")) for name in FORM_FIELDS if name in form}
        with session_scope() as session:
            season = current_season(session)
            if season is None:
                self.rules_error = texts.NO_SEASON
                return
            change = season_rules.preview_rules(session, season, values)
            rows = season_rules.standings_shift(change)
        if change.problems:
            self.rules_error = "; ".join(change.problems)
            return
        if not change.lines:
            self.rules_error = texts.RULES_UNCHANGED
            return
        self.pending = [RuleRow(name=name, label="", value=value, shown=value) for name, value in values.items()]
        self.amendment = change.amendment
        self.changes = list(change.lines)
        self.shift = [ShiftRow(name=r.name, before=r.before, after=r.after, moved="1" if r.moved else "") for r in rows]

    def _show_refusal(self, message: str) -> None:
        self.rules_error, self.rules_notice = texts.FORBIDDEN_ORGANIZER, ""

    def _show_answer(self, outcome: Outcome, where: str) -> None:
        self.rules_error, self.rules_notice = ("", outcome.message) if outcome.ok else ("; ".join(outcome.problems), "")

    @rx.event
    @guarded(Role.ORGANIZER)
    def apply_rules(self, form: dict[str, str]) -> None:
        """The preview's form carries the values it showed (hidden fields): what was previewed is what is applied."""
        values = {name: str(form[name]) for name in FORM_FIELDS if name in form}

        def run(session: Session, user: User) -> season_rules.RulesChange:
            if not values:
                raise season_rules.RulesError(texts.RULES_PREVIEW_FIRST)
            season = current_season(session)
            if season is None:
                raise season_rules.RulesError(texts.NO_SEASON)
            return season_rules.apply_rules(
                session, season, values, reason=str(form.get("reason", "")), actor=user, now=utc_now()
            )

        outcome = self._perform(
            run,
            key=form.get(KEY_FIELD),
            done=lambda change: texts.RULES_AMENDMENT_SAVED if change.amendment else texts.RULES_SAVED,
            action="rules.apply",
        )
        if not outcome.ok:
            return
        self.changes, self.shift, self.pending = [], [], []
        self._show()

    @rx.event
    def cancel_preview(self) -> None:
        self.changes, self.shift, self.pending = [], [], []
        self.rules_key += 1


S = RulesState


def _field(row: RuleRow) -> rx.Component:
    return rx.el.label(
        rx.text(row["label"], size="2"),
        rx.cond(
            row["name"] == "playoff_format",
            # a format is chosen by its name; the code is only what the form sends
            rx.el.select(
                *[rx.el.option(label, value=code) for code, label in PLAYOFF_FORMAT_NAMES.items()],
                name=row["name"],
                default_value=row["value"],
                style={"width": "12em"},
            ),
            rx.input(name=row["name"], default_value=row["value"], width="12em"),
        ),
        style={"display": "flex", "justify_content": "space-between", "gap": "1em", "width": "100%"},
    )


def _preview() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading(texts.RULES_PREVIEW, size="3", as_="h3"),
            rx.el.ul(rx.foreach(S.changes, lambda line: rx.el.li(line)), style={"margin": "0 0 0 1.25em"}),
            rx.cond(
                S.amendment,
                rx.vstack(
                    rx.text(texts.RULES_AMENDMENT_HINT, size="2", color_scheme="gray"),
                    rx.box(
                        rx.table.root(
                            rx.table.header(
                                rx.table.row(
                                    rx.table.column_header_cell(texts.COL_PLAYER),
                                    rx.table.column_header_cell(texts.RULES_BEFORE),
                                    rx.table.column_header_cell(texts.RULES_AFTER),
                                )
                            ),
                            rx.table.body(
                                rx.foreach(
                                    S.shift,
                                    lambda r: rx.table.row(
                                        rx.table.cell(r["name"]),
                                        rx.table.cell(r["before"]),
                                        rx.table.cell(
                                            rx.cond(r["moved"] != "", rx.text(r["after"], weight="bold"), r["after"])
                                        ),
                                    ),
                                )
                            ),
                            size="1",
                        ),
                        role="region",
                        aria_label=texts.RULES_SHIFT,
                        width="100%",
                    ),
                    spacing="2",
                    width="100%",
                ),
            ),
            action_form(
                S,
                rx.foreach(S.pending, lambda r: rx.el.input(type="hidden", name=r["name"], value=r["value"])),
                rx.el.label(
                    rx.text(texts.RULES_REASON, size="2", weight="medium"),
                    rx.input(name="reason", width="100%"),
                    style={"display": "block", "width": "100%"},
                ),
                rx.button(texts.RULES_CANCEL, type="button", variant="outline", on_click=S.cancel_preview),
                on_submit=S.apply_rules,
                submit_text=texts.RULES_APPLY,
                card=False,
            ),
            spacing="2",
            width="100%",
        ),
        width="100%",
    )


def rules_section(clear_others: Any) -> rx.Component:
    """`clear_others`: the page's event that takes its other answers away — a preview's answer is the preview, not
    the publication before it (issue 45 item 7: «Изменение опубликовано и объявлено» stood beside it)."""
    return rx.vstack(
        rx.heading(texts.RULES_TITLE, size="4", as_="h2"),
        rx.cond(S.rules_error != "", rx.callout(S.rules_error, color_scheme="red", role="alert", width="100%")),
        rx.cond(S.rules_notice != "", rx.callout(S.rules_notice, color_scheme="green", role="status", width="100%")),
        rx.cond(
            AuthState.is_organizer,
            rx.box(
                action_form(
                    S,
                    rx.text(
                        rx.cond(S.amendment, texts.RULES_EDIT_AMENDMENT, texts.RULES_EDIT_FREE),
                        size="2",
                        color_scheme="gray",
                    ),
                    rx.foreach(S.rules, _field),
                    on_submit=[clear_others, S.preview_rules],
                    submit_text=texts.RULES_SHOW_CHANGE,
                    submit_props={"variant": "outline"},
                    card=False,
                ),
                key=S.rules_key,  # a new key remounts the fields with the values in force
                width="100%",
                max_width="32em",
            ),
            rx.el.dl(
                rx.foreach(
                    S.rules,
                    lambda r: rx.flex(rx.el.dt(r["label"]), rx.el.dd(r["shown"]), justify="between", width="100%"),
                ),
                style={"width": "100%", "max_width": "32em"},
                aria_label=texts.RULES_TITLE,
            ),
        ),
        # Регламент §1, §6.1: the club's time zone, the same for every season, is shown and never edited.
        rx.el.dl(
            rx.flex(
                rx.el.dt(texts.RULES_CLUB_ZONE),
                rx.el.dd(texts.RULES_CLUB_ZONE_VALUE),
                justify="between",
                width="100%",
            ),
            style={"width": "100%", "max_width": "32em"},
            aria_label=texts.RULES_CLUB_ZONE,
        ),
        rx.cond(S.changes.length() > 0, _preview()),
        rx.cond(
            S.rules_history.length() > 0,
            rx.vstack(
                rx.heading(texts.RULES_HISTORY, size="3", as_="h3"),
                rx.el.ul(rx.foreach(S.rules_history, lambda a: rx.el.li(a["label"])), style={"margin": "0 0 0 1.25em"}),
                spacing="1",
                width="100%",
            ),
        ),
        spacing="2",
        width="100%",
    )
