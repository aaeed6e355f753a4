"""Closing registration (Регламент §1): both ways to make the main roster a multiple of four (the season's ruleset);
imports no reflex."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlmodel import Session, col, select

from services.core.audit import record_audit
from services.core.errors import LeagueError
from services.core.models import Player, RosterStatus, Season, User, saved
from services.core.ruleset import multiple_of, of_season
from services.core.wording import plural
from services.league.draw import MIN_PLAYERS


class ClosingError(LeagueError):
    """Registration cannot be closed this way; the message is Russian and shown as is."""


class ClosingMethod(StrEnum):
    AS_IS = "as_is"  # the main roster is already a multiple of four
    FROM_RESERVE = "from_reserve"  # take the needed number from the reserve, first registered first
    TO_RESERVE = "to_reserve"  # move the last registered main players to the reserve


@dataclass(frozen=True)
class Entrant:
    player_id: int
    name: str
    registration_order: int


@dataclass(frozen=True)
class ClosingOption:
    method: ClosingMethod
    moves: tuple[Entrant, ...]  # players whose status changes
    main_after: int
    error: str = ""  # why this option cannot be applied; empty when it can

    @property
    def possible(self) -> bool:
        return not self.error


@dataclass(frozen=True)
class ClosingPreview:
    main: int
    reserve: int
    options: tuple[ClosingOption, ...]  # one AS_IS option, or FROM_RESERVE and TO_RESERVE

    def option(self, method: ClosingMethod | str) -> ClosingOption | None:
        return next((o for o in self.options if o.method == method), None)


def _players(n: int) -> str:
    return f"{n} {plural(n, 'игрок', 'игрока', 'игроков')}"


def _too_few(main_after: int) -> str:
    if main_after >= MIN_PLAYERS:
        return ""
    return f"В основном составе будет {_players(main_after)}: для жеребьёвки нужно не меньше восьми."


def preview_closing(main: Sequence[Entrant], reserve: Sequence[Entrant], multiple: int) -> ClosingPreview:
    """What each allowed way of closing would do; pure: rosters in, options out, nothing changes."""
    main = sorted(main, key=lambda e: e.registration_order)
    reserve = sorted(reserve, key=lambda e: e.registration_order)
    n = len(main)
    extra = n % multiple
    if extra == 0:
        option = ClosingOption(ClosingMethod.AS_IS, (), n, _too_few(n))
        return ClosingPreview(n, len(reserve), (option,))
    # Регламент §1: «организатор добирает участников либо исключает … необходимое число последних зарегистрировавшихся»
    needed = multiple - extra
    if len(reserve) < needed:
        error = f"В резерве {_players(len(reserve))}, а нужно {needed}: добрать основной состав из резерва нельзя."
        take = ClosingOption(ClosingMethod.FROM_RESERVE, tuple(reserve), n + len(reserve), error)
    else:
        take = ClosingOption(ClosingMethod.FROM_RESERVE, tuple(reserve[:needed]), n + needed, _too_few(n + needed))
    cut = ClosingOption(ClosingMethod.TO_RESERVE, tuple(main[n - extra :]), n - extra, _too_few(n - extra))
    return ClosingPreview(n, len(reserve), (take, cut))


def _entrants(session: Session, season_id: int, status: RosterStatus) -> list[Entrant]:
    rows = session.exec(
        select(Player, User)
        .join(User, col(User.id) == Player.user_id)
        .where(Player.season_id == season_id, Player.status == status)
        .order_by(col(Player.registration_order))
    ).all()
    return [Entrant(saved(p.id), u.display_name, p.registration_order) for p, u in rows]


def season_closing_preview(session: Session, season: Season) -> ClosingPreview:
    return preview_closing(
        _entrants(session, saved(season.id), RosterStatus.MAIN),
        _entrants(session, saved(season.id), RosterStatus.RESERVE),
        of_season(season).roster_multiple,
    )


def close_registration(
    session: Session,
    season: Season,
    method: ClosingMethod | str,
    *,
    actor_user_id: int | None,
    now: datetime | None = None,
) -> ClosingOption:
    """Applies the organizer's choice as previewed now, closes registration and records it at `now` (the shell's
    clock); all or nothing."""
    if season.registration_closed:
        raise ClosingError("Регистрация уже закрыта.")
    preview = season_closing_preview(session, season)
    multiple = of_season(season).roster_multiple
    option = preview.option(method)
    if option is None:
        if preview.option(ClosingMethod.AS_IS) is not None:
            raise ClosingError(
                f"Основной состав ({_players(preview.main)}) уже кратен {multiple_of(multiple)}: "
                "ничего менять не нужно."
            )
        raise ClosingError(
            f"В основном составе {_players(preview.main)}: число не кратно {multiple_of(multiple)} — "
            "выберите, добрать из резерва или перевести последних зарегистрировавшихся в резерв."
        )
    if not option.possible:
        raise ClosingError(option.error)
    new_status = RosterStatus.MAIN if option.method == ClosingMethod.FROM_RESERVE else RosterStatus.RESERVE
    for entrant in option.moves:
        player = session.get_one(Player, entrant.player_id)
        player.status = new_status
        session.add(player)
    season.registration_closed = True
    session.add(season)
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="registration.close",
        entity="season",
        entity_id=season.id,
        before={"main": preview.main, "reserve": preview.reserve},
        after={
            "method": str(option.method),
            "main": option.main_after,
            "moved": [{"player_id": e.player_id, "name": e.name, "status": str(new_status)} for e in option.moves],
        },
        now=now,
    )
    session.flush()
    return option


def main_after(session: Session, season: Season, option: ClosingOption) -> list[str]:
    """The main roster's names, in registration order, as `option` would leave it: what the question names."""
    main = _entrants(session, saved(season.id), RosterStatus.MAIN)
    moved = {e.player_id for e in option.moves}
    if option.method == ClosingMethod.FROM_RESERVE:
        after = main + [e for e in option.moves]
    else:
        after = [e for e in main if e.player_id not in moved]
    return [e.name for e in sorted(after, key=lambda e: e.registration_order)]
