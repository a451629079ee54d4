"""Vision captions for figures that arrive with no caption text: build → call → parse."""

from __future__ import annotations

import base64
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

NO_CAPTION = "NO_CAPTION"
MAX_CAPTION_CHARS = 400
# Vision endpoints take raster images only.
RASTER_MIME = {b"\x89PNG": "image/png", b"\xff\xd8\xff": "image/jpeg", b"GIF8": "image/gif"}


def image_mime(data: bytes) -> str | None:
    return next((m for magic, m in RASTER_MIME.items() if data.startswith(magic)), None)


@lru_cache(maxsize=8)
def _template(prompts_dir: Path) -> jinja2.Template:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(prompts_dir),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
    )
    return env.get_template("caption_figure.j2")


def caption_messages(
    prompts_dir: Path, image: bytes, mime: str, context: str
) -> list[dict[str, Any]]:
    """Chat messages asking a vision model for a caption (static instructions first)."""
    url = f"data:{mime};base64,{base64.b64encode(image).decode('ascii')}"
    return [
        {"role": "system", "content": _template(prompts_dir).render(context=context).strip()},
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}}]},
    ]


def parse_caption(reply: str | None) -> str | None:
    """The caption in a model reply, or None for an empty or NO_CAPTION reply."""
    text = " ".join((reply or "").split())
    if not text or text.strip(".").upper() == NO_CAPTION:
        return None
    return text[:MAX_CAPTION_CHARS]


class OpenAICaptioner:
    """Captions raster figures with a vision model through the OpenAI SDK client it is given."""

    def __init__(self, client: Any, model: str, prompts_dir: Path) -> None:
        self.client = client
        self.model = model
        self.prompts_dir = prompts_dir

    def caption(self, image: bytes, context: str) -> str | None:
        mime = image_mime(image)
        if mime is None:
            return None
        import openai

        try:
            response = self.client.chat.completions.create(
                model=self.model,
                messages=caption_messages(self.prompts_dir, image, mime, context),
                max_tokens=120,
                temperature=0,
            )
        except openai.APIError:
            return None  # the figure stays uncaptioned, and the ingest report says so
        return parse_caption(response.choices[0].message.content)
