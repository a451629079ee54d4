"""Shared leaf package (records, ids, settings, renderings, storage); imports no other."""
