"""The solvers of organic-chemistry questions (pipeline.generate.organic), one per kind."""
