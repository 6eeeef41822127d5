"""The fast path of understanding: an ordered table of patterns that read a `QuestionPlan` straight from the usual
phrasings of the registry's forms (forms.py); understand.py tries them before the model's grammar-bound parse. Each
rule is a pattern over the question (lower case, its scope's time words taken out) and how its groups fill the
plan's slots; the first rule whose pattern matches and whose build gives a plan wins."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from egocli.core.lexicon import lexicon, phrases
from egocli.reasoning import debts, guests, kinds, meals, money, outcomes, terms, travel
from egocli.reasoning.plan import QuestionPlan
from egocli.reasoning.scope import Scope

_WHEN = (r"(?:today|yesterday|tonight|earlier(?: today)?|this (?:morning|afternoon|evening|week)|last (?:night|week)|"
         r"(?:on )?(?:mon|tues|wednes|thurs|fri|satur|sun)day(?: (?:morning|afternoon|evening|night))?|"
         r"in the (?:last|past) [\w ]+?|during the week|so far|recently|lately|most recently|in total|all week|"
         r"the last time|yet|already|at all|at any point|at any time|ever|altogether|in all|overall)")
TAIL = rf"(?:,?\s+{_WHEN})*\s*[?.!]*$"
LEAD = re.compile(rf"^(?!the last time\b)(?:{_WHEN}\s*[,:;\u2013\u2014-]?\s*)+")
"""Time words before or after the question proper: the scope reads them; the form ignores them."""
_THE = r"(?:i |my |the |a |an )?"
_ORDER = r"first|earlier|last|later|second"
_EDGES = {"first": "first", "earlier": "first", "last": "last", "later": "last", "second": "last", "final": "last",
          "latest": "last", "most recent": "last", "most recently": "last", "": ""}
_SPAN_WORDS = r"(?:(?:the |my |this |whole |entire |all )*(?:day|morning|afternoon|evening|night|week|weekend)\b\s*)?"
Build = Callable[[tuple[str, ...], Scope | None], QuestionPlan | None]


@dataclass(frozen=True)
class Rule:
    """A pattern for the usual phrasing of a form, and how its groups fill the plan (None: not this rule)."""

    form: str
    """The form it reads."""
    pattern: re.Pattern[str]
    """Matched against the question, lower case, its scope's time words taken out."""
    build: Build
    """Groups (stripped) and the scope -> the plan, or None to try the next rule."""


