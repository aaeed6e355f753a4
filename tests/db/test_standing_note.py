"""Issue 28 item 4: a person's home says where they stand — in reserve (Регламент §1), withdrawn or a technical
substitute (§6.1), disqualified (§5), not entered, a judge with calls waiting (§6.2). The season's end and the
playoff's line are shown in tests/db/test_playoff.py, where a whole playoff is played."""

from __future__ import annotations

from sqlmodel import Session, select

from services.core.models import Player, Role, RosterStatus, Seat, User
from services.core.wording import declined
from services.league.roster import add_player
from services.league.substitution import seat_substitute
from services.league.withdrawal import withdraw_player
from services.results.disqualifications import record_disqualification
from services.results.judge_calls import call_judge
from services.scheduling import organizer as scheduling_admin
from services.views.standing_note import standing_notes
from tests import factories as f
from tests.db.test_withdrawal import _approved, _matches_of
from tests.factories import NOW, PLAYED, kirov


def _titles(session: Session, user: User) -> list[str]:
    return [note.title for note in standing_notes(session, user, PLAYED)]


def _user(session: Session, player: Player) -> User:
    return session.get(User, player.user_id)


def test_a_withdrawn_player_and_her_substitute_read_where_they_stand(session: Session) -> None:
    season, organizer = _approved(session)
    player, other = session.exec(select(Player).where(Player.season_id == season.id)).all()[:2]
    assert standing_notes(session, _user(session, other), PLAYED) == []  # the season runs: the matches say it
    withdraw_player(session, player, reason="переезд", actor_user_id=organizer.id, now=PLAYED)
    match = _matches_of(session, player)[1]
    seat = seat_substitute(session, organizer, match.id, player.id, new_name="Запасной Игрок", reason="переезд",
                           now=PLAYED)  # fmt: skip
    session.commit()

    (withdrawn,) = standing_notes(session, _user(session, player), PLAYED)
    assert withdrawn.title == f"Вы сняты с сезона «{season.name}»" and withdrawn.tone == "red"
    assert "исключены из общего зачёта" in withdrawn.text
    substitute = _user(session, session.get(Player, seat.player_id))
    (note,) = standing_notes(session, substitute, PLAYED)
    name = _user(session, player).display_name
    assert note.title == "Вы — техническая замена" and "в общий зачёт" in note.text
    assert f"стол {match.table} (вместо {declined(name, 'gen')})" in note.text
    assert session.exec(select(Seat).where(Seat.player_id == seat.player_id)).one().match_id == match.id


def test_a_reserve_player_reads_what_the_reserve_means_before_and_after_the_draw(session: Session) -> None:
    league = f.league(session)
    reserve, _ = add_player(session, league.season, "Резерв Резервович", actor_user_id=league.organizer.id,
                            status=RosterStatus.RESERVE)  # fmt: skip
    session.commit()
    (before,) = standing_notes(session, _user(session, reserve), PLAYED)
    assert before.title == f"Вы в резерве сезона «{league.season.name}»" and "кратен четырём" in before.text

    season, organizer = _approved(session)  # a newer season, its draw approved: it is the current one now
    late, _ = add_player(session, season, "Поздний Резервист", actor_user_id=organizer.id, status=RosterStatus.RESERVE)
    session.commit()
    (after,) = standing_notes(session, _user(session, late), PLAYED)
    assert "Основной состав сезона утверждён" in after.text and "технической заменой" in after.text
    assert _titles(session, _user(session, reserve)) == [f"Вы не заявлены в сезоне «{season.name}»"]


def test_a_disqualified_person_reads_until_when_and_why(session: Session) -> None:
    league = f.league(session)
    user = league.users[0]
    record_disqualification(session, user, term="year", reason="саботаж матча", match_id=None,
                            starts_on=PLAYED.date(), actor_user_id=league.organizer.id)  # fmt: skip
    session.commit()
    first = standing_notes(session, user, PLAYED)[0]
    assert first.title == "Вы дисквалифицированы" and first.tone == "red"
    assert first.text.startswith("До ") and "саботаж матча" in first.text


def test_the_judge_reads_how_many_calls_wait(session: Session) -> None:
    league = f.league(session)
    judge = f.user(session, role=Role.JUDGE)
    assert standing_notes(session, judge, kirov(20, 19)) == []
    scheduling_admin.assign_meeting(session, match_id=league.match.id, start=kirov(20, 18), hanchans=3,
                                    room_id=league.room.id, actor_user_id=league.organizer.id, now=NOW)  # fmt: skip
    for n in range(2):
        call_judge(session, league.users[n], league.match.id, hanchan_number=1, description="спор", now=kirov(20, 19))
    session.commit()
    (note,) = standing_notes(session, judge, kirov(20, 19))
    assert note.title == "Ждут судью: 2 вызова" and note.to_desk and note.tone == "amber"
