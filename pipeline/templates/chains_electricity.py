"""Multi-step, multi-concept numericals (electricity): each template chains relations from different
concepts (`Step`s, then the final relation); the solver re-derives every step from the stem's
numbers with sympy. Every distractor is a named mistake at some step.
"""

from __future__ import annotations

from pipeline.generate.numerical import NumericalTemplate

ELECTRICITY_CHAINS: tuple[NumericalTemplate, ...] = ()
