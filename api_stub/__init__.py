"""The worker: qforge's production HTTP service, not a stub (the name is the one the design card
gives the top-level package). It serves the static tree locally and runs the two dynamic calls,
topic practice and custom exams, as asynchronous jobs; it maps HTTP to functions of `pipeline`
and `site_builder` and holds no business logic of its own.

- `app`: the FastAPI routes, keys, limits and the one error body.
- `requests`: HTTP bodies to typed orders through the contract's models.
- `runner`: job lifecycle — queue, leases, take-over of a dead replica's jobs, results.
- `pool_cache`: the latest pool snapshot this process serves from.
- `limits`: API keys, rate limits and the daily generation quota.
- `main`: the app each `qforge api` process builds from the environment.
"""
