"""Issued passwords as a printable sheet, and issuing them again to everyone who has not used theirs; imports no
reflex.

The sheet is made when the organizer asks for it, from passwords generated in that same request, and goes to the
browser once as a download: it is never stored, in the database or in a tab's state (issue 25, item 5).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from services.core import security
from services.core.models import Player, Role, RosterStatus, User
from services.league.accounts import normalize_login, reset_password

SHEET_FILENAME = "discard-passwords.html"


@dataclass(frozen=True)
class IssuedPassword:
    name: str
    login_name: str
    password: str


def issued(name: str, password: str) -> IssuedPassword:
    """A sheet row for a new account (its login name is the name as the login form compares it)."""
    return IssuedPassword(name=name, login_name=normalize_login(name), password=password)


def not_yet_used(session: Session, season_id: int) -> list[User]:
    """The season's players whose issued password has never logged in (it still has its quick issuing hash:
    the first login re-hashes it), in registration order."""
    rows = session.exec(
        select(User)
        .join(Player, col(Player.user_id) == User.id)
        .where(Player.season_id == season_id, User.role == Role.PLAYER, Player.status != RosterStatus.WITHDRAWN)
        .order_by(col(Player.registration_order))
    ).all()
    return [user for user in rows if security.is_issued(user.password_hash)]


def reissue_unused(session: Session, season_id: int, *, actor_user_id: int) -> list[IssuedPassword]:
    """A new password for everyone of the season who has not used theirs (each change audited): the old sheet,
    if it was lost, no longer opens anything."""
    return [
        IssuedPassword(user.display_name, user.login_name, reset_password(session, user, actor_user_id=actor_user_id))
        for user in not_yet_used(session, season_id)
    ]


def sheet_html(rows: list[IssuedPassword], *, site_url: str, season_name: str, made_at: datetime) -> str:
    """A printable page: one slip per person (name, login name, password, where to log in), to cut apart."""
    esc = html.escape
    slips = "\n".join(
        f"""<section class="slip"><h2>{esc(row.name)}</h2>
<p>Сайт: <b>{esc(site_url)}</b></p>
<p>Имя для входа: <b>{esc(row.login_name)}</b></p>
<p>Пароль: <b class="pw">{esc(row.password)}</b></p>
<p class="note">Пароль постоянный; сменить его можно в профиле.</p></section>"""
        for row in rows
    )
    return f"""<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>Пароли — {esc(season_name)}</title>
<style>
body {{ font-family: sans-serif; margin: 1cm; }}
.slip {{ border: 1px dashed #888; padding: 0.4cm 0.6cm; margin: 0 0 0.4cm; break-inside: avoid; }}
.slip h2 {{ margin: 0 0 0.2cm; font-size: 14pt; }}
.pw {{ font-family: monospace; font-size: 14pt; letter-spacing: 0.05em; }}
.note {{ color: #555; font-size: 9pt; }}
</style></head><body>
<h1>{esc(season_name)}: пароли игроков</h1>
<p>Составлено {made_at:%d.%m.%Y %H:%M}. Лист нигде не сохранён: разрежьте и раздайте лично, потом уничтожьте.</p>
{slips}
</body></html>
"""
