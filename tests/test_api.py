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
