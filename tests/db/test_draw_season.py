"""The season's draw on a real database: draft, regenerate, swap, windows, approval, and refusals."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, date, datetime, timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.commands.demo_league.league import seed_demo
from services.commands.draw import run_season_draw
from services.core import outbox
from services.core.models import (
    AuditRecord,
    DrawDraft,
    Match,
    MatchStatus,
    OutboxEvent,
    Player,
    RosterStatus,
    Round,
    Season,
    Seat,
    User,
)
from services.league.closing import ClosingMethod, close_registration
from services.league.draw import DrawError
from services.league.draw_season import approve_draw, approved_draw, load_draft, make_draft, swap_in_draft
from services.scheduling.intervals import KIROV
from services.scheduling.rules import format_span
from services.scheduling.tour_windows import WindowError, current_windows, parse_kirov, set_windows
from services.views.todo import home_cards

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
TOUR_1 = datetime(2026, 11, 16, tzinfo=KIROV)
WINDOWS = [(TOUR_1 + timedelta(weeks=2 * k), TOUR_1 + timedelta(weeks=2 * k + 2)) for k in range(4)]


def _add(session: Session, season: Season, name: str) -> Player:
    """A main player without the cost of a password hash (login is not what these tests are about)."""
    user = User(login_name=f"{season.id}-{name}", display_name=name, password_hash="-")
    session.add(user)
    session.flush()
    order = len(session.exec(select(Player.id).where(Player.season_id == season.id)).all()) + 1
    player = Player(season_id=season.id, user_id=user.id, registration_order=order)
    session.add(player)
    session.flush()
    return player


def _league(session: Session, main: int = 16, *, close: bool = True) -> Season:
    season = Season(name="Тест")
    session.add(season)
    session.flush()
    for n in range(1, main + 1):
        _add(session, season, f"Игрок {n:02d}")
    if close:
        close_registration(session, season, ClosingMethod.AS_IS, actor_user_id=None)
    session.commit()
    return season


def _main_ids(session: Session, season: Season) -> list[int]:
    return list(
        session.exec(select(Player.id).where(Player.season_id == season.id, Player.status == RosterStatus.MAIN)).all()
    )


def _counts(session: Session) -> tuple[int, int, int]:
    return (
        len(session.exec(select(Match.id)).all()),
        len(session.exec(select(Seat.id)).all()),
        len(session.exec(select(Round.id)).all()),
    )


def test_draft_seats_every_main_player_once_per_tour_and_creates_no_match(session: Session) -> None:
    season = _league(session)
    view = make_draft(session, season, seed=7, actor_user_id=None)
    session.commit()
    ids = sorted(_main_ids(session, season))
    assert len(view.tours) == 4
    for tour in view.tours:
        assert sorted(p for table in tour for p in table) == ids and all(len(t) == 4 for t in tour)
    assert (view.max_meetings, view.repeat_meetings) == (1, 0)  # 16 players: no pair meets twice
    assert _counts(session)[:2] == (0, 0)
    assert load_draft(session, season).tours == view.tours
    same = make_draft(session, season, seed=7, actor_user_id=None)
    assert same.tours == view.tours  # the seed reproduces the draft
    assert make_draft(session, season, seed=8, actor_user_id=None).tours != view.tours


def test_swap_exchanges_two_players_in_one_tour_and_updates_the_repeats(session: Session) -> None:
    season = _league(session)
    view = make_draft(session, season, seed=3, actor_user_id=None)
    a, b = view.tours[1][0][0], view.tours[1][1][0]
    swapped = swap_in_draft(session, season, 2, a, b, actor_user_id=None)
    session.commit()
    assert b in swapped.tours[1][0] and a in swapped.tours[1][1]
    assert swapped.tours[0] == view.tours[0] and swapped.tours[2:] == view.tours[2:]
    # a now meets tour-1 table-1's other three in tour 2 as well as wherever else: the report tells
    assert swapped.repeat_meetings > 0 and swapped.max_meetings == 2
    assert any(count == 2 for _, _, count in swapped.repeats)
    assert load_draft(session, season).tours == swapped.tours
    assert session.exec(select(AuditRecord).where(AuditRecord.action == "draw.swap")).one()


def test_swap_refusals_name_the_players_and_change_nothing(session: Session) -> None:
    season = _league(session)
    view = make_draft(session, season, seed=3, actor_user_id=None)
    session.commit()
    table = view.tours[0][0]
    with pytest.raises(DrawError, match="Игроки Игрок .. и Игрок .. уже сидят за одним столом в туре 1"):
        swap_in_draft(session, season, 1, table[0], table[1], actor_user_id=None)
    with pytest.raises(DrawError, match="Тура 5 нет"):
        swap_in_draft(session, season, 5, table[0], view.tours[0][1][0], actor_user_id=None)
    # a draft where someone sits twice: a swap there is refused rather than making it worse
    broken = [[list(t) for t in tour] for tour in view.tours]
    broken[0][1][0] = broken[0][0][0]
    row = session.get(DrawDraft, season.id)
    row.tours = json.dumps(broken)
    session.commit()
    with pytest.raises(DrawError, match=r"Тур 1: игрок Игрок \d\d уже посажен дважды, обмен невозможен"):
        swap_in_draft(session, season, 1, broken[0][2][0], broken[0][3][0], actor_user_id=None)
    session.rollback()
    assert json.loads(session.get(DrawDraft, season.id).tours) == broken


def test_approval_creates_the_tours_matches_with_windows(session: Session) -> None:
    season = _league(session)
    view = make_draft(session, season, seed=11, actor_user_id=None)
    set_windows(session, season, WINDOWS, actor_user_id=None)
    approve_draw(session, season, actor_user_id=None, now=NOW)
    session.commit()
    season = session.get(Season, season.id)
    assert season.draw_seed == 11 and season.draw_approved_at == NOW
    rounds = session.exec(select(Round).order_by(col(Round.code))).all()
    assert [r.code for r in rounds] == ["1", "2", "3", "4"]
    assert [(r.window_start, r.window_end) for r in rounds] == WINDOWS
    matches = session.exec(select(Match)).all()
    assert len(matches) == 16 and {m.status for m in matches} == {MatchStatus.SCHEDULING}
    assert {m.planned_hanchans for m in matches} == {3}
    assert approved_draw(session, season).tours == view.tours
    assert session.get(DrawDraft, season.id) is None
    audit = session.exec(select(AuditRecord).where(AuditRecord.action == "draw.approve")).one()
    assert json.loads(audit.after)["seed"] == 11
    # a player now sees four matches, each with the three opponents of the draw
    first = session.get(Player, view.tours[0][0][0])
    own = home_cards(session, session.get(User, first.user_id), WINDOWS[0][0])
    assert [c.title.split(",")[0] for c in own] == ["Тур 1", "Тур 2", "Тур 3", "Тур 4"]
    assert all(len(c.opponents.split(", ")) == 3 for c in own)
    assert own[0].when == f"игровое окно {format_span(*WINDOWS[0])}"
    with pytest.raises(DrawError, match="уже утверждена"):
        make_draft(session, season, actor_user_id=None)
    with pytest.raises(DrawError, match="уже утверждена"):
        approve_draw(session, season, actor_user_id=None)


def test_windows_can_be_edited_after_approval(session: Session) -> None:
    season = _league(session)
    make_draft(session, season, seed=1, actor_user_id=None)
    set_windows(session, season, WINDOWS, actor_user_id=None)
    approve_draw(session, season, actor_user_id=None, now=NOW)
    later = [*WINDOWS[:3], (WINDOWS[3][0], WINDOWS[3][1] + timedelta(days=7))]
    set_windows(session, season, later, actor_user_id=None)
    session.commit()
    assert current_windows(session, season) == later
    assert len(session.exec(select(AuditRecord).where(AuditRecord.action == "round.window")).all()) == 5


@pytest.mark.parametrize(
    ("windows", "message"),
    [
        (WINDOWS[:3], "Нужны игровые окна всех туров: 4, а задано 3"),
        ([WINDOWS[0], (WINDOWS[1][1], WINDOWS[1][0]), *WINDOWS[2:]], "Тур 2: конец окна должен быть позже начала"),
        (
            [WINDOWS[0], (WINDOWS[0][0], WINDOWS[1][1]), *WINDOWS[2:]],
            "Тур 2 начинается .* раньше, чем заканчивается тур 1",
        ),
    ],
)
def test_bad_windows_are_refused(session: Session, windows: list, message: str) -> None:
    season = _league(session, close=False)
    with pytest.raises(WindowError, match=message):
        set_windows(session, season, windows, actor_user_id=None)


def test_kirov_input_is_parsed_as_kirov_wall_time() -> None:
    assert parse_kirov("2026-11-16T00:00", "Начало") == datetime(2026, 11, 15, 21, 0, tzinfo=UTC)
    assert parse_kirov("16.11.2026 18:30", "Начало") == datetime(2026, 11, 16, 15, 30, tzinfo=UTC)
    with pytest.raises(WindowError, match="Тур 1, начало: укажите дату и время"):
        parse_kirov(" ", "Тур 1, начало")
    with pytest.raises(WindowError, match="не понимаю «завтра»"):
        parse_kirov("завтра", "Тур 1, начало")


def test_draw_needs_closed_registration_and_a_proper_roster(session: Session) -> None:
    season = _league(session, main=16, close=False)
    with pytest.raises(DrawError, match="Сначала закройте регистрацию"):
        make_draft(session, season, actor_user_id=None)
    season.registration_closed = True  # a roster changed after closing, by hand
    _add(session, season, "Лишний")
    with pytest.raises(DrawError, match="17 игроков: число должно быть кратно четырём"):
        make_draft(session, season, actor_user_id=None)
    small = _league(session, main=4, close=False)
    small.registration_closed = True  # closing itself refuses a roster this small
    with pytest.raises(DrawError, match="для жеребьёвки нужно не меньше восьми"):
        make_draft(session, small, actor_user_id=None)
    with pytest.raises(DrawError, match="Зерно должно быть от 0"):
        make_draft(session, _league(session, main=8), seed=2**31, actor_user_id=None)


def _refused_approval(session: Session, season: Season, message: str) -> None:
    before = _counts(session)
    with pytest.raises(DrawError, match=message):
        approve_draw(session, season, actor_user_id=None, now=NOW)
    session.rollback()
    assert _counts(session) == before
    assert session.get(Season, season.id).draw_approved_at is None
    assert session.get(DrawDraft, season.id) is not None


def test_approval_of_a_draft_with_a_player_seated_twice_is_refused(session: Session) -> None:
    season = _league(session)
    view = make_draft(session, season, seed=5, actor_user_id=None)
    set_windows(session, season, WINDOWS, actor_user_id=None)
    broken = [[list(t) for t in tour] for tour in view.tours]
    broken[2][0][0] = broken[2][1][0]
    session.get(DrawDraft, season.id).tours = json.dumps(broken)
    session.commit()
    _refused_approval(session, season, r"Тур 3: игрок Игрок \d\d посажен дважды")


def test_approval_of_a_draft_missing_a_player_is_refused(session: Session) -> None:
    season = _league(session)
    make_draft(session, season, seed=5, actor_user_id=None)
    set_windows(session, season, WINDOWS, actor_user_id=None)
    # a main player registered after the draft: the draft no longer covers the roster
    _add(session, season, "Поздний Игрок")
    session.commit()
    _refused_approval(session, season, "Тур 1: не посажены игроки Поздний Игрок")


def test_approval_of_a_draft_with_a_withdrawn_player_is_refused(session: Session) -> None:
    season = _league(session)
    view = make_draft(session, season, seed=5, actor_user_id=None)
    set_windows(session, season, WINDOWS, actor_user_id=None)
    gone = session.get(Player, view.tours[0][0][0])
    gone.status = RosterStatus.RESERVE
    session.commit()
    _refused_approval(session, season, r"Тур 1: игрок Игрок \d\d не входит в основной состав")


def test_approval_needs_every_window_and_a_draft(session: Session) -> None:
    season = _league(session)
    with pytest.raises(DrawError, match="Черновика жеребьёвки нет"):
        approve_draw(session, season, actor_user_id=None)
    make_draft(session, season, seed=5, actor_user_id=None)
    session.commit()
    _refused_approval(session, season, r"Задайте игровые окна туров \(1, 2, 3, 4\)")


def test_command_line_drafts_the_season_draw(engine: sa.Engine, monkeypatch, capsys) -> None:  # noqa: ANN001
    with Session(engine) as session:
        _league(session)
    monkeypatch.setattr("services.core.db.engine", lambda: engine)
    args = argparse.Namespace(players=None, tours=4, seed=42, json=True)
    assert run_season_draw(args) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["seed"] == 42 and printed["max_meetings"] == 1 and printed["repeat_meetings"] == 0
    assert len(printed["tours"]) == 4 and len(printed["players"]) == 16
    with Session(engine) as session:
        season = session.exec(select(Season)).one()
        assert [list(map(list, t)) for t in load_draft(session, season).tours] == printed["tours"]
    args = argparse.Namespace(players=None, tours=4, seed=42, json=False)
    assert run_season_draw(args) == 0
    text = capsys.readouterr().out
    assert "Тур 4" in text and "стол 4: Игрок" in text and "Зерно: 42" in text and "черновик" in text
    assert run_season_draw(argparse.Namespace(players=None, tours=3, seed=None, json=False)) == 2
    assert "В сезоне 4 тура" in capsys.readouterr().err


def test_demo_league_has_an_approved_draw_around_today(session: Session) -> None:
    seed_demo(session, today=date(2026, 12, 2))
    session.commit()
    season = session.exec(select(Season)).one()
    view = approved_draw(session, season)
    assert season.registration_closed and season.draw_seed == 2026
    assert len(view.tours) == 4 and (view.max_meetings, view.repeat_meetings) == (1, 0)
    assert len(session.exec(select(Match.id)).all()) == 16
    starts = [w[0].astimezone(KIROV).date() for w in current_windows(session, season)]
    assert starts == [date(2026, 11, 16), date(2026, 11, 30), date(2026, 12, 14), date(2026, 12, 28)]


@pytest.mark.postgres
def test_draft_and_approval_on_postgresql(pg_engine: sa.Engine) -> None:
    with Session(pg_engine, expire_on_commit=False) as session:
        season = _league(session)
        view = make_draft(session, season, seed=2**31 - 1, actor_user_id=None)
        set_windows(session, season, WINDOWS, actor_user_id=None)
        approve_draw(session, season, actor_user_id=None, now=NOW)
        session.commit()
        assert session.get(Season, season.id).draw_seed == 2**31 - 1
        assert approved_draw(session, season).tours == view.tours
        assert current_windows(session, season) == WINDOWS


def test_closing_the_draw_and_the_windows_keep_the_callers_instants(db: sa.Engine) -> None:
    """Issue 43 item 7: every step of preparing a season stores the `now` its shell passed, never the real clock:
    the audit rows, the draft, the approval and its announcement, the windows' events for the matches."""
    far = datetime(2026, 11, 30, 9, 7, 13, tzinfo=UTC)
    step = [far + timedelta(minutes=k) for k in range(6)]
    with Session(db, expire_on_commit=False) as session:
        season = _league(session, close=False)
        since = session.exec(select(sa.func.max(AuditRecord.id))).one() or 0
        close_registration(session, season, ClosingMethod.AS_IS, actor_user_id=None, now=step[0])
        view = make_draft(session, season, seed=7, actor_user_id=None, now=step[1])
        assert session.get(DrawDraft, season.id).updated_at == step[1]
        a, b = view.tours[0][0][0], view.tours[0][1][0]
        swap_in_draft(session, season, 1, a, b, actor_user_id=None, now=step[2])
        set_windows(session, season, WINDOWS, actor_user_id=None, now=step[3])
        approve_draw(session, season, actor_user_id=None, now=step[4])
        later = [*WINDOWS[:3], (WINDOWS[3][0], WINDOWS[3][1] + timedelta(days=1))]
        set_windows(session, season, later, actor_user_id=None, now=step[5])
        session.commit()
        audit = session.exec(select(AuditRecord.action, AuditRecord.at).where(AuditRecord.id > since)).all()
        assert sorted({(action, at) for action, at in audit}) == sorted(
            {
                ("registration.close", step[0]),
                ("draw.draft", step[1]),
                ("draw.swap", step[2]),
                ("round.window", step[3]),
                ("draw.approve", step[4]),
                ("round.window", step[5]),
            }
        )
        assert season.draw_approved_at == step[4]
        events = session.exec(
            select(OutboxEvent.kind, OutboxEvent.created_at).where(
                col(OutboxEvent.kind).in_([outbox.DRAW_APPROVED, outbox.WINDOW_CHANGED]),
                col(OutboxEvent.created_at) >= far,
                col(OutboxEvent.created_at) <= step[5],
            )
        ).all()
        assert {(kind, at) for kind, at in events} == {
            (outbox.DRAW_APPROVED, step[4]),
            (outbox.WINDOW_CHANGED, step[5]),
        }
