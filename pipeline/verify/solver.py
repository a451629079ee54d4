"""The offline adversarial solver. It sees a SolverView only: no key, no explanation.

Numericals: it reads the stated quantities from the stem, solves the template's declared relation
with sympy by its own path, and picks the option within tolerance. Facts: it looks for sentences of
the theory chunks that hold an option together with the stem's words, and picks the best-supported
option (or, for "incorrectly matched" questions, the only unsupported one).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from functools import lru_cache

import sympy

from core.records import OPTION_KEYS, OptionKey, QuestionFormat, SolverAnswer, SolverView, Subject
from kb.knowledge import KnowledgeBase
from kb.retrieval import SentenceIndex, content_tokens, subject_index
from pipeline.generate.elements import TEMPLATE_PREFIX as ELEMENT_PREFIX
from pipeline.generate.fact_formats import (
    COUNTED,
    LETTERED_LINE,
    PAIR_SPLIT,
    STATEMENT_LINE,
    statement_code,
)
from pipeline.generate.genetics import TEMPLATE_PREFIX as GENETICS_PREFIX
from pipeline.generate.numerical import NumericalTemplate, Quantity
from pipeline.generate.organic.template import ORGANIC_PREFIX
from pipeline.generate.sequences import TEMPLATE_PREFIX as SEQUENCE_PREFIX
from pipeline.quantities.numbers import number_and_unit, stated_quantities
from pipeline.quantities.units import UnknownUnitError, same_dimension, si_factor
from pipeline.verify.element_solver import SOLVER_NAME, element_answer
from pipeline.verify.figure_solver import figure_answer
from pipeline.verify.genetics_solver import genetics_answer
from pipeline.verify.organic import organic_answer
from pipeline.verify.sequence_solver import SequenceSolver

NUMERIC_TOLERANCE = 0.01
MIN_SUPPORT = 0.5
MIN_MARGIN = 0.15


Roots = list[Callable[..., float]]


@lru_cache(maxsize=512)
def _solution(template: NumericalTemplate) -> list[Roots]:
    """Each declared relation, in order, solved symbolically for the one quantity it finds.

    A chain template's steps each find an intermediate quantity from the givens and the steps
    before; the final relation finds the unknown. Per step, its roots as numeric functions of
    the quantities known by then (the givens, then the earlier steps' results).
    """
    found = [*(s.finds.symbol for s in template.chain), template.unknown.symbol]
    relations = [*(s.relation for s in template.chain), template.relation]
    names = [q.symbol for q in template.givens] + found
    symbols = {n: sympy.Symbol(n) for n in names}
    steps = []
    for i, (finds, text) in enumerate(zip(found, relations, strict=True)):
        relation = sympy.sympify(text, locals={**symbols, "Eq": sympy.Eq})
        # simplify/check off: 3x faster over the templates, and the roots are checked numerically
        roots = sympy.solve(relation, symbols[finds], simplify=False, rational=False, check=False)
        known = [symbols[n] for n in names[: len(template.givens) + i]]
        steps.append([sympy.lambdify(known, r, modules="math") for r in roots])
    return steps


def _one_root(functions: Roots, known: list[float]) -> float | str:
    """The one usable real root (the positive one when there are several), or why there is none."""
    candidates = []
    for f in functions:
        try:
            root = complex(f(*known))
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):
            continue
        if abs(root.imag) < 1e-12 * max(1.0, abs(root.real)):
            candidates.append(root.real)
    positive = [c for c in candidates if c > 0]
    if len(candidates) > 1 and len(positive) == 1:
        candidates = positive
    if len(candidates) != 1 or not math.isfinite(candidates[0]):
        return f"relation gave {len(candidates)} usable roots"
    return candidates[0]


def _to_working(value: float, shown_unit: str, declared: Quantity) -> float | None:
    """A stated value in the unit the relation works in, converted by pint from the printed unit.

    The relation works either in the declared unit as printed (factor 1) or in SI base units; the
    factor comes from the unit the stem prints, never from the generator's own conversion. None
    when the printed unit is not a unit of the declared quantity at all.
    """
    if shown_unit == declared.unit and declared.si == 1:
        return value  # also keeps offset units (°C) out of pint's hands
    try:
        if not same_dimension(shown_unit, declared.unit):
            return None
        working = si_factor(declared.unit) if declared.si == 1 else 1.0
        return value * si_factor(shown_unit) / working
    except UnknownUnitError:
        return None


def numerical_answer(view: SolverView, template: NumericalTemplate) -> SolverAnswer:
    """Re-derive the answer from the quantities stated in the stem and match it to an option."""
    stated = stated_quantities(view.stem_markdown)
    if len(stated) != len(template.givens):
        return SolverAnswer(
            solver=SOLVER_NAME,
            choice=None,
            confidence=0.0,
            note=f"read {len(stated)} quantities, expected {len(template.givens)}",
        )
    working: list[float] = []
    for (shown, unit), q in zip(stated, template.givens, strict=True):
        converted = _to_working(shown, unit, q)
        if converted is None:
            return _abstain(f"the stem gives {q.symbol} in {unit!r}, not a unit of {q.unit!r}")
        working.append(converted)
    known = working
    for step, functions in enumerate(_solution(template)):
        root = _one_root(functions, known)
        if isinstance(root, str):
            return _abstain(f"step {step + 1}: {root}")
        known = [*known, root]
    target = known[-1]
    matches: list[OptionKey] = []
    for option in view.options:
        read = number_and_unit(option.text)
        offered = _to_working(*read, template.unknown) if read else None
        if offered is not None and abs(offered - target) <= NUMERIC_TOLERANCE * abs(target):
            matches.append(option.key)
    if len(matches) != 1:
        return SolverAnswer(
            solver=SOLVER_NAME,
            choice=None,
            confidence=0.0,
            note=f"{len(matches)} options within tolerance of {target:.4g}",
        )
    return SolverAnswer(solver=SOLVER_NAME, choice=matches[0], confidence=1.0)


def _support(index: SentenceIndex, stem: frozenset[str], option: frozenset[str]) -> float:
    """Best share of the stem's weight found in one sentence that holds the whole option."""
    asked = stem - option
    if not option or not asked:
        return 0.0
    total = index.weight(asked)
    return max(
        (index.weight(asked & s.tokens) / total for s in index.containing(option)), default=0.0
    )


def _pair_support(index: SentenceIndex, text: str) -> float:
    """Support for an option written as `left — right` (0.0 when it is not a pair)."""
    parts = PAIR_SPLIT.split(text)
    return _parts_support(index, parts[0], parts[1]) if len(parts) == 2 else 0.0


def _parts_support(index: SentenceIndex, left_text: str, right_text: str) -> float:
    """Share of a pair's words that one sentence holds together (1.0: stated as a fact)."""
    left, right = content_tokens(left_text), content_tokens(right_text)
    best = 0.0
    for s in index.containing(left):
        best = max(best, index.weight(right & s.tokens) / max(index.weight(right), 1e-9))
    return best


TRUE_AT = 0.999  # a claim whose every word one sentence holds
FALSE_BELOW = 0.75  # a claim most of whose distinctive words no sentence holds together
_LIST_ROW = re.compile(r"^\|\s*([A-D])\.\s*\|\s*(.+?)\s*\|\s*([IV]+)\.\s*\|\s*(.+?)\s*\|\s*$", re.M)
_CODE = re.compile(r"([A-D])-([IV]+)")
_COUNT_WORDS = {"One": 1, "Two": 2, "Three": 3, "Four": 4}


def _abstain(note: str) -> SolverAnswer:
    return SolverAnswer(solver=SOLVER_NAME, choice=None, confidence=0.0, note=note)


# In a coded set every statement is the table's stem with one value swapped: a false one keeps
# most of a true sentence's words (0.60-0.89 of their weight, p5-p95, over 300 tables' drafts),
# so it is called false below this, and only a statement closer than that stays unclear.
SET_FALSE_BELOW = 0.9


def _truth(score: float, false_below: float = FALSE_BELOW) -> bool | None:
    """True, False, or None when the evidence is too unclear to call."""
    if score >= TRUE_AT:
        return True
    if score < false_below:
        return False
    return None


def _claim_support(index: SentenceIndex, claim: str) -> float:
    """Best share of a claim's words (by weight) that one sentence holds."""
    tokens = content_tokens(claim)
    total = index.weight(tokens)
    if not tokens:
        return 0.0
    return max(
        (index.weight(tokens & s.tokens) / total for s in index.sharing(tokens)), default=0.0
    )


def _two_statements(view: SolverView, index: SentenceIndex) -> SolverAnswer:
    claims = dict(STATEMENT_LINE.findall(view.stem_markdown))
    if set(claims) != {"I", "II"}:
        return _abstain("cannot read the two statements")
    truths = [_truth(_claim_support(index, claims[k])) for k in ("I", "II")]
    if None in truths:
        return _abstain(f"statement support unclear {truths}")
    wanted = {
        (True, True): "Both Statement I and Statement II are correct",
        (False, False): "Both Statement I and Statement II are incorrect",
        (True, False): "Statement I is correct but Statement II is incorrect",
        (False, True): "Statement I is incorrect but Statement II is correct",
    }[(bool(truths[0]), bool(truths[1]))]
    match = [o.key for o in view.options if o.text == wanted]
    return (
        SolverAnswer(solver=SOLVER_NAME, choice=match[0], confidence=1.0)
        if match
        else _abstain("no option states the combination")
    )


_ASSERTION = re.compile(r"\*\*Assertion A:\*\*\s*(.+)")
_REASON = re.compile(r"\*\*Reason R:\*\*\s*(.+)")


def _explains(index: SentenceIndex, assertion: str, reason: str) -> float:
    """How fully one sentence states both claims: the smaller of its two shares, at best."""
    a, r = content_tokens(assertion), content_tokens(reason)
    wa, wr = index.weight(a), index.weight(r)
    if not a or not r:
        return 0.0
    return max(
        (
            min(index.weight(a & s.tokens) / wa, index.weight(r & s.tokens) / wr)
            for s in index.sharing(a | r)
        ),
        default=0.0,
    )


def _assertion_reason(view: SolverView, index: SentenceIndex) -> SolverAnswer:
    a, r = _ASSERTION.search(view.stem_markdown), _REASON.search(view.stem_markdown)
    if not a or not r:
        return _abstain("cannot read the assertion and the reason")
    truths = [_truth(_claim_support(index, m.group(1))) for m in (a, r)]
    if None in truths:
        return _abstain(f"claim support unclear {truths}")
    if truths == [True, True]:
        link = _truth(_explains(index, a.group(1), r.group(1)))
        if link is None:
            return _abstain("cannot tell whether R explains A")
        wanted = "is the correct explanation" if link else "is not the correct explanation"
    elif truths == [True, False]:
        wanted = "A is true but R is false"
    elif truths == [False, True]:
        wanted = "A is false but R is true"
    else:
        wanted = "both A and R are false"
    match = [o.key for o in view.options if wanted.lower() in o.text.lower()]
    return (
        SolverAnswer(solver=SOLVER_NAME, choice=match[0], confidence=1.0)
        if len(match) == 1
        else _abstain(f"{len(match)} options say '{wanted}'")
    )


def _match_list(view: SolverView, index: SentenceIndex) -> SolverAnswer:
    rows = _LIST_ROW.findall(view.stem_markdown)
    if len(rows) != 4:
        return _abstain("cannot read the two lists")
    entities = {k: e for k, e, _, _ in rows}
    values = {r: v for _, _, r, v in rows}
    # Every option draws on the same 16 pairings: score each once.
    support = {
        (k, r): _parts_support(index, e, v) for k, e in entities.items() for r, v in values.items()
    }
    scored = []
    for option in view.options:
        code = dict(_CODE.findall(option.text))
        if set(code) != set(entities) or set(code.values()) != set(values):
            return _abstain(f"cannot read option {option.key}")
        total = sum(support[pair] for pair in code.items())
        scored.append((total, option.key))
    scored.sort(reverse=True)
    (best, key), (second, _) = scored[0], scored[1]
    if best < 4 * TRUE_AT - 1e-9 or best - second < 0.5:
        return _abstain(f"matching support {[round(x, 2) for x, _ in scored]}")
    return SolverAnswer(
        solver=SOLVER_NAME, choice=key, confidence=round(min(1.0, (best - second) / 2), 4)
    )


def _how_many(view: SolverView, index: SentenceIndex) -> SolverAnswer:
    pairs = COUNTED.findall(view.stem_markdown)
    if len(pairs) != 4:
        return _abstain("cannot read the four pairs")
    truths = [_truth(_pair_support(index, text)) for _, text in pairs]
    if None in truths:
        return _abstain(f"pair support unclear {truths}")
    count = sum(bool(t) for t in truths)
    match = [o.key for o in view.options if _COUNT_WORDS.get(o.text.strip()) == count]
    return (
        SolverAnswer(solver=SOLVER_NAME, choice=match[0], confidence=1.0)
        if match
        else _abstain(f"no option says {count}")
    )


def _multi_statement(view: SolverView, index: SentenceIndex) -> SolverAnswer:
    claims = LETTERED_LINE.findall(view.stem_markdown)
    if len(claims) < 3:
        return _abstain("cannot read the lettered statements")
    truths = [_truth(_claim_support(index, text), SET_FALSE_BELOW) for _, text in claims]
    if None in truths:
        return _abstain(f"statement support unclear {truths}")
    true = [letter for (letter, _), t in zip(claims, truths, strict=True) if t]
    if not true:
        return _abstain("no statement is true, and no option can say so")
    wanted = statement_code(true)
    match = [o.key for o in view.options if o.text.strip() == wanted]
    return (
        SolverAnswer(solver=SOLVER_NAME, choice=match[0], confidence=1.0)
        if len(match) == 1
        else _abstain(f"no option codes {wanted!r}")
    )


def fact_answer(view: SolverView, index: SentenceIndex) -> SolverAnswer:
    """Answer a fact question from chunk sentences alone."""
    if view.format is QuestionFormat.MULTI_STATEMENT:
        return _multi_statement(view, index)
    if view.format is QuestionFormat.TWO_STATEMENTS:
        return _two_statements(view, index)
    if view.format is QuestionFormat.ASSERTION_REASON:
        return _assertion_reason(view, index)
    if view.format is QuestionFormat.MATCH_LIST:
        return _match_list(view, index)
    if view.format is QuestionFormat.HOW_MANY_CORRECT:
        return _how_many(view, index)
    if view.format is QuestionFormat.INCORRECT_PAIR:
        scores = [_pair_support(index, o.text) for o in view.options]
        order = sorted(range(4), key=lambda i: scores[i])
        low, nxt = scores[order[0]], scores[order[1]]
        margin = nxt - low
        if nxt < 1.0 - 1e-9 or margin < MIN_MARGIN:
            return SolverAnswer(
                solver=SOLVER_NAME,
                choice=None,
                confidence=0.0,
                note=f"pair support {sorted(scores)}",
            )
        return SolverAnswer(
            solver=SOLVER_NAME, choice=OPTION_KEYS[order[0]], confidence=round(min(1.0, margin), 4)
        )
    stem = content_tokens(view.stem_markdown)
    scores = [_support(index, stem, content_tokens(o.text)) for o in view.options]
    order = sorted(range(4), key=lambda i: -scores[i])
    best, second = scores[order[0]], scores[order[1]]
    if best < MIN_SUPPORT or best - second < MIN_MARGIN:
        return SolverAnswer(
            solver=SOLVER_NAME,
            choice=None,
            confidence=0.0,
            note=f"support {[round(s, 2) for s in scores]}",
        )
    return SolverAnswer(
        solver=SOLVER_NAME,
        choice=OPTION_KEYS[order[0]],
        confidence=round(min(1.0, best - second), 4),
    )


class OfflineSolver:
    """Answers a SolverView with no access to the draft's key or explanation."""

    name = SOLVER_NAME

    def __init__(self, kb: KnowledgeBase, templates: Mapping[str, NumericalTemplate]) -> None:
        self._templates = templates
        self._indexes = {s: subject_index(kb, s) for s in Subject}
        self._sequences = SequenceSolver(kb)

    def solve(self, view: SolverView) -> SolverAnswer:
        if view.template_id.startswith(ORGANIC_PREFIX):
            return organic_answer(view)  # with or without structures shown
        if view.figures:
            return figure_answer(view)
        if view.template_id.startswith(ELEMENT_PREFIX):
            return element_answer(view)
        if view.template_id.startswith(GENETICS_PREFIX):
            return genetics_answer(view)
        if view.template_id.startswith(SEQUENCE_PREFIX):
            return self._sequences.answer(view)
        if view.format is QuestionFormat.NUMERICAL:
            template = self._templates.get(view.template_id)
            if template is None:
                return SolverAnswer(
                    solver=self.name,
                    choice=None,
                    confidence=0.0,
                    note=f"no declared relation for {view.template_id}",
                )
            return numerical_answer(view, template)
        return fact_answer(view, self._indexes[view.subject])
