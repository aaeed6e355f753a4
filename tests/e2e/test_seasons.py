"""Issue 17 in the browser: the organizer starts a new season, imports the roster from a CSV file with one bad line
(the preview names it), closes registration and draws; a player of the last season opens its standings.

The app runs on its own database here (a new current season would change what the other browser tests see); the
conftest runs these tests before the shared app starts."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Download, Page, expect
from sqlmodel import Session, select

from services.core import security
from services.core.config import ROOT
from services.core.models import MatchStatus, Player, Registration, User, utc_now
from services.core.wording import format_signed
from services.league.accounts import find_user
from services.league.roster import current_season
from services.playoff.hanchan_entry import enter_hanchan
from services.results import repo as results_repo
from services.results.entry import Entry
from services.results.scoring import TableResult
from tests.e2e.conftest import JUDGE, LETTERS, ORGANIZER, PLAYERS, App, login, written_states
from tests.factories import match_in_own_stage

NEW_PLAYERS = [
    f"Новичок {n:02d}".translate(LETTERS) for n in range(1, 16)
]  # a name is letters (text_limits.person_name_problem)


@pytest.fixture(scope="module")
def league_app(app: App) -> App:
    """The file's own app (conftest's `app`) with one hanchan played in the current season."""
    _play_one_hanchan(app, PLAYERS[:4])
    return app


def _play_one_hanchan(app: App, names: tuple[str, ...]) -> None:
    """Last season's history lists who played (Регламент §1: players without matches are not ranked): one table
    of this season plays a hanchan, entered through the services as its first player would."""
    engine = app.engine()
    with Session(engine) as session:
        season = current_season(session)
        players = [
            session.exec(
                select(Player)
                .join(User, User.id == Player.user_id)
                .where(User.display_name == n, Player.season_id == season.id)
            ).one()
            for n in names
        ]
        match = match_in_own_stage(session, season, players, MatchStatus.PLAYING)
        entry = Entry(
            tuple(TableResult(p.id, x, 0) for p, x in zip(players, (40_000, 30_000, 30_000, 20_000), strict=True)), 0
        )
        enter_hanchan(session, session.get(User, players[0].user_id), match.id, entry, now=utc_now())
        session.commit()
    engine.dispose()


def _csv(tmp_path: Path) -> Path:
    lines = ["Имя;Контакт;Взнос оплачен", f"{PLAYERS[0]};@first;да"]
    lines += [
        f"{name};+7 900 000-00-{n:02d};{'2027-01-1' + str(n % 10) if n % 2 else 'нет'}"
        for n, name in enumerate(NEW_PLAYERS[:2])
    ]
    lines += ["Пётр Без Взноса;@petr;может быть"]  # line 5: the bad one
    lines += [f"{name};@n{n};да" for n, name in enumerate(NEW_PLAYERS[2:])]
    path = tmp_path / "registration.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_organizer_starts_a_season_imports_the_roster_and_draws(page: Page, league_app: App, tmp_path: Path) -> None:
    app = league_app
    login(page, app, ORGANIZER)
    expect(page.get_by_role("button", name="Выйти")).to_be_visible()  # logged in: the redirect to / is done
    page.get_by_role("navigation").get_by_role("link", name="Сезоны").click()
    page.get_by_role("link", name="Управление сезоном: новый сезон, состав из CSV, завершение").click()
    expect(page.get_by_text("Текущий сезон: «Тестовая лига» — идёт регистрация.")).to_be_visible()

    page.get_by_label("Название сезона").fill("Лига Дискарда 2027")
    page.get_by_label("Регистрация открывается").fill("2027-01-10")
    page.get_by_label("Регистрация закрывается").fill("2027-02-01")
    page.get_by_role("button", name="Начать сезон").click()
    expect(page.get_by_role("status")).to_have_text("Сезон «Лига Дискарда 2027» начат и стал текущим.")
    expect(page.get_by_text("Текущий сезон: «Лига Дискарда 2027» — идёт регистрация.")).to_be_visible()
    expect(page.get_by_text("Регистрация: 10.01.2027 — 01.02.2027.")).to_be_visible()

    page.locator("input[type=file]").set_input_files(_csv(tmp_path))
    expect(page.get_by_text("registration.csv")).to_be_visible()
    page.get_by_role("button", name="Проверить файл").click()
    expect(page.get_by_role("status")).to_have_text("Строк принято: 16, отклонено: 1.")
    bad = page.get_by_role("row").filter(has_text="Пётр Без Взноса")
    expect(bad).to_contain_text("Строка 5 отклонена: взнос «может быть»: ожидается «да», «нет» или дата оплаты")
    expect(page.get_by_role("row").filter(has_text=PLAYERS[0])).to_contain_text("игрок прошлых сезонов")
    engine = app.engine()
    with Session(engine) as session:  # the preview changed nothing
        assert session.exec(select(Player).where(Player.season_id == current_season(session).id)).all() == []

    page.get_by_role("button", name="Импортировать принятые строки").click()
    expect(page.get_by_role("status").first).to_contain_text("Импортировано игроков: 16.")
    expect(page.get_by_text(f"{NEW_PLAYERS[0]}: ")).to_be_visible()  # the new accounts' passwords, once
    with Session(engine) as session:
        season = current_season(session)
        players = session.exec(select(Player).where(Player.season_id == season.id)).all()
        assert len(players) == 16
        fees = session.exec(select(Registration).where(Registration.player_id.in_([p.id for p in players]))).all()
        assert sum(r.fee_paid_on is not None for r in fees) == 15  # «нет» on one line
    engine.dispose()

    page.get_by_role("link", name="Закрытие регистрации и жеребьёвка").click()
    page.get_by_role("button", name="Закрыть регистрацию").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Закрыть регистрацию").click()  # asked first
    expect(page.get_by_role("status")).to_contain_text("Регистрация закрыта. В основном составе: 16.")
    page.get_by_role("button", name="Провести жеребьёвку").click()
    expect(page.get_by_role("status")).to_have_text("Черновик готов.")
    expect(page.get_by_role("table", name="Тур 1")).to_contain_text(NEW_PLAYERS[0])


def test_a_player_opens_last_seasons_standings(page: Page, league_app: App) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, league_app, PLAYERS[3])
    expect(page.get_by_role("button", name="Выйти")).to_be_visible()  # logged in: the redirect to / is done
    page.get_by_role("button", name="Меню").click()
    page.get_by_role("menuitem", name="Сезоны").click()
    page.get_by_role("link", name="Открыть сезон Тестовая лига").click()
    expect(page.get_by_role("heading", name="Тестовая лига")).to_be_visible()
    expect(page.get_by_role("heading", name="Итоговая таблица")).to_be_visible()
    expect(page.get_by_role("row", name=PLAYERS[3])).to_be_visible()
    assert "/seasons/" in page.url
    # A player's page lists every season they played (PLAYERS[0] came back in the CSV of the new season).
    page.get_by_role("row", name=PLAYERS[0]).get_by_role("link").click()
    expect(page.get_by_role("heading", name="Сезоны игрока")).to_be_visible()
    expect(page.get_by_role("row", name="Лига Дискарда 2027")).to_be_visible()
    expect(page.get_by_role("row", name="Тестовая лига")).to_contain_text("+25 000")  # 40 000 with uma +15 000


def _pick(page: Page, trigger: str, option: str) -> None:
    page.get_by_label(trigger, exact=True).click()
    page.get_by_role("option", name=option, exact=True).click()


def test_fee_and_disqualification_register(page: Page, league_app: App, browser: Browser) -> None:
    app = league_app
    login(page, app, ORGANIZER, path="/roster")
    # Регламент §1: the roster shows who has not paid (this page is the organizer's only).
    expect(page.get_by_role("row", name=NEW_PLAYERS[1])).to_contain_text("оплачен 11.01.2027")
    expect(page.get_by_role("row", name=NEW_PLAYERS[0])).to_contain_text("не оплачен")
    _pick(page, "Регистрационный взнос", NEW_PLAYERS[0])
    page.get_by_label("Дата").fill("2027-01-15")
    page.get_by_role("button", name="Записать").click()
    expect(page.get_by_role("status")).to_have_text(f"Взнос: {NEW_PLAYERS[0]} — оплачен 15.01.2027.")
    expect(page.get_by_role("row", name=NEW_PLAYERS[0])).to_contain_text("оплачен 15.01.2027")

    # Регламент §5: the organizer records a disqualification; the person cannot be entered again.
    page.get_by_role("navigation").get_by_role("link", name="Сезоны").click()
    page.get_by_role("link", name="Реестр дисквалификаций").click()
    _pick(page, "Игрок", PLAYERS[5])
    _pick(page, "Срок", "Пожизненно")
    page.get_by_label("Причина").fill("Отказ продолжать игру в матче")
    page.get_by_role("button", name="Записать дисквалификацию").click()
    expect(page.get_by_role("status")).to_have_text(f"Дисквалификация записана: {PLAYERS[5]}.")
    expect(page.get_by_role("table", name="Реестр дисквалификаций")).to_contain_text("пожизненно")
    page.goto(f"{app.url}/roster")
    page.get_by_label("Имя и фамилия").fill(PLAYERS[5])
    page.get_by_role("button", name="Добавить игрока").click()
    expect(page.get_by_role("alert")).to_have_text(
        f"«{PLAYERS[5]}» дисквалифицирован пожизненно: Отказ продолжать игру в матче"
    )

    # The judge reads the register; a player is refused by the server and sees no names.
    for name, allowed in ((JUDGE, True), (PLAYERS[6], False)):
        other = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov").new_page()
        login(other, app, name, path="/disqualifications")
        if allowed:
            expect(other.get_by_role("table", name="Реестр дисквалификаций")).to_contain_text(PLAYERS[5])
            expect(other.get_by_role("button", name="Записать дисквалификацию")).to_have_count(0)
        else:
            expect(other.get_by_role("alert")).to_contain_text("видят только организатор и судья")
            expect(other.get_by_text("Отказ продолжать игру")).to_have_count(0)
        other.context.close()


def test_regulation_amendment_is_announced_and_dated(page: Page, league_app: App) -> None:
    app = league_app
    login(page, app, ORGANIZER)
    expect(page.get_by_role("button", name="Выйти")).to_be_visible()  # logged in: the redirect to / is done
    page.get_by_role("navigation").get_by_role("link", name="Регламент").click()
    expect(page.get_by_text("Регламент ещё не опубликован.")).to_be_visible()
    # The league's whole regulation (about 16 000 characters): no form limit stands in its way.
    whole = (ROOT / "docs" / "league-regulation-2026.ru.txt").read_text(encoding="utf-8").strip()
    page.get_by_role("textbox", name="Текст регламента").fill(whole)
    page.get_by_role("button", name="Опубликовать изменение").click()
    expect(page.get_by_role("status")).to_have_text("Изменение опубликовано и объявлено.")
    expect(page.get_by_text("исходная редакция").first).to_be_visible()
    expect(page.get_by_role("region", name="Текст редакции")).to_contain_text(whole.splitlines()[-1].strip())

    page.get_by_role("textbox", name="Текст регламента").fill(whole + "\nМатч — четыре ханчана.")
    page.get_by_role("button", name="Опубликовать изменение").click()
    expect(page.get_by_role("alert")).to_contain_text("изменение без причины не публикуется")
    page.get_by_label("Что и почему изменено").fill("Четыре ханчана в матче")
    page.get_by_role("button", name="Опубликовать изменение").click()
    expect(page.get_by_role("status")).to_have_text("Изменение опубликовано и объявлено.")
    expect(page.get_by_role("region", name="Текст редакции")).to_contain_text("четыре ханчана")
    expect(page.get_by_role("listitem").filter(has_text="Четыре ханчана в матче")).to_be_visible()
    # Issue 45 item 7: a preview of the rules is answered by the preview; the publication's answer goes
    page.get_by_label("Ума ханчана за 1-е место").fill("25000")
    page.get_by_role("button", name="Показать, что изменится").click()
    expect(page.get_by_text("Ума ханчана за 1-е место: 15 000 → 25 000")).to_be_visible()
    expect(page.get_by_text("Изменение опубликовано и объявлено.")).to_have_count(0)
    page.get_by_role("button", name="Отменить").click()

    # The version in force on a date before the first publication: none yet. A draft begun meanwhile stays in its
    # field (the field was remounted with the text in force on every look, and on the page's own load: a draft
    # typed before the load's answer came was sent empty, «Текст регламента пуст»).
    draft = whole + "\nЧерновик: пять ханчанов."
    page.get_by_role("textbox", name="Текст регламента").fill(draft)
    page.get_by_role("button", name="Показать", exact=True).click()  # no date chosen yet
    expect(page.get_by_role("alert")).to_have_text("Выберите дату в календаре.")
    page.get_by_label("Редакция, действовавшая на дату").fill("2026-01-01")
    page.get_by_role("button", name="Показать", exact=True).click()
    expect(page.get_by_role("alert")).to_have_text("На 01.01.2026 регламент ещё не был опубликован.")
    expect(page.get_by_role("textbox", name="Текст регламента")).to_have_value(draft)

    # Регламент §7: announced to the participants on the site (and the bot's outbox, tests/db/test_regulation.py).
    page.get_by_role("navigation").get_by_role("link", name="Объявления").click()
    expect(page.get_by_text("Четыре ханчана в матче", exact=False).first).to_be_visible()


def test_a_rule_changed_on_the_regulation_page_moves_the_standings(page: Page, league_app: App) -> None:
    """Регламент §6.3, §7: with a result in the season a changed number is an amendment — the page shows the
    standings before and after, wants a reason, records and announces it; the standings page follows."""
    engine = league_app.engine()
    with Session(engine) as session:
        season = current_season(session)
        main = session.exec(
            select(User.display_name).join(Player, Player.user_id == User.id).where(Player.season_id == season.id)
        ).all()
    engine.dispose()
    _play_one_hanchan(league_app, tuple(main[:4]))  # the current season has a result, whichever test ran first
    with Session(engine) as session:
        before = results_repo.db_standings(session, current_season(session).id)[0]
    login(page, league_app, ORGANIZER)
    expect(page.get_by_role("button", name="Выйти")).to_be_visible()
    page.goto(f"{league_app.url}/regulation")
    expect(page.get_by_text("В сезоне уже есть результаты", exact=False).first).to_be_visible()
    page.get_by_label("Ума ханчана за 1-е место").fill("25000")
    page.get_by_role("button", name="Показать, что изменится").click()
    expect(page.get_by_text("Ума ханчана за 1-е место: 15 000 → 25 000")).to_be_visible()
    expect(page.get_by_role("region", name="Таблица до и после изменения")).to_contain_text(before.name)
    page.get_by_role("button", name="Записать изменение").click()
    expect(page.get_by_role("alert")).to_contain_text("укажите причину")
    page.get_by_label("Причина изменения").fill("ума 25/5 по решению собрания")
    page.get_by_role("button", name="Записать изменение").click()
    expect(page.get_by_role("status").filter(has_text="Поправка записана")).to_be_visible()
    expect(page.get_by_text("ума 25/5 по решению собрания", exact=False).first).to_be_visible()  # the history
    with Session(engine) as session:
        after = results_repo.db_standings(session, current_season(session).id)[0]
    engine.dispose()
    assert after.total >= before.total + 10_000  # the leader won a hanchan: 10 000 more uma for it
    page.goto(f"{league_app.url}/standings")
    expect(page.get_by_role("row", name=after.name).first).to_contain_text(format_signed(after.total))


def _state_bytes(app: App, holding: str) -> bytes:
    """The state files once they hold `holding`, what the last event put on the page's state (its answer)."""
    stored = written_states(app, holding)
    assert holding.encode() in stored, "no state file holds the last answer: the test would prove nothing"
    return stored


