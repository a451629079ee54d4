"""The commands and SQL the README and docs/ show, read out of the Markdown itself.

A command is a `qforge …` or `make …` line in a fenced block, or an inline code span that starts
with one of them. Synopses are expanded into runnable invocations: `[--x]` groups are optional
(one run without any, one with all of them), `a|b` inside a group gives one run per choice, and
placeholders (`N`, `S`, `YYYY-MM-DD`, …) take the values in PLACEHOLDERS.
"""

from __future__ import annotations

import re
import shlex
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from core.settings import REPO_ROOT

DOCS = (REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md")))
_FENCE = re.compile(r"^([ \t]*)```(\w*)\n(.*?)^[ \t]*```", re.S | re.M)
_INLINE = re.compile(r"`((?:qforge|make) [^`]+)`")
_ENV = re.compile(r"^(?:[A-Z_][A-Z0-9_]*=\S*\s+)+")
_OPTIONAL = re.compile(r"\s*\[([^\]]+)\]")


@dataclass(frozen=True)
class DocCommand:
    """One command as the docs show it: where, its words, and environment it sets first."""

    where: str
    text: str
    env: tuple[str, ...] = ()

    @property
    def program(self) -> str:
        return self.text.split()[0]


@dataclass(frozen=True)
class DocSQL:
    where: str
    sql: str


def _line_number(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def doc_commands() -> list[DocCommand]:
    """Every `qforge`/`make` command in the docs, fenced or inline, once each."""
    found: dict[tuple[str, tuple[str, ...]], DocCommand] = {}
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(REPO_ROOT)
        for block in _FENCE.finditer(text):
            if block.group(2) not in ("", "sh", "bash", "shell"):
                continue
            joined = block.group(3).replace("\\\n", " ")
            for offset, raw in _lines(joined, block.start(3)):
                line = raw.split("  #", 1)[0].split(" # ", 1)[0].strip()
                if line.startswith("#") or not line:
                    continue
                env = _ENV.match(line)
                command = line[env.end() :] if env else line
                if command.startswith(("qforge ", "make ")) or command == "qforge":
                    variables = tuple(env.group(0).split()) if env else ()
                    where = f"{name}:{_line_number(text, offset)}"
                    found.setdefault((command, variables), DocCommand(where, command, variables))
        for span in _INLINE.finditer(text):
            command = " ".join(span.group(1).split())
            where = f"{name}:{_line_number(text, span.start())}"
            found.setdefault((command, ()), DocCommand(where, command))
    return list(found.values())


def _lines(block: str, start: int) -> list[tuple[int, str]]:
    out, offset = [], start
    for line in block.split("\n"):
        out.append((offset, line))
        offset += len(line) + 1
    return out


def expand(synopsis: str, placeholders: dict[str, str]) -> list[list[str]]:
    """Runnable argument lists for a synopsis: without its optional groups, then with all of
    them (once per choice of each `a|b|c` group), placeholders filled in."""
    groups = _OPTIONAL.findall(synopsis)
    base = _OPTIONAL.sub("", synopsis).strip()
    runs = [base]
    if groups:
        plain = [g for g in groups if "|" not in g]
        choices = [g for g in groups if "|" in g]
        full = " ".join([base, *plain])
        if not choices:
            runs.append(full)
        for group in choices:
            option, _, values = group.rpartition(" ")
            runs += [f"{full} {option} {value}".strip() for value in values.split("|")]
    return [[placeholders.get(word, word) for word in shlex.split(run)] for run in runs]


def _fenced(language: str) -> Iterator[tuple[str, str]]:
    """(where, body) of every fenced block of one language in the docs, dedented."""
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for block in _FENCE.finditer(text):
            if block.group(2) == language:
                where = f"{path.relative_to(REPO_ROOT)}:{_line_number(text, block.start())}"
                yield where, textwrap.dedent(block.group(3))


def doc_sql() -> list[DocSQL]:
    """Every fenced ```sql block in the docs."""
    return [DocSQL(where, body.strip()) for where, body in _fenced("sql")]


def doc_python() -> list[tuple[str, str]]:
    """Every fenced ```python block in the docs, dedented."""
    return list(_fenced("python"))


def relative(path: Path) -> str:
    return str(path.relative_to(REPO_ROOT))
