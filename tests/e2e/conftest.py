"""The real app in prod mode on a free port with its own SQLite database, and Debian's Chromium."""

from __future__ import annotations

import fcntl
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserType, Page, Playwright, expect, sync_playwright

from discard_app.session_cookie import SESSION_COOKIE
from services.core.config import ROOT
from services.core.db import make_engine, migrate, session_scope
from services.core.models import Role, Room, Season, Stage, StageKind
from services.league.accounts import create_user
from services.league.roster import add_player

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]  # fmt: skip
BUILT_FRONTEND = "DISCARD_TEST_FRONTEND"  # a build made before the run (`make test`), for every app of it
START_TIMEOUT = 60  # the front end is built already (`frontend`): an app starts in seconds


@dataclass
class App:
    url: str
    database_url: str
    passwords: dict[str, str] = field(default_factory=dict)
    workdir: Path | None = None  # holds the app's state files (states/) and its temp folder (tmp/)

    def engine(self):  # noqa: ANN201
        return make_engine(self.database_url)


# A unique tag inside a person's name: letters only, as a name must be (issue 28).
LETTERS = str.maketrans("0123456789", "абвгдежзик")
ORGANIZER = "Богдан Бойко"
JUDGE = "Екатерина Киселёва"
PLAYERS = tuple(f"Игрок {n:02d}" for n in range(1, 17))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _seed(database_url: str) -> dict[str, str]:
    passwords: dict[str, str] = {}
    engine = make_engine(database_url)
    with session_scope(engine) as session:
        organizer, passwords[ORGANIZER] = create_user(session, display_name=ORGANIZER, role=Role.ORGANIZER)
        _, passwords[JUDGE] = create_user(session, display_name=JUDGE, role=Role.JUDGE)
        season = Season(name="Тестовая лига")
        session.add(season)
        session.flush()
        session.add(Stage(season_id=season.id, kind=StageKind.REGULAR))
        session.add(Room(name="Клуб, ул. Московская 78/115"))
        for name in PLAYERS:
            _, passwords[name] = add_player(session, season, name, actor_user_id=organizer.id)
    engine.dispose()
    return passwords


def _reflex_env() -> dict[str, str]:
    """What `make` exports, for a pytest started by hand: Reflex's writes stay in the checkout, bun from npm."""
    arch = "aarch64" if platform.machine() in ("aarch64", "arm64") else "x64"
    defaults = {
        "REFLEX_DIR": ROOT / ".reflex-home",
        "XDG_CONFIG_HOME": ROOT / ".config",
        "XDG_CACHE_HOME": ROOT / ".cache",
        "BUN_INSTALL_CACHE_DIR": ROOT / ".cache" / "bun",
        "REFLEX_BUN_PATH": ROOT / ".venv" / "bun" / "node_modules" / "@oven" / f"bun-linux-{arch}" / "bin" / "bun",
        "REFLEX_CHECK_LATEST_VERSION": "0",
        "NPM_CONFIG_REGISTRY": "https://registry.npmjs.org/",
        "NO_PROXY": "127.0.0.1,localhost",
    }
    return {key: os.environ.get(key) or str(value) for key, value in defaults.items()}


