"""Actions in questions and events: which verb (folded into everyday classes) acts on which thing.

"When did I get the carafe?" is about getting it, not about setting it down; "how many times did I remove the
onion?" is about the onion, not about the onion's skin. Terms alone cannot tell these apart; the verb and the head
of the thing acted on can. The classes are ordinary English equivalents ('slice' ~ 'cut' ~ 'chop'), not a
benchmark's labels; a verb outside them is its own class.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from egocli.core.lexicon import any_of, lexicon
from egocli.core.timeutil import local
from egocli.reasoning import terms
from egocli.store import Event

_VERBS = lexicon().verbs
_CLASSES = _VERBS["classes"]
CLASS: dict[str, str] = {}
"""Verb (stemmed, a particle joined with '_') -> its class: the class's first verb."""
for _line in _CLASSES:
    _verbs = _line.split()
    for _v in _verbs:
        _verb, *_particle = _v.split("_")  # the particle as said: 'off' is no stem of 'of'
        _key = "_".join([terms.stem(_verb), *_particle])
        CLASS.setdefault(_key, _verbs[0])

PARTICLES = _VERBS["particles"]
"""Words that make a phrasal verb with the verb before them ('turn on', 'take out')."""
PREPOSITIONS = _VERBS["prepositions"]
"""Words that end the phrase naming the thing acted on."""
PLACING = _VERBS["placing"]
_A_RING = "".join(rf"(?<!\b{w} )" for w in ("the", "a", "key", "my", "his", "her", "your", "wedding", "onion"))
REMOTE_WORDS = re.compile(r"\b(?:" + "|".join(_A_RING + w if w == "ring" else w for w in sorted(_VERBS["remote"])) +
                          r")\w*\b")
"""A word of a remote act in an event ('calling Anna', 'a video call', 'incoming call'): the person was elsewhere
(not a ring one wears or keys hang on: 'keys on the ring')."""
"""Classes of verbs that leave a thing somewhere (their events answer 'where is it')."""
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|[,;.:!?()\u2014-]")


@dataclass(frozen=True)
class Action:
    """What a question's phrase does to what: its verb's class and the head of the thing acted on."""

    verb: str | None
    """The verb's class ('take' for 'got'); None when the phrase does not start with a verb."""
    head: str | None
    """The stemmed head of the thing acted on ('onion' in 'remove the onion'); None when it names none."""
    word: str | None = None
    """The verb as said, stemmed ('remov' for 'removed'; its class is 'take_out')."""
    particle: str | None = None
    """A particle right after the verb, part of it ('down' in 'turn down the hob'); one after the thing
    ('get my umbrella back') is not."""


def _tokens(text: str) -> list[str]:
    return [t.split("'")[0] for t in _WORD.findall(text.lower())]


def _verb_at(tokens: list[str], i: int) -> tuple[str | None, int]:
    """The class of the verb at tokens[i] (with a particle after it), and how many tokens it takes."""
    base = terms.stem(tokens[i])
    if i + 1 < len(tokens) and tokens[i + 1] in PARTICLES:
        joined = f"{base}_{tokens[i + 1]}"
        if joined in CLASS:
            return CLASS[joined], 2
    for j in range(i + 2, min(i + 5, len(tokens))):  # split: 'turn the tap off', 'switch the oven on'
        if tokens[j] in PARTICLES and (j + 1 == len(tokens) or tokens[j + 1] in _CLAUSE) \
                and f"{base}_{tokens[j]}" in CLASS:
            return CLASS[f"{base}_{tokens[j]}"], 1
        if tokens[j] in PREPOSITIONS or tokens[j] in _CLAUSE:
            break
    return CLASS.get(base), 1


def parse(phrase: str, verb_first: bool = True) -> Action:
    """The action of a question's phrase ('got the carafe' -> take, carafe); its first word is its verb
    unless it is a function word ('at the dentist' names no verb) or the phrase names only a thing
    (verb_first=False: 'the glass' of 'where did I leave the glass')."""
    tokens = [t for t in _tokens(whole(phrase)) if t not in {",", "."}]  # 'one of my tablets': the tablets
    if not tokens:
        return Action(None, None)
    verb, used, word, particle = None, 0, None, None
    if verb_first and tokens[0] not in terms.STOP and not tokens[0].isdigit():
        verb, used = _verb_at(tokens, 0)
        word = terms.stem(tokens[0])
        verb = verb or word
        particle = tokens[1] if len(tokens) > 1 and tokens[1] in PARTICLES else None
        used = max(used, 2 if particle else 1)
    head = None
    for tok in tokens[used:]:
        if tok in PREPOSITIONS and head is not None:
            break
        if tok not in terms.STOP and tok not in PARTICLES and not tok.isdigit() and len(tok) > 1:
            head = _term(tok)
    if verb_first and verb is None and tokens[0] in _HAVING and head is not None and terms.medicinal([head]):
        verb, word = "take", terms.stem("take")  # 'had my tablets' is taking them
    return Action(verb, head, word, particle)


