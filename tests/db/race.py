"""Runs service calls at the same instant from threads or from forked processes, each with its own session.

Each competitor's outcome is "ok" or the Russian message of the error its service raised, so a test can check
that the loser of a race was told what a later, sequential caller would be told.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from services.core.db import make_engine, session_scope
from services.playoff.repo import PlayoffError
from services.results.entry import ResultsError
from services.scheduling.repo import SchedulingError

Call = tuple[Callable[..., Any], dict[str, Any]]
TOLD = (SchedulingError, ResultsError, PlayoffError)
_ENGINES: dict[tuple[int, str], sa.Engine] = {}


def engine_for(url: str) -> sa.Engine:
    """One engine per process (a forked child never reuses its parent's connections)."""
    key = (os.getpid(), url)
    if key not in _ENGINES:
        _ENGINES[key] = make_engine(url)
    return _ENGINES[key]


def attempt(url: str, call: Call) -> str:
    fn, kwargs = call
    try:
        with session_scope(engine_for(url)) as session:
            fn(session, **kwargs)
    except TOLD as error:
        return str(error)
    except Exception as error:  # noqa: BLE001 — anything else is a defect the test reports
        return f"UNEXPECTED {type(error).__name__}: {error}"
    return "ok"


def race(url: str, mode: str, calls: list[Call]) -> list[str]:
    """Starts every call together (a barrier) and returns their outcomes in the order given."""
    if mode == "thread":
        barrier = threading.Barrier(len(calls))
        outcomes: list[str] = [""] * len(calls)

        def run(i: int) -> None:
            barrier.wait()
            outcomes[i] = attempt(url, calls[i])

        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        return outcomes
    context = multiprocessing.get_context("fork")
    pbarrier = context.Barrier(len(calls))
    queue = context.Queue()

    def child(i: int) -> None:
        pbarrier.wait()
        queue.put((i, attempt(url, calls[i])))

    processes = [context.Process(target=child, args=(i,)) for i in range(len(calls))]
    for p in processes:
        p.start()
    results = dict(queue.get(timeout=60) for _ in processes)
    for p in processes:
        p.join(30)
    return [results[i] for i in range(len(calls))]
