"""Only the Telegram adapter and the bot process import `telegram`; the site never does (STYLE.md)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = {ROOT / "services/notifier/telegram.py", ROOT / "services/notifier/bot.py"}


def _imports_telegram(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "telegram" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "telegram":
            return True
    return False


def test_only_the_adapter_and_the_bot_process_import_telegram() -> None:
    files = [*ROOT.glob("services/**/*.py"), *ROOT.glob("discard_app/**/*.py")]
    offenders = {p.relative_to(ROOT).as_posix() for p in files if _imports_telegram(p) and p not in ALLOWED}
    assert offenders == set()
    assert all(_imports_telegram(p) for p in ALLOWED)  # the check sees real imports
