"""The solver's own path for genetics questions: read the stem, then enumerate.

It never uses the generator's formulas. Crosses are worked as Punnett squares: every gamete of
each parent (itertools.product over the genes' alleles), every pairing, the offspring counted;
selection, selfing and back crosses act on those offspring tables. ABO children come from the
alleles each parent can pass; disorders and pedigrees from every assignment of genotypes to the
family that fits what the stem says (a founder's genotypes equally likely a priori, people from
outside the family carrying no allele), weighted by how likely each child is from its parents'
gametes. Hardy–Weinberg is solved with sympy from the stated frequency. Like a student, the
solver knows which NCERT disorders are sex-linked recessive, autosomal recessive or dominant.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction as F
from itertools import product

import sympy

from core.records import OPTION_KEYS, OptionKey, SolverAnswer, SolverView
from pipeline.verify.element_solver import SOLVER_NAME

DISORDERS = (
    dict.fromkeys(("haemophilia", "colour blindness"), "XR")
    | dict.fromkeys(("sickle-cell anaemia", "phenylketonuria", "thalassemia"), "AR")
    | {"myotonic dystrophy": "AD"}
)  # NCERT: Principles of Inheritance and Variation
MODES = dict(zip(("autosomal dominant", "autosomal recessive", "X-linked recessive",
                  "X-linked dominant"), ("AD", "AR", "XR", "XD"), strict=True))  # fmt: skip
FIT = F(6, 100)  # observed and expected shares of a progeny class may differ by this much
CROSS = re.compile(
    r"(A (?:true-breeding )?[^.]*?plant[^.]*?) is (?:test crossed, that is, )?crossed with "
    r"(a [^.,]*?)(?:, and ([^.]+))?\."
)
SHARE = re.compile(  # a fraction, or a count out of N, of (a class of) a generation
    r"(?:What fraction of the|Out of (\d+)) (?:F\d )?(?:plants|seeds|progeny)(?: that (.+?))?"
    r"(?:,| are) (?:how many are )?expected to (.+?)\?"
)
CHILD = re.compile(  # what a disorder question asks of the couple's child
    r"(?:their (sons|daughters) are expected to|their first (son|daughter)|their first child is "
    r"a (son|daughter) who|their (?:first |next )?child) (have|be carriers of|has|is a carrier "
    r"of|does not have) "
)
Genotype = tuple[tuple[str, str], ...]  # per gene, the allele pair (capital first)
Pop = dict[Genotype, F]
Test = Callable[[Genotype], bool]


class Unreadable(ValueError):
    """The stem or an option says something the solver cannot parse."""


def _abstain(note: str) -> SolverAnswer:
    return SolverAnswer(solver=SOLVER_NAME, choice=None, confidence=0.0, note=note)


def _pick(view: SolverView, fits: Callable[[str], bool], note: str) -> SolverAnswer:
    """The one option that fits; abstain when none or several do."""
    matches: list[OptionKey] = []
    for key, o in zip(OPTION_KEYS, view.options, strict=True):
        try:
            if fits(o.text.strip()):
                matches.append(key)
        except (ValueError, ZeroDivisionError, KeyError):  # an option it cannot read fits not
            continue
    if len(matches) != 1:
        return _abstain(f"{len(matches)} options fit: {note}")
    return SolverAnswer(solver=SOLVER_NAME, choice=matches[0], confidence=1.0)


def _value(view: SolverView, value: F, note: str) -> SolverAnswer:
    return _pick(view, lambda t: F(t) == value, f"{note} = {value}")


def _need(m: re.Match[str] | None, what: str) -> re.Match[str]:
    if m is None:
        raise Unreadable(f"cannot read {what}")
    return m


# ── Punnett squares ──────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Gene:
    """A gene as the stem declares it: complete dominance (two adjectives) or incomplete (a
    phenotype phrase for each of UU, Ul and ll)."""

    up: str
    low: str
    dom: str = ""
    rec: str = ""
    blend: tuple[str, str, str] = ("", "", "")

    def phenotype(self, pair: tuple[str, str]) -> str:
        if self.dom:
            return self.dom if self.up in pair else self.rec
        return self.blend[pair.count(self.low)]

    def reads(self, text: str) -> str | None:
        """The phenotype of this gene a phrase names (by a word no other phenotype has)."""
        words = set(re.findall(r"[a-z]+", text.lower())) - {"of", "the", "with", "and", "a"}
        names = (self.dom, self.rec) if self.dom else self.blend
        own = [set(n.split()).difference(*(o.split() for o in names if o != n)) for n in names]
        found = [n for n, w in zip(names, own, strict=True) if w & words]
        return found[0] if len(found) == 1 else None


def parse_genes(stem: str) -> list[Gene]:
    declared = r"for [a-z ]+, ([a-z]+) \(([A-Z])\) is dominant over ([a-z]+) \(([a-z])\)"
    genes = [Gene(up, low, dom, rec) for dom, up, rec, low in re.findall(declared, stem)]
    if b := re.search(
        r"dominance: (\w)\1 \w+ have ([^,]+), (\w)\3 \w+ have (.+?) and \w\w \w+ "
        r"have (.+?)\.",
        stem,
    ):
        genes.append(Gene(b.group(1), b.group(3), blend=(b.group(2), b.group(5), b.group(4))))
    if not genes:
        raise Unreadable("no gene declared")
    return genes


def genotype(text: str, genes: list[Gene]) -> Genotype:
    pairs = [tuple(sorted(text[2 * i : 2 * i + 2], key=str.islower)) for i in range(len(genes))]
    if len(text) != 2 * len(genes) or any(
        set(p) - {g.up, g.low} for p, g in zip(pairs, genes, strict=True)
    ):
        raise Unreadable(f"genotype {text}")
    return tuple((p[0], p[1]) for p in pairs)


def is_genotype(word: str, genes: list[Gene]) -> bool:
    return len(word) == 2 * len(genes) and set(word) <= {x for g in genes for x in (g.up, g.low)}


def offspring(g1: Genotype, g2: Genotype) -> Pop:
    """The Punnett square: every gamete of one parent with every gamete of the other."""
    eggs, pollen = list(product(*g1)), list(product(*g2))
    out: Pop = Counter()  # type: ignore[assignment]
    for a, b in product(eggs, pollen):
        child = tuple(tuple(sorted(xy, key=str.islower)) for xy in zip(a, b, strict=True))
        out[child] += F(1, len(eggs) * len(pollen))  # type: ignore[index]
    return out


def mixed(pairs: list[tuple[Pop, F]]) -> Pop:
    out: Pop = Counter()  # type: ignore[assignment]
    for pop, w in pairs:
        for g, v in pop.items():
            out[g] += w * v
    return out


def cross(p1: Pop, p2: Pop) -> Pop:
    pairs = product(p1.items(), p2.items())
    return mixed([(offspring(g1, g2), w1 * w2) for (g1, w1), (g2, w2) in pairs])


def selfed(pop: Pop) -> Pop:
    return mixed([(offspring(g, g), w) for g, w in pop.items()])


def share(pop: Pop, fits: Test) -> F:
    return sum((w for g, w in pop.items() if fits(g)), F(0))


def given(pop: Pop, fits: Test) -> Pop:
    total = share(pop, fits)
    if total == 0:
        raise Unreadable("no plant of the chosen class")
    return {g: w / total for g, w in pop.items() if fits(g)}


def phenotype_of(text: str, genes: list[Gene]) -> Test:
    """The plants a phrase describes: every gene's phenotype named once."""
    named = [gene.reads(text) for gene in genes]
    if None in named:
        raise Unreadable(f"phenotype in {text!r}")
    return lambda g: all(gene.phenotype(p) == n for gene, p, n in zip(genes, g, named, strict=True))


