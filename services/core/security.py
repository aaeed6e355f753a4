"""Passwords, session tokens and the login lockout; the only module that imports passlib."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from passlib.hash import argon2, pbkdf2_sha256

PASSWORD_MIN_LENGTH = 8
PASSWORD_MAX_LENGTH = 200
LOCKOUT_FAILURES = 5
LOCKOUT_WINDOW = timedelta(minutes=15)
LOCKOUT_DURATION = timedelta(minutes=15)

# Readable passwords for people who get them on paper: no 0/O, 1/l/I.
_PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
# A real hash to verify against when the login name is unknown, so that a wrong
# name costs as much time as a wrong password and both look the same.
_DUMMY_HASH = argon2.hash(secrets.token_urlsafe(16))


# An issued password (generated here: 12 characters of 55, about 69 bits) needs no slow hash to be out of reach
# of guessing from a stolen database: PBKDF2 at these rounds costs ~1 ms, so 200 players are imported in a moment
# instead of 90 s of argon2 (issue 29, finding 10). Its first login re-hashes it with argon2 (`needs_rehash`), as
# does every password a person chooses.
ISSUED_ROUNDS = 2000
_ISSUED = pbkdf2_sha256.using(rounds=ISSUED_ROUNDS)
# The quick hash's counterpart of _DUMMY_HASH: checked for the accounts that have no issued hash.
_DUMMY_ISSUED = _ISSUED.hash(secrets.token_urlsafe(16))


def hash_password(password: str) -> str:
    hashed: str = argon2.hash(password)  # passlib is untyped
    return hashed


def hash_issued_password(password: str) -> str:
    """The hash of a password this module generated (never of one a person chose)."""
    hashed: str = _ISSUED.hash(password)
    return hashed


def needs_rehash(password_hash: str) -> bool:
    """An issued password's quick hash: replaced by argon2 at its first successful login."""
    return not password_hash.startswith("$argon2")


def verify_password(password: str, password_hash: str | None) -> bool:
    """Whether the password matches. Every way through costs one PBKDF2 check at the issued rounds and one argon2
    operation, whatever the account (unknown, an issued password never used, argon2) and whether the password is
    right, so the time tells nothing (issue 29): a dummy of the kind the account lacks is checked too. An issued
    password's success leaves its argon2 operation to the caller, which re-hashes it (`needs_rehash`)."""
    if not password_hash:
        pbkdf2_sha256.verify(password, _DUMMY_ISSUED)
        argon2.verify(password, _DUMMY_HASH)
        return False
    try:
        if password_hash.startswith("$pbkdf2-sha256$"):
            if pbkdf2_sha256.verify(password, password_hash):
                return True  # the caller re-hashes it with argon2: a success costs as much as a failure
            argon2.verify(password, _DUMMY_HASH)
            return False
        pbkdf2_sha256.verify(password, _DUMMY_ISSUED)
        matches: bool = argon2.verify(password, password_hash)
        return matches
    except ValueError:
        return False


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
