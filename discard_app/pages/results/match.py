"""The match page: seats, hanchans, totals, penalties, the protocol, and the forms for those allowed to act."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any, TypedDict

import reflex as rx
from reflex.event import EventSpec

from discard_app import routes, texts
from discard_app.components.confirm import confirm_dialog
from discard_app.components.fade import FADES, fade_style
from discard_app.components.live import LivePage, watch_of
from discard_app.components.wide_table import wide_table
from discard_app.layout import forbidden, page
from discard_app.pages.results import match_admin as admin
from discard_app.pages.results.judge_call import judge_call_form
from discard_app.pages.results.match_forms import ENTER_FORM_ID, PHOTOS_ID, organizer_forms, photos_cell, result_forms
from discard_app.pages.results.standings_state import publish_standings
from discard_app.state.action import KEY_FIELD, Anyone, GuardedActions, Outcome, guarded, reading, refusing
from discard_app.state.auth import AuthState
from services.core.changes import Watch
from services.core.db import session_scope
from services.core.models import Role, User, saved, utc_now
from services.core.wording import format_points
from services.playoff.hanchan_entry import enter_hanchan
from services.results import hanchans as results
from services.results import judge_calls, penalties, ruling_photos
from services.results.repo import seated_player_ids
from services.results.view import match_view

RULING_KEYS = ("at", "hanchan", "actions", "disagreement", "decision")


class ScoreView(TypedDict):
    name: str
    points: str
    place: str
    score: str
    chombo: str


class HanchanView(TypedDict):
    id: str
    number: str
    riichi: str
    disputed: str
    scores: list[ScoreView]


class MatchState(GuardedActions, LivePage, AuthState):
    found: bool = False
    title: str = ""
    seats: list[dict[str, str]] = []
    hanchans: list[HanchanView] = []
    lines: list[dict[str, str]] = []
    penalties: list[dict[str, str]] = []
    protocol: list[dict[str, str]] = []
    rulings: list[dict[str, str]] = []
    form_players: list[dict[str, str]] = []
    penalty_players: list[dict[str, str]] = []
    substitute_options: list[dict[str, str]] = []
    suggestions: list[str] = []
    can_enter: bool = False
    needs_substitute: str = ""  # Регламент §6.1: withdrawn players still seated, before any hanchan: no entry form
    entry_closed: str = (
        ""  # why the next hanchan cannot be entered yet (no meeting begun): the organizer gives a reason
    )
    read_only: bool = False  # a past season's match: no forms (the server refuses them anyway)
    hanchan_numbers: list[str] = []  # 1 … the match's planned hanchans, for the forms that name one
    enter_hint: str = ""  # quotes the season's table total (its ruleset)
    no_show_title: str = ""  # quotes the season's no-show penalty
    no_show_question: str = ""  # «Назначить неявку …?»: the penalty is asked about first, naming the player
    no_show_text: str = ""  # what it does, in words, with the season's amount
    _pending_no_show: dict[str, str] = {}  # the checked form the question is about
    participant: bool = False
    staff: bool = False
    organizer: bool = False
    next_number: int = 0
    # The hanchan this tab's entry form is for: set when the page loads and after this tab's own save or refusal,
    # never by a pushed change — another's entry meanwhile must not turn typed scores into the next hanchan's.
    entry_number: int = 0
    error: str = ""
    problems: list[str] = []
    refused_title: str = texts.MATCH_RESULT_NOT_SAVED  # over `problems`: what was not done
    notice: str = ""
    schedule_url: str = ""
    saving: bool = False  # a form's event is running: its submit button is disabled
    repeat_asked: bool = False  # the server took a save for a second tap: the form asks "the same scores again?"
    answer_no: int = 0  # a new answer remounts the pinned box, so its fading starts again
    form_rev: int = 0  # sent back by the result form: a form saved already (a double tap) is dropped quietly
    correct_number: str = ""  # the hanchan the correction form names, by number: it stays chosen after a save
    correct_values: dict[str, str] = {}  # its current points, chombo and sticks: the form's fields start from them
    correct_rev: int = 0  # a new pre-filling remounts the fields

    def _id(self) -> int | None:
        return routes.id_in_path(self.router.url.path, r"/match/(\d+)")

    def _live_watch(self) -> Watch:
        return watch_of(self._id())  # hanchans, disputes and the protocol entered anywhere

    def _live_paused(self) -> bool:
        return not self.found or self.saving

    def _refresh(self, user: User) -> None:
        match_id = self._id()
        self._stamp = self._live_stamp()
        with session_scope() as session:
            view = match_view(session, user, match_id) if match_id else None
            hints: list[str] = []
            others: tuple[list[Any], list[Any]] = ([], [])
            if view and view.organizer and match_id:
                others = admin.lists(session, match_id)
                for pid in seated_player_ids(session, match_id):
                    name = next((p["name"] for p in view.form_players if p["id"] == str(pid)), "?")
                    hints.append(_ema_hint(name, penalties.conduct_offences(session, pid)))
        self.found = view is not None
        if view is None or not match_id:  # a view is read only for a match
            return
        # ignore: the service's rows are plain dicts; the TypedDict names their keys for the page
        self.title, self.seats, self.hanchans = view.title, view.seats, view.hanchans  # type: ignore[assignment]
        self.schedule_url = routes.match_schedule_url(match_id)
        self.lines, self.penalties, self.protocol, self.rulings = (
            view.lines,
            view.penalties,
            view.protocol,
            view.rulings,
        )
        self.form_players, self.can_enter, self.participant = view.form_players, view.can_enter, view.participant
        self.read_only, self.entry_closed = view.read_only, view.entry_closed
        self.needs_substitute = view.needs_substitute
        self.hanchan_numbers = [str(n) for n in range(1, view.planned + 1)]
        self.enter_hint = texts.ENTER_HINT.format(total=format_points(view.rules.table_total))
        self.no_show_title = texts.NO_SHOW_TITLE.format(penalty=format_points(view.rules.no_show_penalty))
        self.staff, self.organizer, self.next_number = view.staff, view.organizer, view.next_number or 0
        self.suggestions, (self.penalty_players, self.substitute_options) = hints, others

    @rx.event
    def load(self) -> EventSpec | None:
        self.saving = self.repeat_asked = False
        self.correct_number, self.correct_values = "", {}
        self._renew_key()  # this tab's forms carry their own one-time key (discard_app/state/action.py)
        user = self._viewer()
        if user is None:
            return self._redirect_to_login()
        self._refresh(user)
        self.entry_number = self.next_number
        self._start_live()
        return None

    @rx.event
    def dismiss(self) -> None:
        self.error, self.problems, self.notice = "", [], ""

    def _show_refusal(self, message: str) -> None:
        self.error, self.problems, self.notice = message, [], ""

    def _show_answer(self, outcome: Outcome, where: str) -> None:
        """What is wrong, line by line, or what was done; a hanchan entered twice asks whether it was meant."""
        lines = [p[:1].upper() + p[1:] for p in outcome.problems]  # one problem a line here, each a sentence
        self.error, self.problems, self.notice = "", lines, outcome.message if outcome.ok else ""
        self.answer_no += 1
        if isinstance(outcome.error, results.RepeatedResult):
            self.repeat_asked = True

    async def _change(
        self, action: Callable[[Any, User], Any], notice: str | Callable[[Any], str], form: Any, *, refused: str
    ) -> None:
        """One guarded service call, once per the form's key; then the match and the standings as they now stand.
        `refused` titles a refusal: what was not done."""
        key = form.get(KEY_FIELD, "") if isinstance(form, dict) else ""
        self.refused_title = refused
        outcome = self._perform(action, key=key, done=notice, action=f"match.{self._id()}")
        if not outcome.ok:
            return
        self._refresh(self._admitted_user())
        if not outcome.repeated:
            await publish_standings(self)

    def _players(self) -> list[tuple[int, str]]:
        return [(int(p["id"]), p["name"]) for p in self.form_players]

    @rx.event
    @guarded(Anyone.AT_THE_MATCH)
    async def enter(self, form: dict[str, Any]) -> AsyncIterator[EventSpec | None]:
        repeat_ok = str(form.get("repeat", "")).lower() in ("on", "true", "1")
        if self.saving or str(form.get("form_rev")) != str(self.form_rev):
            return  # a second send of a form that was already saved (a double tap): its answer is on screen
        if self.notice == texts.ENTER_SAVED and not any(
            str(v).strip() for k, v in form.items() if k.startswith("points_")
        ):
            return  # a second tap on the form the save has just emptied: the save's answer stays on screen
        self.saving = True
        yield None  # the button shows it is busy before the save starts
        match_id = self._id() or 0
        try:
            await self._change(
                lambda s, u: enter_hanchan(
                    s,
                    u,
                    match_id,
                    results.parse_entry(form, self._players(), results.match_rules(s, match_id)),
                    repeat_ok=repeat_ok,
                    now=utc_now(),
                    reason=str(form.get("reason", "")),
                    number=self.entry_number or None,
                ),
                texts.ENTER_SAVED,
                form,
                refused=texts.MATCH_RESULT_NOT_SAVED,
            )
        finally:
            self.saving = False
        if not self.notice:  # refused: the match as it stands now (another's entry may not have been pushed yet)
            self._refresh(self._admitted_user())
        self.entry_number = self.next_number  # saved, or told that it was taken: the form is for the next one
        if self.notice:  # saved: an empty form for the next hanchan, so a second tap has nothing to send
            self.repeat_asked = False
            self.form_rev += 1
            yield rx.call_script(f"document.getElementById('{ENTER_FORM_ID}')?.reset()")

    @rx.event
    @guarded(Anyone.AT_THE_MATCH)
    async def call_judge(self, form: dict[str, Any]) -> None:
        """Регламент §6.2: a seated player calls the judge during a booked meeting."""
        match_id, number = self._id() or 0, _int(form.get("hanchan"))
        await self._change(
            lambda s, u: judge_calls.call_judge(
                s,
                u,
                match_id,
                hanchan_number=number or None,
                description=str(form.get("description", "")),
                now=utc_now(),
            ),
            texts.JUDGE_CALL_SENT,
            form,
            refused=texts.JUDGE_CALL_NOT_SENT,
        )

    @rx.event
    @guarded(Anyone.AT_THE_MATCH)
    async def dispute(self, form: dict[str, Any]) -> AsyncIterator[None]:
        if self.saving:
            return
        self.saving = True
        yield
        hanchan_id = _int(form.get("hanchan_id"))
        try:
            await self._change(
                lambda s, u: results.dispute_hanchan(s, u, hanchan_id, str(form.get("note", "")), now=utc_now()),
                texts.DISPUTE_SAVED,
                form,
                refused=texts.DISPUTE_NOT_SAVED,
            )
        finally:
            self.saving = False

    @rx.event
    @guarded(Role.ORGANIZER)
    async def resolve(self, form: dict[str, Any]) -> None:
        hanchan_id = _int(form.get("hanchan_id"))
        await self._change(
            lambda s, u: results.resolve_dispute(s, u, hanchan_id, str(form.get("decision", "")), now=utc_now()),
            texts.RESOLVE_SAVED,
            form,
            refused=texts.RESOLVE_NOT_SAVED,
        )

    @rx.event
    @reading(Role.ORGANIZER)
    def pick_correction(self, number: str) -> None:
        """Регламент §6.2: the organizer names the hanchan to correct; its current scores fill the form."""
        self.correct_number, self.correct_values = number, {}
        match_id = self._id() or 0
        try:
            with session_scope() as session:
                self.correct_values = results.current_scores(session, match_id, _int(number))
        except results.ResultsError as error:
            self.problems, self.refused_title = error.lines(), texts.CORRECT_NOT_SAVED
        self.correct_rev += 1

    @rx.event
    @guarded(Role.ORGANIZER)
    async def correct(self, form: dict[str, Any]) -> None:
        number, match_id = _int(form.get("hanchan_number")), self._id() or 0
        replay = str(form.get("replay", "")).lower() in ("on", "true", "1")
        await self._change(
            lambda s, u: results.correct_hanchan(
                s,
                u,
                saved(results.current_hanchan(s, match_id, number).id),
                results.parse_entry(form, self._players(), results.match_rules(s, self._id() or 0)),
                reason=str(form.get("reason", "")),
                decision=str(form.get("decision", "")),
                now=utc_now(),
                replay=replay,
            ),
            texts.CORRECT_SAVED,
            form,
            refused=texts.CORRECT_NOT_SAVED,
        )
        if self.notice and self.correct_number:  # the same hanchan stays chosen, showing what it holds now
            self.pick_correction(self.correct_number)

    @rx.event
    @reading(Role.ORGANIZER)
    def ask_no_show(self, form: dict[str, Any]) -> None:
        """Регламент §5: checked, not done — a warning and the season's penalty in one click are asked about first."""
        self.no_show_question = ""
        action = admin.no_show(self._id() or 0, form)
        self.refused_title = texts.PENALTY_NOT_SAVED
        if not self._check(action):
            return
        self._pending_no_show = {key: str(form.get(key) or "") for key in ("player_id", KEY_FIELD)}
        name = next((p["name"] for p in self.penalty_players if p["id"] == form.get("player_id")), "")
        with session_scope() as session:
            penalty = results.match_rules(session, self._id() or 0).no_show_penalty
        self.no_show_question = texts.NO_SHOW_CONFIRM_TITLE.format(name=name)
        self.no_show_text = texts.NO_SHOW_CONFIRM_TEXT.format(penalty=format_points(penalty))

    @rx.event
    @guarded(Role.ORGANIZER)
    async def no_show(self) -> None:
        form, self._pending_no_show, self.no_show_question = self._pending_no_show, {}, ""
        if form:
            await self._change(
                admin.no_show(self._id() or 0, form), texts.PENALTY_SAVED, form, refused=texts.PENALTY_NOT_SAVED
            )

    @rx.event
    def cancel_no_show(self, is_open: bool = False) -> None:
        if not is_open:
            self._pending_no_show, self.no_show_question = {}, ""

    @rx.event
    @guarded(Role.ORGANIZER)
    async def cancel_penalty(self, form: dict[str, Any]) -> None:
        """Регламент §5, §6.3: a penalty undone with a reason, in the protocol; the standings follow."""
        penalty_id = _int(form.get("penalty_id"))
        await self._change(
            lambda s, u: penalties.cancel_penalty(s, u, penalty_id, reason=str(form.get("reason", "")), now=utc_now()),
            texts.PENALTY_CANCELLED,
            form,
            refused=texts.PENALTY_NOT_CANCELLED,
        )

    @rx.event
    @guarded(Role.ORGANIZER)
    async def conduct(self, form: dict[str, Any]) -> None:
        await self._change(
            admin.conduct(self._id() or 0, form), texts.PENALTY_SAVED, form, refused=texts.PENALTY_NOT_SAVED
        )

    @rx.event
    @guarded(Role.JUDGE, Role.ORGANIZER)
    async def ruling(self, files: list[rx.UploadFile], form: dict[str, Any]) -> EventSpec | None:
        # Регламент §6.2: the judge or the organizer — checked (by `guarded`) before a byte of the photos is read.
        try:
            # Decoded and encoded afresh without their EXIF (location, device): slow, so off the event loop.
            photos = await asyncio.to_thread(ruling_photos.clean_photos, await admin.read_photos(files))
            action = admin.ruling(self._id() or 0, form, photos, rx.get_upload_dir())
        except results.ResultsError as error:
            action = refusing(error)
        await self._change(action, texts.RULING_SAVED, form, refused=texts.RULING_NOT_SAVED)

        return rx.clear_selected_files(PHOTOS_ID) if self.notice else None

    @rx.event
    def photos_rejected(self, rejected: list[dict[str, Any]]) -> None:
        names = ", ".join(str(r.get("file", {}).get("path", "")).lstrip("./") or "?" for r in rejected)
        self.error, self.problems, self.notice = "", [texts.RULING_PHOTOS_REJECTED.format(names=names)], ""
        self.refused_title = texts.RULING_NOT_SAVED

    @rx.event
    @guarded(Role.ORGANIZER)
    async def substitute(self, form: dict[str, Any]) -> None:
        await self._change(admin.substitute(self._id() or 0, form), texts.SUB_SAVED, form, refused=texts.SUB_NOT_SAVED)

    @rx.event
    @guarded(Role.ORGANIZER)
    async def replay_match(self, form: dict[str, Any]) -> None:
        match_id = self._id() or 0
        await self._change(
            lambda s, u: results.replay_match(
                s,
                u,
                match_id,
                reason=str(form.get("reason", "")),
                decision=str(form.get("decision", "")),
                now=utc_now(),
            ),
            lambda new: texts.REPLAY_SAVED.format(id=new.id),
            form,
            refused=texts.REPLAY_NOT_SAVED,
        )


