"""A table wider than a phone: it scrolls sideways inside its box, says so, and keeps one column in view."""

from __future__ import annotations

import reflex as rx

from discard_app import texts

# The kept column stays at the left edge while the others scroll under it; the panel colour hides them.
CSS = """
.wide-N tr > :nth-child(N){position:sticky;left:0;z-index:1;background:var(--color-panel-solid)}
.wide-N tr.mine > *{background:var(--amber-a4)}
.wide-N tr.mine > :nth-child(N){background:var(--amber-3)}
"""


def wide_table(table: rx.Component, rows: rx.Var, *, sticky_column: int = 1) -> rx.Component:
    """`table` in a sideways-scrolling box; below 768 px a hint says so while `rows` (the table's list) has any.
    `sticky_column` (1-based) stays put."""
    css = CSS.replace("N", str(sticky_column))
    hint = rx.text(texts.TABLE_SCROLL_HINT, size="1", color_scheme="gray", display=["block", "block", "none"])
    return rx.box(
        rx.el.style(css),
        rx.cond(rows.length() > 0, hint),
        rx.box(table, overflow_x="auto", width="100%", class_name=f"wide-{sticky_column}"),
        width="100%",
    )
