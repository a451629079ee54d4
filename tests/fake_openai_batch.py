"""A local HTTP server that speaks the Files and Batches API for tests (no network).

It stores uploaded files (multipart, as the SDK sends them), creates batches from them after
checking every line the way a provider would (JSON, a unique custom_id, POST to the batch's
endpoint, a body), and answers `GET /batches` newest first with cursor paging. A batch stays in
the status a test sets with `advance`; on a terminal status the server writes its output and
error files, asking `respond(custom_id, body)` what each line comes back as: reply text (a 200
chat completion), a full body, `ErrorLine` (the error file), `StatusLine` (a refused request),
or `MISSING` (no line at all). `expire` keeps only some lines, as an expired batch does.
"""

from __future__ import annotations

import email.parser
import email.policy
import itertools
import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import openai

from tests.fake_openai import API_KEY, chat_completion


@dataclass(frozen=True)
class ErrorLine:
    """A request the provider could not run: a line in the error file with `error` set."""

    code: str = "server_error"
    message: str = "scripted error"


@dataclass(frozen=True)
class StatusLine:
    """A request answered with an HTTP error status inside the batch."""

    status: int = 500
    message: str = "scripted status"


MISSING = object()  # the request has no line in either file
Respond = Callable[[str, dict[str, Any]], Any]
TERMINAL = ("completed", "failed", "expired", "cancelled")


def _no_reply(custom_id: str, body: dict[str, Any]) -> Any:
    return ErrorLine("no_script", f"nothing scripted for {custom_id}")


