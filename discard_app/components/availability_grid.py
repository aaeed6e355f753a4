"""The availability grid: days × half hours in Kirov time, painted in the browser (assets/availability_grid.js)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import reflex as rx

from discard_app import texts

# Run by the page's on_load (rx.call_script): document-level listeners, installed once per browser tab.
GRID_SCRIPT = (Path(__file__).resolve().parents[2] / "assets" / "availability_grid.js").read_text(encoding="utf-8")
TIMES = [f"{h:02d}:{m:02d}" for h in range(24) for m in (0, 30)]
CELL_HEIGHT = "28px"  # issue 28: a finger's cell on a phone, at least 40 × 28 px
HEADER_HEIGHT = 88  # px above the first cell: the day label (32) and its two fill buttons, stacked on a phone
LABEL_HEIGHT = 32
TAP = "24px"  # the least a finger hits (WCAG 2.2 target size): the walk met 11 px links
EVENING = (36, 48)  # 18:00–24:00 Kirov
# A day's column is its sticky header, then the cells: its odd children are the half hours that end on a full hour,
# so their darker bottom line is the hour line, just above the hour's label.
# touch-action manipulation: on a touch screen every swipe (down the page or sideways to the second week) scrolls and
# paints nothing; painting by touch is two deliberate taps (assets/availability_grid.js), by mouse a drag.
CSS = """
[data-cell]{height:28px;box-sizing:border-box;border-bottom:1px solid var(--gray-a3);
  border-left:1px solid var(--gray-a4);
  cursor:pointer;touch-action:manipulation;user-select:none;-webkit-user-select:none;background:var(--gray-a2)}
[data-cell][data-state="1"]{background:var(--jade-9)}
[data-cell][data-state="2"]{background:repeating-linear-gradient(135deg,var(--amber-8),var(--amber-8) 3px,
  var(--amber-5) 3px,var(--amber-5) 6px)}
[data-cell][data-state="x"]{background:repeating-linear-gradient(45deg,var(--gray-a3),var(--gray-a3) 3px,
  transparent 3px,transparent 6px);cursor:not-allowed}
