"""Warehouses as an older qforge left them, for migration tests."""

from __future__ import annotations

import re

from core.schema import MIGRATIONS
from core.warehouse import Warehouse

_CREATED = re.compile(r"CREATE TABLE (\w+)")


def rewind(wh: Warehouse, version: int) -> None:
    """Forget migrations from `version` on and drop the tables they created (columns they
    added are the caller's to drop: which ones matters to each test)."""
    for v in range(len(MIGRATIONS), version - 1, -1):
        for table in _CREATED.findall(MIGRATIONS[v - 1]):
            wh.con.execute(f"DROP TABLE IF EXISTS {table}")
    wh.con.execute("DELETE FROM schema_migrations WHERE version >= ?", [version])
