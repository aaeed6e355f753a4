"""The organizer closes registration, drafts the draw, swaps two players, sets windows and approves;
a player then sees their four matches and opponents. And a withdrawal with a replay of a played match."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from sqlmodel import Session, col, select

from services.core.models import Match, MatchStatus, Player, RosterStatus, Season, Seat, User
from services.core.wording import declined
from services.league.draw import max_meetings, repeat_meetings
from services.league.draw_season import load_draft
from services.league.roster import add_player, current_season
from tests.e2e.conftest import ORGANIZER, App, login, logout
from tests.factories import match_in_own_stage

WINDOWS = [
    ("2026-11-16T00:00", "2026-11-30T00:00"),
    ("2026-11-30T00:00", "2026-12-14T00:00"),
    ("2026-12-14T00:00", "2026-12-28T00:00"),
    ("2026-12-28T00:00", "2027-01-11T00:00"),
]


def _main_roster(session: Session, season: Season) -> list[tuple[int, str]]:
    return list(
        session.exec(
            select(Player.id, User.display_name)
            .join(User, col(User.id) == Player.user_id)
            .where(Player.season_id == season.id, Player.status == RosterStatus.MAIN)
            .order_by(col(Player.registration_order))
        ).all()
    )


def _late_registration(app: App) -> str:
    """Latecomers so that the main roster is one over a multiple of four; returns who registered last."""
    engine = app.engine()
    with Session(engine, expire_on_commit=False) as session:
        season = current_season(session)
        main = _main_roster(session, season)
        for k in range((1 - len(main)) % 4):
            add_player(session, season, f"Опоздавший {k + 1}", actor_user_id=None)
        session.commit()
        last = _main_roster(session, season)[-1][1]
    engine.dispose()
    return last


def _draft(app: App) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], dict[int, str]]:
    engine = app.engine()
    with Session(engine) as session:
        view = load_draft(session, current_season(session))
    engine.dispose()
    return view.tours, view.names


def test_organizer_drafts_swaps_approves_and_a_player_sees_the_opponents(page: Page, app: App) -> None:
    last = _late_registration(app)
    login(page, app, ORGANIZER, path="/draw")
    expect(page.get_by_role("heading", name="Жеребьёвка", exact=True)).to_be_visible()

    # Регламент §1: both ways are previewed; nothing changes until one is chosen
    expect(page.get_by_text("Добрать из резерва", exact=True)).to_be_visible()
    expect(page.get_by_text(f"В резерв перейдут: {last}.")).to_be_visible()
    page.get_by_role("button", name="Перевести в резерв и закрыть регистрацию").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Закрыть регистрацию").click()  # asked first
    expect(page.get_by_role("status")).to_contain_text("Регистрация закрыта. В основном составе: 16.")

    page.get_by_role("button", name="Провести жеребьёвку").click()
    expect(page.get_by_role("status")).to_have_text("Черновик готов.")
    expect(page.get_by_text("Повторных встреч нет")).to_be_visible()
    for number in range(1, 5):
        expect(page.get_by_role("table", name=f"Тур {number}")).to_be_visible()
    tours, names = _draft(app)
    seated = set(app.passwords)
    first = next(p for p in tours[0][0] if names[p] in seated)
    second = next(p for p in tours[0][1] if names[p] in seated)
    tour_1 = page.get_by_role("table", name="Тур 1")
    expect(tour_1.get_by_role("row").nth(1)).to_contain_text(names[first])

    page.get_by_label("Тур для обмена").select_option(label="Тур 1")
    page.get_by_label("Первый игрок").select_option(label=names[first])
    page.get_by_label("Второй игрок").select_option(label=names[second])
    page.get_by_role("button", name="Поменять", exact=True).click()
    expect(page.get_by_role("status")).to_have_text(f"{names[first]} и {names[second]} поменялись местами в туре 1.")
    expect(tour_1.get_by_role("row").nth(1)).to_contain_text(names[second])
    expect(tour_1.get_by_role("row").nth(1)).not_to_contain_text(names[first])
    swapped, _ = _draft(app)
    assert second in swapped[0][0] and first in swapped[0][1] and swapped[1:] == tours[1:]
    # the repeats report follows the swap
    expect(page.get_by_text(re.compile(r"Наибольшее число встреч одной пары"))).to_contain_text(
        f"Наибольшее число встреч одной пары: {max_meetings(swapped)}. "
        f"Повторных встреч всего: {repeat_meetings(swapped)}."
    )

    # a swap inside one table is refused and changes nothing
    page.get_by_label("Второй игрок").select_option(label=names[swapped[0][1][1]])
    page.get_by_role("button", name="Поменять", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("уже сидят за одним столом в туре 1")
    assert _draft(app)[0] == swapped

    for number, (start, end) in enumerate(WINDOWS, start=1):
        page.get_by_label(f"Тур {number}: начало").fill(start)
        page.get_by_label(f"Тур {number}: конец").fill(end)
    page.get_by_role("button", name="Сохранить окна").click()
    expect(page.get_by_role("status")).to_have_text("Игровые окна сохранены.")

    engine = app.engine()
    with Session(engine) as session:
        before = set(session.exec(select(Match.id)).all())  # other tests' matches share the app's database
    engine.dispose()
    page.get_by_role("button", name="Утвердить жеребьёвку").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Утвердить", exact=True).click()
    expect(page.get_by_text("Жеребьёвка утверждена")).to_be_visible()
    expect(page.get_by_role("button", name="Утвердить жеребьёвку")).to_have_count(0)

    engine = app.engine()
    with Session(engine) as session:
        assert len(session.exec(select(Match.id)).all()) >= 16
        own = session.exec(
            select(Match.id).join(Seat, col(Seat.match_id) == Match.id).where(Seat.player_id == second)
        ).all()
        assert len(set(own) - before) == 4  # the draw seats each player once per tour (Регламент §2)
    engine.dispose()

    logout(page)
    login(page, app, names[second])
    expect(page.get_by_role("heading", name="Мои матчи")).to_be_visible()
    for number, tour in enumerate(swapped, start=1):
        k, table = next((k, t) for k, t in enumerate(tour, start=1) if second in t)
        card = page.get_by_text(f"Тур {number}, стол {k}", exact=True).locator("xpath=..")
        opponents = ", ".join(names[p] for p in table if p != second)
        expect(card).to_contain_text(f"Соперники: {opponents}")
    expect(page.get_by_text(re.compile(r"16\.11.*30\.11"))).to_be_visible()


def _played_match(app: App, names: list[str]) -> int:
    """A complete match of four new main players, in a stage of its own so no other test sees it."""
    engine = app.engine()
    with Session(engine, expire_on_commit=False) as session:
        season = current_season(session)
        players = [add_player(session, season, name, actor_user_id=None)[0] for name in names]
        match = match_in_own_stage(session, season, players, MatchStatus.COMPLETE)
        session.commit()
        match_id = match.id
    engine.dispose()
    return match_id


def test_organizer_withdraws_a_player_and_orders_a_replay(page: Page, app: App) -> None:
    names = [f"Ранняя Уходова {k}" for k in range(1, 5)]
    match_id = _played_match(app, names)
    login(page, app, ORGANIZER, path="/roster")

    def withdraw(reason: str) -> None:
        page.get_by_role("combobox", name="Игрок").click()
        page.get_by_role("option", name=names[0]).click()
        page.get_by_role("combobox", name="Статус").nth(1).click()
        page.get_by_role("option", name="снят").click()
        page.get_by_label("Причина (обязательна при снятии)").fill(reason)
        page.get_by_role("button", name="Изменить статус").click()

    withdraw("")
    expect(page.get_by_role("alert")).to_contain_text("укажите причину")
    withdraw("переезд в другой город")
    dialog = page.get_by_role("alertdialog")  # asked first, naming the person; nothing changed yet
    expect(dialog).to_contain_text(f"Снять {declined(names[0], 'acc')} с сезона?")
    expect(dialog).to_contain_text("Она будет исключена из зачёта")  # agreed with «Ранняя Уходова»
    dialog.get_by_role("button", name="Отмена").click()
    expect(dialog).to_have_count(0)
    engine = app.engine()
    with Session(engine) as session:
        status = session.exec(
            select(Player.status).join(User, col(User.id) == Player.user_id).where(User.display_name == names[0])
        ).one()
    engine.dispose()
    assert status != RosterStatus.WITHDRAWN
    withdraw("переезд в другой город")
    page.get_by_role("alertdialog").get_by_role("button", name="Снять участника").click()
    expect(page.get_by_role("status")).to_contain_text("Участница снята: исключена")  # issue 45 item 13

    # Регламент §6.1: a replay only with everyone's consent
    replay = page.get_by_label("Сыгранный матч снятого участника")
    replay.select_option(label=f"{names[0]} — Тур 1, стол 1 ({', '.join(names)})")
    page.get_by_label("Основание переигровки").fill("снятие в первую неделю")
    page.get_by_role("button", name="Назначить переигровку").click()
    expect(page.get_by_role("alert")).to_contain_text("только с согласия всех участников")
    replay.select_option(label=f"{names[0]} — Тур 1, стол 1 ({', '.join(names)})")
    page.get_by_label("Все участники матча согласны на переигровку").check()
    page.get_by_label("Основание переигровки").fill("снятие в первую неделю")
    page.get_by_role("button", name="Назначить переигровку").click()
    expect(page.get_by_role("status")).to_contain_text("Переигровка назначена")
    expect(page.get_by_label("Сыгранный матч снятого участника")).to_have_count(0)

    engine = app.engine()
    with Session(engine) as session:
        assert session.get(Match, match_id).status == MatchStatus.REPLAY
        assert session.exec(select(Match).where(Match.replay_of_match_id == match_id)).one()
    engine.dispose()