def _slots(form: str, names: tuple[str, ...]) -> Build:
    """A plan of the form whose slots are the groups in this order ('relation', 'action', ...)."""
    def build(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan:
        values = dict(zip(names, groups))
        if "relation" in values:
            values["relation"] = _EDGES.get(values["relation"], values["relation"])
        return QuestionPlan(form, **values)
    return build


def _said_whether(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan | None:
    """'Did Helen say overtime was okay?': what Helen said about it (the lines, not a guessed yes); 'did Priya
    tell me before Tom asked' is an order question."""
    who, what = groups
    return None if {"before", "after"} & set(what.split()) else QuestionPlan("said", who, what, "whether")


def _way_or_way(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan | None:
    """'Did I walk or get the bus to the post office?': how I got there, when both choices are ways of getting
    about."""
    one, other, where = groups
    return QuestionPlan("travel", where) if travel.asks_way(one) and travel.asks_way(other) else None


def _which_verb(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan:
    """'Who did I speak to first, Mum or the boiler people?': the verb goes with each of the two."""
    verb, order, a, b = groups
    return QuestionPlan("which", f"{verb} {a}", f"{verb} {b}", _EDGES[order])


def _before_or_after(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan:
    """'Did I go to the garden centre before or after I picked the van up?': which of the two came first ('did
    Leanne ring before or after ...': the call from her)."""
    a, b = (_reached(g) for g in groups)
    return QuestionPlan("which", a, b, "first")


def _reached(phrase: str) -> str:
    """'leanne rang' as the act looked for: 'call from leanne'; other phrases as they are."""
    m = re.fullmatch(rf"(?!i\b|we\b)(\w+(?: \w+)?) ({_REACHED})(?: (?:me|us))?", phrase)
    return _from(m.group(2), m.group(1)) if m else phrase


def _from(verb: str, who: str, rest: str = "") -> str:
    """Someone getting in touch, as the act looked for: a verb of phoning is a call ('rung' -> 'call from
    hannah'), others stay ('texted from priya')."""
    said = "call" if terms.stem(verb) in _PHONING else verb
    return f"{said} from {who} {rest}".strip()


def _exists(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan | None:
    if re.search(r" (?:before|after|or) ", groups[0]):
        return None  # 'did I X before Y' (order) / 'did I X or Y' (which)
    return QuestionPlan("exists", groups[0])


def _at(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan | None:
    return QuestionPlan("at") if scope is not None and scope.moments else None


def _which_list(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan | None:
    """'which spices did I measure' is 'what did I measure: spices'; 'what drink did I take the pill with' is not."""
    thing, verb, rest = groups
    if rest and not re.match(r"(?:at|in|on|from|for|to|during|while)\b", rest):
        return None
    return QuestionPlan("list", f"{verb} {thing}{' ' + rest if rest else ''}")


def _list(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan:
    first, second = groups
    edge, phrase = (first, second) if first in _EDGES and first else (second, first)
    return QuestionPlan("list", phrase, relation=_EDGES[edge])


def _digest(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan | None:
    """A span question: nothing left but the span's words once the scope has read its time words (a clock
    time is the 'at' form's), or a place the span was spent at ('what did I do at work yesterday')."""
    if scope is not None and scope.moments:
        return None
    rest = groups[0]
    if not rest:
        return QuestionPlan("digest")
    if m := re.match(r"^since (?:the |my |i )?([\w']+(?: [\w']+){0,3})$", rest):  # 'after X' is the next form's
        return QuestionPlan("digest", m.group(1), relation="after")
    m = re.match(r"^(?:at|in) (?:the |my )?([\w']+(?: [\w']+){0,2})$", rest)
    return QuestionPlan("digest", m.group(1)) if m else None


def _said(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan:
    """'What did Helen say about the audit?' (other: the topic); '... in the team meeting?' (other keeps its 'in':
    the occasion the words were said at)."""
    who, topic, occasion = groups
    return QuestionPlan("said", who, topic or occasion or "")


def _planned(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan | None:
    """A question about a coming day ('when am I seeing Anna?'): only when the scope reads it as one."""
    return QuestionPlan("planned", groups[0]) if scope is not None and scope.future and groups[0] else None


def _check(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan | None:
    """'Is the MOT still at half eight tomorrow?', 'am I picking Kai up?': whether a plan still holds (not 'is it X
    or Y', which asks which)."""
    return None if " or " in f" {groups[0]} " else QuestionPlan("check", groups[0])


def _whose(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan:
    """"What was Helen's first email about?': the first (last) of the kind from that person."""
    person, edge, thing = groups
    return QuestionPlan("first" if _EDGES[edge] == "first" else "last", f"{thing} from {person.removesuffix(chr(39) + 's')}")


def _kind_list(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan | None:
    """'Which emails came in this morning?': the events of a kind (kinds.py), when the noun names one."""
    return QuestionPlan("list", groups[0]) if kinds.asked(groups[0]) is not None and not groups[1] else None


_SENT = r"(?:" + "|".join(kinds.SENDING_OPENINGS) + r")\w*"
"""A verb of getting in touch ('texted', 'phoned', 'rang')."""


def _bare(person: str) -> str:
    """A person without the word before them ('our leanne': leanne)."""
    said = person.split()
    return " ".join(said[1:]) if len(said) > 1 and said[0] in ("our", "my") else person


def _from_person(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan:
    """'When did our Leanne last text me?': the last (first) event of the kind the verb sends from them."""
    who, edge, verb = groups
    return QuestionPlan("first" if edge == "first" else "last", f"{kinds.sent_by(verb)} from {_bare(who)}")


def _guest(groups: tuple[str, ...], scope: Scope | None) -> QuestionPlan | None:
    """'What time did Irene turn up?', 'how long did the plumber stay?': someone else's visit."""
    who, verb = groups
    kind = next((k for k, verbs in guests.VERBS.items() if verb in verbs), "stay")
    return QuestionPlan("guest", who, relation=kind)


_MEALS = "|".join(meals.HOURS)
_NOT_NAMES = "|".join(sorted(lexicon().words["not_names"]))
"""Words after a name that are no second word of it ('leanne last')."""
_PERSON = rf"(?!(?:i|we|you|it|they|that|this|there)\b)((?:the |my |our )?[a-z']+(?: (?!(?:{_NOT_NAMES})\b)[a-z']+)?" \
    r"(?:(?:,| and| &) [a-z']+)*)"
_VISITOR = r"(?!(?:i|we|you|it|they|that|this|there)\b)((?:the |my |our )?[a-z']+(?: [a-z']+)?(?:(?:,| and| &) [a-z']+)*)"
"""Someone who comes: a name or a role of one or two words ('the boiler engineer', 'susan and alfie')."""
_RANG = r"call|called|ring|rung|rang|phone|phoned|give me a (?:call|ring)"
"""A verb of someone phoning the wearer ('when did Karen ring?': the calls from Karen)."""
_TEXTED = r"text|texted|message|messaged|whatsapp|whatsapped|email|emailed"
_REMOTE_VERB = r"call|ring|phone|text|message|email|write|get in touch|video call"
_REACHED = r"call(?:ed)?|ring|rung|rang|phoned?|text(?:ed)?|messaged?|e-?mail(?:ed)?|visit(?:ed)?|write to|written to|" \
    r"wrote to|come to see|pop(?:ped)? round to see"
"""Someone getting in touch with the wearer, as 'did/has X ...' asks it: with 'me' or 'us' after it, or alone ('has
Hannah rung?'); alone, nothing may follow, since 'did mum ring Sam?' is a call to someone else."""
_PHONING = frozenset(terms.stem(w) for w in lexicon().verbs["phoning"])
"""Verbs of phoning (stemmed): the act they ask about is a call."""
_CHANGING = "|".join(map(re.escape, phrases("changing")))
"""Verbs of changing a plan ('how many times has Hannah moved the quote?')."""
_GUEST_VERB = "|".join(sorted((v for kind in ("arrive", "leave") for v in guests.VERBS[kind]), key=len, reverse=True))


def _rule(form: str, pattern: str, build: Build | tuple[str, ...] = ("action",)) -> Rule:
    """A rule: its groups fill these slots in order, or `build` reads them."""
    made = _slots(form, build) if isinstance(build, tuple) else build
    return Rule(form, re.compile(pattern + TAIL), made)


RULES: tuple[Rule, ...] = (
    _rule("planned", r"^(?:when|what time|what day|where) (?:am|are|is|will|shall|do|does) (?:i |we )?(.+?)", _planned),
    _rule("planned", r"^(?:what|who) (?:is|am i|are we|have i got|do i have|will i)(?: got)? (?:happening |doing |"
                     r"on |planned |booked |arranged |coming up |seeing |meeting )?(.+?)", _planned),
    _rule("planned", r"^(?:do|have|did) i (?:have|got|plan|arrange|book) (?:anything |something |any plans? )?(.+?)",
          _planned),
    _rule("guest", rf"^(?:when|what time|at what time) did {_VISITOR} ({_GUEST_VERB})"
                   r"(?: (?:here|round|over|home|in|to see (?:me|us)|for (?:dinner|lunch|tea|coffee)))?"
                   r"(?: (?:for|from) (?:the |my |our )?[\w']+(?: [\w']+)?| and (?:get|pick up|collect|fetch) (?:me|us))?",
          _guest),
    _rule("guest", rf"^how long (?:did|was|were) {_PERSON} (stay|stop|visit)(?: for)?", _guest),
    _rule("guest", rf"^how long (?:was|were) {_PERSON} (round|over|here|in|at (?:mine|ours|my place|our place|the house|"
                   rf"the flat|home))(?: for)?", _guest),
    _rule("guest", r"^who(?:'s| is| has| have)? (?:been|came|come|called|popped|dropped)(?: round| over| by| in)?"
                   r"(?: to (?:the|my|our) (?:house|flat|home|place|door))?(?: for (?:dinner|lunch|tea|coffee|drinks))?",
          lambda groups, scope: QuestionPlan("guest", "", relation="list")),
    _rule("guest", r"^how many (?:different )?(?:people|visitors|callers|folk|persons)(?: (?:have|has|had))? (?:came|come|"
                   r"called|popped|dropped|knocked|visited|been|turned up|showed up)(?: round| over| by| in)?"
                   r"(?: (?:to|at) (?:the|my|our) (?:house|flat|home|place|door|front door))?"
                   r"(?: for (?:dinner|lunch|tea|coffee|drinks))?|^how many (?:visitors|callers) (?:did|have|has) (?:i|we) "
                   r"(?:had|have|get|got)",
          lambda groups, scope: QuestionPlan("guest", "", relation="count")),
    *(_rule(form, pattern, build) for form, pattern, build in (*outcomes.PATTERNS, *debts.PATTERNS, *money.PATTERNS)),
    _rule("name", r"^what (?:is|are|was|were) (?:my |the |her |his |our )?(.+?) called|^what (?:is|was) the name of "
                  r"(?:my |the |her |his |our |that )?(.+?)",
          lambda groups, scope: QuestionPlan("name", groups[0] or groups[1])),
    _rule("name", r"^who(?: is|'s) (?:my|our) (\w+(?: \w+)?)"),
    _rule("meal", rf"^(?:what|which food) (?:did|have|had|do) (?:i|we) (?:have|eat|make|cook|get|got|had|ate|order|"
                  rf"fix|grab)(?: me| myself| us)?(?: for| at)? (?:my |our |the )?({_MEALS})"),
    _rule("meal", rf"^what (?:was|is|were) (?:in )?(?:my|our|the|for) ({_MEALS})"),
    _rule("meal", rf"^(?:when|what time|at what time) did (?:i|we) (?:have|eat|get|make|cook|finish|start|sit down to) "
                  rf"(?:my |our |the |some )?({_MEALS})"),
    _rule("travel", r"^how (?:did|do|'d|have|had|will|shall) (?:i|we) (?:get|go|got|travel|make it|come|get myself|arrive)"
                    r"((?: back| home| there| to| at| into| from| up to| down to| over to| out to| in)\b.*?)"),
    _rule("travel", r"^(?:did|do|have|had) (?:i|we) (.+?) or (.+?) ((?:to|home|into|back|there)\b.*?)", _way_or_way),
    _rule("count", rf"^(?:how many times|how often) (?:did|has|had|have|does) {_PERSON} ({_RANG}|{_TEXTED})(?: me| us)?"
                   r"(?: back)?", lambda groups, scope: QuestionPlan(
                       "count", f"{'messages' if re.fullmatch(_TEXTED, groups[1]) else 'phone calls'} from {groups[0]}")),
    _rule("count", rf"^how many ((?:phone |missed )?(?:texts|messages|emails|e-mails|calls)) (?:did|has|have|had) {_PERSON} "
                   r"(?:sent|send|made|make|left|leave|given|give)(?: me| us)?",
          lambda groups, scope: QuestionPlan("count", f"{groups[0]} from {groups[1]}")),
    _rule("count", rf"^how many ((?:phone |missed )?(?:texts|messages|emails|e-mails|calls)) (?:did|have|had|do) (?:i|we) "
                   rf"(?:get|got|had|have|receive|received) (?:from|off) {_PERSON}",
          lambda groups, scope: QuestionPlan("count", f"{groups[0]} from {groups[1]}")),
    _rule("duration", rf"^(?:for )?how long (?:was|were|did|have|had) (?:i|we) (?:been )?(?:[a-z]+ )?(?:on the phone|"
                      rf"talking|speaking|chatting|on a call)(?: (?:to|with) {_PERSON})?(?: for)?",
          lambda groups, scope: QuestionPlan("duration", f"call with {groups[0]}" if groups[0] else "calls")),
    _rule("duration", rf"^(?:for )?how long (?:was|were|did) {_PERSON} (?:on the phone|talk|speak|chat|ring for)(?: for)?",
          lambda groups, scope: QuestionPlan("duration", f"call with {groups[0]}")),
    _rule("last", rf"^(?:when|what time|at what time) (?:did|has|had) {_PERSON} (?:(last|first) )?({_SENT})"
                  r"(?: me| us)?(?: back)?", _from_person),
    _rule("last", rf"^(?:when|what time) was the (last|first) time (?:that )?{_PERSON} ({_SENT})(?: me| us)?(?: back)?",
          lambda groups, scope: _from_person((groups[1], groups[0], groups[2]), scope)),
    _rule("said", rf"^what did {_PERSON} ({_SENT})(?: me| us)?(?: about(?: (.+?))?)?",
          lambda groups, scope: QuestionPlan("said", f"{kinds.sent_by(groups[1])} from {_bare(groups[0])}", groups[2] or "")),
    _rule("which", rf"^(?:did|was|were|had|have|has) (?:i |we )?(.+?),? (?:before or after|after or before) "
                   rf"(?:i |we )?{_THE}(.+?)", _before_or_after),
    _rule("which", rf"^(?:which|what)(?: one)? (?:did i do|came|happened|did i|was) ({_ORDER})\W+{_THE}(.+?),? "
                   rf"or {_THE}(.+?)", ("relation", "action", "other")),
    _rule("which", rf"^did i (.+?),? or {_THE}(.+?) ({_ORDER})", ("action", "other", "relation")),
    _rule("which", rf"^(?:who|which|what)(?: one)? did i ((?:\w+ )?\w+(?: to| with| for| at)?) ({_ORDER})\W+{_THE}(.+?),? "
                   rf"or {_THE}(.+?)", _which_verb),
    _rule("ago", r"^how long ago (?:did|was it that|have) i (.+?)"),
    _rule("ago", rf"^how long ago (?:did|was it that) {_PERSON} ({_REMOTE_VERB})(?: me| us)?",
          lambda groups, scope: QuestionPlan("ago", f"{groups[1]} from {groups[0]}")),
    _rule("ago", r"^how long ago (?:was|were|is) (?!i\b|it\b)(?:my |the |our |a |an )?(.+?)"),
    _rule("gap", rf"^how (?:long|much time|many minutes) (after|before) {_THE}(.+?),? (?:did|was|had|have) i (.+?)",
          ("relation", "action", "other")),
    _rule("gap", rf"^how (?:long|much time)(?: passed| was there| went by| was it| elapsed)? (between) "
                 rf"{_THE}(.+?) and {_THE}(.+?)", ("relation", "action", "other")),
    _rule("edge", r"^(?:what|which) (?:was|is) (?:the )?(?:very )?(first|last|final) (?:thing|activity) (?:that )?"
                  r"i (?:did|do|was doing)", ("relation",)),
    _rule("edge", r"^what did i do (first|last)", ("relation",)),
    _rule("digest", r"^(?:what (?:did i do|have i done|happened|was i up to|went on|did i get up to)|"
                    r"(?:please )?(?:summari[sz]e|recap|sum up)|give me (?:a |the )?(?:summary|recap|rundown) of|"
                    r"how (?:was|did|has|is)|tell me about)\b ?(?:(?:my|the)\b ?)?" + _SPAN_WORDS +
                    r"(?:(?:go|been|going)\b ?)?(.*?)(?:\s*\bfor me)?",
          _digest),
    _rule("said", r"^what (?:did|does|has) (?!i\b)(.+?) (?:say|tell me|tell us|mention) (?:that )?(?:she|he|they|it)"
                  r"(?:'s|'d|'ll| has| had| is| was| would| will)? (.+?)", ("action", "other")),
    _rule("said", r"^what (?:did|does|has) (?!i\b)(.+?) (?:say|said|tell me|tell us|ask(?: me)?(?: to do| for)?|"
                  r"want(?: me)?(?: (?:not )?to (?:do|forget|remember|bring|get|buy|know|send))?|need(?: from me| me to do)?|"
                  r"mention|suggest|recommend|reply|answer|write)(?:,? and (?:by )?when)?(?: (?:about|on|regarding) (.+?)|"
                  r" ((?:at|in|during|after|when|while) .+?))?",
          _said),
    _rule("said", r"^(?:did|has|had) (?!i\b)(\w+(?: \w+)?) (?:say|said|tell me|mention|write|reply)(?: that| whether| if)? (.+?)",
          _said_whether),
    _rule("said", r"^what was (?:said|discussed|agreed|decided) (?:about|at|in|during|on) (?:the |my )?(.+?)",
          ("other",)),
    _rule("list", r"^who (?:(rang|called|phoned|texted|messaged|emailed|rung)(?: (?:me|us)\b)?|(?:did|have) (?:i|we) "
                  r"(ring|rung|call|called|phone|phoned|text|texted|message|messaged|email|emailed)(?: up)?\b).*?",
          lambda g, scope: QuestionPlan("list", f"{'incoming' if g[0] else 'outgoing'} {kinds.sent_by(g[0] or g[1])}s")),
    _rule("during", r"^what (?:happened|went on|was going on) (?:in|at|during) (?:the |my |our )?(.+?)"),
    _rule("during", r"^(?:(?:what|who)(?: else)? (?:was i doing|did i do|happened|was happening|was going on|"
                    r"was i up to|did i see|was i with)|where (?:was|were) (?:i|we)) (?:when|while|as|just as) "
                    r"(?:i (?:was )?)?(.+?)"),
    _rule("at", r"^(?:(?:what|who) (?:was i doing|did i do|happened|was happening|was going on|was i up to|"
                r"did i see|was i looking at|was i with)|where (?:was|were) (?:i|we))", _at),
    _rule("first", r"^(?:when|what time) did i (?:start|begin) (.+?)"),
    _rule("last", r"^(?:when|what time) did i (?:finish|stop|end) (.+?)"),
    _rule("amount", r"^how much (?:did|have|had) i (?:pay|spend|spent|paid)(?: for| at| on| in)? (.+?)"),
    _rule("amount", r"^how much (?:was|were|did|is|does) (?:the |my |a )?(.+?)(?: cost| come to| be)?"),
    _rule("amount", r"^how much (?:the |my |a )?(.+?) (?:cost|was|came to|come to)"),
    _rule("amount", r"^what did (?:i|it) (?:spend|pay|cost)(?: at| on| for| in)? (.+?)"),
    _rule("amount", r"^what (?:did|does|do) (?:the |my |a |an |our )?((?!(?:say|said|tell|told|think|reckon|mention)\b)"
                    r"[\w'-]+(?: (?!(?:say|said|tell|told|think|reckon|mention)\b)[\w'-]+)*?) "
                    r"(?:cost|come to|set me back|add up to)(?: me)?"),  # one space between words: no backtracking blow-up
    _rule("amount", r"^what (?:was|is) the (?:cost|price|total|bill) (?:of|for|at) (?:the |my )?(.+?)"),
    _rule("exists", r"^(?:did|have|had|do) i (?:ever |already |actually |really |even )?(.+?)", _exists),
    _rule("exists", rf"^(?:did|has|have|had) (?!i\b)(\w+(?: \w+)?) ({_REACHED})(?: (?:me|us)\b(?: (.+?))?)?",
          lambda groups, scope: QuestionPlan("exists", _from(groups[1], groups[0], groups[2]))),
    _rule("exists", r"^(?:was|were|has|have|had) (?:the |my |a |an |our )?(.+?) (?:been )?"
                    r"(\w+(?:ed|en)|left|put|cut|shut|set|made|done|bought|fed|paid)",
          lambda groups, scope: QuestionPlan("exists", f"{groups[1]} the {groups[0]}")),
    _rule("list", r"^(?:what|which) (?:was|is) (?:the )?(?:very )?(first|last|final|latest|most recent) "
                  r"(?:thing|one|item) (?:that )?i (?!did\b|do\b|was doing\b)(.+?)", _list),
    _rule("list", r"^(?:what|who)(?: all| else)? (?:did|have|had) i (?!do\b|go\b)(.+?)"
                  r"(?: (first|last|most recently))?", _list),
    _rule("list", r"^(?:what|which) (?!time\b|day\b|date\b)(\w+(?: \w+)?) (?:did|have|had) i (?!do\b|go\b)(\w+)(.*?)",
          _which_list),
    _rule("order", r"^(?:did|have|had) i (.+?) (before|after) (?:i |my |the )?(.+?)",
          ("action", "relation", "other")),
    _rule("order", r"^(?:did|had|has|have|was|were) (?!i\b)(.+?) (before|after) (?:i |my |the )?(.+?)",
          ("action", "relation", "other")),
    _rule("first", r"^(?:when (?:did|have) i first|when was the first time (?:that )?i|"
                   r"(?:the )?first time (?:that )?i) (.+?)"),
    _rule("first", r"^what (?:is|was|were) (\w+'s) (?:very )?(first|last|latest|most recent) (.+?)"
                   r"(?: about| say| said| saying| for)?", _whose),
    _rule("list", r"^(?:which|what|any) (\w+) (?:came in|arrived|did i get|did i receive|did i have|have i had|"
                  r"have i got|were there|came)\b(.*?)", _kind_list),
    _rule("first", r"^what (?:is|was|were) (?:my|the) (?:very )?first (.+?)"),
    _rule("last", r"^(?:when (?:did|have) i(?: most recently| last)?|when was the last time (?:that )?i|"
                  r"(?:at )?what time (?:did i|was it when i)(?: last)?|(?:the )?last time (?:that )?i|when last did i) "
                  r"(.+?)(?: last| most recently)?"),
    _rule("last", r"^what (?:is|was|were) (?:my|the) (?:latest|last|most recent) (.+?)"),
    _rule("changes", rf"^(?:how many times|how often) (?:did|has|have|had) (.+?) ({_CHANGING})(?: (?:the |my |her |his |"
                     r"their |our |it|them|that)?(.*?))?(?: again)?",
          lambda groups, scope: QuestionPlan("changes", " ".join(g for g in (groups[0], groups[2]) if g))),
    _rule("changes", rf"^(?:how many times|how often) (?:has|have|was|were|did) (?:the |my |our )?(.+?) (?:been |got |get )?"
                     rf"({_CHANGING})(?: again)?", lambda groups, scope: QuestionPlan("changes", groups[0])),
    _rule("count", r"^(?:count )?(?:how many times|how often) (?:did |have |had |do )?i (.+?)"),
    _rule("count", r"^(?:how many times|how often) (?:did|has|had|does|do) (?!i\b)(?:the |my |a |an |our )?(.+?)"),
    _rule("count", r"^how many (.+?) (?:did|have|had|do) i (\w+)(?: to| at| for| on| with| in| of)?",
          lambda groups, scope: QuestionPlan("count", f"{groups[1]} {groups[0]}")),
    _rule("count", r"^how many ((?:(?!did\b|have\b|had\b|do\b|times\b|was\b|were\b)[\w']+ ?){1,3})",
          lambda groups, scope: QuestionPlan("count", f"have {groups[0]}")),
    _rule("spent", r"^(?:for )?how (?:long|much time) (?:did|have|had) i (?:spend|spent) (.+?)(?: for)?"),
    _rule("duration", r"^(?:for )?(?:how long (?:did|was|were|have|had) i(?: been| spend| spent)?|"
                      r"how much time did i spend) (.+?)(?: for)?"),
    _rule("duration", r"^how long did it take (?:me )?to (.+?)"),
    _rule("stay", r"^how (?:long|much time) (?:did|was|were) (?:the |my |our )?(.+?)(?: take| last| stay| spend here| spend)?(?: for)?"),
    _rule("next", r"^(?:what|where) (?:did i do|did i go|happened|was i doing|came) (?:right |just |straight )?"
                  r"(after|before) (?:i )?(.+?)", ("relation", "action")),
    _rule("next", r"^(after|before) (?:i )?(.+?),? (?:what|where) (?:did i do|did i go|happened|was i doing|was i)"
                  r"(?: next| then| after that| afterwards| after)?",
          ("relation", "action")),
    _rule("looked", r"^where (?:did|have|had) (?:i|we) (?:look|looked|search|searched|hunt|hunted|check|checked)"
                    r"(?: for| in)? (?:my |the |our |a |an )?(.+?)"),
    _rule("found", r"^where (?:did|do|have|had) (?:i|we) (?:find|found|come across|dig out|locate|turn up)"
                   r"(?: my| the| our| a| an)? (.+?)(?: in the end| eventually| at last| after all)?"),
    _rule("found", r"^where (?:did|has|had|have|was|were) (?:my |the |our |a |an )?(.+?) (?:turn up|turned up|show up|"
                   r"showed up|end up|ended up)(?: in the end| eventually| at last| after all)?"),
    _rule("found", r"^where (?:was|were|is|are) (?:my |the |our |a |an )?(.+?) (?:in the end|after all|eventually)"),
    _rule("found", r"^(?:did|has|have|had) (?!i\b|we\b)(?:my |the |our |a |an )?(.+?) (?:turn up|turned up|show up|"
                   r"showed up)(?: in the end| eventually| at last| after all)?|^(?:did|have|had) (?:i|we) (?:find|found) "
                   r"(?:my |the |our |a |an )?(.+?)(?: in the end| eventually| at last| after all)?",
          lambda groups, scope: QuestionPlan("found", groups[0] or groups[1])),
    _rule("where", r"^where (?:is|are|was|were|did i (?:put|leave|place|keep|store|last see)|"
                   r"have i (?:put|left)) (?:my |the |our |a |an )?(.+?)"),
    _rule("why", r"^why (?:is|are|was|were|did|does|do|has|have|had|can't|cannot|couldn't|won't|wouldn't|isn't|wasn't|"
                 r"didn't) (.+?)"),
    _rule("exists", r"^(?:did|has|have|had|does) (?!i\b|you\b)(.+?)", _exists),
    _rule("guest", rf"^(?:when|what time|at what time) did {_PERSON} (?:take|bring|drive|walk) {_PERSON} "
                   r"(?:home|back)", lambda groups, scope: QuestionPlan("guest", groups[1], relation="leave")),
    _rule("check", r"^(?:is|are|am) (?!(?:it|there|that|this)\b)(?:i |we )?(.+?)", _check),
)
"""Tried in order; the first rule whose pattern matches and whose build gives a plan wins."""


def match(text: str, scope: Scope | None) -> QuestionPlan | None:
    """The plan the first matching rule reads from a normalised question, else None."""
    text = LEAD.sub("", text)
    for rule in RULES:
        m = rule.pattern.match(text)
        if m:
            plan = rule.build(tuple((g or "").strip(" ?.,") for g in m.groups()), scope)
            if plan is not None:
                return plan
    return None