def class_of(text: str, genes: list[Gene]) -> Test:
    if m := re.search(r"genotype (\w+)", text):
        exact = genotype(m.group(1), genes)
        return lambda g: g == exact
    if "heterozygous" in text or "homozygous" in text:
        return lambda g: all((a != b) == ("heterozygous" in text) for a, b in g)
    return phenotype_of(text, genes)


def parent(text: str, genes: list[Gene]) -> Genotype:
    """A parent as the stem or an option gives it: a genotype, a true-breeding phenotype, or a
    phenotype only one genotype has (incomplete dominance)."""
    word, m = text.split(" ")[0], re.search(r"genotype (\w+)", text)
    if m or is_genotype(word, genes):
        return genotype(m.group(1) if m else word, genes)
    if not genes[0].dom and len(found := [p for p in genes[0].blend if word in p.split()]) == 1:
        text = found[0]  # an option's incomplete-dominance label: `pink`
    fits = phenotype_of(text, genes)
    every = product(*([(g.up, g.up), (g.up, g.low), (g.low, g.low)] for g in genes))
    options = [
        g for g in every if fits(g) and ("true-breeding" not in text or all(a == b for a, b in g))
    ]
    if len(options) != 1:
        raise Unreadable(f"parent {text!r} is not one genotype")
    return options[0]