[data-cell][data-past="1"]{background:var(--gray-a6);cursor:not-allowed}
.grid-head{position:sticky;top:0;z-index:2;background:var(--color-panel-solid)}
[data-week-switch][aria-pressed="true"]{outline:2px solid var(--accent-9)}
[data-paint-kind][aria-pressed="true"]{outline:2px solid var(--accent-9);font-weight:bold}
[data-cell][data-anchor="1"]{outline:2px solid var(--amber-9);outline-offset:-2px}
[data-cell]:nth-child(odd){border-bottom-color:var(--gray-a7)}
.grid-touch{touch-action:manipulation}
#grid-unsaved[data-dirty="0"]{display:none}
#grid-anchor[data-active="0"]{display:none}
[data-cell][data-mark="m"]{box-shadow:inset 0 0 0 2px var(--blue-9)}
[data-cell][data-mark="r"]{box-shadow:inset 3px 0 0 0 var(--red-9)}
.grid-weeks[data-show-week="0"] [data-week]:not([data-week="0"]),
.grid-weeks[data-show-week="1"] [data-week]:not([data-week="1"]),
.grid-weeks[data-show-week="2"] [data-week]:not([data-week="2"]){display:none}
"""
LEGEND = texts.GRID_LEGEND
WEEK_NAMES = texts.GRID_WEEK_TITLES


def _cell(
    state: rx.Var[Any], slot: rx.Var[Any], day: rx.Var[Any], label: rx.Var[Any], marks: rx.Var[Any], past: rx.Var[Any]
) -> rx.Component:
    begun = day * 48 + slot < past  # the cells run in time order: the first `past` have begun
    return rx.el.div(
        role="checkbox",
        aria_checked=rx.cond(state == "1", "true", rx.cond(state == "2", "mixed", "false")),
        aria_disabled=rx.cond((state == "x") | begun, "true", "false"),
        aria_label=label + " " + rx.Var.create(TIMES)[slot],
        custom_attrs={
            "data-cell": day.to_string() + "," + slot.to_string(),
            "data-state": state,
            "data-mark": marks[day][slot],
            "data-past": rx.cond(begun, "1", "0"),
        },
    )


def _fill_button(text: str, fill: rx.Var[Any] | str, label: rx.Var[Any] | str) -> rx.Component:
    return rx.el.button(
        text,
        type="button",
        aria_label=label,
        custom_attrs={"data-fill": fill},
        style={
            "fontSize": "12px",
            "padding": "0 4px",
            "minWidth": TAP,
            "minHeight": TAP,
            "cursor": "pointer",
            "background": "none",
            "border": "none",
            "color": "var(--accent-11)",
            "textDecoration": "underline",
        },
    )


def _day(row: rx.Var[Any], day: rx.Var[Any], days: rx.Var[Any], marks: rx.Var[Any], past: rx.Var[Any]) -> rx.Component:
    label = days[day]
    return rx.el.div(
        # A week must fit a 390px phone, so a narrow column wraps its date under the weekday and stacks
        # its two fill buttons. The header sticks to the top of the screen over the evening rows (issue 28).
        rx.el.div(
            rx.el.div(
                rx.text(label, size="1", weight="bold"),
                style={"height": f"{LABEL_HEIGHT}px", "lineHeight": "14px", "textAlign": "center"},
            ),
            rx.el.div(
                _fill_button(texts.GRID_FILL_DAY, day.to_string() + ",0,48", texts.GRID_FILL_DAY_OF + label),
                _fill_button(
                    texts.GRID_FILL_EVENING,
                    day.to_string() + f",{EVENING[0]},{EVENING[1]}",
                    texts.GRID_FILL_EVENING_OF + label,
                ),
                style={
                    "height": f"{HEADER_HEIGHT - LABEL_HEIGHT}px",
                    "display": "flex",
                    "flexWrap": "wrap",
                    "justifyContent": "center",
                    "alignContent": "flex-start",
                },
            ),
            class_name="grid-head",
        ),
        rx.foreach(row, lambda state, slot: _cell(state, slot, day, label, marks, past)),
        style={"minWidth": "40px", "flex": "1"},
        custom_attrs={"data-week": (day // 7).to_string()},
    )


def _kind_choice() -> rx.Component:
    """What a drag or a range of two taps paints, chosen first (issue 45 item 8: a cycle per tap took guessing)."""
    return rx.flex(
        rx.text(texts.GRID_KIND_LABEL, size="2"),
        *[
            rx.button(
                name,
                type="button",
                size="2",
                variant="soft",
                color_scheme=color,
                custom_attrs={"data-paint-kind": kind, "aria-pressed": "true" if kind == "1" else "false"},
            )
            for kind, name, color in (
                ("1", texts.GRID_KIND_FREE, "jade"),
                ("2", texts.GRID_KIND_IF_NEEDED, "amber"),
                ("0", texts.GRID_KIND_ERASE, "gray"),
            )
        ],
        spacing="2",
        wrap="wrap",
        align="center",
        role="group",
        aria_label=texts.GRID_KIND_LABEL,
    )


def _week_switch(days: rx.Var[Any]) -> rx.Component:
    """A window longer than a week shows one week at a time: an explicit switch, not a hidden sideways scroll."""
    return rx.cond(
        days.length() > 7,
        rx.flex(
            *[
                rx.cond(
                    days.length() > 7 * n,
                    rx.button(
                        name,
                        type="button",
                        size="1",
                        variant="soft",
                        custom_attrs={"data-week-switch": str(n), "aria-pressed": "true" if n == 0 else "false"},
                    ),
                )
                for n, name in enumerate(WEEK_NAMES)
            ],
            spacing="2",
            wrap="wrap",
        ),
    )


def _week_shown(weeks: rx.Var[Any]) -> rx.Component:
    """Which week is on screen (its days named): the week switch shows the caption of its own week."""
    return rx.foreach(
        weeks,
        lambda text, n: rx.text(text, size="2", weight="medium", custom_attrs={"data-week": n.to_string()}),
    )


def availability_grid(
    days: rx.Var[Any],
    cells: rx.Var[Any],
    marks: rx.Var[Any],
    past: rx.Var[Any] | int = 0,
    weeks: rx.Var[Any] | None = None,
) -> rx.Component:
    """`cells[d][s]`: "1" free, "2" «могу, если нужно», "0" busy, "x" outside the game window; only the player's
    own grid is ever passed.
    `marks[d][s]`: "m" my other booking, "r" every room taken. The first `past` cells have begun: greyed, not
    painted. `weeks`: the caption of each week."""
    past = rx.Var.create(past) if isinstance(past, int) else past
    times = rx.el.div(
        rx.el.div(style={"height": f"{HEADER_HEIGHT}px"}, class_name="grid-head"),
        *[
            rx.el.div(
                rx.text(t if t.endswith(":00") else "", size="1", color_scheme="gray"),
                style={"height": CELL_HEIGHT, "lineHeight": CELL_HEIGHT, "fontSize": "10px"},
            )
            for t in TIMES
        ],
        style={"minWidth": "2.6em", "paddingRight": "2px"},
    )
    return rx.box(
        rx.el.style(CSS),
        rx.flex(
            _fill_button(texts.GRID_FILL_ALL_EVENINGS, f"-1,{EVENING[0]},{EVENING[1]}", texts.GRID_FILL_ALL_EVENINGS),
            _fill_button(texts.GRID_FILL_WINDOW, "-1,0,48", texts.GRID_FILL_WINDOW),
            spacing="3",
        ),
        _kind_choice(),
        rx.text(
            texts.GRID_ANCHOR_HINT,
            id="grid-anchor",
            size="2",
            color_scheme="amber",
            custom_attrs={"data-active": "0"},
        ),
        _week_switch(days),
        rx.text(LEGEND, size="1", color_scheme="gray"),
        rx.cond(past > 0, rx.text(texts.GRID_PAST_NOTE, size="1", color_scheme="gray")),
        rx.box(
            _week_shown(weeks) if weeks is not None else rx.fragment(),
            rx.el.div(
                times,
                rx.foreach(cells, lambda row, day: _day(row, day, days, marks, past)),
                style={"display": "flex"},
                class_name="grid-touch",
            ),
            # clip, not auto: a scrolling box would hold the sticky day headers inside itself; a week fits 390 px
            overflow_x="clip",
            width="100%",
            class_name="grid-weeks",
            custom_attrs={"data-show-week": "0"},
        ),
        width="100%",
    )
