from __future__ import annotations

import datetime as dt

import pytest
from fastapi.testclient import TestClient

from api_stub.app import create_app
from core.settings import Settings
from core.storage import LocalObjectStore
from site_builder.headers import IMMUTABLE

# 2026-11-25 20:00 IST is 14:30 UTC: four hours before the paper rolls over.
NOW = dt.datetime(2026, 11, 25, 14, 30, tzinfo=dt.UTC)


@pytest.fixture
def client(settings: Settings) -> TestClient:
    store = LocalObjectStore(settings.store_dir)
    store.put("api/v1/exams/daily", b'{"exam_id":"daily-2026-11-25"}')
    store.put("api/v1/exams/daily/2026-11-25", b'{"exam_id":"daily-2026-11-25"}')
    store.put("api/v1/questions/q-abc", b'{"id":"q-abc"}')
    return TestClient(create_app(settings, store, clock=lambda: NOW))


def test_healthz(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}


def test_question_files_are_json_and_immutable(client: TestClient) -> None:
    r = client.get("/api/v1/questions/q-abc")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    assert r.headers["cache-control"] == IMMUTABLE
    assert r.json() == {"id": "q-abc"}


def test_the_daily_pointer_is_cached_until_rollover(client: TestClient) -> None:
    r = client.get("/api/v1/exams/daily")
    assert r.status_code == 200
    assert r.headers["cache-control"] == "public, max-age=14400"
    dated = client.get("/api/v1/exams/daily/2026-11-25")
    assert dated.headers["cache-control"] == IMMUTABLE


@pytest.mark.parametrize(
    "path",
    ["/api/v1/questions/q-missing", "/api/v1/questions/..%2F..%2Fetc", "/api/v1/nothing", "/nope"],
)
def test_unknown_paths_get_the_error_body(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404
    body = r.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == "not_found"
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert body["error"]["details"] == []


def test_unknown_question_message_names_it(client: TestClient) -> None:
    r = client.get("/api/v1/questions/q-missing")
    assert "q-missing" in r.json()["error"]["message"]


def test_wrong_method_gets_the_error_body(client: TestClient) -> None:
    r = client.post("/api/v1/questions/q-abc")
    assert r.status_code == 405
    assert r.json()["error"]["code"] == "method_not_allowed"


# ── Hostile input never gets a 5xx (issue 16) ───────────────────────────────────────────────


def _keyed(settings: Settings, **overrides: object) -> TestClient:
    from pydantic import SecretStr

    keyed = settings.model_copy(update={"api_keys": (SecretStr("k-1"),), **overrides})
    return TestClient(create_app(keyed, LocalObjectStore(settings.store_dir), clock=lambda: NOW))


def test_json_nested_a_thousand_deep_is_a_422_with_the_error_body(settings: Settings) -> None:
    client = _keyed(settings)
    body = "[" * 1000 + "]" * 1000
    for path in ("/api/v1/practice/generate", "/api/v1/exams/generate"):
        r = client.post(
            path,
            content=body,
            headers={"Authorization": "Bearer k-1", "Content-Type": "application/json"},
        )
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "validation_error"


def test_a_path_segment_too_long_for_a_file_name_is_a_404(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    for path in ("/api/v1/questions/" + "q" * 252, "/api/v1/" + "x" * 300 + "/y"):
        r = client.get(path)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert "Traceback" not in caplog.text


def test_get_on_a_post_only_endpoint_is_a_405_with_allow(client: TestClient) -> None:
    for path in ("/api/v1/practice/generate", "/api/v1/exams/generate"):
        for method in ("GET", "PUT", "DELETE"):
            r = client.request(method, path)
            assert r.status_code == 405, (method, path, r.status_code)
            assert r.headers["allow"] == "POST"
            assert r.json()["error"]["code"] == "method_not_allowed"


def test_accept_encoding_q_zero_refuses_a_coding(settings: Settings) -> None:
    import gzip

    store = LocalObjectStore(settings.store_dir)
    plain = b'{"exam_id":"daily-2026-11-25","questions":[]}'
    store.put("api/v1/exams/daily/2026-11-25", plain)
    store.put("api/v1/exams/daily/2026-11-25.gz", gzip.compress(plain, mtime=0))
    client = TestClient(create_app(settings, store, clock=lambda: NOW))
    key = "/api/v1/exams/daily/2026-11-25"
    assert client.get(key, headers={"Accept-Encoding": "gzip"}).headers["content-encoding"] == (
        "gzip"
    )
    for refusing in ("gzip;q=0", "gzip; q=0.0, identity", "*;q=0", "br, gzip;q=0"):
        r = client.get(key, headers={"Accept-Encoding": refusing})
        assert "content-encoding" not in r.headers and r.content == plain, refusing
    assert client.get(key, headers={"Accept-Encoding": "*"}).headers["content-encoding"] == "gzip"
    # A variant's own URL is served with its Content-Encoding, as the published bucket does.
    r = client.get(key + ".gz", headers={"Accept-Encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip" and r.content == plain
    assert r.headers["content-type"] == "application/json"


def test_wrong_api_keys_from_one_address_are_rate_limited(settings: Settings) -> None:
    client = _keyed(settings, wrong_key_limit_per_minute=10, wrong_key_limit_burst=20)
    statuses = [
        client.get("/api/v1/jobs/job-abcdefgh", headers={"Authorization": f"Bearer guess-{i}"})
        for i in range(200)
    ]
    codes = [r.status_code for r in statuses]
    assert codes[:20] == [401] * 20 and set(codes[20:]) == {429}
    assert int(statuses[-1].headers["retry-after"]) >= 1
    assert statuses[-1].json()["error"]["code"] == "too_many_requests"