class FakeBatchAPI(ThreadingHTTPServer):
    def __init__(self, respond: Respond = _no_reply) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.respond = respond
        self.files: dict[str, dict[str, Any]] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.calls: Counter[str] = Counter()  # "POST /files", "GET /batches/{id}", ...
        self.listing = True  # False: GET /v1/batches answers 404, as some servers do
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def client(self, max_retries: int = 0) -> openai.OpenAI:
        return openai.OpenAI(
            base_url=self.base_url,
            api_key=API_KEY,
            max_retries=max_retries,
            timeout=10.0,
            http_client=openai.DefaultHttpxClient(verify=False),
        )

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass

    # -- what a test reads and sets -----------------------------------------------------------

    @property
    def creates(self) -> int:
        return self.calls["POST /batches"]

    @property
    def total_calls(self) -> int:
        return sum(self.calls.values())

    def input_lines(self, batch_id: str) -> list[dict[str, Any]]:
        """The request lines a batch was created from."""
        data = self.files[self.batches[batch_id]["input_file_id"]]["data"]
        return [json.loads(line) for line in data.decode().splitlines() if line.strip()]

    def batch_ids(self, stage: str | None = None) -> list[str]:
        """Batch ids in the order they were created (of one qforge stage, or all)."""
        return [
            b["id"]
            for b in self.batches.values()
            if stage is None or (b["metadata"] or {}).get("qforge_stage") == stage
        ]

    def advance(self, status: str, batch_id: str | None = None) -> None:
        """Move one batch (or every batch not yet finished) to `status`."""
        with self._lock:
            targets = [batch_id] if batch_id else list(self.batches)
            for bid in targets:
                batch = self.batches[bid]
                if batch["status"] in TERMINAL:
                    continue
                batch["status"] = status
                batch[f"{status}_at"] = int(time.time())
                if status in ("completed", "expired", "cancelled"):
                    self._finish(batch, keep=None)

    def expire(self, batch_id: str, keep: Callable[[str], bool]) -> None:
        """Expire a batch with output for the requests `keep` says finished in time."""
        with self._lock:
            batch = self.batches[batch_id]
            batch["status"] = "expired"
            batch["expired_at"] = int(time.time())
            self._finish(batch, keep=keep)

    def _finish(self, batch: dict[str, Any], keep: Callable[[str], bool] | None) -> None:
        out: list[str] = []
        err: list[str] = []
        for n, line in enumerate(self.input_lines(batch["id"])):
            custom_id = line["custom_id"]
            if keep is not None and not keep(custom_id):
                continue
            turn = self.respond(custom_id, line["body"])
            while callable(turn):
                turn = turn(line["body"])
            if turn is MISSING:
                continue
            record: dict[str, Any] = {"id": f"batch_req_{n}", "custom_id": custom_id}
            if isinstance(turn, ErrorLine):
                record |= {"response": None, "error": {"code": turn.code, "message": turn.message}}
                err.append(json.dumps(record))
                continue
            if isinstance(turn, StatusLine):
                error = {"error": {"message": turn.message, "type": "server_error"}}
                record |= {
                    "response": {"status_code": turn.status, "request_id": "r", "body": error},
                    "error": None,
                }
                err.append(json.dumps(record))
                continue
            body = (
                turn
                if isinstance(turn, dict)
                else chat_completion(turn, model=line["body"]["model"])
            )
            record |= {
                "response": {"status_code": 200, "request_id": "r", "body": body},
                "error": None,
            }
            out.append(json.dumps(record))
        if out:
            batch["output_file_id"] = self._new_file("batch_output", "\n".join(out) + "\n")
        if err:
            batch["error_file_id"] = self._new_file("batch_output", "\n".join(err) + "\n")
        total = batch["request_counts"]["total"]
        batch["request_counts"] = {"total": total, "completed": len(out), "failed": len(err)}

    def _new_file(self, purpose: str, text: str, filename: str = "output.jsonl") -> str:
        file_id = f"file-{next(self._ids)}"
        self.files[file_id] = {
            "id": file_id,
            "object": "file",
            "bytes": len(text.encode()),
            "created_at": int(time.time()),
            "filename": filename,
            "purpose": purpose,
            "status": "processed",
            "data": text.encode(),
        }
        return file_id

    # -- routes -------------------------------------------------------------------------------

    def upload(self, fields: dict[str, tuple[str | None, bytes]]) -> tuple[int, Any]:
        filename, data = fields["file"]
        purpose = fields["purpose"][1].decode()
        with self._lock:
            file_id = self._new_file(purpose, data.decode(), filename or "upload.jsonl")
            return 200, _public(self.files[file_id])

    def create_batch(self, body: dict[str, Any]) -> tuple[int, Any]:
        with self._lock:
            file = self.files.get(body["input_file_id"])
            if file is None:
                return 404, {"error": {"message": "no such file", "type": "invalid_request"}}
            problems = _line_problems(file["data"], body["endpoint"])
            batch_id = f"batch_{next(self._ids)}"
            self.batches[batch_id] = {
                "id": batch_id,
                "object": "batch",
                "endpoint": body["endpoint"],
                "input_file_id": body["input_file_id"],
                "completion_window": body["completion_window"],
                "status": "failed" if problems else "validating",
                "created_at": int(time.time()),
                "metadata": body.get("metadata"),
                "errors": {"object": "list", "data": problems} if problems else None,
                "output_file_id": None,
                "error_file_id": None,
                "request_counts": {
                    "total": len(file["data"].splitlines()),
                    "completed": 0,
                    "failed": 0,
                },
            }
            return 200, dict(self.batches[batch_id])

    def list_batches(self, query: dict[str, list[str]]) -> tuple[int, Any]:
        limit = int(query.get("limit", ["20"])[0])
        after = query.get("after", [None])[0]
        with self._lock:
            # Within one second, the id's number orders batches by creation.
            newest_first = sorted(
                self.batches.values(),
                key=lambda b: (b["created_at"], int(b["id"].split("_")[1])),
                reverse=True,
            )
            ids = [b["id"] for b in newest_first]
            start = ids.index(after) + 1 if after in ids else 0
            page = newest_first[start : start + limit]
            return 200, {
                "object": "list",
                "data": [dict(b) for b in page],
                "first_id": page[0]["id"] if page else None,
                "last_id": page[-1]["id"] if page else None,
                "has_more": start + limit < len(newest_first),
            }


