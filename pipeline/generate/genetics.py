"""Genetics questions (NEET-UG): monohybrid and dihybrid crosses, test crosses, incomplete
dominance, ABO, sex-linked and autosomal disorders, pedigrees and Hardy–Weinberg.

Traits, alleles and disorders are NCERT's (data/kb/genetics/traits.json). The wording of each
question form and the named slip behind each distractor are data (data/kb/genetics/forms.json);
the numbers come from the formulas here: a parent passes an allele with probability (its
copies)/2, independently assorting genes multiply, a son's X is his mother's, and p + q = 1 with
p² + 2pq + q² = 1. A form's expressions may only call its kind's environment (a small evaluator,
no `eval`). The solver (pipeline/verify/genetics_solver.py) never sees these formulas: it reads
the stem and enumerates gametes and family genotypes itself.
"""

from __future__ import annotations

import ast
import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction as F
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from math import gcd, lcm, prod
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from simpleeval import DEFAULT_OPERATORS, EvalWithCompoundTypes

from core.ids import digest
from core.records import Difficulty, Draft, Provenance, QuestionFormat, Subject, choice_draft
from core.settings import REPO_ROOT
from kb.syllabus import Syllabus
from pipeline.difficulty import Demand, difficulty_reason, rated
from pipeline.verify.gate import hygiene_problem

GENERATOR = "offline.genetics"
TEMPLATE_PREFIX = "genetics."
GENETICS_DIR = Path("kb") / "genetics"
MONO, DI = "bot-monohybrid-cross", "bot-dihybrid-cross"
INC, DIS = "bot-incomplete-dominance-codominance", "bot-mendelian-disorders"
BOT = Subject.BOTANY
KINDS = (  # kind, subject, the topic of all its drafts
    *(("monohybrid", BOT, MONO), ("test-cross", BOT, MONO), ("dihybrid", BOT, DI)),
    *(("incomplete-dominance", BOT, INC), ("abo", BOT, INC), ("sex-linked", BOT, DIS)),
    *(("autosomal", BOT, DIS), ("pedigree", BOT, DIS)),
    ("hardy-weinberg", Subject.ZOOLOGY, "zoo-hardy-weinberg-principle"),
)
COUNTS = (320, 480, 576, 640, 720, 800, 960, 1152, 1200, 1440, 1600, 1920, 2400, 2880)
HW_QS = (1, 2, 4, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 60, 70, 80, 90)  # q in hundredths
W3 = ("DD", "Dd", "dd")
F2, TC = ((1, 1), (1, 1)), ((1, 2), (1, 2))
Env = dict[str, Any]


@cache
def load_genetics(data_dir: Path) -> Any:
    """The traits (rows with attributes, as JSON gives them), sources and question forms."""
    raw = json.loads((data_dir / GENETICS_DIR / "traits.json").read_text(encoding="utf-8"))
    forms = json.loads((data_dir / GENETICS_DIR / "forms.json").read_text(encoding="utf-8"))
    rows = {k: [SimpleNamespace(**r) for r in v] for k, v in raw.items() if isinstance(v, list)}
    sources = {k: v["source"] for k, v in raw.items() if isinstance(v, dict)}  # abo, pedigree, …
    return SimpleNamespace(**rows, **sources, forms={k: v for k, v in forms.items() if k[0] != "_"})


@dataclass(frozen=True)
class Item:
    """One question before its options are chosen and shuffled."""

    topic: str
    case: str
    stem: str
    demand: Demand
    what: str
    work: str
    source: str
    key: str = ""
    slips: tuple[tuple[str, str], ...] = ()


# ── Formulas ─────────────────────────────────────────────────────────────────────────────────


