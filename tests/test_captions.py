"""Vision captions through the real OpenAI SDK against a local HTTP fake (no network)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import openai
import pytest

from core.settings import REPO_ROOT
from kb.captions import OpenAICaptioner, caption_messages, parse_caption
from tests.fake_openai import FakeOpenAI, serving

PROMPTS = REPO_ROOT / "data" / "prompts"


def png() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (4, 4), (255, 0, 0)).save(buf, format="PNG")
    return buf.getvalue()


REPLY = "A convex lens forming a real, inverted image."


def chat_route(server: FakeOpenAI, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    if getattr(server, "overloaded", False):
        return 503, {"error": {"message": "overloaded", "type": "server_error"}}
    return 200, {
        "id": "c1",
        "object": "chat.completion",
        "created": 0,
        "model": body["model"],
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": REPLY},
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


@pytest.fixture
def fake() -> Iterator[tuple[FakeOpenAI, openai.OpenAI]]:
    with serving({"/v1/chat/completions": chat_route}) as running:
        yield running


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


def test_a_raster_figure_gets_a_vision_caption(fake: tuple[FakeOpenAI, openai.OpenAI]) -> None:
    server, client = fake
    captioner = OpenAICaptioner(client, "vision-model", PROMPTS)
    assert captioner.caption(png(), "Optics") == REPLY
    [request] = server.requests
    assert request["model"] == "vision-model" and request["temperature"] == 0


def test_svg_is_not_sent_and_errors_leave_the_figure_uncaptioned(
    fake: tuple[FakeOpenAI, openai.OpenAI],
) -> None:
    server, client = fake
    captioner = OpenAICaptioner(client, "vision-model", PROMPTS)
    assert captioner.caption(b"<svg xmlns='http://www.w3.org/2000/svg'/>", "") is None
    assert server.requests == []
    server.overloaded = True  # type: ignore[attr-defined]
    assert captioner.caption(png(), "") is None