def _public(file: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in file.items() if k != "data"}


def _line_problems(data: bytes, endpoint: str) -> list[dict[str, Any]]:
    """What a provider's validation would reject in a batch input file."""
    problems: list[dict[str, Any]] = []
    seen: set[str] = set()
    for n, raw in enumerate(data.decode().splitlines(), start=1):
        try:
            line = json.loads(raw)
        except json.JSONDecodeError:
            problems.append({"code": "invalid_json_line", "line": n, "message": "not JSON"})
            continue
        custom_id = line.get("custom_id")
        if not isinstance(custom_id, str) or custom_id in seen:
            problems.append({"code": "duplicate_custom_id", "line": n, "message": str(custom_id)})
        seen.add(str(custom_id))
        if line.get("method") != "POST" or line.get("url") != endpoint:
            problems.append({"code": "invalid_url", "line": n, "message": str(line.get("url"))})
        if not isinstance(line.get("body"), dict) or "model" not in line["body"]:
            problems.append({"code": "missing_body", "line": n, "message": "no body or model"})
    return problems


class _Handler(BaseHTTPRequestHandler):
    server: FakeBatchAPI

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _authorised(self) -> bool:
        if self.headers.get("Authorization") == f"Bearer {API_KEY}":
            return True
        self._send(401, {"error": {"message": "bad key", "type": "invalid"}})
        return False

    def _body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while size := int(self.rfile.readline().strip(), 16):
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            self.rfile.readline()
            return b"".join(chunks)
        return self.rfile.read(int(self.headers.get("Content-Length", 0)))

    def do_POST(self) -> None:
        if not self._authorised():
            return
        raw = self._body()
        path = urlsplit(self.path).path
        self.server.calls["POST " + path.removeprefix("/v1")] += 1
        if path == "/v1/files":
            self._send(*self.server.upload(_multipart(self.headers["Content-Type"], raw)))
        elif path == "/v1/batches":
            self._send(*self.server.create_batch(json.loads(raw)))
        else:
            self._send(404, {"error": {"message": f"no route {path}", "type": "invalid"}})

    def do_GET(self) -> None:
        if not self._authorised():
            return
        url = urlsplit(self.path)
        path = url.path.removeprefix("/v1")
        parts = path.strip("/").split("/")
        self.server.calls["GET /" + parts[0] + ("/{id}" if len(parts) > 1 else "")] += 1
        if path == "/batches" and not self.server.listing:
            self._send(404, {"error": {"message": "no route /v1/batches", "type": "invalid"}})
        elif path == "/batches":
            self._send(*self.server.list_batches(parse_qs(url.query)))
        elif parts[0] == "batches" and len(parts) == 2 and parts[1] in self.server.batches:
            self._send(200, dict(self.server.batches[parts[1]]))
        elif parts[0] == "files" and len(parts) == 3 and parts[2] == "content":
            file = self.server.files.get(parts[1])
            if file is None:
                self._send(404, {"error": {"message": "no such file", "type": "invalid"}})
            else:
                self._send_bytes(200, file["data"], "application/octet-stream")
        else:
            self._send(404, {"error": {"message": f"no route {path}", "type": "invalid"}})

    def _send(self, status: int, payload: Any) -> None:
        self._send_bytes(status, json.dumps(payload).encode(), "application/json")

    def _send_bytes(self, status: int, raw: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


def _multipart(content_type: str, raw: bytes) -> dict[str, tuple[str | None, bytes]]:
    """The fields of a multipart/form-data body: name → (filename, bytes)."""
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + raw)
    fields: dict[str, tuple[str | None, bytes]] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        fields[str(name)] = (part.get_filename(), payload if isinstance(payload, bytes) else b"")
    return fields


@contextmanager
def batch_serving(respond: Respond = _no_reply) -> Iterator[FakeBatchAPI]:
    """The server running in a thread (stopped and joined on exit)."""
    server = FakeBatchAPI(respond)
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
