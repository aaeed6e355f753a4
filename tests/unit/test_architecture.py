"""The layers of docs/architecture.md hold: pure rules → database → views → shells; nothing imports upward,
`services/` never imports reflex, and only the notifier's adapter and bot process import telegram."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE, DATABASE, VIEW, SHELL = 0, 1, 2, 3
LAYER_NAMES = {PURE: "pure rules", DATABASE: "database", VIEW: "views", SHELL: "pages / bot / CLI"}

# Every module of services/ not listed here is on the database side.
PURE_MODULES = {
    "services.core.config",
    "services.core.security",
    "services.core.text_limits",
    "services.core.urls",
    "services.core.wording",
    "services.core.errors",
    "services.league.draw",
    "services.core.ruleset",
    "services.league.roster_csv",
    "services.scheduling.intervals",
    "services.scheduling.rules",
    "services.scheduling.decide",
    "services.scheduling.ics",
    "services.results.scoring",
    "services.results.standings",
    "services.results.entry",
    "services.results.season_file",
    "services.playoff.bracket",
    "services.pantheon.games",
    "services.pantheon.names",
    "services.pantheon.reconstruct",
    "services.notifier.sunday",
    "services.notifier.pacing",
}
VIEW_MODULES = {
    "services.scheduling.view",
    "services.views.desk",
    "services.scheduling.calendar_feed",
    "services.results.view",
    "services.views.history",
    "services.notifier.cards",
    "services.notifier.freshness",
    "services.views.todo",
    "services.views.standing_note",
    "services.views.checklist",
}
SHELL_PACKAGES = ("discard_app", "services.commands", "services.notifier.bot", "services.notifier.telegram")
# The notifier's delivery pass turns events into texts and sends them: part of the bot.
SHELL_PACKAGES += ("services.notifier.__main__", "services.notifier.outbox")
# The bot's door for a button's tap (issue 44), as `discard_app/state/action.py` is the page's: part of the bot.
SHELL_PACKAGES += ("services.notifier.remote",)
# The libraries that make a module something other than pure.
IMPURE_LIBRARIES = {"sqlmodel", "sqlalchemy", "httpx", "telegram", "reflex", "psycopg", "alembic"}
TELEGRAM_ALLOWED = {"services.notifier.telegram", "services.notifier.bot"}


def _module_name(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return name.removesuffix(".__init__")


def _modules() -> dict[str, Path]:
    files = [*ROOT.glob("services/**/*.py"), *ROOT.glob("discard_app/**/*.py")]
    return {_module_name(p): p for p in files}


def _layer(module: str) -> int:
    if module.startswith(SHELL_PACKAGES):
        return SHELL
    if module in PURE_MODULES:
        return PURE
    if module in VIEW_MODULES:
        return VIEW
    return DATABASE


def _imports(path: Path, known: set[str]) -> set[str]:
    """Every absolute import of the file, as the module it names (`from services.x import y` → services.x.y when
    y is a module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in known)
    return found


def _violations() -> list[str]:
    modules = _modules()
    known = set(modules)
    problems = []
    for name, path in sorted(modules.items()):
        layer = _layer(name)
        for imported in sorted(_imports(path, known)):
            top = imported.split(".")[0]
            if name.startswith("services") and top == "reflex":
                problems.append(f"{name} imports reflex")
            if top == "telegram" and name not in TELEGRAM_ALLOWED:
                problems.append(f"{name} imports telegram")
            if layer == PURE and top in IMPURE_LIBRARIES:
                problems.append(f"{name} is pure but imports {top}")
            if imported in known and modules[imported].name != "__init__.py" and _layer(imported) > layer:
                problems.append(
                    f"{name} ({LAYER_NAMES[layer]}) imports {imported} ({LAYER_NAMES[_layer(imported)]}) upward"
                )
    return problems


def test_no_import_runs_upward_and_services_never_import_reflex() -> None:
    assert _violations() == []


# The floors of services/, bottom to top (issue 41 item 3): shared vocabulary (the models, the ruleset, wording,
# the bot's recorded status) at the bottom, the domains above it, the views that combine them, the shells on top. A
# package imports only its own floor or those below.
FLOORS: list[tuple[str, ...]] = [
    ("core",),
    ("scheduling",),
    ("results",),
    ("playoff",),
    ("league",),
    ("pantheon",),
    ("views",),
    ("notifier", "commands"),
]


