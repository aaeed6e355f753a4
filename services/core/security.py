"""Passwords, session tokens and the login lockout; the only module that hashes passwords (argon2-cffi)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

PASSWORD_MIN_LENGTH = 8
PASSWORD_MAX_LENGTH = 200
LOCKOUT_FAILURES = 5
LOCKOUT_WINDOW = timedelta(minutes=15)
LOCKOUT_DURATION = timedelta(minutes=15)

# Readable passwords for people who get them on paper: no 0/O, 1/l/I.
_PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
# OWASP's Password Storage Cheat Sheet, argon2id's first choice: 19 MiB, two passes, one lane (about 25 ms here;
# passlib's default, 64 MiB × 3 × 4, took 0.48 s). A hash made with other parameters (passlib's) still verifies
# and is made anew at its next successful login (`needs_rehash`).
_ARGON2 = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
# A real hash to verify against when the login name is unknown, so that a wrong
# name costs as much time as a wrong password and both look the same.
_DUMMY_HASH = _ARGON2.hash(secrets.token_urlsafe(16))


# An issued password (generated here: 12 characters of 55, about 69 bits) needs no slow hash to be out of reach
# of guessing from a stolen database: PBKDF2 at these rounds costs ~1 ms, so 200 players are imported in a moment
# (issue 29, finding 10), and a quick hash tells the organizer whose sheet is still unused (`is_issued`). Its
# first login re-hashes it with argon2 (`needs_rehash`), as does every password a person chooses. The string is
# passlib's `pbkdf2_sha256` format, so the hashes issued before stay valid.
ISSUED_ROUNDS = 2000
_ISSUED_PREFIX = "$pbkdf2-sha256$"


def _ab64(data: bytes) -> str:
    return base64.b64encode(data).decode().rstrip("=").replace("+", ".")


def _pbkdf2(password: str, salt: bytes, rounds: int) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, rounds)


def _issued_hash(password: str, salt: bytes) -> str:
    return f"{_ISSUED_PREFIX}{ISSUED_ROUNDS}${_ab64(salt)}${_ab64(_pbkdf2(password, salt, ISSUED_ROUNDS))}"


def _verify_issued(password: str, stored: str) -> bool:
    try:
        rounds, salt, checksum = stored.removeprefix(_ISSUED_PREFIX).split("$")
        raw_salt = base64.b64decode(salt.replace(".", "+") + "=" * (-len(salt) % 4))
        computed = _ab64(_pbkdf2(password, raw_salt, int(rounds)))
    except ValueError:
        return False
    return hmac.compare_digest(computed, checksum)


# The quick hash's counterpart of _DUMMY_HASH: checked for the accounts that have no issued hash.
_DUMMY_ISSUED = _issued_hash(secrets.token_urlsafe(16), secrets.token_bytes(16))


def hash_password(password: str) -> str:
    return _ARGON2.hash(password)


def hash_issued_password(password: str) -> str:
    """The hash of a password this module generated (never of one a person chose)."""
    return _issued_hash(password, secrets.token_bytes(16))


def is_issued(password_hash: str) -> bool:
    """An issued password's quick hash: nobody has logged in with it yet."""
    return password_hash.startswith(_ISSUED_PREFIX)


def needs_rehash(password_hash: str) -> bool:
    """Made anew at the next successful login: an issued password's quick hash, or argon2 at other parameters."""
    return is_issued(password_hash) or _ARGON2.check_needs_rehash(password_hash)


def _verify_argon2(password: str, password_hash: str) -> bool:
    try:
        return _ARGON2.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def verify_password(password: str, password_hash: str | None) -> bool:
    """Whether the password matches. Every way through costs one PBKDF2 check at the issued rounds and one argon2
    operation, whatever the account (unknown, an issued password never used, argon2) and whether the password is
    right, so the time tells nothing (issue 29): a dummy of the kind the account lacks is checked too. An issued
    password's success leaves its argon2 operation to the caller, which re-hashes it (`needs_rehash`)."""
    if not password_hash:
        _verify_issued(password, _DUMMY_ISSUED)
        _verify_argon2(password, _DUMMY_HASH)
        return False
    if is_issued(password_hash):
        if _verify_issued(password, password_hash):
            return True  # the caller re-hashes it with argon2: a success costs as much as a failure
        _verify_argon2(password, _DUMMY_HASH)
        return False
    _verify_issued(password, _DUMMY_ISSUED)
    return _verify_argon2(password, password_hash)


def password_problem(password: str, login_name: str, normalize: Callable[[str], str]) -> str | None:
    """What is wrong with a password a person chooses (None: nothing): at least 8 characters that are not all
    spaces, no longer than the form takes, and not the login name (`normalize` is how login names compare)."""
    if not password.strip():
        return "Пароль из одних пробелов не годится."
    if len(password) < PASSWORD_MIN_LENGTH:
        return f"Новый пароль короче {PASSWORD_MIN_LENGTH} символов."
    if len(password) > PASSWORD_MAX_LENGTH:
        return f"Новый пароль длиннее {PASSWORD_MAX_LENGTH} символов."
    if normalize(password) == normalize(login_name):
        return "Пароль не должен совпадать с именем для входа."
    return None


def generate_password(length: int = 12) -> str:
    return "".join(secrets.choice(_PASSWORD_ALPHABET) for _ in range(length))


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """Sessions store only a digest: a stolen database row is not a login."""
    return hashlib.sha256(token.encode()).hexdigest()


def locked_until(failures: Sequence[datetime], now: datetime) -> datetime | None:
    """When a login name may try again, or None if it may try now.

    `failures` are the failed attempts for one login name since its last success.
    Five failures inside 15 minutes lock the name for 15 minutes from the fifth.
    """
    recent = sorted(f for f in failures if now - f < LOCKOUT_WINDOW + LOCKOUT_DURATION)
    for i in range(len(recent) - LOCKOUT_FAILURES + 1):
        first, fifth = recent[i], recent[i + LOCKOUT_FAILURES - 1]
        if fifth - first < LOCKOUT_WINDOW and now < fifth + LOCKOUT_DURATION:
            return fifth + LOCKOUT_DURATION
    return None


def sign_device(device_id: str, key: bytes) -> str:
    """The device cookie's value: the id and its HMAC, so the server knows it issued the id."""
    mac = hmac.new(key, device_id.encode(), hashlib.sha256).hexdigest()[:32]
    return f"{device_id}.{mac}"


def signed_device_id(cookie: str, key: bytes) -> str | None:
    """The id inside a device cookie this server signed, or None for an unsigned, forged or malformed one."""
    device_id, dot, _ = cookie.rpartition(".")
    if not dot or not device_id or len(cookie) > 200:
        return None
    return device_id if hmac.compare_digest(sign_device(device_id, key), cookie) else None
