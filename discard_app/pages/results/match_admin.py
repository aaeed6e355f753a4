"""The organizer's and judge's match actions: form parsing into one service call each, and the substitute form.

Each builder returns `action(session, user)` for `MatchState._act`; the services check the role again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import reflex as rx
from sqlmodel import Session

from discard_app import texts
from discard_app.pages.results.match_forms import _area, _field, _labelled, _section
from services.core.models import User, utc_now
from services.league import substitution
from services.results import hanchans as results
from services.results import penalties, ruling_photos

Action = Callable[[Session, User], Any]


def _text(form: dict[str, Any], name: str) -> str:
    return str(form.get(name, "") or "")


def _id(form: dict[str, Any], name: str) -> int | None:
    return results._int(form.get(name))


def lists(session: Session, match_id: int) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """Who can be penalised (seated and replaced players), and the season's substitutes not at this table."""
    return (
        [{"id": str(i), "name": n} for i, n in substitution.penalty_candidates(session, match_id)],
        [{"id": str(i), "name": n} for i, n in substitution.substitute_candidates(session, match_id)],
    )


def no_show(match_id: int, form: dict[str, Any]) -> Action:
    # Регламент §5: a player replaced by a substitute can still get the no-show penalty for this match.
    return lambda s, u: penalties.add_no_show(s, u, match_id, _id(form, "player_id") or 0, now=utc_now())


def conduct(match_id: int, form: dict[str, Any]) -> Action:
    return lambda s, u: penalties.add_conduct_penalty(
        s,
        u,
        match_id,
        _id(form, "player_id") or 0,
        amount=_id(form, "amount"),  # None when not a number: refused, saying what the field takes
        violation=_text(form, "violation"),
        basis=_text(form, "basis"),
        now=utc_now(),
    )


async def read_photos(files: list[Any]) -> list[tuple[str, bytes]]:
    """(name, content) of uploaded files, reading no more than is needed to refuse: too many files — only their
    first bytes; a file over the limit — one byte past it."""
    limit = ruling_photos.MAX_BYTES + 1 if len(files) <= ruling_photos.MAX_PHOTOS else 16
    return [(str(f.name or texts.RULING_PHOTO_UNNAMED), await f.read(limit)) for f in files]


def ruling(match_id: int, form: dict[str, Any], photos: list[ruling_photos.CleanPhoto], directory: Path) -> Action:
    raw = _text(form, "hanchan_number").strip()
    number = results._int(raw) if raw else None

    def act(session: Session, user: User) -> Any:
        paths = ruling_photos.photo_paths(photos)  # only photos `clean_photos` checked and stripped of metadata
        ruling = penalties.add_ruling(
            session,
            user,
            match_id,
            hanchan_number=-1 if raw and number is None else number,  # not a number: refused as out of range
            actions=_text(form, "actions"),
            disagreement=_text(form, "disagreement"),
            decision=_text(form, "decision"),
            photos=paths,
            now=utc_now(),
        )
        # Written inside the transaction: a failed write rolls the ruling back.
        ruling_photos.store_photos(directory, paths, photos)
        return ruling

    return act


def substitute(match_id: int, form: dict[str, Any]) -> Action:
    return lambda s, u: substitution.seat_substitute(
        s,
        u,
        match_id,
        _id(form, "replaced_id"),
        substitute_player_id=_id(form, "substitute_id"),
        new_name=_text(form, "new_name"),
        reason=_text(form, "reason"),
        now=utc_now(),
    )


def _select(name: str, label: str, options: rx.Var[Any]) -> rx.Component:
    return _labelled(
        label,
        rx.select.root(
            rx.select.trigger(placeholder=texts.CHOOSE_PLAYER, aria_label=label),
            rx.select.content(rx.foreach(options, lambda p: rx.select.item(p["name"], value=p["id"]))),
            name=name,
        ),
    )


def substitute_form(state: Any) -> rx.Component:
    """Регламент §6.1: a technical substitute completes the table; chosen from the roster or registered by name."""
    return _section(
        texts.SUB_TITLE,
        rx.text(texts.SUB_HINT, size="2", color_scheme="gray"),
        _select("replaced_id", texts.SUB_REPLACED, state.form_players),
        rx.cond(
            state.substitute_options.length() > 0,
            _select("substitute_id", texts.SUB_FROM_ROSTER, state.substitute_options),
        ),
        _field("new_name", texts.SUB_NEW_NAME),
        _area("reason", texts.SUB_REASON),
        state=state,
        submit_text=texts.SUB_SUBMIT,
        variant="outline",
        on_submit=state.substitute,
    )
