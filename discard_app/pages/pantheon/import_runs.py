"""Pantheon imports running in this worker's threads, each by its run id: the page's guarded `import_now` starts
one, its read-only `follow_import` shows the progress and then the summary. The worker's memory only (like
`state/tab_memory.py`); the database's lease (services/pantheon/sync.py) keeps one import per season across workers.
Imports nothing of Reflex."""

from __future__ import annotations

import logging
import threading
import uuid
from dataclasses import dataclass, field, replace

from discard_app import texts
from services.pantheon.sync import SyncError, SyncSummary, run_sync

log = logging.getLogger(__name__)


@dataclass
class Run:
    latest: list[SyncSummary] = field(default_factory=list)  # the import's progress, newest last
    summary: SyncSummary | None = None
    error: str = ""  # the import could not start (already running, no settings): Russian
    done: threading.Event = field(default_factory=threading.Event)


_RUNS: dict[str, Run] = {}


def start(season_id: int, user_id: int) -> str:
    """The season's import in a thread of its own (blocking HTTP and database); its run id."""
    run_id, run = uuid.uuid4().hex, Run()

    def work() -> None:
        try:
            run.summary = run_sync(season_id, user_id, progress=lambda s: run.latest.append(replace(s)))
        except SyncError as error:
            run.error = str(error)
        except Exception:  # a defect: logged, and the organizer reads what to do
            log.exception("the Pantheon import failed")
            run.error = texts.UNEXPECTED_ERROR
        finally:
            run.done.set()

    _RUNS[run_id] = run
    threading.Thread(target=work, name=f"pantheon-import-{season_id}", daemon=True).start()
    return run_id


def read_so_far(run_id: str) -> int | None:
    """Games read until now; None for a run this worker does not know."""
    run = _RUNS.get(run_id)
    if run is None:
        return None
    return run.latest[-1].read if run.latest else 0


def over(run_id: str) -> bool:
    """True once the run has ended (or is unknown here)."""
    run = _RUNS.get(run_id)
    return run is None or run.done.is_set()


def finish(run_id: str) -> Run | None:
    """The run's outcome, forgotten here: each run is reported once."""
    return _RUNS.pop(run_id, None)
