"""Secrets shown once — issued passwords — written straight into the page by a one-shot script, never kept in a state
var: a tab's state is pickled to disk or Redis and sent whole on a reload, so a password there would rest in the
state files for as long as the page stays open (README «Security»)."""

from __future__ import annotations

import json
from datetime import datetime

import reflex as rx
from reflex.event import EventSpec

from services.core.config import settings
from services.core.urls import site_address
from services.league import issued_passwords

# Shown like the amber callouts of the pages (Radix's colour variables).
_BOX_STYLE = {
    "background": "var(--amber-a3)",
    "color": "var(--amber-a11)",
    "border_radius": "var(--radius-3)",
    "padding": "var(--space-3) var(--space-4)",
    "white_space": "pre-wrap",
    "overflow_wrap": "anywhere",  # an 80-character name without spaces stays inside a phone's width
    "max_width": "100%",
}
_SHOW = """(() => {
  const box = document.getElementById(%s);
  if (!box) return;
  const lines = %s;
  box.replaceChildren(...lines.map((line) => {
    const p = document.createElement("p");
    p.textContent = line;
    return p;
  }));
  box.hidden = lines.length === 0;
})()"""


def secret_box(box_id: str, shown: rx.Var[bool] | None = None) -> rx.Component:
    """Where `show_secret` writes; empty and hidden until then, and again once the page is left. `shown`, when
    given, hides it as well once the page's next answer replaces the one it came with."""
    style = (
        _BOX_STYLE if shown is None else {**_BOX_STYLE, "display": rx.cond(shown, "", "none")}
    )  # "": the `hidden` attribute decides
    return rx.el.div(id=box_id, role="status", hidden=True, style=style)


def show_secret(box_id: str, lines: list[str]) -> EventSpec:
    """Writes `lines` into the page's `secret_box` (no lines: empties and hides it); the text travels once, as the
    script's argument, and nothing of it stays on the server."""
    return rx.call_script(_SHOW % (json.dumps(box_id), json.dumps(lines, ensure_ascii=False)))


def password_sheet(rows: list[issued_passwords.IssuedPassword], *, origin: str, season_name: str) -> EventSpec:
    """The issued passwords as a printable sheet, downloaded once: the file travels inside this one event (as a
    data: URL) and is written nowhere on the server, in no state var (issue 25, item 5)."""
    sheet = issued_passwords.sheet_html(
        rows,
        site_url=site_address(settings.public_url, origin),
        season_name=season_name,
        made_at=datetime.now(settings.tz),
    )
    return rx.download(data=sheet, filename=issued_passwords.SHEET_FILENAME, mime_type="text/html")