_HAVING = _VERBS["having"]
"""Forms of 'have' that, with a medicine, ask about taking it."""
PARTITIVES = _VERBS["partitives"]
"""Words before 'of' that take part of what follows ('one of my tablets'): no thing of their own."""


def whole(phrase: str) -> str:
    """A phrase without the words that take part of its thing ('have one of my tablets' -> 'have my tablets')."""
    said = phrase.split()
    return " ".join(w for i, w in enumerate(said) if not (w.lower() in PARTITIVES and said[i + 1:i + 2] == ["of"])
                    and not (w == "of" and i and said[i - 1].lower() in PARTITIVES))


def _term(word: str) -> str:
    s = terms.stem(word)
    return terms.SYNONYMS.get(word, terms.SYNONYMS.get(s, s))


SENSED = {"speech": "speak", "visual": "look"}
"""The act an event's modality is itself: a transcript is speaking, a frame is seeing."""
_CLAUSE = _VERBS["clause"]


def verbs_of(text: str, modality: str | None = None) -> set[str]:
    """The verb classes an event names: words of a verb class that open a clause or are inflected as verbs
    ('boarding', 'took'; not the 'board' of 'put pan on board'), and the act its modality is (a transcript's
    only act is speaking)."""
    if modality == "speech":  # what is said is not what is done: 'keep taking the tablet' is advice
        return {SENSED[modality]}
    tokens = _tokens(text)
    out = {SENSED[modality]} if modality in SENSED else set()
    for i, tok in enumerate(tokens):
        if i and tokens[i - 1] not in _CLAUSE and not tok.endswith(("ing", "ed")) and tok not in terms.IRREGULAR:
            continue
        if i and terms.gerund(tok) and _names_a_thing(tokens, i):
            continue
        verb, _ = _verb_at(tokens, i)
        if verb is not None:
            out.add(verb)
    return out


_GERUND_TAKERS = _VERBS["gerund_takers"]
"""Words after which an -ing word is an act ('continue washing', 'after cutting', 'was measuring')."""


def _names_a_thing(tokens: list[str], i: int) -> bool:
    """Whether the -ing word at i (not the first) is part of a thing's name: 'pick up measuring jug',
    'put pan on chopping board', 'take frying pan' (a word of another kind before it and a content
    word after it), not an act ('continue washing the pan', 'after cutting onion')."""
    prev = tokens[i - 1]
    if prev in _CLAUSE or prev in _GERUND_TAKERS or i + 1 >= len(tokens):
        return False
    nxt = tokens[i + 1]
    return nxt.isalpha() and nxt not in terms.STOP and nxt not in PARTICLES and nxt not in PREPOSITIONS


def opens_with_verb(text: str, verb: str | None) -> bool:
    """Whether a text is a narration of one discrete action of this class ('slice chicken'), not an ongoing
    description ('walking the dog', 'inside a tram'): its first word is a plain form of the verb."""
    tokens = _tokens(text)
    if verb is None or not tokens or terms.gerund(tokens[0]):
        return False
    return _verb_at(tokens, 0)[0] == verb


def followers(text: str, head: str) -> list[str]:
    """The content words right after each mention of a head ('onion skin' -> ['skin'])."""
    tokens = _tokens(text)
    out = []
    for i, tok in enumerate(tokens[:-1]):
        nxt = tokens[i + 1]
        if _term(tok) == head and nxt not in terms.STOP and nxt not in PREPOSITIONS and nxt.isalpha() \
                and nxt not in PARTICLES and not (nxt.endswith("ed") and terms.stem(nxt) in CLASS):  # 'swallowed'
            out.append(_term(nxt))
    return out


def compounds(texts: Iterable[str], head: str) -> set[str]:
    """Words that follow the head in at least two of the texts: the head is then a modifier of another thing
    ('olive oil', 'onion skin') in those texts, not the thing itself."""
    seen = Counter(w for t in texts for w in set(followers(t, head)))
    return {w for w, n in seen.items() if n >= 2}


