"""The solver of labelled-diagram questions: find the asked letter, name its part, then answer.

It reads the stem for the letter(s) asked ("labelled **C**"), looks each letter up in the
figure's labels (the part its leader line touches, as a student recognises it), and then

- for "which part is labelled X": picks the option that names that part;
- for "which statement about the part labelled X": picks the option that is one of that
  part's statements in its own knowledge, the diagram data of `data/kb/diagrams` (found by the
  figure's printed title), as the offline fact solver answers from the KB's chunks;
- for "identify the parts labelled X, Y and Z": picks the option pairing every letter with its
  part.

It never sees the template's key. `used` is the letters read and, when it looked the diagram up,
the printed title.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from core.figures import DiagramSpec
from core.records import OptionKey, SolverAnswer, SolverView
from core.settings import REPO_ROOT
from pipeline.verify.figure_solve import FIGURE_SOLVER, FigureSolve

KNOWLEDGE_DIR = REPO_ROOT / "data" / "kb" / "diagrams"
CONFIDENCE = 0.9
_LETTER = r"\**([A-Z])\**"
# "the parts labelled **A**, **B**, **C** and **D**": the letters, however many.
_PARTS = re.compile(r"parts labelled ((?:\**[A-Z]\**, )+\**[A-Z]\** and \**[A-Z]\**)")
_STATEMENT = re.compile(rf"statements? about the part labelled {_LETTER}")
_NAME = re.compile(rf"which part is labelled {_LETTER}", re.I)
_PAIR = re.compile(r"(?:^|, )([A-Z]) — ([^,]+)")


def _norm(text: str) -> str:
    return " ".join(text.lower().split()).rstrip(".")


@cache
def _knowledge(directory: Path) -> dict[str, dict[str, frozenset[str]]]:
    """Per diagram title, per part name: the part's statements."""
    known: dict[str, dict[str, frozenset[str]]] = {}
    for path in sorted(directory.glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        known[_norm(raw["title"])] = {
            _norm(p["name"]): frozenset(_norm(s) for s in p["statements"]) for p in raw["parts"]
        }
    return known


def _abstain(note: str, used: tuple[str, ...] = ()) -> FigureSolve:
    return FigureSolve(
        SolverAnswer(solver=FIGURE_SOLVER, choice=None, confidence=0.0, note=note), used
    )


def _only(matches: list[OptionKey], what: str, used: tuple[str, ...]) -> FigureSolve:
    if len(matches) != 1:
        return _abstain(f"{len(matches)} options are {what}", used)
    return FigureSolve(
        SolverAnswer(solver=FIGURE_SOLVER, choice=matches[0], confidence=CONFIDENCE, note=what),
        used,
    )


def diagram_answer(view: SolverView, spec: DiagramSpec) -> FigureSolve:
    parts = {label.letter: label.part for label in spec.labels}
    stem = view.stem_markdown

    several = _PARTS.search(stem)
    if several:
        letters = tuple(re.findall(r"[A-Z]", several.group(1)))
        if any(letter not in parts for letter in letters):
            return _abstain("a letter asked is not in the figure")
        want = {letter: _norm(parts[letter]) for letter in letters}
        matches = []
        for option in view.options:
            said = {m.group(1): _norm(m.group(2)) for m in _PAIR.finditer(option.text)}
            if said == want:
                matches.append(option.key)
        return _only(matches, "the letters' parts", tuple(letters))

    statement = _STATEMENT.search(stem)
    if statement:
        letter = statement.group(1)
        if letter not in parts:
            return _abstain(f"no label {letter} in the figure")
        statements = _knowledge(KNOWLEDGE_DIR).get(_norm(spec.title), {}).get(_norm(parts[letter]))
        if not statements:
            return _abstain(f"nothing known of the {parts[letter]}", (letter,))
        used = (letter, spec.title)
        matches = [o.key for o in view.options if _norm(o.text) in statements]
        return _only(matches, f"statements of the {parts[letter]}", used)

    name = _NAME.search(stem)
    if name:
        letter = name.group(1)
        if letter not in parts:
            return _abstain(f"no label {letter} in the figure")
        matches = [o.key for o in view.options if _norm(o.text) == _norm(parts[letter])]
        return _only(matches, f"the {parts[letter]}", (letter,))

    return _abstain("the stem asks no labelled letter the solver reads")
