"""Free-text limits in the forms: every input stops at its limit, long ones state it (services/core/text_limits)."""

from __future__ import annotations

import json

import reflex as rx

from discard_app import texts
from services.core.text_limits import FIELD_LIMITS, limit_for


def limit_hint(field: str) -> rx.Component:
    """«до N символов» under a long text field."""
    return rx.text(texts.TEXT_LIMIT_HINT.format(limit=limit_for(field)), size="1", color_scheme="gray")


def max_length_script() -> str:
    """Gives every named input and text area of every page the `maxlength` of its field, as they appear: the
    same table the server checks each event against, so a form never lets one type what will be refused."""
    limits = json.dumps(FIELD_LIMITS)
    return (
        f"(() => {{ const limits = {limits};"
        " const apply = () => document.querySelectorAll('input[name], textarea[name]').forEach((el) => {"
        " if (!el.hasAttribute('maxlength') && limits[el.name] && el.type !== 'hidden')"
        " el.setAttribute('maxlength', String(limits[el.name])); });"
        " new MutationObserver(apply).observe(document.documentElement, {childList: true, subtree: true});"
        " apply(); })();"
    )
