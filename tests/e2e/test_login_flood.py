"""A login flood through the real app (issue 29, findings 2 and 3): a new browser still gets in."""

from __future__ import annotations

import re
import socket
import threading
import time
import urllib.request
import uuid

import simple_websocket
from playwright.sync_api import Page, expect

from discard_app.pages.account.login import LoginState
from discard_app.session_cookie import ADOPT_PATH, DEVICE_COOKIE
from services.core.db import session_scope
from services.core.rate_limit import ACCOUNT_UNKNOWN_ATTEMPTS
from services.core.security import generate_password
from services.league.accounts import create_user
from tests.e2e.conftest import LETTERS, PLAYERS, App, login
from tests.e2e.test_secrets import RawTab

SUBMIT = f"{LoginState.get_full_name()}.submit"

FLOOD = 70  # more than main's 60 a minute for every browser that never logged in


def test_a_flood_with_invented_device_ids_does_not_shut_out_a_new_browser(page: Page, app: App) -> None:
    """On main: 70 wrong logins, each with an invented `discard_device`, each password-checked (no lockout, no
    per-client limit), then a new phone got «Сейчас слишком много входов»."""
    tabs = [
        RawTab(app, str(uuid.uuid4()), cookie=f"{DEVICE_COOKIE}=invented-{n}-{uuid.uuid4().hex}") for n in range(FLOOD)
    ]
    for n, tab in enumerate(tabs):
        tab.emit(
            f"{LoginState.get_full_name()}.submit", {"form": {"name": PLAYERS[5], "password": f"угадай {n}"}}, "/login"
        )
    answers = ["".join(tab.read(until=lambda f: "Неверное имя" in f or "лишком много" in f)) for tab in tabs]
    for tab in tabs:
        tab.close()
    checked = sum("Неверное имя" in a for a in answers)
    assert all("Неверное имя" in a or "лишком много" in a for a in answers), "the flood was not all answered"
    assert checked <= 10, f"{checked} of {FLOOD} guesses with invented device ids were password-checked"
    login(page, app, PLAYERS[6])  # a browser that never logged in here, during the flood's minute
    expect(page.get_by_role("heading", name="Мои матчи")).to_be_visible()
    expect(page).not_to_have_url(re.compile(r"/login"))


class SourceBound:
    """`socket` for simple_websocket whose sockets leave from this thread's chosen loopback address (127.0.0.2 is
    another machine to the server), so a test or the bench has a browser elsewhere than the flood's."""

    def __init__(self) -> None:
        self.local = threading.local()

    def __getattr__(self, name: str) -> object:
        return getattr(socket, name)

    def socket(self, *args: object) -> socket.socket:
        sock = socket.socket(*args)  # type: ignore[call-overload]
        if source := getattr(self.local, "source", None):
            sock.bind((source, 0))
        return sock


SOURCES = SourceBound()
simple_websocket.ws.socket = SOURCES  # type: ignore[attr-defined]  (no source set: as before)


def tab_from(app: App, source: str, cookie: str = "") -> RawTab:
    SOURCES.local.source = source
    try:
        return RawTab(app, str(uuid.uuid4()), cookie=cookie)
    finally:
        SOURCES.local.source = None


def signed_device(app: App) -> str:
    """The device cookie the server hands a browser on its first page."""
    with urllib.request.urlopen(f"{app.url}/ping", timeout=30) as response:
        for header in response.headers.get_all("Set-Cookie") or []:
            if header.startswith(f"{DEVICE_COOKIE}="):
                return header.split(";", 1)[0]
    raise RuntimeError("no device cookie")


def _answer(tab: RawTab) -> str:
    return "".join(tab.read(until=lambda f: ADOPT_PATH in f or "Неверное имя" in f or "лишком много" in f))


