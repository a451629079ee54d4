"""Vision captions through the real OpenAI SDK against a local HTTP fake (no network)."""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import openai
import pytest

from core.settings import REPO_ROOT
from kb.captions import OpenAICaptioner, caption_messages, parse_caption

PROMPTS = REPO_ROOT / "data" / "prompts"


def png() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (4, 4), (255, 0, 0)).save(buf, format="PNG")
    return buf.getvalue()


class Fake(ThreadingHTTPServer):
    reply: str | None = "A convex lens forming a real, inverted image."
    status = 200

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.requests: list[dict[str, Any]] = []


class Handler(BaseHTTPRequestHandler):
    server: Fake

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(body)
        if self.server.status != 200:
            payload: dict[str, Any] = {"error": {"message": "overloaded", "type": "server_error"}}
        else:
            payload = {
                "id": "c1",
                "object": "chat.completion",
                "created": 0,
                "model": body["model"],
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": self.server.reply},
                    }
                ],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
            }
        raw = json.dumps(payload).encode()
        self.send_response(self.server.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


@pytest.fixture
def fake() -> Iterator[tuple[Fake, openai.OpenAI]]:
    server = Fake()
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    client = openai.OpenAI(
        base_url=f"http://127.0.0.1:{server.server_address[1]}/v1", api_key="k", max_retries=0
    )
    try:
        yield server, client
    finally:
        client.close()
        server.shutdown()
        server.server_close()


def test_messages_put_static_instructions_first_and_send_the_image() -> None:
    messages = caption_messages(PROMPTS, b"\x89PNGxyz", "image/png", "Optics / Lenses")
    assert messages[0]["role"] == "system" and "NO_CAPTION" in messages[0]["content"]
    assert "Optics / Lenses" in messages[0]["content"]
    url = messages[1]["content"][0]["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")


@pytest.mark.parametrize(
    ("reply", "caption"),
    [
        ("  A graph of\n velocity. ", "A graph of velocity."),
        ("NO_CAPTION", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_caption(reply: str | None, caption: str | None) -> None:
    assert parse_caption(reply) == caption


def test_a_raster_figure_gets_a_vision_caption(fake: tuple[Fake, openai.OpenAI]) -> None:
    server, client = fake
    captioner = OpenAICaptioner(client, "vision-model", PROMPTS)
    assert captioner.caption(png(), "Optics") == "A convex lens forming a real, inverted image."
    [request] = server.requests
    assert request["model"] == "vision-model" and request["temperature"] == 0


def test_svg_is_not_sent_and_errors_leave_the_figure_uncaptioned(
    fake: tuple[Fake, openai.OpenAI], tmp_path: Path
) -> None:
    server, client = fake
    captioner = OpenAICaptioner(client, "vision-model", PROMPTS)
    assert captioner.caption(b"<svg xmlns='http://www.w3.org/2000/svg'/>", "") is None
    assert server.requests == []
    server.status = 503
    assert captioner.caption(png(), "") is None