def _deltas(frames: list[str]) -> str:
    """Everything the server sent as state (the deltas of every event frame), as text."""
    shown = []
    for frame in frames:
        prefix, _, body = frame.partition(",")
        if prefix.startswith("42") and body:
            for item in json.loads(body)[1:]:
                if isinstance(item, dict):
                    shown.append(json.dumps(item.get("delta", {}), ensure_ascii=False))
    return "\n".join(shown)


def _sheet_passwords(download: Download) -> dict[str, str]:
    sheet = Path(download.path()).read_text(encoding="utf-8")
    slips = re.findall(r"<h2>(.*?)</h2>.*?Имя для входа: <b>(.*?)</b>.*?Пароль: <b class=\"pw\">(.*?)</b>", sheet, re.S)
    assert "Сайт: <b>http://127.0.0.1:" in sheet
    return {name: password for name, _login, password in slips}


def test_issued_passwords_come_as_a_sheet_and_rest_in_no_state(page: Page, league_app: App, tmp_path: Path) -> None:
    """Issue 25 item 5 and issue 29 findings 10–11: the preview refuses an invisible name as the import would;
    the CSV's contacts and the issued passwords are in no state var (frames' deltas, the state files); the sheet
    is a download made on demand; «Выдать заново» replaces the passwords not yet used."""
    app = league_app
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(str(data))))
    login(page, app, ORGANIZER, path="/seasons/manage")
    expect(page.get_by_text(re.compile("Текущий сезон"))).to_be_visible()
    page.get_by_label("Название сезона").fill("Лига 2028")
    page.get_by_role("button", name="Начать сезон").click()
    expect(page.get_by_role("status")).to_have_text("Сезон «Лига 2028» начат и стал текущим.")
    contact = f"@contact-{uuid.uuid4().hex[:8]}"
    path = tmp_path / "sheet.csv"
    path.write_text(f"Лист Первый;{contact};да\nЛист\u200bВторой;@x;да\nЛист Третий;@y;нет\n", encoding="utf-8")
    page.locator("input[type=file]").set_input_files(path)
    page.get_by_role("button", name="Проверить файл").click()
    expect(page.get_by_role("status")).to_have_text("Строк принято: 2, отклонено: 1.")
    expect(page.get_by_role("row").filter(has_text="Строка 2")).to_contain_text("невидимые")
    assert contact.encode() not in _state_bytes(app, "Строк принято: 2"), (
        "the uploaded CSV rests in the tab's state file"
    )

    with page.expect_download() as download:
        page.get_by_role("button", name="Импортировать принятые строки").click()
    expect(page.get_by_role("status").first).to_contain_text("Импортировано игроков: 2.")
    first = _sheet_passwords(download.value)
    assert set(first) == {"Лист Первый", "Лист Третий"} and all(first.values())
    expect(page.get_by_text(f"Лист Первый: {first['Лист Первый']}")).to_be_visible()  # shown once too

    page.get_by_role("button", name="Выдать заново и скачать лист").click()  # asks first, naming how many
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text("Выдать заново 2 пароля?")
    with page.expect_download() as download:
        dialog.get_by_role("button", name="Выдать заново", exact=True).click()
    expect(page.get_by_role("status").first).to_contain_text("Выданы новые пароли: 2.")
    second = _sheet_passwords(download.value)
    assert set(second) == set(first) and not set(second.values()) & set(first.values())
    engine = app.engine()
    with Session(engine) as session:
        user = find_user(session, "Лист Первый")
        assert security.verify_password(second["Лист Первый"], user.password_hash)
        assert not security.verify_password(first["Лист Первый"], user.password_hash)
    engine.dispose()

    stored, sent = _state_bytes(app, "Выданы новые пароли: 2."), _deltas(frames)
    assert sent, "no frames captured: the test would prove nothing"
    for secret in (*first.values(), *second.values(), contact):
        assert secret.encode() not in stored, f"{secret!r} is in the state files"
        assert secret not in sent, f"{secret!r} was sent as state"


def test_the_regulation_page_follows_a_publication_made_elsewhere(page: Page, league_app: App) -> None:
    """Issue 45 item 4: /regulation did not follow a publication or an amendment (every other page a player uses
    did): a player reading it saw the old text until they reloaded."""
    from services.league import regulation  # noqa: PLC0415

    app = league_app
    engine = app.engine()
    with Session(engine) as session:
        author = session.exec(select(User).where(User.display_name == ORGANIZER)).one().id
    login(page, app, PLAYERS[0], path="/regulation")
    expect(page.get_by_role("heading", name="Регламент лиги")).to_be_visible()
    marker = f"Пункт {uuid.uuid4().hex[:6]}: запасной день — воскресенье."
    with Session(engine) as session:
        current = regulation.in_force(session, utc_now())
        text = (current.text if current else "Регламент лиги") + "\n" + marker
        regulation.publish(session, text, reason="Запасной день", now=utc_now(), author_user_id=author)
        session.commit()
    engine.dispose()
    expect(page.get_by_role("region", name="Текст редакции")).to_contain_text(marker)  # pushed, not reloaded