def _wait_ready(url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the app exited with {process.returncode}:\n{log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(f"{url}/ping", timeout=2) as response:
                if response.status == 200:
                    urllib.request.urlopen(url, timeout=10).read()
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the app did not answer within {START_TIMEOUT}s:\n{log.read_text()[-4000:]}")


def build_frontend(web_dir: Path) -> Path:
    """The pages compiled and built once into `web_dir` (`reflex export`, Reflex's own production build): every app
    of a run serves this one bundle, which does not depend on its port (discard_app/same_origin.py)."""
    web_dir.parent.mkdir(parents=True, exist_ok=True)
    log = web_dir.parent / "build.log"
    env = {**os.environ, **_reflex_env(), "REFLEX_WEB_WORKDIR": str(web_dir)}
    env["DATABASE_URL"] = f"sqlite:///{web_dir.parent / 'build.db'}"  # the build opens no database; none of ours
    with open(log, "w") as out:
        done = subprocess.run(
            [str(Path(sys.executable).parent / "reflex"), "export", "--frontend-only", "--no-zip", "--env", "prod"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, check=False,
        )  # fmt: skip
    if done.returncode != 0 or not (web_dir / "build" / "client" / "index.html").exists():
        raise RuntimeError(f"the front end did not build ({done.returncode}):\n{log.read_text()[-4000:]}")
    return web_dir


@contextmanager
def running_app(
    workdir: Path,
    *,
    frontend: Path | None = None,
    league: SeededLeague | None = None,
    database_url: str | None = None,
    extra_env: dict[str, str] | None = None,
    seed: Callable[[str], dict[str, str]] | None = None,
) -> Iterator[App]:
    """The real app in prod mode on a free port with a freshly seeded database: its own SQLite file in `workdir`
    unless `database_url` names an empty one; `extra_env` for the production topology (workers, Redis); `seed`
    instead of the test league (it returns the passwords it issued), or `league`, the test league seeded once, to
    copy. It serves the front end built in `frontend` (the run's one build), or builds one into `workdir` first (a
    benchmark's single app)."""
    web_dir = frontend or build_frontend(workdir / "web")
    if league is not None:  # the test league seeded once: a copy of its file, and the passwords it issued
        shutil.copy(league.path, workdir / "league.db")
        database_url, passwords = f"sqlite:///{workdir / 'league.db'}", dict(league.passwords)
    else:
        database_url = database_url or f"sqlite:///{workdir / 'league.db'}"
        migrate(database_url)
        passwords = (seed or _seed)(database_url)
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, **_reflex_env(), "DATABASE_URL": database_url, "REFLEX_API_URL": url, "PORT": str(port)}
    env.update(extra_env or {})
    env.pop("TELEGRAM_BOT_TOKEN", None)
    env["REFLEX_WEB_WORKDIR"] = str(web_dir)
    env["REFLEX_UPLOADED_FILES_DIR"] = str(workdir / "uploaded_files")  # the judge's photos stay out of the repo
    env["REFLEX_STATES_WORKDIR"] = str(workdir / "states")  # this run's tab states only, for the secrets test
    (workdir / "tmp").mkdir(exist_ok=True)
    env["TMPDIR"] = str(workdir / "tmp")  # where an upload would be spooled
    log = workdir / "reflex.log"
    with open(log, "w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.serve", str(port)],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
    try:
        _wait_ready(url, process, log)
        yield App(url=url, database_url=database_url, passwords=passwords, workdir=workdir)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


def _run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This run's own folder, shared by its xdist workers (each has a folder of its own inside it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def frontend(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's one front-end build: `make test` builds it beside mypy and names it (`DISCARD_TEST_FRONTEND`);
    otherwise the first worker to need it builds it, the others wait for it and share it."""
    if given := os.environ.get(BUILT_FRONTEND):
        web_dir = Path(given)
        assert (web_dir / "build" / "client" / "index.html").exists(), f"{BUILT_FRONTEND}={given} holds no build"
        return web_dir
    run_dir = _run_dir(tmp_path_factory)
    web_dir = run_dir / "web"
    with open(run_dir / "web.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (web_dir / "build" / "client" / "index.html").exists():
            build_frontend(web_dir)
    return web_dir


@dataclass(frozen=True)
class SeededLeague:
    path: Path
    passwords: dict[str, str]


@pytest.fixture(scope="session")
def seeded_league(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite_template: Path) -> SeededLeague:
    """The test league seeded once per worker (eighteen argon2 hashes: seconds) on a copy of the migrated template,
    copied by each app."""
    path = tmp_path_factory.mktemp("league") / "league.db"
    shutil.copy(migrated_sqlite_template, path)
    return SeededLeague(path, _seed(f"sqlite:///{path}"))


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory, frontend: Path, seeded_league: SeededLeague) -> Iterator[App]:
    """Each test file's own app on a fresh copy of the test league: what one file's tests do never reaches another
    file's, whichever worker runs them and in whatever order."""
    with running_app(tmp_path_factory.mktemp("app"), frontend=frontend, league=seeded_league) as running:
        yield running


# pytest-playwright's browser for a file, not for the session: its sync API keeps an event loop running in the
# worker's main thread while it is started, and the asyncio tests a worker runs after a browser file (under xdist any
# test may follow one) could not start theirs. Stopped at the file's end, Chromium costs a second per file.
@pytest.fixture(scope="module")
def playwright(_pw_api_request_contexts: Any) -> Iterator[Playwright]:  # noqa: ANN401 - pytest-playwright's own
    started = sync_playwright().start()
    if _pw_api_request_contexts:  # --tracing, as pytest-playwright's own fixture does
        _pw_api_request_contexts.instrument(started)
    yield started
    started.stop()


@pytest.fixture(scope="module")
def browser_type(playwright: Playwright, browser_name: str) -> BrowserType:
    return getattr(playwright, browser_name)


@pytest.fixture(scope="module")
def launch_browser(browser_type_launch_args: dict, browser_type: BrowserType) -> Callable[..., Browser]:
    return lambda **kwargs: browser_type.launch(**{**browser_type_launch_args, **kwargs})


@pytest.fixture(scope="module")
def browser(launch_browser: Callable[..., Browser]) -> Iterator[Browser]:
    launched = launch_browser()
    yield launched
    launched.close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="module")  # pytest-playwright's reads its `playwright`, a file's now
def browser_context_args() -> dict:
    return {"locale": "ru-RU", "timezone_id": "Europe/Kirov"}


def written_states(app: App, holding: str, *, without: tuple[str, ...] = (), seconds: float = 15.0) -> bytes:
    """Every tab state the app has written to disk, once they hold `holding` (something the last event put on its
    state) and none of `without` (what that event cleared): Reflex writes a state a moment after its last change,
    so this waits for that write, not for the clock. After `seconds` it returns what is there, for the caller's
    assertions to say what is missing."""
    deadline = time.monotonic() + seconds
    while True:
        files = [p for p in (app.workdir / "states").rglob("*") if p.is_file()]
        everything = b"".join(p.read_bytes() for p in files)
        settled = holding.encode() in everything and not any(text.encode() in everything for text in without)
        if settled or time.monotonic() >= deadline:
            return everything
        time.sleep(0.05)


def login(page: Page, app: App, name: str, password: str | None = None, *, path: str = "/") -> None:
    """Logs in through the form, as a person does."""
    page.goto(f"{app.url}/login" if path == "/" else f"{app.url}{path}")
    page.get_by_label("Имя").fill(name)
    page.get_by_label("Пароль").fill(password if password is not None else app.passwords[name])
    page.get_by_role("button", name="Войти").click()
    _wait_for_the_answer(page)


def logout(page: Page) -> None:
    """Logs out through the button, as a person does, and waits for the login page: the tab opens it only once the
    cookie is dropped (discard_app/session_cookie.py), and a page opened meanwhile would be replaced by it."""
    page.get_by_role("button", name="Выйти").click()
    expect(page).to_have_url(re.compile(r"/login/?$"))
    expect(page.get_by_role("button", name="Войти")).to_be_visible()


def _wait_for_the_answer(page: Page, seconds: float = 15.0) -> None:
    """Until the login is decided: the session cookie is set (the page then loads its next address) or the form
    shows its refusal. A test that moved on at once could leave the login page before the browser took its
    cookie, and the next pages came up logged out (seen as an organizer page without its forms)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if any(c["name"] == SESSION_COOKIE for c in page.context.cookies()):
            page.wait_for_load_state()
            return
        if page.get_by_role("alert").count():
            return
        page.wait_for_timeout(50)


@pytest.fixture(autouse=True)
def _expect_timeout() -> None:
    expect.set_options(timeout=15_000)


class FormAnswers:
    """Counts a page's answered form events from its websocket frames (a delta that clears the form's `busy` or
    `saving`), so a test can wait for an answer that shows nothing new. Made before the page opens its socket."""

    CLEARED = re.compile(r'"(busy|saving)_rx_state_":\s*false')

    def __init__(self, page: Page) -> None:
        self.frames: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda data: self.frames.append(str(data))))
        self.page = page

    def count(self) -> int:
        return sum(1 for frame in self.frames if self.CLEARED.search(frame))

    def after(self, press: Callable[[], None], seconds: float = 15.0) -> None:
        """`press()`, then until its answer has come back."""
        before = self.count()
        press()
        deadline = time.monotonic() + seconds
        while self.count() == before:
            assert time.monotonic() < deadline, "the form's answer did not come back"
            self.page.wait_for_timeout(20)
