"""Redraw every bundled figure: `python -m scripts.draw_figures` writes data/kb/figures/*.svg."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from pathlib import Path

import scripts.figures as figures_pkg

OUT = Path(__file__).resolve().parent.parent / "data" / "kb" / "figures"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", help="draw just this module of scripts/figures")
    args = parser.parse_args(argv)
    count = 0
    for info in sorted(pkgutil.iter_modules(figures_pkg.__path__), key=lambda m: m.name):
        if info.name == "svg" or (args.only and info.name != args.only):
            continue
        module = importlib.import_module(f"scripts.figures.{info.name}")
        for name, draw in sorted(module.FIGURES.items()):
            draw().save(OUT / f"{name}.svg")
            count += 1
    print(f"wrote {count} figures to {OUT}")


if __name__ == "__main__":
    main()
