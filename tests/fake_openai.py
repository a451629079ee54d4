"""A real local HTTP server that speaks enough of the OpenAI API for tests (no network).

The SDK has its own HTTP stack, so mocking httpx would not intercept it: tests point a real
`openai.OpenAI` client at this server instead. Each route turns a request body into
(status, payload); every accepted request body is kept in `server.requests`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import openai

API_KEY = "test"
Route = Callable[["FakeOpenAI", dict[str, Any]], tuple[int, dict[str, Any]]]


class FakeOpenAI(ThreadingHTTPServer):
    def __init__(self, routes: dict[str, Route]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.routes = routes
        self.requests: list[dict[str, Any]] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def client(self, api_key: str = API_KEY) -> openai.OpenAI:
        return openai.OpenAI(base_url=self.base_url, api_key=api_key, max_retries=0)


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

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        raw = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
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
