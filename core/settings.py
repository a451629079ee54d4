"""One typed settings object, read from QFORGE_* variables and an optional qforge.toml."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import (
    BaseSettings,
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
    object_store: Literal["local"] = "local"
    timezone: str = "Asia/Kolkata"
    nightly_cron: str = Field(
        default="5 0 * * *", description="When `qforge serve` runs the nightly, in `timezone`."
    )
    prefect_port: int = Field(default=4200, description="Port of the server `qforge serve` starts.")
    api_host: str = "127.0.0.1"
    api_port: int = 8000
    max_attempts_per_question: int = Field(default=6, ge=1)

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
    def prefect_home(self) -> Path:
        return self.home / "prefect"
