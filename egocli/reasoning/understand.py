"""From a question to its plan: the lexicon's rewrites and the registry's patterns first (the fast path, no
model), else the local model under a JSON-schema grammar whose only outputs are plans of the registered forms.

The model's plan is checked before it is used: every word of its slots must come from the question (the model
maps the question onto a form; it never adds what to look for), and a form that needs slots must have them.
The fixed instructions and examples are the system turn, kept evaluated in the model's KV cache."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from dataclasses import replace

from egocli.core.lexicon import apostrophes, lexicon, rewrite
from egocli.core.timephrases import spoken_clock
from egocli.models.base import PrefixCachedModel
from egocli.reasoning import fastpath, forms, terms
from egocli.reasoning.plan import RELATIONS, QuestionPlan
from egocli.reasoning.scope import COMING_DAY, Scope

log = logging.getLogger(__name__)

OPEN = "open"
"""The model's word for a question of no registered form (the model answers it from the context)."""
Parser = Callable[[str], "QuestionPlan | None"]
"""Question -> plan by the model (None: no plan of a known form)."""


def without_time_words(question: str, scope: Scope) -> str:
    """The question less the time words its scope has read ('at 07:48', 'yesterday')."""
    text = re.sub(r"\s+", " ", question.strip().lower())
    for words in sorted(scope.notes, key=len, reverse=True):
        if words in text:
            text = text.replace(words, " ")
    return re.sub(r"\s+([?.!,])", r"\1", re.sub(r"\s+", " ", text)).strip(" ,:;-\u2013\u2014")  # 'sunday: when ...'


def by_rules(question: str, scope: Scope | None = None) -> QuestionPlan | None:
    """The plan the fast path reads (lexicon rewrites, then the registry's patterns), else None."""
    text = rewrite(spoken_clock(apostrophes(question.lower())))  # 'at half ten' is 'at 10:30'
    if scope is not None:
        text = without_time_words(text, scope)
    plan = fastpath.match(text, scope)
    if plan is not None and plan.form == "exists" and scope is not None and scope.future:
        plan = replace(plan, action=_without_coming_days(plan.action) or plan.action)
    return _cleaned(plan) if plan is not None else None


def _without_coming_days(text: str) -> str:
    """A phrase less the coming days it names and the word that ties them on ('booked the taxi for tomorrow' ->
    'booked the taxi'): the day a thing was arranged for is no word of its arranging."""
    while (m := COMING_DAY.search(text)) is not None:
        before = text[:m.start()].rstrip().split(" ")
        if before and before[-1] in ("for", "on", "by", "until", "till"):
            before = before[:-1]
        text = " ".join([*before, text[m.end():].strip()]).strip()
    return text


def _cleaned(plan: QuestionPlan) -> QuestionPlan:
    """A plan whose slots lose the filler words that name nothing ('my keys now' looks for the keys)."""
    filler = lexicon().words["filler"] | lexicon().words["indefinite"]

    def clean(text: str) -> str:
        kept = [w for w in text.split() if w.strip(",.?!") not in filler]
        return " ".join(kept) if kept else text
    return QuestionPlan(plan.form, clean(plan.action), clean(plan.other), plan.relation, plan.by)


def understand(question: str, scope: Scope, parser: Parser | None = None) -> QuestionPlan | None:
    """The question's plan: the fast path's, else the model's (when a parser is given), else None."""
    plan = by_rules(question, scope)
    if plan is not None or parser is None:
        return plan
    return by_model(question, scope, parser)


def by_model(question: str, scope: Scope, parser: Parser) -> QuestionPlan | None:
    """The model's plan of the question, its second slot folded into the action where its form reads none."""
    plan = parser(question)
    return folded(plan, scope) if plan is not None else None


def folded(plan: QuestionPlan, scope: Scope) -> QuestionPlan:
    """A plan whose `other`, on a form that reads no second slot, joins the front of its action: the model puts
    who did it or what it was done to there ('count', action 'sent me texts', other 'Lisa' is 'Lisa sent me
    texts'), or time words the scope has read already ('this weekend'), which are dropped."""
    if not plan.other or "other" in forms.form_named(plan.form).slots:
        return plan
    filler = lexicon().words["filler"] | lexicon().words["indefinite"]
    have = set(plan.action.lower().split())
    extra = [w for w in without_time_words(plan.other, scope).split()
             if w.strip(",.?!") not in filler and w.lower() not in have and w.lower() not in _WHEN]
    action = " ".join([*extra, plan.action]) if extra else plan.action
    return QuestionPlan(plan.form, action, "", plan.relation, plan.by)


_WHEN = frozenset(lexicon().time["when_words"].split()) | set(lexicon().time["weekdays"]) | \
    set(lexicon().time["parts"]) | set(lexicon().time["moments"])
"""Words that only say when (a slot made of them names nothing to look for)."""


