"""A table wider than a phone: its key columns in view, the rest behind a tap or a sideways scroll. Reflex only."""

from __future__ import annotations

from typing import Any

import reflex as rx

from discard_app import texts

# The kept column stays at the left edge while the others scroll under it; the panel colour hides them. Radix's table
# sits in a scroll area of its own (overflow hidden, its viewport overflow scroll), which a sticky cell would stick
# to and which never scrolls: made plain here, so the cell sticks to the box that does scroll.
CSS = """
.wide-table .rt-ScrollAreaRoot,.wide-table .rt-ScrollAreaViewport{overflow:visible!important}
.wide-N tr > :nth-child(N){position:sticky;left:0;z-index:1;background:var(--color-panel-solid)}
.wide-N tr.mine > *{background:var(--amber-a4)}
.wide-N tr.mine > :nth-child(N){background:var(--amber-3)}
"""
# Below 768 px a table with key columns shows only them (issue 28: name, total, place fit 390 px with no sideways
# scroll); the checkbox «Все столбцы» brings the rest back, scrolling sideways as before.
KEYS_CSS = """
.keysK .wide-table .rt-TableRoot{min-width:W}
@media (max-width:767px){
  .keysK:not(:has(.all-columns:checked)) .wide-table .rt-TableRoot{min-width:0}
  .keysK:not(:has(.all-columns:checked)) tr > :is(HIDDEN){display:none}
  .keysK:not(:has(.all-columns:checked)) .scroll-hint{display:none}
  .keysK:not(:has(.all-columns:checked)) tr > *{padding-inline:var(--space-1)}
}
@media (min-width:768px){.keysK .all-columns-switch{display:none}}
"""


def wide_table(
    table: rx.Component,
    rows: rx.Var[Any],
    *,
    sticky_column: int = 1,
    keys: tuple[int, ...] = (),
    columns: int = 0,
    min_width: str = "0",
) -> rx.Component:
    """`table` in a sideways-scrolling box; below 768 px a hint says so while `rows` (the table's list) has any.
    `sticky_column` (1-based) stays put. `keys` (1-based, of `columns`): on a phone only these are shown until the
    person taps «Все столбцы»; `min_width` is the table's width with every column."""
    css = CSS.replace("N", str(sticky_column))
    hint = rx.text(
        texts.TABLE_SCROLL_HINT,
        size="1",
        color_scheme="gray",
        display=["block", "block", "none"],
        class_name="scroll-hint",
    )
    extra: list[rx.Component] = []
    name = ""
    if keys:
        name = "keys" + "-".join(map(str, keys))
        hidden = ",".join(f":nth-child({n})" for n in range(1, columns + 1) if n not in keys)
        css += KEYS_CSS.replace("K", "-".join(map(str, keys))).replace("W", min_width).replace("HIDDEN", hidden)
        extra.append(
            rx.el.label(
                rx.el.input(type="checkbox", class_name="all-columns"),
                " " + texts.TABLE_ALL_COLUMNS,
                class_name="all-columns-switch",
                style={"fontSize": "var(--font-size-1)", "cursor": "pointer"},
            )
        )
    return rx.box(
        rx.el.style(css),
        *extra,
        rx.cond(rows.length() > 0, hint),
        rx.box(table, overflow_x="auto", width="100%", class_name=f"wide-{sticky_column} wide-table"),
        width="100%",
        class_name=name,
    )
