"""Password hashing and the login lockout, with the clock passed in."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from services.core import security

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


# Made by passlib 1.7.4 (libpass) before issue 42, at its defaults: 64 MiB, three passes, four lanes.
PASSLIB_ARGON2_OF_X = (
    "$argon2id$v=19$m=65536,t=3,p=4$13ovhdA6R6g1pnSutRaCEA$NsR+Oa5D18c4BYxpsR0nAad/ouKjzDOjuhVUvTPNerI"
)
PASSLIB_ISSUED_OF_PW = "$pbkdf2-sha256$2000$PkcoBeD8P0cohfD.PweAkA$GcTzbvhVV98QkftTrQM8skw2eDBH5LBFsPBeWQ9rPYY"


def test_argon2_hash_verifies_only_the_right_password() -> None:
    stored = security.hash_password("секрет-42")
    assert stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$")  # OWASP's argon2id: 19 MiB, 2 passes, 1 lane
    assert "секрет-42" not in stored
    assert security.verify_password("секрет-42", stored)
    assert not security.verify_password("секрет-43", stored)


def test_the_hashes_passlib_made_still_verify_and_are_made_anew() -> None:
    assert security.verify_password("x", PASSLIB_ARGON2_OF_X) and not security.verify_password("y", PASSLIB_ARGON2_OF_X)
    assert security.needs_rehash(PASSLIB_ARGON2_OF_X) and not security.is_issued(PASSLIB_ARGON2_OF_X)
    assert security.verify_password("pw", PASSLIB_ISSUED_OF_PW) and not security.verify_password(
        "px", PASSLIB_ISSUED_OF_PW
    )
    assert security.needs_rehash(PASSLIB_ISSUED_OF_PW) and security.is_issued(PASSLIB_ISSUED_OF_PW)


def test_missing_or_garbage_hash_never_verifies() -> None:
    assert not security.verify_password("x", None)
    assert not security.verify_password("x", "not-a-hash")
    assert not security.verify_password("pw", "$pbkdf2-sha256$2000$broken")


def test_generated_passwords_are_long_and_different() -> None:
    passwords = {security.generate_password() for _ in range(50)}
    assert len(passwords) == 50
    assert all(len(p) == 12 and not set(p) & set("0O1lI") for p in passwords)


def test_token_digest_is_stable_and_not_the_token() -> None:
    token = security.new_token()
    assert security.token_digest(token) == security.token_digest(token)
    assert security.token_digest(token) != token


def minutes_ago(*minutes: float) -> list[datetime]:
    return [NOW - timedelta(minutes=m) for m in minutes]


@pytest.mark.parametrize(
    ("failures", "locked"),
    [
        ([], None),
        (minutes_ago(4, 3, 2, 1), None),  # four failures are allowed
        (minutes_ago(5, 4, 3, 2, 1), NOW + timedelta(minutes=14)),  # the fifth locks for 15 min from itself
        (minutes_ago(20, 4, 3, 2, 1), None),  # the first one is outside the 15-minute window
        (minutes_ago(29, 28, 27, 26, 16), None),  # locked at 16 min ago: the lock ended a minute ago
        (minutes_ago(28, 27, 26, 25, 14), NOW + timedelta(minutes=1)),
        (minutes_ago(29, 28, 27, 26, 14), None),  # five failures spread over exactly 15 minutes
    ],
)
def test_lockout_after_five_failures_within_fifteen_minutes(failures: list[datetime], locked: datetime | None) -> None:
    assert security.locked_until(failures, NOW) == locked


def test_only_a_device_id_this_server_signed_counts() -> None:
    """Finding 29.3: the lockout was keyed by whatever `discard_device` the client sent."""
    key, other = b"k" * 32, b"o" * 32
    cookie = security.sign_device("abc", key)
    assert security.signed_device_id(cookie, key) == "abc"
    for forged in (
        "abc",
        "abc.",
        ".abc",
        security.sign_device("abc", other),
        cookie[:-1] + ("1" if cookie[-1] == "0" else "0"),
        "x" * 300,
        "",
    ):
        assert security.signed_device_id(forged, key) is None


def test_an_issued_password_is_hashed_quickly_and_verified_like_any_other() -> None:
    """Finding 29.10: 200 imported players took ~90 s of argon2 in one request. The cost is in the parameters (a
    wall-clock bound measured the run's load, not the hash)."""
    password = security.generate_password()
    stored = security.hash_issued_password(password)
    assert stored.startswith(f"$pbkdf2-sha256${security.ISSUED_ROUNDS}$") and security.ISSUED_ROUNDS <= 10_000
    assert security.needs_rehash(stored) and not security.needs_rehash(security.hash_password(password))
    assert security.verify_password(password, stored)
    assert not security.verify_password(password + "x", stored)


@pytest.mark.parametrize(
    ("password", "problem"),
    [
        ("        ", "из одних пробелов"),
        ("", "из одних пробелов"),
        ("семь-ch", "короче 8"),
        ("x" * 201, "длиннее 200"),
        ("Анна  Петрова", "не должен совпадать"),
        ("анна петрова", "не должен совпадать"),
    ],
)
def test_a_chosen_password_is_refused_saying_why(password: str, problem: str) -> None:
    found = security.password_problem(password, "анна петрова", lambda s: " ".join(s.split()).casefold())
    assert found is not None and problem in found


@pytest.mark.parametrize("password", ["восемь-8", "  с пробелами  ", "анна петрова 2"])
def test_a_good_password_passes(password: str) -> None:
    assert security.password_problem(password, "анна петрова", lambda s: " ".join(s.split()).casefold()) is None
