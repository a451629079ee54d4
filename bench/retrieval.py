"""Retrieval benchmark: recall@5 of FTS, vector and hybrid search, and query latency at 50k chunks.

Run with `make bench` (or `python -m bench.retrieval`). It ingests the bundled knowledge base into
a temporary store (reporting ingest throughput), pads the chunk table to 50,000 rows with
distractor chunks made by shuffling the words of bundled sentences, builds the indexes, then runs
the queries of bench/retrieval_queries.json through `KnowledgeStore.search`, which is LanceDB's
own full-text, vector and hybrid query (RRF reranker). The baseline in the same run is the same
hybrid query with an exact vector scan (the IVF vector index bypassed): what the index costs in
recall and saves in time at 50k rows. Below 20k rows there is no vector index, so the two agree.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import pyarrow as pa

from core.settings import Settings
from kb.store import KnowledgeStore, chunk_schema
from pipeline.compose import build_ingestor

QUERIES = Path(__file__).with_name("retrieval_queries.json")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def filler_rows(ks: KnowledgeStore, n: int, seed: int = 7) -> list[dict[str, Any]]:
    """n filler chunks of random words from the embedding model's vocabulary: they cost what
    real chunks cost to search, but hold no answer (shuffled real sentences would, since both
    BM25 and mean-pooled embeddings ignore word order)."""
    from tokenizers import Tokenizer

    vocab = Tokenizer.from_file(str(Settings().embedding_model_dir / "tokenizer.json")).get_vocab()
    words = sorted(w for w in vocab if w.isalpha() and len(w) > 3)
    rng = random.Random(seed)
    texts = [" ".join(rng.choices(words, k=60)) for _ in range(n)]
    vectors = ks.embedder.embed(texts)
    template = ks.table("chunks").search().limit(1).to_list()[0]
    return [
        {
            **template,
            "chunk_id": f"pad-{seed}-{i}",
            "doc_id": "pad",
            "source": f"pad/{seed}-{i}",
            "text": t,
            "section": "pad",
            "vector": v.tolist(),
        }
        for i, (t, v) in enumerate(zip(texts, vectors, strict=True))
    ]


def file_id(source: str) -> str:
    """The bundled file a hit came from (a query expects a file; long files have several chunks)."""
    return Path(source).stem


def exact_hybrid(ks: KnowledgeStore, text: str, k: int) -> list[str]:
    """The baseline: the store's hybrid query with the vector side an exact scan."""
    q = ks.embedder.embed([text])[0]
    res = (
        ks.table("chunks")
        .search(query_type="hybrid")
        .vector(q)
        .text(text)
        .distance_type("cosine")
        .bypass_vector_index()
        .where("syllabus_status = 'in_syllabus'", prefilter=True)
        .limit(k)
        .to_list()
    )
    return [file_id(r["source"]) for r in res]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=50_000, help="chunk table size for latency")
    parser.add_argument("--repeat", type=int, default=3, help="latency passes over the queries")
    parser.add_argument("--queries", type=Path, default=QUERIES, help="queries JSON file")
    args = parser.parse_args(argv)
    queries = json.loads(args.queries.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="qforge-bench-") as tmp:
        settings = Settings(home=Path(tmp))
        ingestor = build_ingestor(settings)
        report = ingestor.ingest([settings.bundled_kb_dir])
        ks = ingestor.kstore
        real_chunks = ks.count("chunks")
        print(
            f"ingest: {report.count('ingested')} files, {report.chunks} chunks in "
            f"{report.seconds:.2f} s = {report.chunks_per_second:.0f} chunks/s "
            f"(embedder {ks.embedder.model_id})"
        )
        modes: dict[str, Any] = {
            "fts": lambda q: [file_id(h.source) for h in ks.search("chunks", q, k=5, mode="fts")],
            "vector": lambda q: [
                file_id(h.source) for h in ks.search("chunks", q, k=5, mode="vector")
            ],
            "hybrid": lambda q: [
                file_id(h.source) for h in ks.search("chunks", q, k=5, mode="hybrid")
            ],
            "baseline: exact hybrid": lambda q: exact_hybrid(ks, q, 5),
        }

        def recall(fn: Any) -> float:
            return sum(q["expected"] in fn(q["query"]) for q in queries) / len(queries)

        small = {name: recall(fn) for name, fn in modes.items()}
        pad = max(0, args.rows - real_chunks)
        t0 = time.perf_counter()
        for start in range(0, pad, 10_000):
            rows = filler_rows(ks, min(10_000, pad - start), seed=start)
            schema = chunk_schema(ks.embedder.dim)
            ks.table("chunks").add(pa.Table.from_pylist(rows, schema=schema))
        ks.build_indexes(force=True)
        print(
            f"table: {ks.count('chunks')} chunks ({real_chunks} real, {pad} filler); "
            f"filler + indexes {time.perf_counter() - t0:.1f} s"
        )
        for fn in modes.values():  # warm caches and indexes
            fn(queries[0]["query"])
        n_rows = ks.count("chunks")
        print(f"\n{len(queries)} queries; latency over {args.repeat} passes at {n_rows} rows")
        print(f"{'mode':26} {'recall@5 KB':>12} {'recall@5 50k':>13} {'p50 ms':>8} {'p95 ms':>8}")
        for name, fn in modes.items():
            large = recall(fn)
            times = []
            for _ in range(args.repeat):
                for q in queries:
                    t = time.perf_counter()
                    fn(q["query"])
                    times.append((time.perf_counter() - t) * 1000)
            print(
                f"{name:26} {small[name]:12.3f} {large:13.3f} {statistics.median(times):8.2f} "
                f"{percentile(times, 95):8.2f}"
            )
        emb = ks.embedder
        texts = [q["query"] for q in queries] * 50
        t = time.perf_counter()
        emb.embed(texts)
        print(f"\nembedder: {len(texts) / (time.perf_counter() - t):.0f} queries/s encoded")


if __name__ == "__main__":
    main()
