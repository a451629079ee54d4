"""Prefect flows and the command line: wiring only, no business logic."""
