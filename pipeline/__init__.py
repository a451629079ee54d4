"""Generation, verification, pool filling and paper assembly: plain functions, no Prefect."""