def _int(value: Any) -> int:
    parsed = results._int(value)
    return parsed if parsed is not None else 0


def _ema_hint(name: str, previous: int) -> str:
    """One short line per player; the long explanation of the EMA ladder is shown once under the form."""
    return texts.MATCH_EMA_HINT.format(name=name, previous=previous, step=penalties.ema_step(previous))


def _cell(value: rx.Var[Any] | str, kind: str = "") -> rx.Component:
    """kind "n": a number or short value that must not break ("35 600" at its thousands space); "w": a long text."""
    if kind == "n":
        return rx.table.cell(value, white_space="nowrap")
    if kind == "w":
        return rx.table.cell(value, min_width="14em")
    return rx.table.cell(value)


def _cells(values: list[rx.Var[Any] | str], kinds: str = "") -> rx.Component:
    return rx.table.row(*[_cell(v, kinds[i] if i < len(kinds) else "") for i, v in enumerate(values)])


def _table(
    headers: list[str],
    rows: rx.Var[Any],
    render: Callable[[Any], rx.Component],
    min_width: str,
    keys: tuple[int, ...] = (),
) -> rx.Component:
    # On a phone the table keeps a readable width and scrolls sideways under its first column, and says so; with
    # `keys` it shows only those columns until «Все столбцы» is tapped (issue 28).
    return wide_table(
        rx.table.root(
            rx.table.header(rx.table.row(*[rx.table.column_header_cell(h, white_space="nowrap") for h in headers])),
            rx.table.body(rx.foreach(rows, render)),
            size="1",
            min_width="0" if keys else min_width,
            width="100%",
        ),
        rows,
        keys=keys,
        columns=len(headers),
        min_width=min_width,
    )


