"""A real local HTTP server that speaks enough of the OpenAI API for tests (no network).

The SDK has its own HTTP stack, so mocking httpx would not intercept it: tests point a real
`openai.OpenAI` client at this server instead. Each route turns a request body into
(status, payload) or (status, payload, headers); every accepted request body is kept in
`server.requests`. `ChatScript` is a scripted `/v1/chat/completions` route: replies queued per
structured-output schema (`DraftReply`, `SolveReply`, ...), each a reply text, an HTTP error, a
delay or a function of the request.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import openai

API_KEY = "test"
Response = tuple[int, dict[str, Any]] | tuple[int, dict[str, Any], dict[str, str]]
Route = Callable[["FakeOpenAI", dict[str, Any]], Response]


class FakeOpenAI(ThreadingHTTPServer):
    def __init__(self, routes: dict[str, Route]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.routes = routes
        self.requests: list[dict[str, Any]] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def client(
        self, api_key: str = API_KEY, max_retries: int = 0, timeout: float = 10.0
    ) -> openai.OpenAI:
        return openai.OpenAI(
            base_url=self.base_url,
            api_key=api_key,
            max_retries=max_retries,
            timeout=timeout,
            # Plain HTTP on localhost: skip loading the CA bundle (~50 ms a client).
            http_client=openai.DefaultHttpxClient(verify=False),
        )

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that timed out has closed its socket: nothing to report


class _Handler(BaseHTTPRequestHandler):
    server: FakeOpenAI

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        route = self.server.routes.get(self.path)
        if route is None or self.headers.get("Authorization") != f"Bearer {API_KEY}":
            self._send(404, {"error": {"message": f"no route {self.path}", "type": "invalid"}})
            return
        self.server.requests.append(body)
        self._send(*route(self.server, body))

    def _send(
        self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
    ) -> None:
        raw = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(raw)


@contextmanager
def serving(routes: dict[str, Route]) -> Iterator[tuple[FakeOpenAI, openai.OpenAI]]:
    """The server running in a thread, and a client pointed at it."""
    server = FakeOpenAI(routes)
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    client = server.client()
    try:
        yield server, client
    finally:
        client.close()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# -- scripted chat completions ---------------------------------------------------------------


def chat_completion(
    content: str | None,
    *,
    model: str = "fake-model",
    refusal: str | None = None,
    finish_reason: str = "stop",
    prompt_tokens: int = 100,
    completion_tokens: int = 20,
    cached_tokens: int = 0,
) -> dict[str, Any]:
    """A chat.completion body with one choice and its usage."""
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "finish_reason": finish_reason,
                "message": {"role": "assistant", "content": content, "refusal": refusal},
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
            "prompt_tokens_details": {"cached_tokens": cached_tokens},
        },
    }


def api_error(status: int, message: str = "scripted error") -> Response:
    """An error response the SDK may retry at once (`retry-after-ms: 1` keeps tests fast)."""
    kind = "rate_limit_exceeded" if status == 429 else "server_error"
    return status, {"error": {"message": message, "type": kind}}, {"retry-after-ms": "1"}


@dataclass(frozen=True)
class Delayed:
    """Answer `then` after `seconds` (longer than a client's timeout: the client gives up)."""

    seconds: float
    then: Turn


# One scripted turn: reply text (200), a full body (200), a response tuple, a delay, or a
# function of the request body that returns one of those.
Turn = str | dict[str, Any] | tuple[Any, ...] | Delayed | Callable[[dict[str, Any]], Any]


def schema_name(body: dict[str, Any]) -> str:
    """The structured-output schema a chat request asks for ('' when none)."""
    rf = body.get("response_format") or {}
    return str((rf.get("json_schema") or {}).get("name", ""))


def user_text(body: dict[str, Any]) -> str:
    """The text of the last user message of a chat request."""
    content = [m for m in body["messages"] if m["role"] == "user"][-1]["content"]
    return content if isinstance(content, str) else json.dumps(content)


class ChatScript:
    """A `/v1/chat/completions` route replying from a queue per schema name, in order.

    When a queue is empty the schema's `fallback` (a Turn) answers, or a 500 error if none.
    """

    def __init__(
        self,
        script: dict[str, Iterable[Turn]] | None = None,
        fallback: dict[str, Turn] | None = None,
    ) -> None:
        self.queues: dict[str, deque[Turn]] = {k: deque(v) for k, v in (script or {}).items()}
        self.fallback = dict(fallback or {})
        self.seen: list[str] = []
        self._lock = threading.Lock()

    def add(self, schema: str, *turns: Turn) -> None:
        with self._lock:
            self.queues.setdefault(schema, deque()).extend(turns)

    def __call__(self, server: FakeOpenAI, body: dict[str, Any]) -> Response:
        name = schema_name(body)
        with self._lock:
            self.seen.append(name)
            queue = self.queues.get(name)
            turn = queue.popleft() if queue else self.fallback.get(name)
        if turn is None:
            return api_error(500, f"script exhausted for {name!r}")
        return self._response(turn, body)

    def _response(self, turn: Turn, body: dict[str, Any]) -> Response:
        while True:
            if isinstance(turn, Delayed):
                time.sleep(turn.seconds)
                turn = turn.then
            elif callable(turn):
                turn = turn(body)
            else:
                break
        if isinstance(turn, str):
            return 200, chat_completion(turn, model=body["model"])
        if isinstance(turn, dict):
            return 200, turn
        return turn  # type: ignore[return-value]
