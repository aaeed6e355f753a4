"""Where a person stands this season, said on their home page above their matches (issue 28 item 4): in reserve,
withdrawn, disqualified, a technical substitute, out after the regular stage, the season over with the final place,
a judge with calls waiting. Reads only; imports no reflex. The texts are Russian: they say the rule they apply."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from services.core.models import Player, Role, RosterStatus, Season, Seat, User
from services.core.ruleset import multiple_of, of_season
from services.core.wording import declined, plural
from services.league.roster import current_season
from services.playoff.repo import playoff_stage
from services.results.disqualifications import active_disqualification
from services.results.judge_calls import open_calls_for
from services.scheduling.intervals import kirov_date
from services.scheduling.repo import match_info
from services.views.history import final_order, season_bracket_and_standings


@dataclass(frozen=True)
class StandingNote:
    """One line of the home page's «where you stand»: its title, what it means, and where to act (or "")."""

    title: str
    text: str
    tone: str = "blue"  # "blue" to know, "amber" to act, "red" shut out, "green" the season's result
    to_desk: bool = False  # the judge's calls are answered on the desk


def standing_notes(session: Session, user: User, now: datetime) -> list[StandingNote]:
    season = current_season(session)
    if user.id is None:
        return []
    if user.role != Role.PLAYER:
        return _staff_notes(session, user, now)
    notes = []
    disqualified = active_disqualification(session, user.id, kirov_date(now))
    if disqualified is not None:  # Регламент §5, §6.3: a year or for good, from the next leagues
        until = "бессрочно" if disqualified.ends_on is None else f"до {disqualified.ends_on:%d.%m.%Y}"
        notes.append(StandingNote("Вы дисквалифицированы", f"{until.capitalize()}: {disqualified.reason}.", "red"))
    if season is None:
        return notes
    player = session.exec(select(Player).where(Player.season_id == season.id, Player.user_id == user.id)).first()
    if player is None:
        if disqualified is None:
            notes.append(StandingNote(f"Вы не заявлены в сезоне «{season.name}»", _NOT_ENTERED))
        return notes
    notes += _player_notes(session, season, player)
    return notes


_NOT_ENTERED = "Заявку на сезон принимает организатор; матчи появятся здесь после жеребьёвки."


def _player_notes(session: Session, season: Season, player: Player) -> list[StandingNote]:
    rules = of_season(season)
    if player.status == RosterStatus.WITHDRAWN:  # Регламент §6.1: out of the standings, the protocols stay
        return [StandingNote(f"Вы сняты с сезона «{season.name}»", _WITHDRAWN, "red")]
    if player.status == RosterStatus.RESERVE:  # Регламент §1: the organizer fills the main roster from the reserve
        after_draw = season.draw_approved_at is not None
        text = _RESERVE_AFTER if after_draw else _RESERVE.format(multiple=multiple_of(rules.roster_multiple))
        return [StandingNote(f"Вы в резерве сезона «{season.name}»", text)]
    if player.status == RosterStatus.SUBSTITUTE:  # Регламент §6.1: only to complete a table, not in the standings
        seats = _substitute_seats(session, player)
        where = "; ".join(seats) if seats else "пока ни в одном матче"
        return [StandingNote("Вы — техническая замена", f"{_SUBSTITUTE} Вы заменяете: {where}.")]
    if season.finished_at is None and playoff_stage(session, player.season_id) is None:
        return []  # the season runs: the matches below say the rest
    bracket, standings = season_bracket_and_standings(session, season)
    if season.finished_at is not None:  # Регламент §1, §4: the final's places, then the regular standings
        order = final_order(bracket, standings)
        if player.id not in order:
            return []
        place = order.index(player.id) + 1
        text = f"Ваше итоговое место — {place} из {len(order)}."
        return [StandingNote(f"Сезон «{season.name}» завершён", text, "green")]
    if bracket.started and player.id not in bracket.bracket.seeds:  # Регламент §2: the others end their season
        place = next((row.place for row in standings if int(row.player) == player.id), 0)
        at = f"Вы заняли {place} место; в" if place else "В"
        text = f"{at} плей-офф проходят первые {rules.playoff_size} — для вас сезон завершён. Спасибо за игру!"
        return [StandingNote("Регулярный этап завершён", text, "green")]
    return []


_WITHDRAWN = (
    "Вы исключены из общего зачёта и не претендуете на плей-офф и призы; сыгранные протоколы остаются в истории, "
    "а ваши оставшиеся матчи доигрывают технические замены."
)
_RESERVE = (
    "Если после закрытия регистрации основной состав не будет кратен {multiple}, организатор доберёт его из резерва "
    "по порядку заявок — тогда здесь появятся ваши матчи."
)
_RESERVE_AFTER = (
    "Основной состав сезона утверждён. Организатор может позвать вас технической заменой, чтобы собрать стол, — "
    "такие матчи появятся здесь; в общий зачёт они не входят."
)
_SUBSTITUTE = "Вы собираете стол вместо выбывшего игрока: в общий зачёт и в борьбу за плей-офф это не входит."


def _substitute_seats(session: Session, player: Player) -> list[str]:
    rows = session.exec(
        select(Seat, User)
        .join(Player, col(Player.id) == Seat.substitute_for_player_id)
        .join(User, col(User.id) == Player.user_id)
        .where(Seat.player_id == player.id, col(Seat.substitute_for_player_id).is_not(None))
        .order_by(col(Seat.match_id))
    ).all()
    return [
        f"{match_info(session, seat.match_id).title} (вместо {declined(user.display_name, 'gen')})"
        for seat, user in rows
    ]


def _staff_notes(session: Session, user: User, now: datetime) -> list[StandingNote]:
    """The judge (and the organizer) with calls waiting: Регламент §6.2, the judge answers a call at the table."""
    calls = open_calls_for(session, user, now=now)
    if not calls:
        return []
    waiting = f"{len(calls)} {plural(len(calls), 'вызов', 'вызова', 'вызовов')}"
    return [StandingNote(f"Ждут судью: {waiting}", "Ответьте на вызов и подойдите к столу.", "amber", to_desk=True)]
