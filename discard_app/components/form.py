"""The one form of the site: labelled fields with their limits, the one-time action key, a busy submit button and
the message beside it. Every submit button stands in an `action_form` (tests/e2e/test_forms.py walks the pages).

The key (`GuardedActions.action_key`, discard_app/state/action.py) goes with the form, so the server performs
the form's action once: a second tap, a resent frame, changes nothing. A second press of the same fields (or of
the fields the page emptied on success) within seconds goes with the first press's key even after the page has
re-rendered with a new one (`assets/forms.js`), so it is answered as the first was, never refused as a new action.
The button is disabled and shows it works
while the page's `busy` var is set: the form sends `start_busy` just before its own event, and `guarded` clears it
when the handler ends. Fields stay as typed (`reset_on_submit=False`); a page that clears or
advances them on success says so in its handler.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import reflex as rx

from discard_app.components.text_limit import limit_hint
from discard_app.state.action import KEY_FIELD, roles_of
from services.core.text_limits import FIELD_LIMITS, limit_for

FORM_MARK = "data-action-form"  # what the forms test looks for around every submit button
# In every page's head: leaving with unsaved input asks first, and a second press of the same form goes with the first
# press's key (assets/forms.js, which names FORM_MARK and KEY_FIELD as they are here).
FORMS_SCRIPT = (Path(__file__).resolve().parents[2] / "assets" / "forms.js").read_text(encoding="utf-8")
LEAVES = {"data-leaves": "1"}  # a button that leaves the page (the phone menu's items, logout): asked first


def labelled(label: str | rx.Var[Any], control: rx.Component, **props: Any) -> rx.Component:
    """A visible label above its control: placeholders vanish once typed into and get cut off on a phone."""
    return rx.el.label(
        rx.text(label, size="2", weight="medium"),
        control,
        display="flex",
        flex_direction="column",
        gap="0.25em",
        **props,
    )


def field(name: str, label: str | rx.Var[Any], **props: Any) -> rx.Component:
    """A one-line field; a free-text one says how long it may be (its input stops there)."""
    free_text = name in FIELD_LIMITS
    control = rx.input(name=name, aria_label=label, width="100%", max_length=limit_for(name), **props)
    return labelled(
        label, rx.fragment(control, limit_hint(name)) if free_text else control, width="100%", max_width="28em"
    )


def area(name: str, label: str) -> rx.Component:
    control = rx.text_area(name=name, aria_label=label, width="100%", max_length=limit_for(name))
    return labelled(label, rx.fragment(control, limit_hint(name)), width="100%")


def submit(text: str | rx.Var[Any], busy: rx.Var[Any] | bool = False, **props: Any) -> rx.Component:
    """Disabled and spinning while the form's event runs: a second tap has nothing to send."""
    return rx.button(text, type="submit", loading=busy, disabled=busy, **props)


def _busy_first(state: Any, on_submit: Any) -> Any:
    """`start_busy` before a guarded handler's event (guarded clears it when the handler ends); a handler that is
    not guarded would never clear it, so its form is sent as it is."""
    events = on_submit if isinstance(on_submit, list) else [on_submit]
    handlers = [getattr(e, "handler", e) for e in events]
    if not all(roles_of(getattr(h, "fn", None)) is not None for h in handlers):
        return on_submit
    return [state.start_busy, *events]


def action_form(
    state: Any,
    *children: rx.Component,
    on_submit: Any,
    submit_text: str | rx.Var[Any],
    title: str | rx.Var[Any] | None = None,
    busy: rx.Var[Any] | None = None,
    message: rx.Component | None = None,
    form_id: str | None = None,
    submit_props: dict[str, Any] | None = None,
    card: bool = True,
    busy_on_submit: bool = True,
) -> rx.Component:
    """A form of `state` (a `GuardedActions` page): its fields, the hidden action key, the button, the message."""
    busy = state.busy if busy is None else busy
    body = rx.vstack(
        *([rx.heading(title, size="3", as_="h3")] if title is not None else []),
        *children,
        rx.el.input(type="hidden", name=KEY_FIELD, value=state.action_key, custom_attrs={"data-key": state.action_key}),
        rx.flex(
            submit(submit_text, busy, **(submit_props or {})),
            *([message] if message is not None else []),
            spacing="3",
            align="center",
            wrap="wrap",
        ),
        spacing="2",
        width="100%",
    )
    form = rx.form(
        body,
        on_submit=_busy_first(state, on_submit) if busy_on_submit else on_submit,
        reset_on_submit=False,
        id=form_id,
        custom_attrs={FORM_MARK: "1"},
        width="100%",
    )
    return rx.card(form, width="100%") if card else form
