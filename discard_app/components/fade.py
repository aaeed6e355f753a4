"""What was done fades: a success answer disappears after a few seconds and lets taps through (issue 45 item 7:
on a phone it covered «Позвать судью» until closed; on the desk an old «Готово» stood above a new judge call). What
is wrong stays until closed or the next answer."""

from __future__ import annotations

import reflex as rx

FADE_CSS = """
@keyframes answer-done{to{opacity:0;visibility:hidden}}
.answer-done{animation:answer-done .4s ease 5s forwards}
"""
FADES = "answer-done"  # the class of an answer that fades; a new answer remounts it (`key`), so it starts again


def fade_style() -> rx.Component:
    return rx.el.style(FADE_CSS)