def observed(text: str, genes: list[Gene]) -> list[tuple[int, Test]]:
    found = [
        _need(re.match(r"(\d+) (.+)", p), "progeny") for p in re.split(r", | and (?=\d)", text)
    ]
    return [(int(m.group(1)), phenotype_of(m.group(2), genes)) for m in found]


def fits_counts(pop: Pop, seen: list[tuple[int, Test]]) -> bool:
    total, expected = sum(n for n, _ in seen), [share(pop, f) for _, f in seen]
    near = all(abs(F(n, total) - e) <= FIT for (n, _), e in zip(seen, expected, strict=True))
    return near and sum(expected) == 1


def same_ratio(text: str, pop: Pop, label: Callable[[str], Test]) -> bool:
    """Whether an option's ratio (`3 tall : 1 dwarf`, `all pink`) is the population's."""
    parts = [(1, text[4:])] if text.startswith("all ") else [
        (int(m.group(1)), m.group(2)) for m in (_need(re.fullmatch(r"(\d+) (.+)", p), "ratio")
                                                for p in text.split(" : "))]  # fmt: skip
    total = sum(n for n, _ in parts)
    return all(share(pop, label(name)) == F(n, total) for n, name in parts)


def _crosses(view: SolverView) -> SolverAnswer:
    stem, genes = view.stem_markdown, parse_genes(view.stem_markdown)
    if m := re.search(r"Two [\w ]+ plants are crossed, and the progeny are (.+?)\. What", stem):
        seen = observed(m.group(1), genes)

        def parents(text: str) -> bool:
            a, b = (parent(x, genes) for x in text.split(" (")[0].split(" × "))
            return fits_counts(offspring(a, b), seen)

        return _pick(view, parents, "parents fitting the progeny")
    if m := re.search(
        r"A ([^.]+?) is crossed with a ([^.]+?), and the progeny are (.+?)\. What", stem
    ):
        other, seen = parent(m.group(2), genes), observed(m.group(3), genes)  # one genotype
        looks = phenotype_of(m.group(1), genes)

        def tested(text: str) -> bool:
            g = parent(text.split(" (")[0], genes)
            return looks(g) and fits_counts(offspring(g, other), seen)

        return _pick(view, tested, "the tested parent")
    lead = _need(CROSS.search(stem), "the cross")
    p1, p2 = parent(lead.group(1), genes), parent(lead.group(2), genes)
    pop, then = offspring(p1, p2), lead.group(3) or ""
    if "self-pollinated" in then:
        pop = selfed(pop)
    elif back := re.search(r"crossed back with the (.+)", then):
        word = back.group(1).split()[0]
        test = (
            (lambda g: g == parent(word, genes))
            if is_genotype(word, genes)
            else phenotype_of(back.group(1), genes)
        )
        chosen = [p for p in (p1, p2) if test(p)]
        if len(chosen) != 1:
            raise Unreadable("which parent the back cross uses")
        pop = cross(pop, {chosen[0]: F(1)})
    if m := re.search(r"An F2 plant that (.+?), chosen at random, is self-pollinated", stem):
        pop = selfed(given(pop, class_of(m.group(1), genes)))
    if "Every F2 plant is then self-pollinated" in stem:
        pop = selfed(pop)
    q = stem[lead.end() :]
    if m := re.search(r"How many different (genotypes|phenotypes)", q):
        shown = [tuple(x.phenotype(p) for x, p in zip(genes, g, strict=True)) for g in pop]
        kinds: set[object] = set(pop) if m.group(1) == "genotypes" else set(shown)
        return _value(view, F(len(kinds)), m.group(1))
    if m := re.search(r"What is the (phenotypic|genotypic) ratio", q):
        gen = m.group(1) == "genotypic"

        def label(name: str) -> Test:
            return class_of(f"genotype {name}" if gen else name, genes)

        return _pick(view, lambda text: same_ratio(text, pop, label), "ratio")
    if m := SHARE.search(q):
        sub = given(pop, class_of(m.group(2), genes)) if m.group(2) else pop
        return _value(view, int(m.group(1) or 1) * share(sub, class_of(m.group(3), genes)), "share")
    if m := re.search(
        r"probability that an offspring of this selfing, chosen at random, (.+?)\?", q
    ):
        return _value(view, share(pop, class_of(m.group(1), genes)), "probability")
    raise Unreadable("the question")