def _titled(title: str, rows: rx.Var[Any], table: rx.Component) -> rx.Component:
    """A table under its heading, both only while it has rows."""
    return rx.cond(rows.length() > 0, rx.vstack(rx.heading(title, size="4", as_="h2"), table, width="100%"))


def _hanchan(h: HanchanView) -> rx.Component:
    return rx.card(
        rx.flex(
            rx.heading(texts.MATCH_HANCHAN_PREFIX, h["number"], size="3", as_="h3"),
            rx.cond(h["disputed"] == "1", rx.badge(texts.MATCH_DISPUTED, color_scheme="red")),
            rx.text(texts.MATCH_RIICHI_LEFT_PREFIX, h["riichi"], size="1", color_scheme="gray"),
            spacing="2",
            align="center",
            wrap="wrap",
        ),
        _table(
            [texts.COL_PLAYER, texts.COL_TOTAL, texts.COL_PLACE, texts.MATCH_COL_SCORE, texts.MATCH_COL_CHOMBO],
            h["scores"],
            lambda s: _cells([s["name"], s["points"], s["place"], s["score"], s["chombo"]], " nnnn"),
            "24em",
            keys=(1, 2, 3, 4),
        ),
        width="100%",
    )


def _answered() -> rx.Var[bool]:
    return (MatchState.error != "") | (MatchState.problems.length() > 0) | (MatchState.notice != "")


