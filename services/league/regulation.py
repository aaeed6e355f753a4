"""The league's regulation on the site (Регламент §7): full texts, each amendment dated with its reason.

An amendment takes effect once announced to the participants in the league's official channels (§7, §6.4): publishing
one writes the announcement for the site and the bot's outbox in the same transaction, and the version in force at an
instant is the newest one announced by then. Imports no reflex.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlmodel import Session, col, select

from services.core.audit import record_audit
from services.core.errors import LeagueError
from services.core.models import RegulationVersion
from services.core.ruleset import CLUB_ZONE
from services.core.text_limits import limit_for
from services.league.announcements import publish_announcement
from services.league.roster import current_season

MAX_TEXT = limit_for("regulation")
MAX_REASON = 1000  # the announcement must fit one Telegram message
FIRST_REASON = "исходная редакция"


class RegulationError(LeagueError):
    """A refused publication; the message is Russian and nothing has changed."""


def versions(session: Session) -> Sequence[RegulationVersion]:
    """Every version, oldest first."""
    return session.exec(
        select(RegulationVersion).order_by(col(RegulationVersion.announced_at), col(RegulationVersion.id))
    ).all()


def in_force(session: Session, at: datetime) -> RegulationVersion | None:
    """Регламент §7: the newest version announced by `at`."""
    return session.exec(
        select(RegulationVersion)
        .where(col(RegulationVersion.announced_at) <= at)
        .order_by(col(RegulationVersion.announced_at).desc(), col(RegulationVersion.id).desc())
    ).first()


def publish(
    session: Session, text: str, *, reason: str, now: datetime, author_user_id: int | None
) -> RegulationVersion:
    """The first text, or an amendment (a reason is required) announced on the site and through the bot."""
    text = text.replace("\r\n", "\n").strip()
    if not text:
        raise RegulationError("Текст регламента пуст.")
    if len(text) > MAX_TEXT:
        raise RegulationError(f"Текст длиннее {MAX_TEXT} символов.")
    current = in_force(session, now)
    first = session.exec(select(RegulationVersion.id)).first() is None
    reason = reason.strip()
    if not first and not reason:
        raise RegulationError("Укажите, что и почему изменено: изменение без причины не публикуется.")
    if len(reason) > MAX_REASON:
        raise RegulationError(f"Причина длиннее {MAX_REASON} символов: подробности — в самом тексте.")
    if current is not None and current.text == text:
        raise RegulationError("Текст не изменился.")
    version = RegulationVersion(
        text=text, reason=reason or FIRST_REASON, announced_at=now, author_user_id=author_user_id
    )
    session.add(version)
    session.flush()
    if not first:
        season = current_season(session)
        if season is not None and author_user_id is not None:
            # Регламент §6.4, §7: the amendment is announced on the site and in the announcements topic.
            local = now.astimezone(CLUB_ZONE)
            publish_announcement(
                session,
                season,
                f"Изменение регламента от {local:%d.%m.%Y %H:%M} (действует с момента объявления): {reason}. "
                "Полный текст — на странице «Регламент».",
                author_user_id=author_user_id,
                now=now,
            )
    record_audit(
        session,
        actor_user_id=author_user_id,
        action="regulation.publish",
        entity="regulationversion",
        entity_id=version.id,
        reason=version.reason,
        now=now,
    )
    return version
