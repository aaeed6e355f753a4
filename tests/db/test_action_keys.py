"""A form's one-time action key: the action runs once, whoever sends it twice at the same instant (SQLite and
PostgreSQL); a refused action keeps the key free; another user's key is not theirs to replay."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable

import pytest
import sqlalchemy as sa
from sqlmodel import Session, func, select

from services.core.action_keys import perform_once
from services.core.audit import record_audit
from services.core.db import session_scope
from services.core.errors import LeagueError
from services.core.models import AuditRecord, Role, User
from services.league.accounts import create_user

KEY = uuid.uuid4().hex


def _users(engine: sa.Engine) -> tuple[int, int]:
    with session_scope(engine) as session:
        tag = uuid.uuid4().hex[:8]  # the PostgreSQL database is shared by the tests
        first, _ = create_user(session, display_name=f"Первая {tag}", role=Role.ORGANIZER)
        second, _ = create_user(session, display_name=f"Второй {tag}", role=Role.ORGANIZER)
        return first.id, second.id


def _act(engine: sa.Engine, user_id: int, key: str, *, refuse: bool = False, hold: Callable[[], None] | None = None):  # noqa: ANN202
    def run(session: Session) -> tuple[int, str]:
        record_audit(session, actor_user_id=user_id, action="test", entity="season", entity_id=None)
        if hold is not None:
            hold()  # the transaction stays open while the other send reaches the database
        if refuse:
            raise LeagueError("нет")
        return 1, "Сделано."

    return perform_once(key, user_id=user_id, action="test", run=run, bind=engine)


def _audits(engine: sa.Engine, user_id: int) -> int:
    with Session(engine) as session:
        mine = (AuditRecord.action == "test") & (AuditRecord.actor_user_id == user_id)
        return session.exec(select(func.count()).select_from(AuditRecord).where(mine)).one()


@pytest.fixture(autouse=True)
def _cheap_hash(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("services.core.security.hash_password", lambda password: "test-hash")


def test_the_same_key_sent_twice_at_once_acts_once(db: sa.Engine) -> None:
    user_id, _ = _users(db)
    answers = []
    lock, holding = threading.Lock(), []
    at_the_database: dict[int, threading.Event] = {}  # each send's thread, once it has sent a statement

    def statement(*_: object) -> None:
        if (reached := at_the_database.get(threading.get_ident())) is not None:
            reached.set()

    def hold() -> None:
        """The first send to run its action holds its transaction open until the other send has sent its first
        statement (its claim, or whatever it reads first; on PostgreSQL it then waits on the key's index): an
        ordering by events, not by the clock, and bounded, so a send that never comes fails below."""
        with lock:
            if holding:
                return
            holding.append(threading.get_ident())
        (other,) = (reached for ident, reached in at_the_database.items() if ident != holding[0])
        assert other.wait(10), "the other send never reached the database"

    both = threading.Barrier(2, timeout=10)

    def send() -> None:
        at_the_database[threading.get_ident()] = threading.Event()
        both.wait()  # both sends known before either acts: they go at once
        answers.append(_act(db, user_id, KEY + "1", hold=hold))

    sa.event.listen(db, "before_cursor_execute", statement)

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    sa.event.remove(db, "before_cursor_execute", statement)
    assert len(holding) == 1
    assert _audits(db, user_id) == 1
    assert sorted(a.repeated for a in answers) == [False, True]
    assert {a.message for a in answers} == {"Сделано."}  # the repeat answers with the first result


def test_a_refused_action_leaves_its_key_free_and_other_keys_act(db: sa.Engine) -> None:
    user_id, _ = _users(db)
    with pytest.raises(LeagueError):
        _act(db, user_id, KEY + "2", refuse=True)
    assert _audits(db, user_id) == 0
    assert not _act(db, user_id, KEY + "2").repeated  # the corrected form, sent again with its key
    assert not _act(db, user_id, KEY + "3").repeated
    assert _act(db, user_id, KEY + "3").repeated
    assert _audits(db, user_id) == 2
    with Session(db) as session:
        assert session.exec(select(User).where(User.id == user_id)).one()


def test_another_users_key_is_not_replayed_to_them(db: sa.Engine) -> None:
    first, second = _users(db)
    _act(db, first, KEY + "4")
    with pytest.raises(sa.exc.IntegrityError):
        _act(db, second, KEY + "4")
    assert (_audits(db, first), _audits(db, second)) == (1, 0)
