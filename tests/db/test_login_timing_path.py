"""Every login check runs the same hashing work (issue 29): one PBKDF2 check at the issued rounds and one argon2
operation, whether the name is unknown, its issued password never used, or argon2, and whether it is right.

Not a timed test: the hash functions are replaced by counting ones, so the test sees which path runs."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from argon2.exceptions import VerificationError
from sqlmodel import Session

from services.core import security
from services.league import accounts

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


class CountingArgon2:
    """argon2-cffi's hasher as the security module uses it, recording each call: `hash` gives a readable string,
    `verify` compares with it (a real hash made at import, such as the dummy, never matches)."""

    PREFIX = "$argon2id$counting$"

    def __init__(self, calls: list[str]) -> None:
        self.calls = calls

    def hash(self, password: str) -> str:
        self.calls.append("argon2")
        return self.PREFIX + password

    def verify(self, stored: str, password: str) -> bool:
        self.calls.append("argon2")
        if stored != self.PREFIX + password:
            raise VerificationError
        return True

    def check_needs_rehash(self, stored: str) -> bool:
        return False


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    made: list[str] = []
    real_pbkdf2 = security._pbkdf2

    def pbkdf2(password: str, salt: bytes, rounds: int) -> bytes:
        made.append("pbkdf2")
        return real_pbkdf2(password, salt, rounds)

    monkeypatch.setattr(security, "_ARGON2", CountingArgon2(made))
    monkeypatch.setattr(security, "_pbkdf2", pbkdf2)
    return made


def _account(session: Session, *, argon: bool) -> tuple[str, str]:
    name = f"Игрок {uuid.uuid4().hex[:8]}"
    user, password = accounts.create_user(session, display_name=name, now=NOW)
    if argon:
        user.password_hash = security.hash_password(password)
        session.add(user)
    session.commit()
    return name, password


@pytest.mark.parametrize("account", ["unknown", "issued, never used", "argon2"])
@pytest.mark.parametrize("right", [False, True])
def test_every_login_runs_one_pbkdf2_check_and_one_argon2_operation(
    session: Session, calls: list[str], account: str, right: bool
) -> None:
    if account == "unknown":
        name, password = f"нет такого {uuid.uuid4().hex[:6]}", "что-нибудь"
    else:
        name, password = _account(session, argon=account == "argon2")
    calls.clear()
    client = f"device:{uuid.uuid4().hex}"
    result = accounts.login(
        session, name, password if right else password + "!", now=NOW, session_days=30, client=client
    )
    assert bool(result.token) == (right and account != "unknown")
    assert sorted(calls) == ["argon2", "pbkdf2"], f"{account}, right={right}: {calls}"


def test_the_dummies_cost_what_real_hashes_cost() -> None:
    """The dummy hashes use the parameters of the real ones (argon2's memory and passes, PBKDF2's rounds)."""
    params = security.hash_password("x").rsplit("$", 2)[0]
    assert security._DUMMY_HASH.rsplit("$", 2)[0] == params
    assert security._DUMMY_ISSUED.split("$")[2] == str(security.ISSUED_ROUNDS)
    assert security.hash_issued_password("x").split("$")[2] == str(security.ISSUED_ROUNDS)
