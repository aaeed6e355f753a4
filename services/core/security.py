"""Passwords, session tokens and the login lockout; the only module that imports passlib."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from passlib.hash import argon2

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


def hash_password(password: str) -> str:
    return argon2.hash(password)


def verify_password(password: str, password_hash: str | None) -> bool:
    if not password_hash:
        argon2.verify(password, _DUMMY_HASH)
        return False
    try:
        return argon2.verify(password, password_hash)
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