def _floor(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "services" or len(parts) < 2:
        return None
    return next((n for n, names in enumerate(FLOORS) if parts[1] in names), None)


def _floor_violations() -> list[str]:
    modules = _modules()
    known = set(modules)
    problems = []
    for name, path in sorted(modules.items()):
        here = _floor(name)
        if here is None:
            continue
        for imported in sorted(_imports(path, known)):
            there = _floor(imported)
            if there is not None and there > here:
                problems.append(f"{name} (floor {here}) imports {imported} (floor {there})")
    return problems


def test_the_packages_import_only_their_floor_or_those_below() -> None:
    assert {p.split(".")[1] for p in _modules() if p.startswith("services.") and p.count(".") >= 2} == {
        name for names in FLOORS for name in names
    }  # every package has its floor
    assert _floor_violations() == []


# Регламент §2: the next playoff round's tables appear as soon as the last hanchan of the round is stored, whoever
# stores it. So the one door for a result stands on the playoff's floor (`playoff.hanchan_entry.enter_hanchan`:
# store, then advance); the results service's `record_hanchan` below it is named by that door alone.
RESULT_DOOR = "services/playoff/hanchan_entry.py"
RESULT_STORE = ("services/results/hanchans.py", "record_hanchan")


def _names(path: Path, name: str) -> bool:
    """Whether the file's code names `name` (an import, a call, an attribute), docstrings and comments aside."""
    return any(
        (isinstance(n, ast.Name) and n.id == name)
        or (isinstance(n, ast.Attribute) and n.attr == name)
        or (isinstance(n, ast.ImportFrom) and any(name in (a.name, a.asname) for a in n.names))
        for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
    )


def test_a_result_is_entered_through_one_door_on_the_playoffs_floor() -> None:
    """Issue 41 item 3: `results.hanchans` called `playoff.stage.advance_playoff`, the one import that ran up a
    floor. Now the door above both stores and advances, and nothing else — no page, import, command, bench or test
    — stores a hanchan around it."""
    store, name = RESULT_STORE
    paths = [p for d in ("services", "discard_app", "tests", "bench") for p in (ROOT / d).rglob("*.py")]
    found = sorted(str(p.relative_to(ROOT)) for p in paths if p != Path(__file__).resolve() and _names(p, name))
    defined = ast.parse((ROOT / store).read_text(encoding="utf-8")).body
    assert name in {n.name for n in defined if isinstance(n, ast.FunctionDef)}  # the check looks for the real name
    assert found == [RESULT_DOOR]


def test_the_door_check_sees_a_second_way_in(tmp_path: Path) -> None:
    probe, quiet = tmp_path / "probe.py", tmp_path / "quiet.py"
    probe.write_text("from services.results import hanchans as h\nh.record_hanchan(s, u, 1, e, now=n)\n", "utf-8")
    quiet.write_text('"""record_hanchan, named in a docstring."""\n# record_hanchan\n', "utf-8")
    assert (_names(probe, "record_hanchan"), _names(quiet, "record_hanchan")) == (True, False)


def test_the_floor_check_sees_an_import_that_runs_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "probe.py"
    path.write_text("from services.views.desk import build_desk\n", encoding="utf-8")
    real = _modules()
    monkeypatch.setattr(f"{__name__}._modules", lambda: {**real, "services.scheduling.probe": path})
    assert _floor_violations() == ["services.scheduling.probe (floor 1) imports services.views.desk (floor 6)"]


def test_every_listed_module_exists() -> None:
    assert set(_modules()) >= (PURE_MODULES | VIEW_MODULES)
    assert {"services.notifier.telegram", "services.notifier.bot"} <= set(_modules())


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("services.results.scoring", "from services.core.db import session_scope\n", "imports services.core.db"),
        ("services.results.repo", "from services.results.view import season_standings\n", "upward"),
        ("services.core.db", "import reflex as rx\n", "imports reflex"),
        ("services.league.roster", "from telegram import Bot\n", "imports telegram"),
        ("services.league.draw", "import sqlmodel\n", "is pure but imports sqlmodel"),
    ],
)
def test_the_check_sees_a_wrong_import(module: str, source: str, expected: str, tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "probe.py"
    path.write_text(source, encoding="utf-8")
    real = _modules()
    monkeypatch.setattr(f"{__name__}._modules", lambda: {**real, module: path})
    assert any(expected in problem for problem in _violations())


# Issue 24 item 5: the shell's Russian texts live in discard_app/texts.py. No other file of the shell holds a Cyrillic
# string literal (comments and docstrings may speak Russian): every file is checked, so a new one is covered by default.
SHELL_FILES = sorted(
    str(path.relative_to(ROOT)) for path in (ROOT / "discard_app").rglob("*.py") if path.name != "texts.py"
)


def _cyrillic_literals(source: str) -> list[str]:
    """Every string literal with a Cyrillic letter (f-strings' parts too), docstrings left out; `line: text`."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return sorted(
        f"{node.lineno}: {node.value}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and any("\u0400" <= ch <= "\u04ff" for ch in node.value)
    )


@pytest.mark.parametrize("path", SHELL_FILES)
def test_the_shell_keeps_its_texts_in_texts_py(path: str) -> None:
    assert _cyrillic_literals((ROOT / path).read_text(encoding="utf-8")) == []


def test_the_texts_check_sees_a_literal_not_a_comment_or_docstring() -> None:
    source = '''"""Модуль."""
# комментарий по-русски
def page(name):
    """Страница."""
    title = "Согласование"
    return f"{name}: ответил", "ok"
'''
    assert _cyrillic_literals(source) == ["5: Согласование", "6: : ответил"]


def test_no_text_is_named_twice() -> None:
    """A second `NAME = …` in texts.py silently replaces the first, and every page using it says the other text."""
    names = [
        target.id
        for node in ast.parse((ROOT / "discard_app/texts.py").read_text(encoding="utf-8")).body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    ]
    assert len(names) > 100 and sorted({n for n in names if names.count(n) > 1}) == []


def _reads_global_settings(path: Path) -> bool:
    """`from services.core.config import settings` (the object read from the environment), not the `Settings` type."""
    return any(
        isinstance(node, ast.ImportFrom)
        and node.module == "services.core.config"
        and any(alias.name == "settings" for alias in node.names)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
    )


def test_only_the_shells_read_the_settings() -> None:
    """Issue 24 item 4: the site, the bot process and the command line read the environment's settings and pass
    the values in (`db.use_database(url)`, `keep_files_private(url)`); no service reads the global itself."""
    readers = [name for name, path in sorted(_modules().items()) if _reads_global_settings(path)]
    assert [name for name in readers if _layer(name) != SHELL] == []
    assert "services.commands.cli" in readers  # the check finds a reader where there is one


def _role_checks(source: str) -> list[str]:
    """Every `_require_user(...)` call but the two doors' own: `guarded`/`reading` (state/action.py, `needed`) and a
    page's `_viewer`, which asks for its `VIEWERS` and nothing else."""
    found = []
    functions = ast.FunctionDef | ast.AsyncFunctionDef
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, functions):
            continue
        own, inner = list(ast.iter_child_nodes(function)), []
        while own:  # the function's own nodes, not those of the functions defined in it
            node = own.pop()
            if not isinstance(node, functions):
                inner.append(node)
                own.extend(ast.iter_child_nodes(node))
        for node in inner:
            if not (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "_require_user"):
                continue
            arguments = ast.unparse(node).split("(", 1)[1]
            if (function.name, arguments) not in {("_viewer", "*self.VIEWERS)"), ("admit", "*needed)")}:
                found.append(f"{function.name}: {ast.unparse(node)}")
    return found


