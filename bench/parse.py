"""How well is a question's phrasing understood? Ways of reading a paraphrase's plan, compared on the same
paraphrases: does the paraphrase get the plan its canonical question gets?

    export EGOCLI_HOME=.cache/lifelog           # the sets of bench/understand.py (run its `build` first)
    python bench/parse.py [--sets epic,life] [--limit N] [--ways rules,model,rules+model,model+rules,nearest]

The reference is the plan the fast path (rules) reads from the canonical question (questions whose canonical
form no rule reads are left out). A paraphrase's plan agrees when its form is the reference's and its slots
name the reference's content terms (at least half of the action's and of the other's, stemmed). Ways:

- `rules`: the lexicon's rewrites and the registry's patterns (understand.by_rules), no model;
- `model`: the local LLM under the plan's JSON schema alone (understand.model_parser);
- `rules+model`: the rules, the model when they read nothing (what `egocli ask` does);
- `model+rules`: the model, the rules when it says 'open' or its plan fails the checks;
- `nearest`: the form of the nearest phrasing by MiniLM embeddings among the model's examples and the forms'
  canonical phrasings (form only: it cannot fill slots, so only its form accuracy is given).

Prints, per way: form accuracy, plan agreement, p50 and p90 seconds per question (the parse alone). The
baseline is `rules` (the fast path), measured in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import understand  # noqa: E402

WAYS = ("rules", "model", "rules+model", "model+rules", "nearest")


def agrees(ref, got) -> bool:
    """Whether a plan is the reference's: same form, and its slots name at least half of each reference slot's
    content terms."""
    from egocli.reasoning import terms

    if got is None or got.form != ref.form:
        return False
    for slot in ("action", "other"):
        want = terms.terms(getattr(ref, slot))
        if want and terms.recall(want, set(terms.terms(getattr(got, slot)))) < 0.5:
            return False
    return True


def main() -> None:
    """Parse every paraphrase every way; print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default="epic,life")
    ap.add_argument("--limit", type=int, default=None, help="canonical questions per set (with their paraphrases)")
    ap.add_argument("--ways", default=",".join(WAYS))
    args = ap.parse_args()
    ways = [w for w in args.ways.split(",") if w]
    from egocli.core.config import load_settings
    from egocli.core.timeutil import parse_time_ms
    from egocli.models import registry
    from egocli.reasoning import understand as und
    from egocli.reasoning.forms import FORMS
    from egocli.reasoning.scope import parse_scope

    base = understand.home()
    pairs = []
    for name in args.sets.split(","):
        for canon, paras in understand.load_set(base, name)[:args.limit]:
            at = parse_time_ms(canon["at"])
            ref = und.by_rules(canon["question"], parse_scope(canon["question"], at))
            if ref is not None:
                pairs += [(name, ref, p["question"], at) for p in paras]
    settings = load_settings()
    parser = None
    if any("model" in w for w in ways):
        started = time.perf_counter()
        parser = und.model_parser(registry.load("llm", settings))
        parser("How many times did I check the post?")  # the system turn evaluated (or restored) once
        print(f"model loaded and primed in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    nearest = None
    if "nearest" in ways:
        embedder = registry.load("embedder", settings)
        bank = [(q, plan["form"]) for q, plan in und.EXAMPLES] + \
               [(f.say.format(action="do it", other="something else", relation="after"), f.name) for f in FORMS]
        vecs = embedder.embed([q for q, _ in bank])

        def nearest(question: str) -> str:
            v = embedder.embed([question])[0]
            return bank[int((vecs @ v).argmax())][1]
    results: dict[str, list[tuple[bool, bool, float]]] = {w: [] for w in ways}
    for n, (name, ref, question, at) in enumerate(pairs, 1):
        scope = parse_scope(question, at)
        started = time.perf_counter()
        by_rules = und.by_rules(question, scope)
        rules_s = time.perf_counter() - started
        by_model, model_s = None, 0.0
        if parser is not None:
            started = time.perf_counter()
            by_model = parser(question)
            model_s = time.perf_counter() - started
        for way in ways:
            if way == "nearest":
                started = time.perf_counter()
                form = nearest(question)  # type: ignore[misc]
                results[way].append((form == ref.form, False, time.perf_counter() - started))
                continue
            got, secs = {"rules": (by_rules, rules_s), "model": (by_model, model_s),
                         "rules+model": (by_rules or by_model, rules_s + (model_s if by_rules is None else 0.0)),
                         "model+rules": (by_model or by_rules, model_s + rules_s)}[way]
            results[way].append((got is not None and got.form == ref.form, agrees(ref, got), secs))
        if n % 25 == 0:
            print(f"{n}/{len(pairs)}", file=sys.stderr, flush=True)
    print(f"{len(pairs)} paraphrases of {args.sets} whose canonical question the rules read\n")
    print("| way | form right | plan agrees | p50 s | p90 s |\n|---|---|---|---|---|")
    for way, rows in results.items():
        secs = sorted(s for _, _, s in rows)
        form_ok, plan_ok = sum(f for f, _, _ in rows), sum(p for _, p, _ in rows)
        p90 = secs[int(0.9 * (len(secs) - 1))] if secs else 0.0
        plan_text = "-" if way == "nearest" else f"{plan_ok}/{len(rows)} = {plan_ok / len(rows):.0%}"
        print(f"| {way} | {form_ok}/{len(rows)} = {form_ok / len(rows):.0%} | {plan_text} | "
              f"{statistics.median(secs):.2f} | {p90:.2f} |")


if __name__ == "__main__":
    main()