# ── ABO ───────────────────────────────────────────────────────────────────────────────────────

ABO_GENOTYPES = [("A", "A"), ("A", "i"), ("B", "B"), ("B", "i"), ("A", "B"), ("i", "i")]


def blood_group(g: tuple[str, ...]) -> str:
    return "".join(sorted(set(g) - {"i"})) or "O"


def abo_children(g1: tuple[str, ...], g2: tuple[str, ...]) -> Counter[str]:
    """The four allele pairings of two parents and the blood group each gives."""
    return Counter(blood_group(pair) for pair in product(g1, g2))


def _abo_person(group: str, clause: str) -> tuple[str, ...]:
    options = [g for g in ABO_GENOTYPES if blood_group(g) == group]
    if re.search(r"whose (?:mother|father) has blood group O", clause):
        options = [g for g in options if "i" in g]  # an O parent is ii and passed i on
    if "both of whose parents have blood group AB" in clause:
        options = [g for g in options if "i" not in g]  # AB parents pass I^A or I^B only
    if len(options) != 1:
        raise Unreadable(f"blood group {group} with {clause!r}")
    return options[0]


def _abo(view: SolverView) -> SolverAnswer:
    stem = view.stem_markdown
    if m := re.search(
        r"A child has blood group (\w+) and its mother has blood group (\w+)\.", stem
    ):
        child, mum = m.group(1), m.group(2)
        mothers = [g for g in ABO_GENOTYPES if blood_group(g) == mum]

        def impossible(group: str) -> bool:
            fathers = [g for g in ABO_GENOTYPES if blood_group(g) == group]
            return bool(fathers) and not any(
                abo_children(f, mo)[child] for f in fathers for mo in mothers
            )

        return _pick(view, impossible, "father's group")
    if m := re.search(r"A man of genotype \$(.+?)\$ marries a woman of genotype \$(.+?)\$", stem):
        man, woman = (
            tuple(a or b for a, b in re.findall(r"I\^\{([AB])\}|(i)", m.group(i))) for i in (1, 2)
        )
    else:
        m = _need(re.search(r"A man with blood group (\w+)(, [^.]*?,)? marries a woman with blood "
                            r"group (\w+)(, [^.]*)?\.", stem), "the couple")  # fmt: skip
        man, woman = (_abo_person(m.group(i), m.group(i + 1) or "") for i in (1, 3))
    children = abo_children(man, woman)
    q = _need(re.search(r"first child is a (son|daughter) with blood group (\w+)\?|their child "
                        r"has blood group (\w+)\?", stem), "the asked group")  # fmt: skip
    sexes = Counter(("son", "daughter"))  # a child is a son or a daughter, equally likely
    by_sex = F(sexes[q.group(1)], sum(sexes.values())) if q.group(1) else F(1)
    return _value(view, F(children[q.group(2) or q.group(3)], 4) * by_sex, "blood group")


# ── Families: disorders and pedigrees ────────────────────────────────────────────────────────


@dataclass
class Person:
    sex: str  # "M" or "F"
    affected: bool | None = None
    allowed: tuple[int, ...] | None = None  # disease alleles the stem allows
    father: int | None = None
    mother: int | None = None


def shows(count: int, sex: str, mode: str) -> bool:
    if mode in ("AD", "XD"):
        return count >= 1
    return count == (1 if mode == "XR" and sex == "M" else 2)


def transmit(sex: str, father: int, mother: int, mode: str) -> Counter[int]:
    """The child's disease alleles over every egg × sperm pairing (an X-linked father gives a
    son his Y and a daughter his X)."""
    eggs = [1] * mother + [0] * (2 - mother)
    sperm = [1] * father + [0] * (2 - father)
    if mode in ("XR", "XD"):
        sperm = [father] if sex == "F" else [0]
    return Counter(e + s for e, s in product(eggs, sperm))


def assignments(people: list[Person], mode: str) -> list[tuple[list[int], F]]:
    """Every genotype assignment the stem allows, weighted by Mendelian transmission."""
    found: list[tuple[list[int], F]] = []

    def walk(i: int, chosen: list[int], weight: F) -> None:
        if i == len(people):
            found.append((chosen, weight))
            return
        p = people[i]
        for c in (0, 1) if mode in ("XR", "XD") and p.sex == "M" else (0, 1, 2):
            if (p.allowed is not None and c not in p.allowed) or (
                p.affected is not None and shows(c, p.sex, mode) != p.affected
            ):
                continue
            t = Counter({c: 1})
            if p.father is not None and p.mother is not None:
                t = transmit(p.sex, chosen[p.father], chosen[p.mother], mode)
            if t[c]:
                walk(i + 1, [*chosen, c], weight * F(t[c], t.total()))

    walk(0, [], F(1))
    return found