def _messages() -> rx.Component:
    """Pinned to the bottom of the viewport: the answer to a form is where the eye is, not 1000 px above the button
    (a success that scrolled out of sight invited a second tap)."""
    failed = (MatchState.error != "") | (MatchState.problems.length() > 0)
    return rx.cond(
        _answered(),
        rx.box(
            rx.cond(MatchState.error != "", rx.callout(MatchState.error, color_scheme="red", role="alert")),
            rx.cond(
                MatchState.problems.length() > 0,
                rx.callout(
                    rx.vstack(rx.foreach(MatchState.problems, lambda p: rx.text(p))),
                    color_scheme="red",
                    role="alert",
                    title=MatchState.refused_title,
                ),
            ),
            rx.cond(MatchState.notice != "", rx.callout(MatchState.notice, color_scheme="green", role="status")),
            rx.button(texts.MESSAGE_CLOSE, size="1", variant="soft", on_click=MatchState.dismiss, margin_top="0.5em"),
            position="fixed",
            bottom="1em",
            left="50%",
            transform="translateX(-50%)",
            width="min(36em, calc(100% - 2em))",
            z_index="50",
            background="var(--color-panel-solid)",
            border_radius="var(--radius-3)",
            box_shadow="var(--shadow-5)",
            padding="0.5em",
            class_name=rx.cond(failed, "", FADES),
            key=MatchState.answer_no.to_string(),
        ),
    )


