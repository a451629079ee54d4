"""The worker app built from the environment alone: what each `qforge api` process runs."""

from __future__ import annotations

import dataclasses

from fastapi import FastAPI

from api_stub.app import create_app
from api_stub.runner import JobRunner, public_mirror
from core.providers import object_store
from core.settings import Settings
from pipeline.compose import build_services


def app_factory() -> FastAPI:
    """One worker process: its settings, store, services and job runner (jobs live in the store)."""
    settings = Settings()
    store = object_store(settings)
    services = dataclasses.replace(build_services(settings), store=store)
    runner = JobRunner(services, mirror=public_mirror(settings, store))
    return create_app(settings, store, runner=runner)
