"""A fake Telegram Bot API on 127.0.0.1 for the bot tests: records every call and fails on request."""

from __future__ import annotations

import html
import json
import re
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

TOKEN = "123456:TEST-token-for-the-fake-api"
BOT_USERNAME = "discard_test_bot"
_INT_FIELDS = {"chat_id", "message_id", "message_thread_id", "offset", "limit", "timeout"}
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    at: float
    status: int


@dataclass
class Failure:
    status: int
    description: str
    retry_after: int | None = None


@dataclass
class FakeBotApi:
    """State shared with the handler thread; guarded by `lock`."""

    calls: list[Call] = field(default_factory=list)
    messages: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    failures: dict[str, deque[Failure]] = field(default_factory=dict)
    down: bool = False  # every call answers HTTP 500, as when Telegram is unavailable
    updates: list[dict[str, Any]] = field(default_factory=list)
    # Message ids are sequential per chat, as in Telegram; every chat has some history before the bot's first.
    last_ids: dict[int, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    port: int = 0
    # Telegram accepts the n-th call of a method (1-based) at once but answers it only after these seconds.
    late_answers: dict[tuple[str, int], float] = field(default_factory=dict)
    # The n-th call of a method waits before Telegram sees it, until `release_held` (then it is dropped:
    # it never reached Telegram, as when the sender is killed mid-request).
    hold: tuple[str, int] | None = None
    held: threading.Event = field(default_factory=threading.Event)
    release_held: threading.Event = field(default_factory=threading.Event)
    # The n-th call of a method is carried out (the message posted) but its answer waits until `release_held`
    # (as when the sender is killed while Telegram answers).
    hold_answer: tuple[str, int] | None = None
    seen: dict[str, int] = field(default_factory=dict)
    update_id: int = 0
    too_old: set[str] = field(default_factory=set)  # callback query ids Telegram no longer lets the bot answer

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    def fail(self, method: str, status: int, *, times: int = 1, description: str = "", retry_after: int | None = None):
        with self.lock:
            queue = self.failures.setdefault(method, deque())
            queue.extend(Failure(status, description or f"fake failure {status}", retry_after) for _ in range(times))

    def someone_posts(self, chat_id: int, text: str = "сообщение участника") -> int:
        """A person writes in the chat: the next message id is theirs, which the bot cannot edit."""
        with self.lock:
            message_id = self._next_id(chat_id)
            self.messages[(chat_id, message_id)] = {"text": text, "thread_id": None, "ours": False}
            return message_id

    def _next_id(self, chat_id: int) -> int:
        self.last_ids[chat_id] = self.last_ids.get(chat_id, 100) + 1
        return self.last_ids[chat_id]

    def delete_message(self, chat_id: int, message_id: int) -> None:
        with self.lock:
            del self.messages[(chat_id, message_id)]

    def accepted(self, method: str | None = None) -> list[Call]:
        with self.lock:
            return [c for c in self.calls if c.status == 200 and (method is None or c.method == method)]

    def texts_to(self, chat_id: int) -> list[str]:
        """The texts of the messages sent to one chat, in order."""
        return [c.params["text"] for c in self.accepted("sendMessage") if c.params["chat_id"] == chat_id]

    def all_calls(self, method: str | None = None) -> list[Call]:
        with self.lock:
            return [c for c in self.calls if method is None or c.method == method]

    # --- the handler side ------------------------------------------------------------------

    def handle(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self.lock:
            self.seen[method] = number = self.seen.get(method, 0) + 1
        if self.hold == (method, number):
            self.held.set()
            self.release_held.wait(60)
            return 500, {"ok": False, "error_code": 500, "description": "held and dropped"}
        with self.lock:
            status, body = self._answer(method, params)
            self.calls.append(Call(method, params, time.monotonic(), status))
        if self.hold_answer == (method, number):
            self.held.set()
            self.release_held.wait(60)
        time.sleep(self.late_answers.get((method, number), 0))
        return status, body

    def _answer(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if self.down:
            return 500, {"ok": False, "error_code": 500, "description": "Internal Server Error"}
        queue = self.failures.get(method)
        if queue:
            failure = queue.popleft()
            body: dict[str, Any] = {"ok": False, "error_code": failure.status, "description": failure.description}
            if failure.retry_after is not None:
                body["parameters"] = {"retry_after": failure.retry_after}
            return failure.status, body
        handler = getattr(self, f"_{method}", None)
        if handler is None:
            return 404, {"ok": False, "error_code": 404, "description": "Not Found: method not found"}
        return handler(params)

    def _getMe(self, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:  # noqa: N802
        user = {"id": 123456, "is_bot": True, "first_name": "Дискард", "username": BOT_USERNAME}
        return 200, {"ok": True, "result": user}

    def _message(self, chat_id: int, message_id: int, text: str, thread_id: int | None) -> dict[str, Any]:
        # As Telegram answers: the text without its HTML (the formatting would come as entities).
        chat = {"id": chat_id, "type": "supergroup" if chat_id < 0 else "private"}
        result = {"message_id": message_id, "date": int(time.time()), "chat": chat, "text": plain_text(text)}
        if thread_id is not None:
            result["message_thread_id"] = thread_id
        markup = self.messages.get((chat_id, message_id), {}).get("markup")
        if markup:
            result["reply_markup"] = markup
        return result

    def _sendMessage(self, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:  # noqa: N802
        chat_id, thread_id = params["chat_id"], params.get("message_thread_id")
        message_id = self._next_id(chat_id)
        markup = params.get("reply_markup") or None
        self.messages[(chat_id, message_id)] = {
            "text": params["text"], "thread_id": thread_id, "ours": True, "markup": markup,
        }  # fmt: skip
        return 200, {"ok": True, "result": self._message(chat_id, message_id, params["text"], thread_id)}

    def _editMessageText(self, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:  # noqa: N802
        key = (params["chat_id"], params["message_id"])
        if key not in self.messages:
            return 400, {"ok": False, "error_code": 400, "description": "Bad Request: message to edit not found"}
        if not self.messages[key]["ours"]:
            return 400, {"ok": False, "error_code": 400, "description": "Bad Request: message can't be edited"}
        # As Telegram: an edit without reply_markup leaves the message without buttons.
        markup = params.get("reply_markup") or None
        if self.messages[key]["text"] == params["text"] and self.messages[key].get("markup") == markup:
            return 400, {"ok": False, "error_code": 400, "description": NOT_MODIFIED}
        self.messages[key]["text"], self.messages[key]["markup"] = params["text"], markup
        return 200, {"ok": True, "result": self._message(*key, params["text"], self.messages[key]["thread_id"])}

    def _editMessageReplyMarkup(self, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:  # noqa: N802
        key = (params["chat_id"], params["message_id"])
        if key not in self.messages:
            return 400, {"ok": False, "error_code": 400, "description": "Bad Request: message to edit not found"}
        if not self.messages[key]["ours"]:
            return 400, {"ok": False, "error_code": 400, "description": "Bad Request: message can't be edited"}
        markup = params.get("reply_markup") or None
        if self.messages[key].get("markup") == markup:
            return 400, {"ok": False, "error_code": 400, "description": NOT_MODIFIED}
        self.messages[key]["markup"] = markup
        message = self.messages[key]
        return 200, {"ok": True, "result": self._message(*key, message["text"], message["thread_id"])}

    def our_message(self, chat_id: int, text: str) -> int:
        """A message of this bot that the database under test does not know (sent before it, or by another)."""
        with self.lock:
            message_id = self._next_id(chat_id)
            self.messages[(chat_id, message_id)] = {"text": text, "thread_id": None, "ours": True}
            return message_id

    def _answerCallbackQuery(self, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:  # noqa: N802
        if params.get("callback_query_id") in self.too_old:  # as Telegram answers a tap that waited too long
            return 400, {"ok": False, "error_code": 400, "description": "Bad Request: query is too old"}
        return 200, {"ok": True, "result": True}

    def buttons(self, chat_id: int, message_id: int) -> list[tuple[str, str]]:
        """The message's buttons as (label, callback data or url), row by row."""
        with self.lock:
            markup = self.messages[(chat_id, message_id)].get("markup") or {}
        rows = markup.get("inline_keyboard", [])
        return [(b["text"], b.get("callback_data") or b.get("url", "")) for row in rows for b in row]

    def last_message(self, chat_id: int) -> tuple[int, dict[str, Any]]:
        """The newest message of ours in the chat: its id and what it holds now (text, markup)."""
        with self.lock:
            message_id = max(m for (c, m), v in self.messages.items() if c == chat_id and v["ours"])
            return message_id, dict(self.messages[(chat_id, message_id)])

    def forward(self, chat_id: int, message_id: int, *, to: int) -> int:
        """A person forwards the bot's message, buttons and all, to the chat `to`: the bot cannot edit it there."""
        with self.lock:
            original = self.messages[(chat_id, message_id)]
            forwarded = self._next_id(to)
            self.messages[(to, forwarded)] = {**original, "thread_id": None, "ours": False}
            return forwarded

    def tap(self, chat_id: int, message_id: int, data: str, *, by: int) -> dict[str, Any]:
        """An update as Telegram sends it when account `by` taps a button with `data` on the message `message_id`
        of chat `chat_id` (the owner's private chat, or a chat it was forwarded to)."""
        with self.lock:
            self.update_id += 1
            message = self._message(chat_id, message_id, self.messages[(chat_id, message_id)]["text"], None)
        sender = {"id": by, "is_bot": False, "first_name": "Игрок"}
        query = {"id": f"q{self.update_id}", "from": sender, "chat_instance": str(chat_id), "data": data}
        return {"update_id": self.update_id, "callback_query": {**query, "message": message}}

    def answers(self) -> list[dict[str, Any]]:
        """What the bot answered the taps (answerCallbackQuery's fields), in order."""
        return [c.params for c in self.all_calls("answerCallbackQuery")]

    def _getUpdates(self, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:  # noqa: N802
        offset = params.get("offset") or 0
        pending = [u for u in self.updates if u["update_id"] >= offset]
        return 200, {"ok": True, "result": pending}

    def _deleteWebhook(self, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:  # noqa: N802
        return 200, {"ok": True, "result": True}


def plain_text(html_text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", html_text))


def _parse(body: bytes) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for name, values in parse_qs(body.decode(), keep_blank_values=True).items():
        value: Any = values[0]
        if name in _INT_FIELDS:
            value = int(value)
        elif name not in {"text"} and value[:1] in "{[":
            value = json.loads(value)
        params[name] = value
    return params


def start_fake_api() -> tuple[FakeBotApi, ThreadingHTTPServer]:
    api = FakeBotApi()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            prefix = f"/bot{TOKEN}/"
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            if not self.path.startswith(prefix):
                status, answer = 401, {"ok": False, "error_code": 401, "description": "Unauthorized"}
            else:
                status, answer = api.handle(self.path.removeprefix(prefix), _parse(body))
            data = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST  # noqa: N815

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    api.port = server.server_address[1]
    threading.Thread(target=server.serve_forever, name="fake-bot-api", daemon=True).start()
    return api, server
