"""The probe bench/save_profile.py loads into the site's own process (through a `sitecustomize` it writes into a
temporary folder on PYTHONPATH): it times the parts of each event the page state handles — the whole event, the
handler, the one transaction (`_perform`), the page's reload, the delta, the state's pickling — counts its SQL
statements, and writes one JSON line per event to `$SAVE_PROBE_OUT`. Pushes to other open tabs
(`live_push._push`) are written as lines of their own. Not imported by the app; only a benchmark loads it.
"""

from __future__ import annotations

import contextvars
import functools
import json
import os
import pickle
import threading
import time
from typing import Any

_current: contextvars.ContextVar[dict | None] = contextvars.ContextVar("save_probe", default=None)
_write = threading.Lock()
_patched_app = False


def _add(key: str, value: float) -> None:
    record = _current.get()
    if record is not None:
        record[key] = record.get(key, 0) + value


def _emit(record: dict) -> None:
    with _write, open(os.environ["SAVE_PROBE_OUT"], "a") as out:
        out.write(json.dumps(record) + "\n")


def _timed_sync(name: str, fn: Any) -> Any:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        record = _current.get()
        before = record.get("statements", 0) if record else 0
        started = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            _add(f"{name}_ms", (time.perf_counter() - started) * 1000)
            if record is not None:
                _add(f"{name}_statements", record.get("statements", 0) - before)

    return wrapper


def _tree_pickles(root: Any) -> dict[str, Any]:
    """What a state manager writes after this event: every touched state of the tab's tree, pickled as
    `BaseState._serialize` does, and read back as `_deserialize` does (Redis reads the handler's states anew for
    each event; the disk manager writes the touched ones)."""
    sizes: dict[str, int] = {}
    dump_ms = load_ms = 0.0
    whole = 0
    stack = [root]
    while stack:
        state = stack.pop()
        stack.extend(state.substates.values())
        payload = pickle.dumps((state._to_schema(), state))
        whole += len(payload)
        if not state._was_touched:
            continue
        started = time.perf_counter()
        payload = state._serialize()
        dump_ms += (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        type(state)._deserialize(payload)
        load_ms += (time.perf_counter() - started) * 1000
        sizes[state.get_name()] = len(payload)
    return {"pickle_ms": dump_ms, "unpickle_ms": load_ms, "pickled": sizes, "tree_bytes": whole}


def _patch_app() -> None:
    """The app's own parts, once its modules are imported (at the first event)."""
    global _patched_app  # noqa: PLW0603
    if _patched_app:
        return
    _patched_app = True
    from discard_app import live_push  # noqa: PLC0415
    from discard_app.pages.scheduling import match_schedule_state as page  # noqa: PLC0415
    from discard_app.state.action import GuardedActions  # noqa: PLC0415

    GuardedActions._perform = _timed_sync("perform", GuardedActions._perform)
    page.MatchScheduleState._refresh = _timed_sync("refresh", page.MatchScheduleState._refresh)
    page.meetings = _timed_sync("meetings", page.meetings)
    original_push = live_push._push

    @functools.wraps(original_push)
    async def push(*args: Any, **kwargs: Any) -> Any:
        memo = getattr(live_push, "_round", None)  # the round's shared reads (absent before they were shared)
        memo = memo.get() if memo is not None else None
        record = {
            "event": "push",
            "statements": 0,
            "round": id(memo) if memo is not None else 0,
            "shared_before": len(memo or {}),
        }
        token = _current.set(record)
        started = time.perf_counter()
        try:
            return await original_push(*args, **kwargs)
        finally:
            record["total_ms"] = (time.perf_counter() - started) * 1000
            _current.reset(token)
            _emit(record)

    live_push._push = push


def install() -> None:
    import sqlalchemy as sa  # noqa: PLC0415
    from reflex.state import BaseState  # noqa: PLC0415
    from reflex_base.event.processor import base_state_processor as processor  # noqa: PLC0415
    from reflex_base.utils import format as rx_format  # noqa: PLC0415

    @sa.event.listens_for(sa.Engine, "before_cursor_execute")
    def _count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        _add("statements", 1)
        record = _current.get()
        if record is not None and os.environ.get("SAVE_PROBE_SQL"):
            record.setdefault("sql", []).append(" ".join(statement.split())[:150])

    original_execute = processor.BaseStateEventProcessor._execute_event

    @functools.wraps(original_execute)
    async def execute(self: Any, *, entry: Any, registered_handler: Any) -> None:
        _patch_app()
        record: dict[str, Any] = {"event": entry.event.name.rsplit(".", 1)[-1], "statements": 0}
        token = _current.set(record)
        started = time.perf_counter()
        try:
            await original_execute(self, entry=entry, registered_handler=registered_handler)
        finally:
            record["total_ms"] = (time.perf_counter() - started) * 1000
            _current.reset(token)
            _emit(record)

    processor.BaseStateEventProcessor._execute_event = execute

    original_process = processor.process_event

    @functools.wraps(original_process)
    async def process_event(handler: Any, payload: dict, state: Any, root_state: Any) -> None:
        started = time.perf_counter()
        await original_process(handler=handler, payload=payload, state=state, root_state=root_state)
        _add("process_ms", (time.perf_counter() - started) * 1000)
        record = _current.get()
        if record is not None and root_state is not None:
            record["notice"] = str(getattr(state, "notice", ""))[:40]
            record.update(_tree_pickles(root_state))

    processor.process_event = process_event

    original_delta = BaseState._get_resolved_delta

    @functools.wraps(original_delta)
    async def resolved_delta(self: Any) -> Any:
        started = time.perf_counter()
        delta = await original_delta(self)
        _add("delta_ms", (time.perf_counter() - started) * 1000)
        _add("deltas", 1)
        record = _current.get()
        if record is not None:
            sizes = record.setdefault("delta_bytes", {})
            for name, values in delta.items():
                short = name.rsplit(".", 1)[-1]
                for var, value in values.items():
                    key = f"{short}.{var.removesuffix('_rx_state_')}"
                    sizes[key] = sizes.get(key, 0) + len(rx_format.json_dumps(value))
        return delta

    BaseState._get_resolved_delta = resolved_delta
    # Redis or the disk manager's own (de)serialisation, whenever it runs inside an event
    BaseState._serialize = _timed_sync("serialize", BaseState._serialize)
    BaseState._deserialize = staticmethod(_timed_sync("deserialize", BaseState._deserialize))
