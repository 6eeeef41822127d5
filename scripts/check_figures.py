"""Check that a rewrite of the README lost no figure: every number of the old README, and every
sentence holding a number, is still in README.md + docs/*.md (sentences compared with whitespace
folded), and every `bench/...` or `scripts/...` command it named is still named.

    python scripts/check_figures.py OLD_README   (e.g. git show 86daa58:README.md > /tmp/old.md)

Prints what is missing and exits 1 if anything is; else prints the counts it checked.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?:%|x|s|ms)?(?![\w])")
COMMAND = re.compile(r"\b(?:bench|scripts)/[\w./-]+\.(?:py|sh)\b")


def sentences(text: str) -> list[str]:
    folded = re.sub(r"\s+", " ", text)
    return [s.strip() for s in re.split(r"(?<=[.;:!?])\s+|\s*\|\s*|```", folded) if NUMBER.search(s)]


def main() -> int:
    old = Path(sys.argv[1]).read_text()
    new = "\n".join(p.read_text() for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])
    folded_new = re.sub(r"\s+", " ", new)
    lost_numbers = Counter(NUMBER.findall(old)) - Counter(NUMBER.findall(new))
    lost_sentences = [s for s in sentences(old) if s not in folded_new]
    lost_commands = sorted(set(COMMAND.findall(old)) - set(COMMAND.findall(new)))
    for n, k in sorted(lost_numbers.items()):
        print(f"number {n!r}: {k} fewer")
    for s in lost_sentences:
        print(f"sentence: {s}")
    for c in lost_commands:
        print(f"command: {c}")
    print(f"{sum(Counter(NUMBER.findall(old)).values())} numbers, {len(sentences(old))} sentences with a number, "
          f"{len(set(COMMAND.findall(old)))} commands checked; "
          f"{sum(lost_numbers.values())} numbers, {len(lost_sentences)} sentences, {len(lost_commands)} commands lost")
    return 1 if lost_numbers or lost_sentences or lost_commands else 0


if __name__ == "__main__":
    sys.exit(main())