_DOSING = _VERBS["dosing"]
"""Verb classes by which a medicine is taken ('swallowed')."""


def dosed(verbs: set[str], things: list[str]) -> bool:
    """Whether an event's verb classes take a medicine the things acted on name ('take my tablets' is done by 'a
    small yellow tablet swallowed with water')."""
    return bool(verbs & _DOSING) and terms.medicinal(things)


def names_head(text: str, head: str, compound: set[str]) -> bool:
    """Whether a text mentions the head as the thing itself, not only as a modifier of a compound."""
    tokens = _tokens(text)
    follows = followers(text, head)
    mentions = sum(1 for t in tokens if _term(t) == head or (head == "medication" and terms.is_medicine(t)))
    return mentions > sum(1 for w in follows if w in compound)


LOCATIVE = _VERBS["locative"]
"""Prepositions that name where a thing was left."""


def places(text: str, head: str) -> bool:
    """Whether a text leaves the thing somewhere it names: a verb of placing, the thing, then where
    ('put glass into cupboard', 'left the umbrella at the noodle bar')."""
    if not verbs_of(text) & PLACING:
        return False
    tokens = _tokens(text)
    seen = False
    for i, tok in enumerate(tokens):
        if _term(tok) == head:
            seen = True
        elif seen and tok in LOCATIVE and any(t not in terms.STOP and t.isalpha() for t in tokens[i + 1:i + 4]):
            return True
    return False


NOT = re.compile(r"\b(?:" + "|".join(sorted({w.replace("_", " ") for w in lexicon().words["negation"] |
                                           lexicon().words["intention"]}, key=len, reverse=True)) +
                 r"|still (?:closed|shut|full|there|in the packet)"
                 r"|(?:cap|lid|seal|top|foil|wrapper) (?:still|left) on)\b", re.I)
"""A line saying something was not done, or is still to be done ('the inhaler on the shelf with its cap still on')."""
_ABSENT = frozenset(lexicon().words["absent"])


def absent(text: str, head: str) -> bool:
    """Whether a clause of a line says the thing was not there ('crumbs and a biro down the side, no magnifier',
    'desk, laptop; no charger on the desk'): a word of absence up to two words before its head noun, in one clause
    ('No, the charger's in the bag' says it is there)."""
    stem = terms.stem(head)
    for part in terms.clauses(text):
        said = terms.words(part)
        if any(w in _ABSENT and any(terms.stem(v) == stem for v in said[i + 1:i + 4]) for i, w in enumerate(said)):
            return True
    return False


_MINE = lexicon().words["wearers_possessives"]
_DETERMINERS = lexicon().words["determiners"]


def owned(text: str, head: str) -> bool:
    """Whether a phrase names its head noun as the wearer's ('my mum', 'our Jordan's school bag'): the nearest
    determiner up to three words before it is 'my' or 'our' ('jo message me about her birthday' is hers)."""
    said = terms.words(text)
    return any(_same(w, head) and next((b for b in reversed(said[max(0, i - 3):i]) if b in _DETERMINERS), "") in _MINE
               for i, w in enumerate(said))


def _same(word: str, head: str) -> bool:
    """Whether a word names the head noun, stemmed and by its synonyms ('mum' is 'mother')."""
    return terms.terms(word)[:1] == terms.terms(head)[:1] != []


def theirs(text: str, head: str) -> bool:
    """Whether a line names the head noun only as someone else's ('the girl and her mum', "Dean's keys", 'his
    tablets'): each time, a possessive not the wearer's ('her', 'his', 'their', a name's 's) up to three words before
    it, with no 'my' or article nearer; 'it's' owns nothing."""
    raw = [t.strip(",.;:!?()\"") for t in text.lower().replace("\u2019", "'").split()]
    named = [i for i, token in enumerate(raw) if _same(token.removesuffix("'s"), head)]
    return bool(named) and all(_theirs_before(raw[max(0, i - 3):i]) for i in named)


def _theirs_before(before: list[str]) -> bool:
    """Whether the nearest of the words before a noun that says whose it is says someone else's."""
    for word in reversed(before):
        if terms.someone_elses(word):
            return True
        if word in _DETERMINERS:
            return False
    return False


_READ = ("text", "note")
"""Lines read or written, where a clause opening with a bare verb and saying how often tells what to do."""
_REGIMEN = re.compile(r"\b(?:" + "|".join(sorted((w.replace("_", " ") for w in lexicon().words["regimen"]), key=len,
                                                  reverse=True)) + r")\b", re.I)