def test_whom_a_page_admits_is_checked_only_by_its_one_door() -> None:
    """Issue 40: 19 `_require_user(...)` and 11 `_organizer()` checks were written by hand in the pages. A page says
    whom it shows to (`VIEWERS`, checked by `_viewer`), a handler whom it admits (`@guarded`, `@reading`)."""
    found = {
        str(path.relative_to(ROOT)): checks
        for path in sorted((ROOT / "discard_app").rglob("*.py"))
        if (checks := _role_checks(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_door_check_sees_a_hand_written_role_check() -> None:
    source = "def load(self):\n    if self._require_user(Role.ORGANIZER) is None:\n        return\n"
    assert _role_checks(source) == ["load: self._require_user(Role.ORGANIZER)"]
    assert _role_checks("def _viewer(self):\n    return self._require_user(*self.VIEWERS)\n") == []


def _answers_by_hand(source: str) -> list[str]:
    """Every read of an action's answer (`.problems`, `.message` of an `Outcome`, named `outcome`) outside a page's
    one `_show_answer`."""
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) or function.name == "_show_answer":
            continue
        for node in ast.walk(function):
            answer = isinstance(node, ast.Attribute) and node.attr in ("problems", "message")
            if answer and isinstance(node.value, ast.Name) and node.value.id == "outcome":
                found.append(f"{function.name}: {ast.unparse(node)}")
    return found


def test_an_actions_answer_is_shown_by_the_pages_one_show_answer() -> None:
    """Issue 40: a handler does not set its answer by hand; `_perform` shows every outcome through the page's
    `_show_answer` (state/action.py), so a refusal, a second press and a success read the same on every page."""
    found = {
        str(path.relative_to(ROOT)): answers
        for path in sorted((ROOT / "discard_app").rglob("*.py"))
        if (answers := sorted(set(_answers_by_hand(path.read_text(encoding="utf-8")))))
    }
    assert found == {}
    by_hand = "def save(self):\n    outcome = self._perform(run)\n    self.error = '; '.join(outcome.problems)\n"
    assert _answers_by_hand(by_hand) == ["save: outcome.problems"]


def test_the_forms_script_names_the_forms_mark_and_key_as_the_shell_does() -> None:
    """assets/forms.js finds the site's forms and their one-time key by the names components/form.py renders."""
    from discard_app.components.form import FORM_MARK, FORMS_SCRIPT  # noqa: PLC0415
    from discard_app.state.action import KEY_FIELD  # noqa: PLC0415

    assert f"form[{FORM_MARK}]" in FORMS_SCRIPT and f'KEY_FIELD = "{KEY_FIELD}"' in FORMS_SCRIPT