def _confirm_no_show() -> rx.Component:
    return confirm_dialog(
        MatchState.no_show_question,
        MatchState.no_show_text,
        confirm=texts.NO_SHOW_CONFIRM,
        on_confirm=MatchState.no_show,
        cancel=texts.NO_SHOW_CANCEL,
        is_open=MatchState.no_show_question != "",
        on_open_change=MatchState.cancel_no_show,
        danger=True,
    )


def _body() -> rx.Component:
    return rx.vstack(
        rx.cond(MatchState.read_only, rx.callout(texts.MATCH_ARCHIVED, icon="archive", color_scheme="gray")),
        rx.link(texts.MATCH_SCHEDULE_LINK, href=MatchState.schedule_url),
        rx.flex(
            rx.foreach(
                MatchState.seats,
                lambda s: rx.link(
                    rx.badge(s["name"], " ", s["note"], size="2", variant="soft"),
                    href="/player/" + s["player_id"],
                ),
            ),
            spacing="2",
            wrap="wrap",
        ),
        fade_style(),
        _messages(),
        rx.heading(texts.MATCH_HANCHANS, size="4", as_="h2"),
        rx.cond(
            MatchState.hanchans.length() > 0,
            rx.foreach(MatchState.hanchans, _hanchan),
            rx.text(texts.MATCH_NO_HANCHANS),
        ),
        _titled(  # no empty «Итог матча» before anything is scored
            texts.MATCH_TOTALS,
            MatchState.lines,
            _table(
                [
                    texts.COL_PLAYER,
                    texts.COL_HANCHANS,
                    texts.MATCH_PENALTY_COL,
                    texts.MATCH_UMA,
                    texts.COL_TOTAL,
                    texts.COL_PLACE,
                ],
                MatchState.lines,
                lambda r: _cells(
                    [r["name"], r["hanchans"], r["penalties"], r["uma"], r["total"], r["place"]], "nnnnnn"
                ),
                "30em",
                keys=(1, 5, 6),  # Итог матча on a phone: the player, the total, the place
            ),
        ),
        _titled(
            texts.MATCH_PENALTIES,
            MatchState.penalties,
            _table(
                [
                    texts.COL_PLAYER,
                    texts.COL_TOTAL,
                    texts.MATCH_COL_PENALTY_KIND,
                    "",
                    texts.MATCH_COL_PENALTY_BASIS,
                ],
                MatchState.penalties,
                lambda p: _cells([p["name"], p["points"], p["kind"], p["warning"], p["reason"]], "nn  w"),
                "36em",
                keys=(1, 2, 3),
            ),
        ),
        result_forms(MatchState),
        rx.cond(MatchState.participant, judge_call_form(MatchState)),
        rx.cond(
            MatchState.organizer,
            rx.fragment(organizer_forms(MatchState), admin.substitute_form(MatchState), _confirm_no_show()),
        ),
        rx.heading(texts.MATCH_PROTOCOL, size="4", as_="h2"),
        rx.cond(
            MatchState.protocol.length() > 0,
            _table(
                list(texts.MATCH_PROTOCOL_COLUMNS),
                MatchState.protocol,
                lambda a: _cells([a["at"], a["who"], a["what"], a["detail"], a["reason"]], "n  ww"),
                "48em",
            ),
            rx.text(texts.MATCH_PROTOCOL_EMPTY, color_scheme="gray"),  # not a 784 px table of headers
        ),
        _titled(
            texts.MATCH_RULINGS,
            MatchState.rulings,
            _table(
                [
                    texts.MATCH_COL_WHEN,
                    texts.MATCH_COL_HANCHAN,
                    texts.RULING_ACTIONS,
                    texts.RULING_DISAGREEMENT,
                    texts.RULING_DECISION,
                    texts.RULING_PHOTOS_COL,
                ],
                MatchState.rulings,
                lambda r: rx.table.row(
                    *[_cell(r[k], kind) for k, kind in zip(RULING_KEYS, "nnwww", strict=True)],
                    photos_cell(r["photos"]),
                ),
                "60em",
            ),
        ),
        spacing="3",
        width="100%",
        # The pinned answer stays while it says what is wrong: room below the page's end lets its last form (on a
        # phone «Позвать судью») scroll clear of it, or a tap there lands on the answer and does nothing.
        padding_bottom=rx.cond(_answered(), "50vh", "0"),
    )


def match_page() -> rx.Component:
    # The page title is the match itself ("Матч 3 — Тур 1, стол 3"), not a generic "Матч" above it.
    title = rx.cond(MatchState.found & (MatchState.title != ""), MatchState.title, texts.MATCH_PAGE_TITLE)
    return page(title, rx.cond(MatchState.found, _body(), forbidden(texts.MATCH_NOT_FOUND)))
