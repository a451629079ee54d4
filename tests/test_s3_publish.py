"""Publishing the static tree to S3: a real HTTP S3 server (moto), boto3, and anonymous GETs."""

from __future__ import annotations

import datetime as dt
import gzip
import json
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import brotli
import pytest
from moto.server import ThreadedMotoServer

from api_stub.runner import public_mirror
from core.ids import question_id
from core.providers import object_store, publish_target
from core.records import Paper, Question, SolverVerdict
from core.s3store import BucketMissingError, S3ObjectStore, s3_client
from core.settings import Settings
from core.storage import ImmutableObjectError, LocalObjectStore
from kb.syllabus import Syllabus
from pipeline.figures.svg import unsafe_svg
from site_builder.documents import DAILY_POINTER_KEY, daily_paper_key, question_key
from site_builder.export import export_daily_paper, figure_image_keys, publish_daily_pointer
from site_builder.headers import IMMUTABLE
from site_builder.s3 import (
    PublishError,
    configure_bucket,
    object_headers,
    public_keys,
    publish_tree,
)
from site_builder.snapshot import POOL_SNAPSHOT_KEY
from tests.conftest import sound_drafts
from tests.test_figures import figure_question

TZ = "Asia/Kolkata"
# 2026-11-25 20:00 IST: four hours before the paper rolls over at 00:00 IST (18:30 UTC).
NOW = dt.datetime(2026, 11, 25, 14, 30, tzinfo=dt.UTC)
ROLLOVER = dt.datetime(2026, 11, 25, 18, 30, tzinfo=dt.UTC)
PREFIX = "site/"


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture(autouse=True)
def aws_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Dummy credentials from the standard chain, and no user AWS config leaking in."""
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-aws-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-aws-credentials"))


@pytest.fixture
def bucket(endpoint: str) -> S3ObjectStore:
    name = f"qforge-{uuid.uuid4().hex[:12]}"
    client = s3_client(endpoint, "us-east-1")
    client.create_bucket(Bucket=name)
    return S3ObjectStore(client, name, PREFIX)


def make_questions(syllabus: Syllabus, seeds: range) -> list[Question]:
    out = []
    drafts = sound_drafts("phy-eom-final-velocity", syllabus, max(seeds) + 1)
    for seed in seeds:
        draft = drafts[seed]
        out.append(
            Question(
                question_id=question_id(draft.content),
                content=draft.content,
                provenance=draft.provenance,
                verdict=SolverVerdict(solver="s", choice=draft.content.correct_key, confidence=1),
            )
        )
    return out


def export_day(store: LocalObjectStore, questions: list[Question], date: str) -> None:
    """What the nightly run leaves: question files, the dated paper, the pointer, extras."""
    paper = Paper(
        exam_id=f"daily-{date}",
        kind="daily",
        title=f"Daily mock {date}",
        exam_date=date,
        question_ids=tuple(q.question_id for q in questions),
        blueprint="b",
    )
    export_daily_paper(store, paper, questions, questions)
    publish_daily_pointer(store, date)  # the paper and pointer come with .gz and .br variants
    store.put(daily_paper_key(date) + ".html", b"<!doctype html><title>paper</title>")
    store.put(POOL_SNAPSHOT_KEY, b"private pool")
    store.put(f"internal/outbox/{questions[0].question_id}", b"private outbox")


@pytest.fixture
def tree(tmp_path: Path, syllabus: Syllabus) -> tuple[LocalObjectStore, list[Question]]:
    store = LocalObjectStore(tmp_path / "store")
    questions = make_questions(syllabus, range(6))
    export_day(store, questions[:4], "2026-11-25")
    return store, questions


def bucket_keys(target: S3ObjectStore) -> set[str]:
    response = target.client.list_objects_v2(Bucket=target.bucket)
    return {o["Key"] for o in response.get("Contents", [])}


def url(endpoint: str, target: S3ObjectStore, key: str) -> str:
    return f"{endpoint}/{target.bucket}/{target.prefix}{key}"


def record_puts(target: S3ObjectStore, fail_key: str | None = None) -> list[str]:
    """Keys of each PutObject in the order sent; the one for fail_key raises before sending."""
    sent: list[str] = []

    def hook(params: dict[str, Any], **_: Any) -> None:
        key = params["Key"].removeprefix(target.prefix)
        if key == fail_key:
            raise ConnectionError(f"injected failure for {key}")
        sent.append(key)

    target.client.meta.events.register("provide-client-params.s3.PutObject", hook)
    return sent


def test_the_public_tree_is_mirrored_and_internal_keys_never_leave(tree, bucket) -> None:
    store, _ = tree
    public = public_keys(store, ["api/v1/"])
    report = publish_tree(store, bucket, timezone=TZ, now=NOW)
    kinds = {"questions/q-", "daily/2026-11-25", "2026-11-25.gz", "2026-11-25.br", ".html"}
    assert all(any(kind in k for k in public) for kind in kinds | {"daily.gz", "daily.br"})
    assert DAILY_POINTER_KEY in public
    assert (report.uploaded, report.skipped) == (len(public), 0)
    assert report.bytes_uploaded == sum(len(store.get(k) or b"") for k in public)
    assert bucket_keys(bucket) == {PREFIX + k for k in public}
    assert not any("internal" in k for k in bucket_keys(bucket))
    for key in public:
        assert bucket.get(key) == store.get(key)


def test_each_kind_of_key_gets_its_headers(tree, bucket, syllabus) -> None:
    store, questions = tree
    publish_tree(store, bucket, timezone=TZ, now=NOW)
    head = bucket.head(question_key(questions[0].question_id))
    assert head is not None
    assert (head["ContentType"], head["CacheControl"]) == ("application/json", IMMUTABLE)
    assert "ContentEncoding" not in head
    assert len(head["Metadata"]["sha256"]) == 64
    paper = bucket.head(daily_paper_key("2026-11-25"))
    assert paper is not None and paper["CacheControl"] == IMMUTABLE
    preview = bucket.head(daily_paper_key("2026-11-25") + ".html")
    assert preview is not None and preview["ContentType"] == "text/html; charset=utf-8"
    for key, encoding in [(DAILY_POINTER_KEY, None), (DAILY_POINTER_KEY + ".gz", "gzip")]:
        pointer = bucket.head(key)
        assert pointer is not None
        assert pointer["ContentType"] == "application/json"
        assert pointer["CacheControl"] == "public"
        assert pointer["ExpiresString"] == "Wed, 25 Nov 2026 18:30:00 GMT"  # 00:00 IST
        assert pointer.get("ContentEncoding") == encoding


def test_headers_of_variants_and_the_pointer_without_a_bucket() -> None:
    brotli = object_headers("api/v1/questions/q-1.br", TZ, NOW)
    assert (brotli.content_type, brotli.content_encoding) == ("application/json", "br")
    assert brotli.cache_control == IMMUTABLE and brotli.expires is None
    pointer = object_headers(DAILY_POINTER_KEY, TZ, NOW + dt.timedelta(microseconds=999))
    assert (pointer.cache_control, pointer.expires) == ("public", ROLLOVER)
    preview = object_headers("api/v1/questions/q-1.html.gz", TZ, NOW)
    assert (preview.content_type, preview.content_encoding) == ("text/html; charset=utf-8", "gzip")


def test_publishing_again_uploads_nothing(tree, bucket) -> None:
    store, _ = tree
    first = publish_tree(store, bucket, timezone=TZ, now=NOW)
    sent = record_puts(bucket)
    again = publish_tree(store, bucket, timezone=TZ, now=NOW + dt.timedelta(hours=3))
    assert (again.uploaded, again.skipped, again.bytes_uploaded) == (0, first.uploaded, 0)
    assert sent == []


def test_a_new_day_uploads_its_new_objects_and_switches_the_pointer(tree, bucket) -> None:
    store, questions = tree
    first = publish_tree(store, bucket, timezone=TZ, now=NOW)
    export_day(store, questions[2:], "2026-11-26")
    report = publish_tree(store, bucket, timezone=TZ, now=NOW + dt.timedelta(days=1))
    new_questions = {question_key(q.question_id) for q in questions[4:]}
    day2 = daily_paper_key("2026-11-26")
    variants = {"", ".gz", ".br"}
    pointers = {DAILY_POINTER_KEY + v for v in variants}
    day2_files = {day2 + v for v in variants | {".html"}}
    assert set(report.uploaded_keys) == new_questions | day2_files | pointers
    assert report.skipped == first.uploaded - len(pointers)
    assert json.loads(bucket.get(DAILY_POINTER_KEY) or b"")["date"] == "2026-11-26"


def test_questions_go_first_then_papers_then_the_pointer(tree, bucket) -> None:
    store, _ = tree
    sent = record_puts(bucket)
    publish_tree(store, bucket, timezone=TZ, now=NOW, workers=4)
    papers = [i for i, k in enumerate(sent) if k.startswith("api/v1/exams/daily/")]
    questions = [i for i, k in enumerate(sent) if k.startswith("api/v1/questions/")]
    pointers = [i for i, k in enumerate(sent) if k.startswith(DAILY_POINTER_KEY + ".")]
    assert max(questions) < min(papers)
    assert max(papers) < min(pointers) <= max(pointers) < sent.index(DAILY_POINTER_KEY)
    assert sent.index(DAILY_POINTER_KEY) == len(sent) - 1
    paper = daily_paper_key("2026-11-25")
    assert max(sent.index(paper + ".gz"), sent.index(paper + ".br")) < sent.index(paper)


def test_a_key_that_changes_is_replaced_before_the_pointer(
    tree, bucket, monkeypatch: pytest.MonkeyPatch
) -> None:
    import site_builder.s3 as s3

    index = "api/v1/exams/daily/index"
    policy = s3.cache_control
    monkeypatch.setattr(
        s3,
        "cache_control",
        lambda k, tz, now=None: "public, max-age=300" if k == index else policy(k, tz, now),
    )
    store, _ = tree
    store.put(index, b'{"papers":1}')
    publish_tree(store, bucket, timezone=TZ, now=NOW)
    store.put(index, b'{"papers":2}')
    sent = record_puts(bucket)
    report = publish_tree(store, bucket, timezone=TZ, now=NOW)
    assert report.uploaded_keys == (index,) and sent == [index]
    head = bucket.head(index)
    assert head is not None and head["CacheControl"] == "public, max-age=300"
    assert "ExpiresString" not in head and bucket.get(index) == b'{"papers":2}'
    store.put(DAILY_POINTER_KEY, store.get(DAILY_POINTER_KEY) + b" ")  # a changed pointer too
    store.put(index, b'{"papers":3}')
    sent.clear()
    publish_tree(store, bucket, timezone=TZ, now=NOW)
    assert sent == [index, DAILY_POINTER_KEY]


def test_a_failed_paper_upload_leaves_the_old_pointer(tree, bucket) -> None:
    store, questions = tree
    publish_tree(store, bucket, timezone=TZ, now=NOW)
    old_pointer = bucket.get(DAILY_POINTER_KEY)
    export_day(store, questions[2:], "2026-11-26")
    day2 = daily_paper_key("2026-11-26")
    record_puts(bucket, fail_key=day2)
    with pytest.raises(PublishError, match=day2):
        publish_tree(store, bucket, timezone=TZ, now=NOW + dt.timedelta(days=1))
    assert bucket.get(DAILY_POINTER_KEY) == old_pointer
    assert bucket.get(DAILY_POINTER_KEY + ".gz") is not None
    assert json.loads(gzip.decompress(bucket.get(DAILY_POINTER_KEY + ".gz") or b""))["date"] == (
        "2026-11-25"
    )
    assert not bucket.exists(day2)
    assert all(bucket.exists(question_key(q.question_id)) for q in questions)


def test_a_pointer_whose_paper_is_missing_is_refused(tmp_path: Path, bucket) -> None:
    store = LocalObjectStore(tmp_path)
    store.put(DAILY_POINTER_KEY, b'{"date":"2026-11-25"}')
    with pytest.raises(PublishError, match="2026-11-25"):
        publish_tree(store, bucket, timezone=TZ, now=NOW)
    assert not bucket.exists(DAILY_POINTER_KEY)


def test_an_immutable_key_changed_in_the_bucket_is_not_overwritten(tree, bucket) -> None:
    store, questions = tree
    publish_tree(store, bucket, timezone=TZ, now=NOW)
    key = question_key(questions[0].question_id)
    bucket.put(key, b'{"id":"forged"}')
    with pytest.raises(PublishError, match=key):
        publish_tree(store, bucket, timezone=TZ, now=NOW)
    assert bucket.get(key) == b'{"id":"forged"}'


def test_anonymous_get_returns_the_paper_as_a_cdn_sees_it(tree, bucket, endpoint) -> None:
    store, _ = tree
    configure_bucket(bucket)
    publish_tree(store, bucket, timezone=TZ, now=NOW)
    with urllib.request.urlopen(url(endpoint, bucket, DAILY_POINTER_KEY)) as response:
        body = response.read()
        headers = response.headers
    assert json.loads(body)["exam_id"] == "daily-2026-11-25"
    assert body == store.get(DAILY_POINTER_KEY)
    assert headers["Content-Type"] == "application/json"
    assert headers["Cache-Control"] == "public"
    assert headers["Expires"] == "Wed, 25 Nov 2026 18:30:00 GMT"
    assert headers["ETag"]
    dated = daily_paper_key("2026-11-25")
    with urllib.request.urlopen(url(endpoint, bucket, dated)) as response:
        assert response.headers["Cache-Control"] == IMMUTABLE
    with urllib.request.urlopen(url(endpoint, bucket, DAILY_POINTER_KEY + ".gz")) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(response.read()) == body


def test_anonymous_reads_need_the_policy_and_stop_at_the_api(tree, bucket, endpoint) -> None:
    store, _ = tree
    publish_tree(store, bucket, timezone=TZ, now=NOW)
    bucket.put("internal/pool/snapshot.parquet", b"private")  # as if someone put it there
    for key in [DAILY_POINTER_KEY, "internal/pool/snapshot.parquet"]:
        with pytest.raises(urllib.error.HTTPError) as denied:
            urllib.request.urlopen(url(endpoint, bucket, key))
        assert denied.value.code == 403
    configure_bucket(bucket)
    with urllib.request.urlopen(url(endpoint, bucket, DAILY_POINTER_KEY)) as response:
        assert response.status == 200
    with pytest.raises(urllib.error.HTTPError) as still_denied:
        urllib.request.urlopen(url(endpoint, bucket, "internal/pool/snapshot.parquet"))
    assert still_denied.value.code == 403


def test_browsers_get_cors_headers(tree, bucket, endpoint) -> None:
    store, _ = tree
    configure_bucket(bucket)
    publish_tree(store, bucket, timezone=TZ, now=NOW)
    origin = "https://app.example.org"
    target = url(endpoint, bucket, DAILY_POINTER_KEY)
    # Real S3 answers a preflight from the CORS rules alone; moto also runs a key's OPTIONS
    # through the bucket policy (as "s3:OptionsObject"), so the preflight asks at the bucket.
    preflight = urllib.request.Request(
        f"{endpoint}/{bucket.bucket}/",
        method="OPTIONS",
        headers={"Origin": origin, "Access-Control-Request-Method": "GET"},
    )
    with urllib.request.urlopen(preflight) as response:
        assert response.status == 200
        assert response.headers["Access-Control-Allow-Origin"] in {origin, "*"}
        assert "GET" in response.headers["Access-Control-Allow-Methods"]
    with urllib.request.urlopen(urllib.request.Request(target, headers={"Origin": origin})) as r:
        assert r.headers["Access-Control-Allow-Origin"] in {origin, "*"}
        exposed = {h.strip() for h in r.headers["Access-Control-Expose-Headers"].split(",")}
        assert {"ETag", "Content-Encoding"} <= exposed


def test_configure_bucket_is_idempotent_and_public_only_under_the_api(bucket) -> None:
    assert configure_bucket(bucket) == ("cors", "public_access_block", "policy")
    assert configure_bucket(bucket) == ()
    policy = json.loads(bucket.client.get_bucket_policy(Bucket=bucket.bucket)["Policy"])
    [statement] = policy["Statement"]
    assert statement["Action"] == "s3:GetObject" and statement["Principal"] == "*"
    assert statement["Resource"] == [f"arn:aws:s3:::{bucket.bucket}/{PREFIX}api/v1/*"]


def test_put_immutable_refuses_different_bytes_and_names_the_key(bucket) -> None:
    key = "api/v1/questions/q-1"
    assert bucket.put_immutable(key, b"one") is True
    assert bucket.put_immutable(key, b"one") is False
    with pytest.raises(ImmutableObjectError, match="q-1"):
        bucket.put_immutable(key, b"two")
    with pytest.raises(ImmutableObjectError, match="q-1"):
        bucket.create(key, b"two")  # the conditional PUT loses the race: still refused
    assert bucket.get(key) == b"one"
    assert bucket.get("api/v1/questions/q-missing") is None
    assert bucket.exists(key) and not bucket.exists("api/v1/questions/q-missing")
    bucket.put("api/v1/exams/daily", b"1")
    assert bucket.keys("api/v1/") == ["api/v1/exams/daily", key]
    with pytest.raises(ValueError, match="invalid object key"):
        bucket.put("a/../b", b"x")


def test_private_prefixes_and_the_store_bucket_are_refused(tree, bucket) -> None:
    store, _ = tree
    for prefix in ["internal/", "", "inter"]:
        with pytest.raises(ValueError, match="private"):
            publish_tree(store, bucket, timezone=TZ, now=NOW, prefixes=[prefix])
    same = S3ObjectStore(bucket.client, bucket.bucket, "elsewhere")
    with pytest.raises(PublishError, match="separate public bucket"):
        publish_tree(same, bucket, timezone=TZ, now=NOW)


def test_a_missing_bucket_is_named(tree, endpoint) -> None:
    store, _ = tree
    missing = S3ObjectStore(s3_client(endpoint, "us-east-1"), "no-such-qforge-bucket")
    with pytest.raises(BucketMissingError, match="no-such-qforge-bucket"):
        publish_tree(store, missing, timezone=TZ, now=NOW)
    with pytest.raises(BucketMissingError, match="no-such-qforge-bucket"):
        configure_bucket(missing)
    with pytest.raises(BucketMissingError, match="no-such-qforge-bucket"):
        missing.get("api/v1/exams/daily")


def test_settings_build_both_stores(tmp_path: Path, endpoint: str, bucket) -> None:
    with pytest.raises(ValueError, match="QFORGE_S3_BUCKET"):
        Settings(home=tmp_path, object_store="s3")
    with pytest.raises(ValueError, match="QFORGE_PUBLISH_BUCKET"):
        publish_target(Settings(home=tmp_path))
    s = Settings(
        home=tmp_path,
        object_store="s3",
        s3_bucket=bucket.bucket,
        s3_prefix="/private",
        s3_endpoint_url=endpoint,
        s3_region="us-east-1",
        publish_bucket="public",
    )
    store = object_store(s)
    assert isinstance(store, S3ObjectStore) and store.prefix == "private/"
    store.put("internal/pool/x", b"x")
    assert bucket.client.get_object(Bucket=bucket.bucket, Key="private/internal/pool/x")
    target = publish_target(s)
    assert (target.bucket, target.endpoint) == ("public", endpoint)


def test_a_worker_job_mirrors_its_new_files_before_it_completes(
    tmp_path: Path, bucket: S3ObjectStore, endpoint: str
) -> None:
    from api_stub.requests import practice_order
    from api_stub.runner import JobRunner
    from core.records import Difficulty, Subject
    from pipeline.compose import build_services
    from tests.worker_pool import publish_pool, richest_topic, verified_questions

    settings = Settings(
        home=tmp_path / "home",
        publish_bucket=bucket.bucket,
        publish_prefix=PREFIX,
        publish_endpoint_url=endpoint,
        publish_region="us-east-1",
    )
    services = build_services(settings)
    pool = verified_questions(services, [(Subject.PHYSICS, Difficulty.HARD)], per_cell=20)
    topic, groups = richest_topic(publish_pool(services, pool), Difficulty.HARD)
    assert groups < 10
    order = {"topic_id": topic, "question_count": 10, "difficulty": "Hard"}
    runner = JobRunner(services, mirror=public_mirror(settings, services.store))
    job = runner.submit_practice(
        practice_order(order, services.syllabus), "key-test", lambda n: None
    )
    assert runner.drain(timeout=60)
    done = runner.job(job.job_id)
    assert done is not None and done.status.value == "COMPLETED" and done.result_key
    result = json.loads(services.store.get(done.result_key) or b"")
    fresh = [q["id"] for q in result["questions"] if q["id"] not in {p.question_id for p in pool}]
    assert fresh
    assert bucket.get(done.result_key) == services.store.get(done.result_key)
    for fresh_id in fresh:  # the new questions the set links to are public too
        head = bucket.head(question_key(fresh_id))
        assert head is not None and head["CacheControl"] == IMMUTABLE
    assert bucket.keys("internal/") == []
    runner.close()


def test_figure_images_are_published_first_as_public_immutable_svg(
    tmp_path: Path, syllabus: Syllabus, bucket, endpoint
) -> None:
    store = LocalObjectStore(tmp_path / "store")
    questions = [*make_questions(syllabus, range(2)), figure_question(syllabus)]
    export_day(store, questions, "2026-11-25")
    image_keys = figure_image_keys(questions[-1])
    assert image_keys and all(store.exists(k) for k in image_keys)
    configure_bucket(bucket)
    puts = record_puts(bucket)
    publish_tree(store, bucket, timezone=TZ, now=NOW)
    assert set(puts[: len(image_keys)]) == set(image_keys)  # before anything that shows them
    image = next(k for k in image_keys if k.endswith(".svg"))
    with urllib.request.urlopen(url(endpoint, bucket, image)) as response:
        body = response.read()
        assert response.headers["Content-Type"] == "image/svg+xml"
        assert response.headers["Cache-Control"] == IMMUTABLE
    assert body == store.get(image) and unsafe_svg(body.decode("utf-8")) is None
    with urllib.request.urlopen(url(endpoint, bucket, image + ".br")) as response:
        assert response.headers["Content-Encoding"] == "br"
        assert response.headers["Content-Type"] == "image/svg+xml"
        assert brotli.decompress(response.read()) == body