# ---- the model's parse ----------------------------------------------------------------------------------
EXAMPLES: tuple[tuple[str, dict[str, str]], ...] = (
    ("When was the last time I watered the tomatoes?", {"form": "last", "action": "watered the tomatoes"}),
    ("what time did I feed the cat this morning", {"form": "last", "action": "feed the cat"}),
    ("Tell me when I first used the drill.", {"form": "first", "action": "used the drill"}),
    ("How many times have I checked the post today?", {"form": "count", "action": "checked the post"}),
    ("Number of coffees I drank yesterday?", {"form": "count", "action": "drank coffees"}),
    ("How long was I ironing for?", {"form": "duration", "action": "ironing"}),
    ("How much time went on emails this week?", {"form": "spent", "action": "emails"}),
    ("Any idea where my reading glasses ended up?", {"form": "where", "action": "reading glasses"}),
    ("What did I get up to once the plumber had gone?",
     {"form": "next", "relation": "after", "action": "the plumber had gone"}),
    ("What was I doing just before the phone rang?", {"form": "next", "relation": "before", "action": "the phone rang"}),
    ("Had I locked the back door by the time I went out?",
     {"form": "order", "action": "locked the back door", "relation": "before", "other": "went out"}),
    ("Was the washing hung up after I got back?",
     {"form": "order", "action": "washing hung up", "relation": "after", "other": "got back"}),
    ("Which happened earlier, the school run or the shopping?",
     {"form": "which", "relation": "first", "action": "the school run", "other": "the shopping"}),
    ("How much time passed from breakfast to my walk?",
     {"form": "gap", "relation": "between", "action": "breakfast", "other": "my walk"}),
    ("How long back did I charge my phone?", {"form": "ago", "action": "charge my phone"}),
    ("What else was happening while I was on the phone to Sam?", {"form": "during", "action": "on the phone to Sam"}),
    ("Did I ever get round to calling the bank?", {"form": "exists", "action": "calling the bank"}),
    ("Is it true I took my evening tablet?", {"form": "exists", "action": "took my evening tablet"}),
    ("What did I pick up at the chemist?", {"form": "list", "action": "pick up at the chemist"}),
    ("What was the cost of the taxi?", {"form": "amount", "action": "taxi"}),
    ("Has Maria rung back yet?", {"form": "exists", "who": "Maria", "action": "rung back"}),
    ("How often did the baby wake up last night?", {"form": "count", "who": "the baby", "action": "wake up"}),
    ("When did the gas man get here?", {"form": "guest", "action": "the gas man", "relation": "arrive"}),
    ("Did we take the car or the train back from the match?", {"form": "travel", "action": "back from the match"}),
    ("Any idea what supper was last night?", {"form": "meal", "action": "supper"}),
    ("Give me the gist of my afternoon", {"form": "digest"}),
    ("What sort of day did I have?", {"form": "digest"}),
    ("Why is the sky blue?", {"form": OPEN}),
    ("Who is Anna?", {"form": OPEN}),
)
"""Phrasings the fast path does not read, each with its plan (the model's examples; no benchmark's words)."""


def schema() -> dict:
    """The JSON schema of a plan: the model's output can be nothing else."""
    names = [f.name for f in forms.FORMS] + [OPEN]
    return {"type": "object", "properties": {
        "form": {"type": "string", "enum": names},
        "who": {"type": "string"},
        "action": {"type": "string"},
        "relation": {"type": "string", "enum": list(RELATIONS)},
        "other": {"type": "string"}},
        "required": ["form", "who", "action", "relation", "other"]}


def system_prompt() -> str:
    """The fixed instructions: the forms, the slots, the examples."""
    lines = ["You read a question a person asks about their own recorded day and write its plan as JSON.",
             "Forms:"]
    lines += [f"- {f.name}: {f.asks}" for f in forms.FORMS]
    lines += [f"- {OPEN}: anything else",
              "Slots: who = the person or thing that did it when that is not the asker (else empty); "
              "action = the thing done or asked about, copied from the question without time words; "
              "other = the second thing (order, which, gap); relation = after, before, between, first or last "
              "(else empty). Copy words from the question; never add any.", "Examples:"]
    for question, plan in EXAMPLES:
        full = {"form": plan["form"], "who": plan.get("who", ""), "action": plan.get("action", ""), "relation": plan.get("relation", ""),
                "other": plan.get("other", "")}
        lines.append(f"Q: {question}\nA: {json.dumps(full)}")
    return "\n".join(lines)


def model_parser(llm: PrefixCachedModel) -> Parser:
    """A parser over the model: the system turn primed once, each question one constrained generation."""
    system = system_prompt()
    rules = schema()

    def parse(question: str) -> QuestionPlan | None:
        llm.prime_system(system)
        msgs = [{"role": "system", "content": system}, {"role": "user", "content": f"Q: {question}"}]
        try:
            reply = "".join(llm.generate(msgs, max_tokens=80, temperature=0.0, json_schema=rules))
            raw = json.loads(reply)
        except (ValueError, TypeError) as ex:  # a reply cut short by max_tokens is not JSON
            log.debug("plan parse failed: %s", ex)
            return None
        return checked(raw, question)

    return parse


def checked(raw: dict, question: str) -> QuestionPlan | None:
    """The model's plan when it holds: a known form, slots made of the question's own words, and the slots
    its form reads filled (None otherwise: the question is answered as an open one)."""
    name = str(raw.get("form", ""))
    if name == OPEN or name not in {f.name for f in forms.FORMS}:
        return None
    asked = set(terms.stem_all(question)) | set(terms.words(question))
    slots = {k: str(raw.get(k, "")).strip(" ?.,") for k in ("who", "action", "other")}
    for value in slots.values():
        own = [w for w in terms.words(value) if w not in terms.STOP]
        if any(w not in asked and terms.stem(w) not in asked for w in own):
            log.debug("plan rejected: %r is not the question's words", value)
            return None
    relation = str(raw.get("relation", ""))
    who, action = slots["who"], slots["action"]
    if who and who.lower() not in action.lower() and who.lower() not in lexicon().words["the_asker"]:
        action = f"{who} {action}".strip()  # 'Maria' + 'rung back': the matcher looks for both
    plan = QuestionPlan(name, action, slots["other"], relation if relation in RELATIONS else "", "model")
    needed = forms.form_named(name).slots
    if any(not getattr(plan, slot) for slot in needed if slot != "relation"):
        return None
    return _cleaned(plan)
