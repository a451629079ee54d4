"""A real local HTTP server that speaks enough of the OpenAI API for tests (no network).

The SDK has its own HTTP stack, so mocking httpx would not intercept it: tests point a real
`openai.OpenAI` client at this server instead. Each route turns a request body into
(status, payload) or (status, payload, headers); every accepted request body is kept in
`server.requests`. `ChatScript` is a scripted `/v1/chat/completions` route: replies queued per
structured-output schema (`DraftReply`, `SolveReply`, ...), each a reply text, an HTTP error, a
delay or a function of the request. `FakeModel` answers any draft or solve request plausibly,
for whole runs (the nightly, the benchmark).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import openai
from pydantic import SecretStr

from core.settings import Settings

API_KEY = "test"
Response = tuple[int, dict[str, Any]] | tuple[int, dict[str, Any], dict[str, str]]
Route = Callable[["FakeOpenAI", dict[str, Any]], Response]


class FakeOpenAI(ThreadingHTTPServer):
    # Room for many clients connecting at once: at the default 5, the kernel drops the rest
    # and they retry a second later, which is the server's delay, not the client's.
    request_queue_size = 256
    daemon_threads = True

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
        return turn


# -- a scripted model good enough for whole runs ---------------------------------------------

_CONTEXT_ID = re.compile(r"^\[([^\]]+)\] \(chunk\)", re.MULTILINE)
_WORD = re.compile(r"\b[a-z]{5,12}\b")
_REQUEST_LINE = re.compile(r"^(Format|Variation|Topic|Difficulty): (\S[^\n]*)$", re.MULTILINE)
# Steps that make each difficulty by the rubric (pipeline.difficulty), as a draft declares them.
STEPS_FOR = {"Easy": 1, "Medium": 2, "Hard": 3}


def demand_fields(body: dict[str, Any]) -> dict[str, Any]:
    """The demand fields of a draft reply that make the difficulty the request asks for."""
    request = dict(_REQUEST_LINE.findall(user_text(body)))
    claims = 2 if request.get("Format") in ("two_statements", "assertion_reason") else 1
    return {
        "steps": STEPS_FOR.get(request.get("Difficulty", ""), 1),
        "claims": claims,
        "demand_note": "scripted steps",
    }


TWO_STATEMENTS = (
    "Both Statement I and Statement II are correct",
    "Both Statement I and Statement II are incorrect",
    "Statement I is correct but Statement II is incorrect",
    "Statement I is incorrect but Statement II is correct",
)
ASSERTION_REASON = (
    "Both A and R are true and R is the correct explanation of A",
    "Both A and R are true but R is not the correct explanation of A",
    "A is true but R is false",
    "A is false but R is true",
)


def estimated_tokens(text: str) -> int:
    """About four characters a token, as tokenizers of English text average."""
    return max(1, len(text) // 4)


class FakeModel:
    """A fake model that drafts valid questions for whatever topic and format it is asked for
    and solves them as a decent model would: right most of the time, wrong some.

    Everything follows from a hash of the request, so a rerun gets the same replies in any
    order. About one draft in `bad_every` is not JSON (a draft rejection), one solve in
    `disagree_every` picks a distractor and one in `unsure_every` answers with low confidence
    (both rejections by the gate). Stems are random words of the topic's context, so no two
    drafts are near-duplicates. Usage is estimated from the text; the fixed system prompt counts
    as cached once a prompt reaches 1,024 tokens (in steps of 128, as providers cache). Each
    reply waits `latency` seconds first.
    """

    def __init__(
        self,
        latency: float = 0.0,
        bad_every: int = 12,
        disagree_every: int = 8,
        unsure_every: int = 20,
        markup_every: int = 0,
    ) -> None:
        self.latency = latency
        # One draft in `markup_every` (0: none) carries live markup: inside math, out of it.
        self.markup_every = markup_every
        self.bad_every = bad_every
        self.disagree_every = disagree_every
        self.unsure_every = unsure_every
        self.keys: dict[str, str] = {}  # stem → the key's text, for the solver
        self.confirmed: dict[str, bool] = {}  # stem → whether a solve picked its key, sure of it
        self._lock = threading.Lock()

    def script(self) -> ChatScript:
        """A chat route answering every draft and solve request from this model."""
        return ChatScript(
            fallback={
                "DraftReply": self._delayed(self.draft),
                "SolveReply": self._delayed(self.solve),
            }
        )

    def _delayed(self, turn: Callable[[dict[str, Any]], Any]) -> Turn:
        return Delayed(self.latency, turn) if self.latency > 0 else turn

    def _usage(self, body: dict[str, Any], content: str) -> dict[str, Any]:
        system = estimated_tokens(str(body["messages"][0]["content"]))
        prompt = sum(estimated_tokens(str(m["content"])) for m in body["messages"])
        cached = system // 128 * 128 if prompt >= 1024 else 0
        return chat_completion(
            content,
            model=body["model"],
            prompt_tokens=prompt,
            completion_tokens=estimated_tokens(content),
            cached_tokens=cached,
        )

    def draft(self, body: dict[str, Any]) -> dict[str, Any]:
        text = user_text(body)
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
        if seed % self.bad_every == 0:
            return self._usage(body, '{"stem_markdown": "Which')
        request = dict(_REQUEST_LINE.findall(text))
        context_ids = _CONTEXT_ID.findall(text)
        vocabulary = sorted(set(_WORD.findall(text.split("REQUEST")[0].lower())))
        rng = random.Random(seed)
        words = rng.sample(vocabulary, min(len(vocabulary), 28))
        stem_words, option_words = words[:20], words[20:]
        key = rng.randrange(4)
        fields: dict[str, Any] = {"answer_expression": None, "answer_unit": None}
        fmt = request.get("Format", "single_correct")
        if fmt == "numerical":
            a, b = rng.randint(2, 40), rng.randint(2, 40)
            values = [a * b, a * b * 2, a * b / 2, a * b * 3]
            values[0], values[key] = values[key], values[0]
            stem = f"Given $a = {a}$ and $b = {b}$ ({' '.join(stem_words[:10])}), what is $ab$?"
            options = [f"${v:.4g}\\ \\mathrm{{J}}$" for v in values]
            fields |= {"answer_expression": f"{a} * {b}", "answer_unit": "J"}
        elif fmt == "two_statements":
            stem = (
                f"Statement I: {' '.join(stem_words[:10])}.\n\n"
                f"Statement II: {' '.join(stem_words[10:20])}."
            )
            options = list(TWO_STATEMENTS)
        elif fmt == "assertion_reason":
            stem = (
                f"Assertion (A): {' '.join(stem_words[:10])}.\n\n"
                f"Reason (R): {' '.join(stem_words[10:20])}."
            )
            options = list(ASSERTION_REASON)
        else:
            stem = f"Which term belongs with: {' '.join(stem_words[:14])}?"
            options = [w.capitalize() for w in option_words[:4]]
        if self.markup_every and seed % self.markup_every == 1:
            stem, options = _with_markup(stem, options, seed)
        with self._lock:
            self.keys[stem] = options[key]
        reply = {
            "stem_markdown": stem,
            "options": options,
            "correct_key": "ABCD"[key],
            "explanation_markdown": f"The key follows from the context ({request.get('Topic')}).",
            "context_ids": context_ids[:1],
            "figure_id": None,
            **fields,
            # The demand that makes the difficulty asked for (pipeline.difficulty).
            **demand_fields(body),
        }
        return self._usage(body, json.dumps(reply))

    def solve(self, body: dict[str, Any]) -> dict[str, Any]:
        text = user_text(body)
        stem, _, listing = text.partition("\n\n(A) ")
        shown = dict(re.findall(r"^\(([ABCD])\) (.*)$", "(A) " + listing, re.MULTILINE))
        with self._lock:
            key_text = self.keys.get(stem)
        seed = int.from_bytes(hashlib.sha256(stem.encode()).digest()[:8], "big")
        letter = next((k for k, t in shown.items() if t == key_text), "A")
        confidence = 0.9
        if seed % self.disagree_every == 0:
            letter = next(k for k in shown if k != letter)
        elif seed % self.unsure_every == 1:
            confidence = 0.3
        with self._lock:
            self.confirmed[stem] = key_text is not None and shown.get(letter) == key_text
            self.confirmed[stem] &= confidence > 0.5
        reply = {"working": "worked it out", "choice": letter, "confidence": confidence}
        return self._usage(body, json.dumps(reply))


MARKUP = (
    "$<script>alert(1)</script>$",
    "$\\text{<img src=x onerror=alert(1)>}$",
    "<b>bold</b>",
    "[see](javascript:alert(1))",
)


def _with_markup(stem: str, options: list[str], seed: int) -> tuple[str, list[str]]:
    """The draft with one piece of live markup, in its stem or in an option (by seed)."""
    piece = MARKUP[seed // 7 % len(MARKUP)]
    if seed // 29 % 2:
        return f"{stem} {piece}", options
    return stem, [options[0] + " " + piece, *options[1:]]


def openai_settings(home: Path, base_url: str, **overrides: Any) -> Settings:
    """Settings for a run against a fake server: the model path, no SDK retries unless asked."""
    fields: dict[str, Any] = {
        "home": home,
        "llm": "openai",
        "openai_base_url": base_url,
        "openai_api_key": SecretStr("test"),
        "openai_max_retries": 0,
    }
    return Settings(**{**fields, **overrides})


class Gauge:
    """A route wrapper that counts the requests under way at the server, and the most at once
    (`stats` answers that most, then starts counting again from what is under way)."""

    def __init__(self, route: Route) -> None:
        self.route = route
        self.now = self.most = 0
        self._lock = threading.Lock()

    def __call__(self, server: FakeOpenAI, body: dict[str, Any]) -> Any:
        with self._lock:
            self.now += 1
            self.most = max(self.most, self.now)
        try:
            return self.route(server, body)
        finally:
            with self._lock:
                self.now -= 1

    def stats(self, server: FakeOpenAI, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self._lock:
            most, self.most = self.most, self.now
        return 200, {"most_under_way": most}