def ft(x: F | int) -> str:
    x = F(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def dec(x: F) -> str:
    return format(Decimal(x.numerator) / Decimal(x.denominator), "f")  # terminating: exact


def ratio(pairs: Iterable[tuple[str, F]]) -> str:
    """`3 tall : 1 dwarf` (or `all tall`) from class labels and their probabilities."""
    kept = [(label, p) for label, p in pairs if p]
    if len(kept) == 1:
        return f"all {kept[0][0]}"
    ints = [int(p * lcm(*(q.denominator for _, q in kept))) for _, p in kept]
    return " : ".join(f"{n // gcd(*ints)} {lab}" for n, (lab, _) in zip(ints, kept, strict=True))


def gene_p(want: str, c1: int = 1, c2: int = 1) -> F:
    """Probability of a class of one gene in a cross; c1 and c2 count each parent's recessive
    alleles, and a parent passes the recessive allele with probability c/2."""
    a, b = F(c1, 2), F(c2, 2)
    p = {"DD": (1 - a) * (1 - b), "Dd": a * (1 - b) + (1 - a) * b, "dd": a * b}
    return (p | {"D": p["DD"] + p["Dd"], "r": p["dd"], "hom": p["DD"] + p["dd"]})[want]


def class_p(wants: Iterable[str], cross: Iterable[Iterable[int]]) -> F:
    """Independent assortment: the genes' probabilities multiply."""
    return prod((gene_p(w, *c) for w, c in zip(wants, cross, strict=True)), start=F(1))


def within(w: str, c: str) -> F:
    """P(homozygous `hom` or heterozygous `Dd` | phenotype c) for one gene of an F2."""
    if w == "hom":
        return gene_p("DD" if c == "D" else "dd") / gene_p(c)
    return gene_p("Dd") / gene_p(c) if c == "D" else F(0)


def f3(w: str, weights: tuple[F, F, F] = (F(1, 4), F(1, 2), F(1, 4))) -> F:
    """Every F2 plant selfed: each genotype's share times its selfed offspring's."""
    return sum((weights[g] * gene_p(w, g, g) for g in range(3)), F(0))


def pick_self(w: str, het: F) -> F:
    """A plant of the dominant phenotype, heterozygous with probability het, selfed."""
    return (1 - het) * gene_p(w, 0, 0) + het * gene_p(w, 1, 1)


def abo(group: str, g1: str, g2: str) -> F:
    """P(child's blood group): each parent passes an allele with probability (its copies)/2."""
    (a1, b1, o1), (a2, b2, o2) = ([F(g.count(x), 2) for x in "ABO"] for g in (g1, g2))
    by_group = {"O": o1 * o2, "AB": a1 * b2 + b1 * a2, "A": a1 * a2 + a1 * o2 + o1 * a2}
    return (by_group | {"B": b1 * b2 + b1 * o2 + o1 * b2})[group]


def xl(who: str, what: str, cw: int, cm: int) -> F:
    """X-linked recessive: a son's X is his mother's (the allele passed with probability cw/2);
    a daughter has one X from each parent. `son`/`daughter` ask for a child of that sex."""
    m, f = F(cw, 2), F(cm)
    got = {"sons have": m, "daughters have": m * f, "daughters carrier": m * (1 - f) + (1 - m) * f}
    got |= {"children have": (m + m * f) / 2, "children carrier": got["daughters carrier"] / 2}
    return got[f"{who}s {what}"] / 2 if who in ("son", "daughter") else got[f"{who} {what}"]


# ── Forms: expressions evaluated by simpleeval ─────────────────────────────────────────────


def _divide(x: Any, y: Any) -> Any:
    """`1 / 2` in a form is the fraction 1/2, not the float 0.5."""
    return (F(x) if isinstance(x, int) else x) / y


OPERATORS = {**DEFAULT_OPERATORS, ast.Div: _divide}


def ev(expr: str, env: Env) -> Any:
    """A form's expression (names, constants, lists, calls, arithmetic, tests, `a if b else
    c`), evaluated by simpleeval with the form's names; the env's callables are its functions."""
    functions = {k: v for k, v in env.items() if callable(v)}
    return EvalWithCompoundTypes(operators=OPERATORS, functions=functions, names=env).eval(expr)


def fill(template: str, env: Env) -> str:
    """`{expression}` placeholders replaced by their values (fractions as 3/16)."""
    return re.sub(r"\{([^{}]+)\}", lambda m: show(ev(m.group(1), env)), template)


def show(v: Any) -> str:
    return ft(v) if isinstance(v, F) else str(v)


def _ask(it: Item, question: str, key: str, slips: Iterable[tuple[str, str]]) -> Item:
    return replace(it, stem=f"{it.stem} {question}".strip(), key=key, slips=tuple(slips))


def _nums(it: Item, key: F, slips: list[tuple[F, str]], form: Env, env: Env) -> Iterator[Item]:
    """The question asked as a fraction (or decimal) and, if the form has `count`, once more as
    a count out of N, N chosen so that the key and at least three slips are whole."""
    fmt = dec if form.get("decimal") else ft
    places = max(4, len(fmt(key).partition(".")[2]))  # a slip with more decimals stands out
    shown = [
        (fmt(v), w) for v, w in slips if 0 <= v <= 1 and len(fmt(v).partition(".")[2]) <= places
    ]
    yield _ask(it, fill(form["q"], env), fmt(key), shown)
    start = int(digest(it.case), 16) % len(COUNTS)
    for n in (COUNTS[start:] + COUNTS[:start]) if "count" in form else ():
        whole = [(str(v * n), w) for v, w in slips if 0 <= v <= 1 and (v * n).denominator == 1]
        if (key * n).denominator == 1 and len(whole) >= 3:
            work = f"{it.work} Of {n}: {ft(key)} × {n} = {key * n}."
            q = fill(form["count"], env).replace("#N", str(n))
            yield _ask(replace(it, work=work), q, str(key * n), whole)
            return


def run(
    form: Env, env: Env, topic: str, source: str, loops: list[Any] | None = None
) -> Iterator[Item]:
    """Every question a form makes: loop over its `each` bindings, evaluate `key`, keep what its
    `if` accepts, then the slips whose condition holds (a slip that divides by zero is none)."""
    loops = list(form.get("each", {}).items()) if loops is None else loops
    if loops:
        (name, values), rest = loops[0], loops[1:]
        for value in ev(values, env):
            yield from run(form, {**env, name: value}, topic, source, rest)
        return
    env = {**env, "key": ev(form["key"], env)}
    if "if" in form and not ev(form["if"], env):
        return
    slips = []
    for expr, name, *when in form["slips"]:
        try:
            if not when or ev(when[0], env):
                slips.append((ev(expr, env), fill(name, env)))
        except ZeroDivisionError:
            continue
    t = {k: fill(form.get(k, ""), env) for k in ("stem", "what", "work")}
    case = f"{env['case']}:{fill(form['case'], env)}"
    it = Item(topic, case, t["stem"], Demand(**form["demand"]), t["what"], t["work"], source)
    key = env["key"]
    if isinstance(key, F) and not form.get("text"):
        yield from _nums(it, key, slips, form, env)
    else:
        whole = [(show(v), w) for v, w in slips if not isinstance(v, F) or v.denominator == 1]
        yield _ask(it, fill(form["q"], env), show(key), whole)


# ── Phrases ──────────────────────────────────────────────────────────────────────────────────


def conj(phrase: str, plural: bool) -> str:
    verbs = {"be": "are" if plural else "is", "have": "have" if plural else "has"}
    return re.sub(r"\b(be|have)\b", lambda m: verbs[m.group(1)], phrase)


def noisy(n: int, probs: list[F], seed: str) -> list[int]:
    """Observed counts near n × p, each off by a few (at most 5), as real progeny are."""
    rng = random.Random(seed)
    while True:
        counts = [int(n * p) + rng.choice((-4, -3, -2, 2, 3, 4)) for p in probs[:-1]]
        if abs(n - sum(counts) - n * probs[-1]) <= 5:
            return [*counts, n - sum(counts)]


def listing(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def geno(ts: Any, cs: Iterable[int]) -> str:
    s = [(t.symbol * 2, t.symbol + t.symbol.lower(), t.symbol.lower() * 2) for t in ts]
    return "".join(g[c] for g, c in zip(s, cs, strict=True))


def _parts(ts: Any, doms: Iterable[bool]) -> tuple[list[str], str]:
    pairs = [(t.dominant if d else t.recessive, t.organ) for t, d in zip(ts, doms, strict=True)]
    withs = [(adj, organ) for adj, organ in pairs if organ]
    if len(withs) == 2 and withs[0][1] == withs[1][1]:
        return [], f"{withs[0][0]} {withs[1][0]} {withs[0][1]}"
    return [a for a, o in pairs if not o], " and ".join(f"{a} {o}" for a, o in withs)


def plants(ts: Any, doms: Iterable[bool], noun: str = "plants") -> str:
    before, w = _parts(ts, doms)
    return " ".join([*before, noun]) + (f" with {w}" if w else "")


def vp(ts: Any, wants: tuple[str, ...]) -> str:
    """What a plant of a class does, in the base form (`be tall and have white flowers`)."""
    if all(w in ("D", "r") for w in wants):
        before, w = _parts(ts, [x == "D" for x in wants])
        return " and ".join([f"be {b}" for b in before] + ([f"have {w}"] if w else []))
    if set(wants) in ({"Dd"}, {"hom"}):
        both = " for both genes" if len(ts) > 1 else ""
        return f"be {'heterozygous' if wants[0] == 'Dd' else 'homozygous'}{both}"
    return f"have the genotype {geno(ts, [W3.index(w) for w in wants])}"


def intro(ts: Any) -> str:
    decl = "; ".join(
        f"for {t.character}, {t.dominant} ({t.symbol}) is dominant over "
        f"{t.recessive} ({t.symbol.lower()})"
        for t in ts
    )
    both = "; the two genes assort independently" if len(ts) > 1 else ""
    return f"In garden pea, {decl}{both}."


ZYGOSITY = ("homozygous dominant", "heterozygous", "homozygous recessive")


def pea_env(ts: Any) -> Env:
    """Phrases and formulas for crosses of one trait or of two independently assorting ones."""
    t, n = ts[0], len(ts)
    only = {(0, 1): ts[-1].character, (1, 0): t.character}
    labels = {(1, 1): "heterozygous for both genes", (0, 0): "homozygous for both genes"}
    labels |= {k: f"heterozygous for {c} only" for k, c in only.items()}

    def v(*wants: str) -> str:
        return vp(ts, tuple(wants))

    def p_cross(d1: list[bool], then: str) -> str:
        second = plants(ts, [not d for d in d1], "plant")
        return (
            f"{intro(ts)} A true-breeding {plants(ts, d1, 'plant')} is crossed with a "
            f"true-breeding {second}, and {then}."
        )

    def classes(cross: list[list[int]]) -> list[tuple[str, F]]:
        """The phenotype classes of a cross (per gene: both parents' recessive alleles)."""
        found = [
            (plants(ts, d), class_p(["D" if x else "r" for x in d], cross))
            for d in product((True, False), repeat=n)
        ]
        return [(name, p) for name, p in found if p]

    def seen(cross: list[list[int]], total: int) -> str:
        got = classes(cross)
        probs = [p for _, p in got]
        counts = noisy(total, probs, f"{geno(ts, [c[0] for c in cross])}{cross}{total}")
        return listing([f"{k} {name}" for k, (name, _) in zip(counts, got, strict=True)])

    def pair(c1: int, c2: int) -> str:
        words = "both heterozygous" if c1 == c2 == 1 else f"{ZYGOSITY[c1]} × {ZYGOSITY[c2]}"
        return f"{geno(ts, [c1])} × {geno(ts, [c2])} ({words})"

    def pr(c1: int, c2: int, flip: bool = False) -> str:
        d, r = ("r", "D") if flip else ("D", "r")
        return ratio([(t.dominant, gene_p(d, c1, c2)), (t.recessive, gene_p(r, c1, c2))])

    return {
        "t": t, "t1": t, "t2": ts[-1], "intro": intro(ts), "v": v, "pr": pr, "pair": pair,
        "vs": lambda *w: conj(v(*w), False), "vpl": lambda *w: conj(v(*w), True),
        "geno": lambda *cs: geno(ts, cs), "plants": lambda ds, noun: plants(ts, ds, noun),
        "gr": lambda c1, c2: ratio((geno(ts[:1], [c]), gene_p(W3[c], c1, c2)) for c in range(3)),
        "f2": lambda d1: p_cross(d1, "the F1 plants are self-pollinated"),
        "back": lambda pc: p_cross([True] * n, "an F1 plant is crossed back with the "
                                   + plants(ts, [pc == 0] * n, "parent")),
        "het": gene_p("Dd") / gene_p("D"), "flip": lambda w: "r" if w == "D" else "D",
        "box": lambda w: gene_p(w) / 2 if w == "Dd" else gene_p(w),
        "ph": lambda c: "D" if c < 2 else "r", "X": lambda p1, p2: list(zip(p1, p2, strict=True)),
        "seen": seen, "gives": lambda cross: listing([c for c, _ in classes(cross)]) + (
            " in equal numbers" if len(classes(cross)) > 1 else " only"),
        "tc": lambda cs: [[c, 2] for c in cs],
        "dopt": lambda cs: f"{geno(ts, cs)} ({labels[tuple(cs)]})",
    }  # fmt: skip


def blend_env(b: Any) -> Env:
    def gt(c: int) -> str:
        return (b.symbol * 2, b.symbol + b.symbol.lower(), b.symbol.lower() * 2)[c]

    def parent(c: int, true: bool = False) -> str:
        if b.organ:
            return f"a {'true-breeding ' if true else ''}plant with {b.phenotypes[c]}"
        return f"a plant of genotype {gt(c)}"

    ind, ph, lab = b.individual, b.phenotypes, b.labels
    lead = (
        f"In {b.organism}, {b.character} shows incomplete dominance: {gt(0)} {ind}s have "
        f"{ph[0]}, {gt(2)} {ind}s have {ph[2]} and {gt(1)} {ind}s have {ph[1]}."
    )
    p_gen = f"{lead} A{parent(0, True)[1:]} is crossed with {parent(2, True)}, and"

    def seen(c1: int, c2: int, total: int) -> str:
        got = [(f"plants with {ph[k]}", gene_p(W3[k], c1, c2)) for k in range(3)]
        got = [(name, p) for name, p in got if p]
        counts = noisy(total, [p for _, p in got], f"{c1}{c2}{total}")
        return listing([f"{k} {name}" for k, (name, _) in zip(counts, got, strict=True)])

    return {
        "b": b, "intro": lead, "kids": f"{ind}s", "ph": lambda k: ph[k], "gt": gt, "seen": seen,
        "f2": f"{p_gen} the F1 plants are self-pollinated.",
        "back": lambda c: f"{p_gen} an F1 plant is crossed back with the "
                          + (f"parent with {ph[c]}." if b.organ else f"{gt(c)} parent."),
        "cross": lambda c1, c2: f"{lead} A{parent(c1)[1:]} is crossed with {parent(c2)}.",
        "br": lambda c1, c2: ratio((lab[k], gene_p(W3[k], c1, c2)) for k in range(3)),
        "cd": lambda c1, c2: ratio([(lab[0], gene_p("D", c1, c2)), (lab[2], gene_p("r", c1, c2))]),
        "merged": lambda k, c1, c2: (gene_p("D", c1, c2), F(0), gene_p("r", c1, c2))[k],
        "popt": lambda c1, c2: f"{lab[c1]} × {lab[c2]}",
    }  # fmt: skip


ABO_TEX = {"A": "I^{A}", "B": "I^{B}", "O": "i"}
ABO_GENOTYPES = ("AA", "AO", "BB", "BO", "AB", "OO")
PEOPLE = (
    ("A", "AO", "whose mother has blood group O"), ("B", "BO", "whose father has blood group O"),
    ("A", "AA", "both of whose parents have blood group AB"),
    ("B", "BB", "both of whose parents have blood group AB"), ("AB", "AB", ""), ("O", "OO", ""),
)  # fmt: skip


def group(g: str) -> str:
    """The blood group of a genotype: I^A and I^B codominant, i recessive."""
    return "AB" if set(g) == {"A", "B"} else "O" if g == "OO" else g.replace("O", "")[0]


def tex(g: str) -> str:
    return "$" + "".join(ABO_TEX[a] for a in g) + "$"


def abo_env() -> Env:
    return {
        "intro": "The human ABO blood groups are controlled by the gene I, which has three "
                 "alleles: $I^{A}$, $I^{B}$ and $i$.",
        "tex": tex, "abo": abo, "one_parent": lambda G, g: F(g.count(G[0] if G != "O" else "O"), 2),
        "kids": lambda g1, g2: ", ".join(f"{tex(x)} ({group(x)})" for x in
                                         ("".join(sorted(a + b)) for a, b in product(g1, g2))),
        "alt": lambda g: {"AO": "AA", "AA": "AO", "BO": "BB", "BB": "BO"}.get(g, g),
        "pairs": list(combinations_with_replacement(ABO_GENOTYPES, 2)),
        "couples": [(m, w) for m, w in product(PEOPLE, repeat=2) if m[2] or w[2]],
        "who": lambda p: f"with blood group {p[0]}" + (f", {p[2]}," if p[2] else ""),
        "who_end": lambda p: f"with blood group {p[0]}" + (f", {p[2]}" if p[2] else ""),
        "lacks_i": lambda: next(g for g in ("A", "B", "AB", "O")
                                if all("O" not in x for x in ABO_GENOTYPES if group(x) == g)),
        "carry_i": lambda g1, g2: 1 - (1 - F(g1.count("O"), 2)) * (1 - F(g2.count("O"), 2)),
    }  # fmt: skip


def disorder_env(d: Any) -> Env:
    S, s, name, mode = d.symbol, d.symbol.lower(), d.name, d.inheritance
    return {
        "d": name, "D": name[0].upper() + name[1:], "S": S, "s": s, "trait": False,
        "ar": mode == "autosomal recessive", "ad": mode == "autosomal dominant",
        "xr": mode == "sex-linked recessive", "sc": name == "sickle-cell anaemia",
        "hb": lambda c: ("$Hb^{A}Hb^{A}$", "$Hb^{A}Hb^{S}$", "$Hb^{S}Hb^{S}$")[c],
        "X": lambda cw: f"$X^{{{S if cw < 2 else s}}}X^{{{S if cw < 1 else s}}}$",
        "XY": lambda cm: f"$X^{{{s if cm else S}}}Y$",
        "wd": lambda c: (f"does not carry the allele for {name}", f"is a carrier of {name}",
                         f"has {name}")[c],
        "md": lambda c: (f"does not have {name}", f"has {name}")[c],
        "act": lambda what: f"have {name}" if what == "have" else f"be carriers of {name}",
        "W": lambda a: {"has": "dd", "carrier": "Dd", "not": "D"}[a],
        "says": lambda a: {"has": f"has {name}", "carrier": f"is a carrier of {name}",
                           "not": f"does not have {name}"}[a],
    }  # fmt: skip


def story(first: str, second: list[str], third: list[str]) -> str:
    """A family over three generations; the first child of generation II marries an outsider."""
    words = {"a": "affected", "u": "unaffected", "S": "son", "D": "daughter"}

    def people(codes: list[str]) -> str:
        counts, n = Counter(codes).items(), ("an", "two", "three")
        return listing(
            [f"{n[k - 1]} {words[c[0]]} {words[c[1]]}{'s' * (k > 1)}" for c, k in counts]
        )

    spouse = "woman" if second[0][1] == "S" else "man"
    return (
        "A rare trait is followed through three generations of a family. In generation I, an "
        f"{words[first[0]]} man marries an {words[first[1]]} woman. Their children (generation II) "
        f"are {people(second)}. The {people(second[:1])[3:]} marries an unaffected {spouse} from "
        f"outside the family, and their children (generation III) are {people(third)}. Assume "
        "that no one who marries into the family carries the allele for the trait."
    )


# ── Streams ─────────────────────────────────────────────────────────────────────────────────


def crossable(a: Any, b: Any) -> bool:
    """Two traits to cross: no adjective shared, and two traits of one organ only for seeds."""
    shared = {a.dominant, a.recessive} & {b.dominant, b.recessive}
    return not shared and (a.organ != b.organ or a.organ in ("", "seeds"))


def environments(kind: str, data: Any) -> list[tuple[Env, str]]:
    """Each environment a kind's forms run in, with its NCERT source."""
    if kind in ("monohybrid", "test-cross"):
        return [(pea_env([t]) | {"case": t.symbol}, t.source) for t in data.pea_traits]
    if kind == "dihybrid":
        pairs = [ts for ts in combinations(data.pea_traits, 2) if crossable(*ts)]
        return [(pea_env(ts) | {"case": ts[0].symbol + ts[1].symbol}, ts[0].source) for ts in pairs]
    if kind == "incomplete-dominance":
        return [(blend_env(b) | {"case": b.case}, b.source) for b in data.incomplete_dominance]
    if kind == "abo":
        return [(abo_env() | {"case": "abo"}, data.abo)]
    if kind == "hardy-weinberg":
        return [(hw_env(F(k, 100)) | {"case": str(k)}, data.hardy_weinberg) for k in HW_QS]
    envs = [(disorder_env(d) | {"case": d.name}, d.source) for d in data.disorders]
    trait = {"trait": True, "ar": False, "xr": False, "story": story, "case": "trait"}
    return envs + ([(trait, data.pedigree)] if kind == "pedigree" else [])


def hw_env(q: F) -> Env:
    q2 = q * q
    shown = f"{dec(q2 * 100)}% of the individuals show" if q2 >= F(1, 100) else ""
    shown = shown or f"1 in {ft(1 / q2)} individuals shows"
    return {"q": q, "p": 1 - q, "q2text": shown, "n": 10000 if q < F(1, 10) else 1000}


def _draft(kind: str, it: Item, syllabus: Syllabus) -> Draft | None:
    """Three slips whose texts neither repeat nor contain another option (hygiene), shuffled by
    the stem; None when fewer than three are left or hygiene still objects."""
    chosen, low = [], [it.key.strip().lower()]
    for text, why in it.slips:
        t = text.strip().lower()
        if not any(t == x or (len(t) >= 3 and t in x) or (len(x) >= 3 and x in t) for x in low):
            chosen.append((text, why))
            low.append(t)
    if len(chosen) < 3:
        return None
    options = [it.key, *(t for t, _ in chosen[:3])]
    random.Random(digest([kind, it.stem])).shuffle(options)
    why_not = "\n".join(f"- {t}: {why}." for t, why in chosen[:3])
    explanation = (
        f"{it.work}\n\nWhere the other options come from:\n{why_not}\n\nSource: {it.source}."
    )
    provenance = Provenance(
        generator=GENERATOR, template_id=TEMPLATE_PREFIX + kind, params=(("case", it.case),)
    )
    tag, label, form = (
        syllabus.topic(it.topic).tag,
        rated(it.demand)[0],
        QuestionFormat.SINGLE_CORRECT,
    )
    reason = difficulty_reason(it.demand, it.what)
    draft = choice_draft(
        tag, label, reason, form, it.stem, options, it.key, explanation, provenance
    )
    return None if hygiene_problem(draft) else draft


def kind_items(kind: str, topic: str, data: Any) -> Iterator[Item]:
    for env, source in environments(kind, data):
        for form in data.forms.get(kind, []):
            yield from run(form, {**BASE_ENV, **env}, topic, source)


def _stream(
    kind: str, topic: str, data: Any, difficulty: Difficulty, syllabus: Syllabus
) -> Iterator[Draft]:
    items = [it for it in kind_items(kind, topic, data) if rated(it.demand)[0] is difficulty]
    seen: set[str] = set()
    for it in sorted(items, key=lambda i: digest([kind, i.stem])):
        if it.stem not in seen and (draft := _draft(kind, it, syllabus)) is not None:
            seen.add(it.stem)
            yield draft


def genetics_drafts(
    subject: Subject, difficulty: Difficulty, syllabus: Syllabus, data_dir: Path | None = None
) -> list[tuple[str, Iterator[Draft]]]:
    """One lazy stream per kind of genetics question: (its topic, its drafts at a difficulty),
    in a fixed order."""
    data = load_genetics(data_dir or REPO_ROOT / "data")
    return [
        (topic, _stream(kind, topic, data, difficulty, syllabus))
        for kind, of, topic in KINDS
        if of is subject
    ]


BASE_ENV: Env = {
    "F": F, "g": gene_p, "cp": class_p, "within": within, "f3": f3, "pick_self": pick_self,
    "ratio": ratio, "W3": W3, "F2": F2, "TC": TC, "dec": dec, "xl": xl,
    "misread": lambda text: f"the progeny misread as {text}",
}  # fmt: skip