def test_a_flood_aimed_at_one_account_leaves_a_new_browser_elsewhere_its_way_in(app: App) -> None:
    """On main a flood of wrong logins at one name (a fresh signed device each) used the account's ten guesses
    from unknown browsers, and every new browser of that account got «Слишком много попыток входа под этим
    именем» for 15 minutes. The flood's own address stays out; a phone elsewhere typing the right password
    gets in."""
    name = "Цель " + uuid.uuid4().hex[:6].translate(LETTERS)
    password = generate_password()
    with session_scope(app.engine()) as session:
        create_user(session, display_name=name, password=password)
    answers = []
    for n in range(ACCOUNT_UNKNOWN_ATTEMPTS + 15):
        tab = RawTab(app, str(uuid.uuid4()), cookie=signed_device(app))
        tab.emit(SUBMIT, {"form": {"name": name, "password": f"угадай {n}"}}, "/login")
        answers.append(_answer(tab))
        tab.close()
    assert sum("Неверное имя" in a for a in answers) == ACCOUNT_UNKNOWN_ATTEMPTS
    assert all("под этим именем" in a for a in answers[ACCOUNT_UNKNOWN_ATTEMPTS:])
    phone = tab_from(app, "127.0.0.2", cookie=signed_device(app))
    phone.emit(SUBMIT, {"form": {"name": name, "password": password}}, "/login")
    assert ADOPT_PATH in _answer(phone), "the owner's new phone was kept out"
    phone.close()


WIFI_FLOOD = 40  # more flooding browsers at once than the flood's 24 places in the password pool


def test_a_flood_from_the_clubs_wifi_leaves_a_new_phone_there_its_way_in(app: App) -> None:
    """The club's Wi-Fi is one address: forty browsers there, each keeping its signed device and each failed once
    already, guess at once; a new phone at the same address types the right password meanwhile. Before, the phone
    waited in the flood's places like them and got «Сейчас слишком много входов»; now a browser that has not failed
    yet is checked ahead of the flood (services/core/password_pool.py)."""
    wifi = "127.0.0.3"  # an address of this test's own: the other tests' logins stay out of its flood
    name = "Гость " + uuid.uuid4().hex[:6].translate(LETTERS)  # a player of no season: the shared one is untouched
    password = generate_password()
    with session_scope(app.engine()) as session:
        create_user(session, display_name=name, password=password)
    tabs = [tab_from(app, wifi, cookie=signed_device(app)) for _ in range(WIFI_FLOOD)]

    sent = threading.Event()  # the flood's guesses are all on their way

    def guess(batch: list[RawTab], password: str) -> list[str]:
        for n, tab in enumerate(batch):
            form = {"name": f"флуд {n} {uuid.uuid4().hex[:4]}".translate(LETTERS), "password": password}
            tab.emit(SUBMIT, {"form": form}, "/login")
        sent.set()
        return ["".join(tab.read(until=lambda f: "Неверное имя" in f or "лишком много" in f)) for tab in batch]

    unfailed = list(tabs)
    deadline = time.monotonic() + 120
    # A few at a time until every device has failed once: the address floods. A device answered «too many» (the
    # pool's places full, as on a loaded machine) tries again; a fixed number of rounds left one unfailed there.
    while unfailed and time.monotonic() < deadline:
        batches = [unfailed[start : start + 8] for start in range(0, len(unfailed), 8)]
        unfailed = [t for b in batches for t, a in zip(b, guess(b, "x0"), strict=True) if "Неверное имя" not in a]
    assert not unfailed, f"{len(unfailed)} of the flood's devices never failed"
    phone = tab_from(app, wifi, cookie=signed_device(app))
    flooding = threading.Thread(target=lambda: answers.extend(guess(tabs, "x1")))
    answers: list[str] = []
    sent.clear()
    flooding.start()  # all forty at once
    assert sent.wait(10), "the flood's guesses were never sent"  # the phone types while they are checked
    phone.emit(SUBMIT, {"form": {"name": name, "password": password}}, "/login")
    got_in = ADOPT_PATH in _answer(phone)
    flooding.join(30)
    assert all("Неверное имя" in a or "лишком много" in a for a in answers), "the flood was not all answered"
    assert any("лишком много" in a for a in answers), "the flood never filled its places in the pool"
    assert got_in, "the new phone on the flooding Wi-Fi was kept out"
    for tab in (*tabs, phone):
        tab.close()
