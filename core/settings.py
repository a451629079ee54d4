"""One typed settings object, read from QFORGE_* variables and an optional qforge.toml."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

REPO_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    """Everything configurable about a qforge process; built once at the edge and passed down."""

    model_config = SettingsConfigDict(
        env_prefix="QFORGE_", toml_file="qforge.toml", extra="forbid", frozen=True
    )

    home: Path = Field(default=Path(".qforge"), description="All runtime state lives here.")
    data_dir: Path = Field(default=REPO_ROOT / "data", description="Bundled syllabus, KB, prompts.")
    llm: Literal["offline", "openai"] = "offline"
    embedder: Literal["offline", "openai"] = "offline"
    offline_embedding_model: str = "minilm-l6-static"
    openai_base_url: str | None = None
    openai_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("QFORGE_OPENAI_API_KEY", "OPENAI_API_KEY")
    )
    openai_embedding_model: str = "text-embedding-3-small"
    openai_vision_model: str = "gpt-4o-mini"
    openai_timeout_seconds: float = 60.0
    openai_max_retries: int = 3
    # QFORGE_LLM=openai: the drafter and the adversarial solver (the models may differ).
    openai_draft_model: str = "gpt-4o-mini"
    openai_solver_model: str = "gpt-4o-mini"
    solver_samples: int = Field(default=1, ge=1, le=15, description="Solver votes per draft.")
    solver_min_confidence: float = Field(
        default=0.6, ge=0.0, le=1.0, description="Below this the solver's answer abstains."
    )
    llm_token_budget: int | None = Field(
        default=None, ge=1, description="Tokens a run may spend on model calls; unset: no cap."
    )
    llm_concurrency: int = Field(default=8, ge=1, le=256, description="Model calls at once.")
    offline_fallback: bool = Field(
        default=True,
        description="QFORGE_LLM=openai: when the model cannot fill the day's paper (faults, a "
        "token budget, a dead provider), the offline engine fills what it can of the gap.",
    )
    llm_batch: bool = Field(
        default=False,
        description="QFORGE_LLM=openai: fill the pool through the Batch API (half price, done "
        "within a day): each run submits or advances the batches, the next one collects.",
    )
    llm_batch_drafts_per_question: float = Field(
        default=2.0,
        ge=1.0,
        le=20.0,
        description="Batch mode: drafts asked for per missing question, since a batch cannot "
        "ask again for what the solver refused.",
    )
    object_store: Literal["local", "s3"] = Field(
        default="local", description="`local` (a directory under home) or `s3` (s3_bucket)."
    )
    # The object store when object_store="s3": private (it holds internal/ keys too).
    # Credentials come from boto3's standard chain (AWS_* variables, AWS_PROFILE, a role).
    s3_bucket: str | None = None
    s3_prefix: str = ""
    s3_endpoint_url: str | None = Field(default=None, description="Any S3-compatible endpoint.")
    s3_region: str | None = None
    # The public bucket `qforge publish` mirrors api/v1/ to (never internal/); endpoint and
    # region default to the s3_* ones.
    publish_bucket: str | None = None
    publish_prefix: str = ""
    publish_endpoint_url: str | None = None
    publish_region: str | None = None
    publish_workers: int = Field(default=8, ge=1, le=64, description="Parallel uploads.")
    publish_public_read: bool = Field(
        default=True,
        description="Anonymous GET of api/v1/; false when the CDN has its own identity.",
    )
    timezone: str = "Asia/Kolkata"
    nightly_cron: str = Field(
        default="5 0 * * *", description="When `qforge serve` runs the nightly, in `timezone`."
    )
    prefect_port: int = Field(default=4200, description="Port of the server `qforge serve` starts.")
    api_host: str = "127.0.0.1"
    api_port: int = 8000
    api_workers: int = Field(
        default=1, ge=1, le=64, description="Worker processes of `qforge api` (one GIL each)."
    )
    max_attempts_per_question: int = Field(default=6, ge=1)
    topic_floor: int = Field(
        default=10,
        ge=0,
        description="Servable questions the nightly keeps for every live topic × difficulty "
        "(distinct near-duplicate groups, what a practice set draws on); 0 turns it off.",
    )
    figure_floor: int = Field(
        default=3,
        ge=0,
        description="Never-used figure questions the nightly keeps per figure template of each "
        "unit × difficulty, before it builds the paper (which takes 2 to 3 figure questions a "
        "subject); 0 turns it off.",
    )
    # The worker (`qforge api`): who may call the dynamic endpoints, how often, how much.
    api_keys: Annotated[tuple[SecretStr, ...], NoDecode] = Field(
        default=(),
        description="Comma-separated API keys; none: a local development key under home.",
    )
    rate_limit_per_minute: int = Field(default=120, ge=1, description="Requests per key.")
    rate_limit_burst: int = Field(default=30, ge=1, description="Requests a key may send at once.")
    kb_max_chunks_per_document: int = Field(
        default=1000,
        ge=1,
        description="Chunks one ingested document may add (after dropping repeats); the rest "
        "are left out, with a warning.",
    )
    wrong_key_limit_per_minute: int = Field(
        default=10, ge=1, description="Requests with a missing or wrong key per client address."
    )
    wrong_key_limit_burst: int = Field(
        default=20, ge=1, description="Wrong-key requests a client address may send at once."
    )
    daily_generation_quota: int = Field(
        default=200, ge=0, description="Questions a key may have generated per day (Asia/Kolkata)."
    )
    # What students send back (answer logs, error reports): a bucket of its own per key, so a
    # class posting through one app's key never spends the key's generation allowance.
    feedback_rate_limit_per_minute: int = Field(
        default=600, ge=1, description="Answer-log and report posts per key."
    )
    feedback_rate_limit_burst: int = Field(
        default=200, ge=1, description="Answer-log and report posts a key may send at once."
    )
    daily_answer_quota: int = Field(
        default=200_000, ge=0, description="Answers a key may have kept per day (Asia/Kolkata)."
    )
    daily_report_quota: int = Field(
        default=2_000, ge=0, description="Error reports a key may have kept per day."
    )
    max_attempts_request_bytes: int = Field(
        default=262_144,
        ge=256,
        description="Largest answer-log body (500 answers are about 80 KB).",
    )
    worker_generation_slots: int = Field(default=2, ge=1, le=64, description="Jobs generating.")
    worker_queue_limit: int = Field(default=16, ge=0, description="Jobs waiting; beyond: 503.")
    job_lease_seconds: float = Field(
        default=60.0, gt=0, description="Silence after which another replica resumes a job."
    )
    job_max_resumes: int = Field(default=2, ge=0, description="Resumes before a job FAILS.")
    max_request_bytes: int = Field(default=16_384, ge=256, description="Largest POST body.")
    snapshot_refresh_seconds: float = Field(
        default=30.0, ge=0, description="How often the worker looks for a new pool snapshot."
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls))

    @field_validator("api_keys", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(k.strip() for k in value.split(",") if k.strip())
        return value

    @model_validator(mode="after")
    def _s3_store_has_a_bucket(self) -> Settings:
        if self.object_store == "s3" and not self.s3_bucket:
            raise ValueError("QFORGE_S3_BUCKET is required when QFORGE_OBJECT_STORE=s3")
        return self

    @property
    def warehouse_path(self) -> Path:
        return self.home / "warehouse.duckdb"

    @property
    def warehouse_export_dir(self) -> Path:
        """Parquet snapshots of the analytics views, readable while the warehouse is busy."""
        return self.home / "exports" / "warehouse"

    @property
    def store_dir(self) -> Path:
        return self.home / "store"

    @property
    def lancedb_uri(self) -> str:
        return str(self.home / "lancedb")

    @property
    def embedding_model_dir(self) -> Path:
        return self.data_dir / "models" / self.offline_embedding_model

    @property
    def bundled_kb_dir(self) -> Path:
        return self.data_dir / "kb" / "chunks"

    @property
    def dev_api_key_path(self) -> Path:
        """Where the local development key lives when no QFORGE_API_KEYS are set."""
        return self.home / "dev-api-key"

    @property
    def prefect_home(self) -> Path:
        return self.home / "prefect"