def chance(people: list[Person], mode: str, target: int, test: Callable[[int, str], bool]) -> F:
    found = assignments(people, mode)
    total = sum((w for _, w in found), F(0))
    if total == 0:
        raise Unreadable("no genotypes fit the family")
    return sum((w for a, w in found if test(a[target], people[target].sex)), F(0)) / total


def _person(text: str, symbol: str, people: list[Person]) -> int:
    """Add a person (and the parent a `whose father had` clause names) to the family."""
    me = Person("M" if re.match(r"(?:A |a )?man\b", text) else "F")
    if m := re.search(r"genotype \$(.+?)\$", text):
        me.allowed = (m.group(1).count("{" + symbol + "}"),)
    elif m := re.search(
        r"who (does not carry the allele for|is a carrier of|has|does not have)", text
    ):
        me.affected = {"has": True, "does not have": False}.get(m.group(1))
        me.allowed = {"is a carrier of": (1,), "does not carry the allele for": (0,)}.get(
            m.group(1)
        )
    if m := re.search(r"whose (father|mother) (had|did not have)", text):
        kin = Person("M" if m.group(1) == "father" else "F", affected=m.group(2) == "had")
        people += [kin, Person("F" if kin.sex == "M" else "M")]
        me.father, me.mother = (len(people) - 2, len(people) - 1)[:: 1 if kin.sex == "M" else -1]
    people.append(me)
    return len(people) - 1


def _disorder(view: SolverView) -> SolverAnswer:
    stem = view.stem_markdown
    if "A rare trait is followed" in stem:
        return _modes(view)
    named = [name for name in DISORDERS if name in stem]
    mode, symbol = (DISORDERS[named[0]], "") if len(named) == 1 else ("", "")
    if m := re.search(r"X-linked recessive allele (\w)", stem):
        mode, symbol = "XR", m.group(1)
    elif "$Hb^{S}Hb^{S}$ individuals are affected" in stem:
        mode, symbol = "AR", "S"
    if not mode:
        raise Unreadable("which disorder")
    people = [Person("M", False), Person("F", False)]  # unaffected parents, if the stem has them
    if sib := re.search(
        r"has a brother who has .+?; neither of their parents has .+?\.(?: She "
        r"marries a (.+?)\.)?",
        stem,
    ):
        people += [Person("M", True, None, 0, 1), Person("F", False, None, 0, 1)]
        she, partner = 3, _person(sib.group(1), symbol, people) if sib.group(1) else -1
    elif "Two parents who do not have" in stem:
        people.append(Person("M", True, None, 0, 1))
        she, partner = 1, 0
    else:
        couple = _need(re.search(r"(A (?:man|woman) .+?) marries (a .+?)\.(?: |$)", stem), "couple")
        people = []
        first, second = (_person(couple.group(i), symbol, people) for i in (1, 2))
        she, partner = (first, second) if people[first].sex == "F" else (second, first)

    def carrier(c: int, sex: str) -> bool:
        return c == 1 and not shows(c, sex, mode)

    if "probability that she is a carrier" in stem:
        return _value(view, chance(people, mode, she, carrier), "her chance of being a carrier")
    m = _need(CHILD.search(stem), "the asked child")
    word = m.group(1) or m.group(2) or m.group(3) or ""
    sex = "M" if word.startswith("son") else "F" if word else ""
    joint = m.group(3) is not None or not sex
    wanted = {"have": True, "has": True, "does not have": False}.get(m.group(4))

    def outcome(c: int, s: str) -> bool:
        return carrier(c, s) if wanted is None else shows(c, s, mode) == wanted

    total = F(0)
    for s in (sex,) if sex else ("M", "F"):
        p = chance([*people, Person(s, father=partner, mother=she)], mode, len(people), outcome)
        total += p / 2 if joint else p
    return _value(view, total, "the child")