"""How often or how to do it, as an instruction says ('daily', 'twice a day', 'with food')."""


ASKING = any_of("requesting")
"""Someone asking the wearer to do a thing ('can you pick them up?'): it is still to be done (lower case)."""


def not_done(ev: Event, heavy: list[str], requests: bool = True) -> bool:
    """Whether the sentence of a line that names the phrase says it was not (or is still to be) done: 'lunch is
    done. I need to call the pharmacy' has lunch done; someone asking for it, in their words ('Dad: can you pick
    them up on your way home? The eye drops.': the request or the sentence after it names it) has it still to do;
    a line read or written that tells what to do ('pharmacy label - Take ONE tablet daily with food') is no doing
    of it. Without `requests`, someone's asking is left as said (what they said is the answer to 'what did Dad
    say about the drops?')."""
    said = set(heavy)
    parts = terms.clauses(ev.content)
    if any(NOT.search(part) and set(terms.terms(part)) & said for part in parts):
        return True
    if requests and terms.speaker(ev.content) and any(
            ASKING.search(part.lower()) and set(terms.terms(" ".join(parts[i:i + 2]))) & said for i, part in enumerate(parts)):
        return True
    return ev.modality in _READ and (_lists_plans(ev) or any(
        (_instructs(part) or (ev.modality == "note" and _to_do(part) and _for_later_day(part, ev.start_ms))) and
        set(terms.terms(part)) & said
        for part in terms.parts(ev.content)))


_PLAN_HEAD = re.compile(r"^\W*(?:\w+\s+){0,2}(?:" + "|".join(sorted((re.escape(w.replace("_", " ")) for w in
                                                                      lexicon().words["plan_headers"]),
                                                                     key=len, reverse=True)) + r")\b\s*[\u2014\u2013:-]", re.I)
"""A line opening with what lists things to come ('wall calendar -', 'plans -', 'to-do:')."""


def _lists_plans(ev: Event) -> bool:
    """Whether a line read or written lists what is to come ('wall calendar - MON 14: van in at Hillside')."""
    return bool(_PLAN_HEAD.match(ev.content))


def _to_do(part: str) -> bool:
    """Whether a clause opens with a verb in its bare form, as a thing to do is written ('collect Dad's eye drops',
    'ring Crowther's order'); not a record of what was arranged ('plumber Dave Saturday 09:00')."""
    tokens = _tokens(part)
    if not tokens or tokens[0] in terms.IRREGULAR or tokens[0].endswith(("ed", "ing", "s")):
        return False
    return _verb_at(tokens, 0)[0] is not None


def _for_later_day(part: str, said_ms: int) -> bool:
    """Whether a clause names a day after the one it was written on ('collect Dad's eye drops from Wellcross
    Pharmacy Tue 15 Dec afternoon', noted on the 13th): a plan for then, not a thing done."""
    from egocli.reasoning.coming import said_days

    today = local(said_ms).date()
    return any(start > today for start, _ in said_days(part, said_ms))


def _instructs(part: str) -> bool:
    """Whether a clause says how often and either opens with a verb in its bare form ('Take ONE tablet daily with
    food') or names no act done at all ('3x10 slow squats twice a day', noted from the physio): an instruction, not a
    thing done ('took', 'taking' are done; 'take cutting board' narrates an act)."""
    if not _REGIMEN.search(part):
        return False
    return _to_do(part) or not any(t in terms.IRREGULAR or t.endswith(("ed", "ing")) for t in _tokens(part))


BACKDROP_TIMES = 3
"""A line said word for word this many times among a thing's mentions is a backdrop ('cycle lane beside a row of
parked cars' through every ride), not a moment of its own."""


def own_doing(found: list[Event]) -> list[Event]:
    """The mentions that are the wearer doing it: when a frame shows it, not someone else's words about it ('Marta:
    three sets of ten slow squats, twice a day' is advice, 'ten slow squats by the sofa' the doing)."""
    if not any(e.modality == "visual" for e in found):
        return found
    return [e for e in found if e.modality != "speech" or not terms.speaker(e.content)]  # 'Me:' names no one


def backdrop(found: list[Event]) -> set[str]:
    """The contents repeated word for word at least BACKDROP_TIMES among the mentions."""
    seen: dict[str, int] = {}
    for e in found:
        seen[e.content] = seen.get(e.content, 0) + 1
    return {c for c, n in seen.items() if n >= BACKDROP_TIMES}
