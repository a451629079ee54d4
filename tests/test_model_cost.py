"""No model request is paid for twice for nothing: a refused draft's request is never sent
again with the same body, and the calls reported count every HTTP request the server saw,
the SDK's own retries included."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from core.records import Difficulty, Subject
from core.warehouse import open_warehouse
from pipeline.compose import Services, build_services
from pipeline.fill.pool import fill_pool
from tests.fake_openai import ChatScript, FakeOpenAI, openai_settings, schema_name, serving

CELLS = {
    (Subject.PHYSICS, Difficulty.EASY, "phy-u07"): 2,
    (Subject.ZOOLOGY, Difficulty.HARD, "bio-u05"): 2,
}


def _services(home: Path, server: FakeOpenAI, retries: int) -> Services:
    return build_services(
        openai_settings(home, server.base_url, openai_max_retries=retries, llm_concurrency=4)
    )


def test_a_refused_draft_request_is_never_sent_again_with_the_same_body(tmp_path: Path) -> None:
    # Every draft reply is cut-off JSON: refused before any solve, every time.
    script = ChatScript(fallback={"DraftReply": '{"stem_markdown": "Which'})
    with serving({"/v1/chat/completions": script}) as (server, _):
        services = _services(tmp_path, server, retries=0)
        with open_warehouse(services.settings.warehouse_path) as wh:
            for _ in range(3):  # as the nightly's rounds ask again for what is still short
                fill_pool(
                    wh, services.drafter, services.solver, CELLS, concurrency=services.concurrency
                )
        drafts = [b for b in server.requests if schema_name(b) == "DraftReply"]
    assert len(drafts) > 10
    bodies = Counter(json.dumps(b, sort_keys=True) for b in drafts)
    assert max(bodies.values()) == 1, "a refused request was sent twice with the same body"


def test_reported_requests_equal_what_the_server_received(tmp_path: Path) -> None:
    # Every call fails with a 500 the SDK retries twice: three requests per call.
    with serving({"/v1/chat/completions": ChatScript()}) as (server, _):
        services = _services(tmp_path, server, retries=2)
        with open_warehouse(services.settings.warehouse_path) as wh:
            fill_pool(wh, services.drafter, services.solver, CELLS, concurrency=1)
        received = len(server.requests)
    assert services.usage is not None
    summary = services.usage.summary(stored=0)
    assert received > 0 and summary.requests == received == 3 * summary.calls