def _modes(view: SolverView) -> SolverAnswer:
    """The modes of inheritance that admit some genotype assignment to the whole family."""
    m = _need(re.search(r"generation I, an (\w+) man marries an (\w+) woman\. Their children "
                        r"\(generation II\) are (.+?)\. The (\w+) (son|daughter) marries an (\w+) "
                        r"(man|woman) from outside the family, and their children \(generation "
                        r"III\) are (.+?)\.", view.stem_markdown), "the family")  # fmt: skip
    people = [Person("M", m.group(1) == "affected"), Person("F", m.group(2) == "affected")]
    people += _children(m.group(3), 0, 1)
    sex, affected = "M" if m.group(5) == "son" else "F", m.group(4) == "affected"
    match = [i for i, p in enumerate(people) if i > 1 and (p.sex, p.affected) == (sex, affected)]
    if len(match) != 1:
        raise Unreadable("who marries into the family")
    people.append(Person("M" if sex == "F" else "F", m.group(6) == "affected", (0,)))
    dad, mum = (match[0], len(people) - 1)[:: 1 if sex == "M" else -1]
    people += _children(m.group(8), dad, mum)
    return _pick(view, lambda text: bool(assignments(people, MODES[text])), "modes that fit")


def _children(text: str, father: int, mother: int) -> list[Person]:
    out = []
    for part in re.split(r", | and ", text):
        m = _need(
            re.fullmatch(r"(an|two|three) (affected|unaffected) (son|daughter)s?", part), part
        )
        kid = ("M" if m.group(3) == "son" else "F", m.group(2) == "affected", None, father, mother)
        out += [Person(*kid) for _ in range(("an", "two", "three").index(m.group(1)) + 1)]
    return out


# ── Hardy–Weinberg ───────────────────────────────────────────────────────────────────────────

P, Q = sympy.symbols("p q", nonnegative=True)
NUMBER = r"(\d+(?:\.\d+)?)"
HW_GIVEN = (  # what the stem states → the expression it fixes
    (r"frequency of the recessive allele of a gene with two alleles is " + NUMBER, Q),
    (r"frequency of the dominant allele of a gene with two alleles is " + NUMBER, P),
    (
        r"frequency of homozygous dominant individuals for a gene with two alleles is " + NUMBER,
        P**2,
    ),
    (NUMBER + r"% of the individuals show the recessive phenotype", Q**2 * 100),
    (r"1 in ([\d,]+) individuals shows the recessive phenotype", 1 / Q**2),
    (r"recessive alleles of a gene are \d+(?:\.\d+)? and " + NUMBER, Q),
    (r"the dominant and recessive alleles of a gene are " + NUMBER, P),
)
HW_ASKED = {"heterozygous": 2 * P * Q, "the recessive allele": Q, "the dominant allele": P,
            "homozygous recessive": Q**2, "homozygous dominant": P**2}  # fmt: skip


def _hardy_weinberg(view: SolverView) -> SolverAnswer:
    stem = view.stem_markdown
    *given_text, question = re.split(r"(?<=\.) (?=[A-Z])", stem)
    equations = [sympy.Eq(P + Q, 1)]
    for pattern, expr in HW_GIVEN:
        if m := re.search(pattern, " ".join(given_text)):
            equations.append(sympy.Eq(expr, sympy.Rational(m.group(1).replace(",", ""))))
    solutions = [s for s in sympy.solve(equations, [P, Q], dict=True) if 0 <= s[P] <= 1]
    if len(equations) < 2 or len(solutions) != 1:
        raise Unreadable("the allele frequencies")
    asked = r"(?:frequency of|expected to be) (" + "|".join(HW_ASKED) + ")"
    ask = _need(re.search(asked, question), "the asked frequency")
    value = HW_ASKED[ask.group(1)].subs(solutions[0])
    if n := re.search(r"In a population of (\d+) such individuals", stem):
        value *= int(n.group(1))
    return _value(view, F(str(sympy.nsimplify(value))), ask.group(1))


HANDLERS: dict[str, Callable[[SolverView], SolverAnswer]] = {
    **dict.fromkeys(("monohybrid", "test-cross", "dihybrid", "incomplete-dominance"), _crosses),
    **dict.fromkeys(("sex-linked", "autosomal", "pedigree"), _disorder),
    "abo": _abo,
    "hardy-weinberg": _hardy_weinberg,
}


def genetics_answer(view: SolverView) -> SolverAnswer:
    """Answer a genetics question from its stem alone; abstain when the stem cannot be read or
    not exactly one option fits."""
    handler = HANDLERS.get(view.template_id.removeprefix("genetics."))
    if handler is None:
        return _abstain(f"unknown genetics question {view.template_id}")
    try:
        return handler(view)
    except (KeyError, ValueError, TypeError, ZeroDivisionError) as e:
        return _abstain(f"unreadable: {e}")
