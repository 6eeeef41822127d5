"""The everyday set: two ordinary days (a work day, a day off) and questions people ask about them.

    python bench/sets/everyday.py            # rewrites bench/sets/{everyday,errands}.jsonl, then checks the questions
    python bench/sets/everyday.py --check    # exits 1 when a .jsonl differs from a rebuild or a check fails

Two sets of days (`Days`): `everyday` and `errands` (bench/sets/errands_*: a retired woman's two days, written
with its 90 questions by a helper before anyone ran egocli on them; its golds are not to be edited after a run).

The days are written by hand in everyday_script.txt (lifeweek_script.txt's format: work, emails, a dentist,
errands, calls, medication with a missed dose, plans said aloud, arrivals and departures); everyday_noise.txt
holds background events per place, drawn with a fixed seed into the time between scripted events, as
bench/sets/lifeweek.py does. The questions (everyday_questions.json) are written by hand with their gold
answers and the events they rest on (`evidence`: [local ISO start, content]); `check` makes sure every evidence
event is in the built log, before the question's time, and that the gold agrees with its evidence.

Some golds are a "no" that rests on what the log shows (a dose still in the pill organiser, a receipt without
milk) or on nothing in the log at all (`"absent": true`): an answer saying it found nothing is a right answer
to those, which the runner (bench/understand.py) counts; the checker alone would not.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench.sets` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.sets.checker import has_word  # noqa: E402
from bench.sets import lifeweek  # noqa: E402
from bench.sets.lifeweek import Ev  # noqa: E402

HERE = Path(__file__).resolve().parent
SEED = 2027
KINDS = {"time", "count", "yesno", "words", "first", "duration"}


@dataclass(frozen=True)
class Days:
    """A set of ordinary days: its script, background, built log and questions (bench/sets/NAME*)."""

    name: str

    @property
    def script(self) -> Path:
        return HERE / f"{self.name}_script.txt"

    @property
    def noise(self) -> Path:
        return HERE / f"{self.name}_noise.txt"

    @property
    def events(self) -> Path:
        return HERE / f"{self.name}.jsonl"

    @property
    def questions(self) -> Path:
        return HERE / f"{self.name}_questions.json"

    @property
    def probes(self) -> Path:
        """More questions of the weakest forms over the same log, written later by helpers who had not seen
        egocli's answers (ids PREFIX-p-FORM-NN); a set may have none."""
        return HERE / f"{self.name}_probes.json"

    def all_questions(self) -> list[dict]:
        """The set's questions, then its probes."""
        return load_questions(self.questions) + (load_questions(self.probes) if self.probes.exists() else [])

    def build_events(self, seed: int = SEED) -> list[Ev]:
        """Scripted events plus background drawn every 2.5-8 minutes while awake, in time order (lifeweek's
        rule)."""
        return lifeweek.build_events(seed, self.script, self.noise)


DAYS = {d.name: d for d in (Days("everyday"), Days("errands"), Days("shifts"), Days("weekdays"), Days("visits"),
                                  Days("flatshare"), Days("market"), Days("garden"),
                                  Days("school"), Days("nights"), Days("clinic"), Days("depot"), Days("terrace"),
                                  Days("bakery"), Days("campus"), Days("salon"), Days("rounds"))}
"""everyday: a work day and a day off (Mon 30 Nov, Tue 1 Dec 2026); errands: two days of a retired woman (Thu 10,
Fri 11 Dec 2026), written by a helper who never saw egocli's answers, in other words than everyday's; shifts: a
man's Saturday shift at a hardware shop and a Sunday with his father and daughter (Sat 12, Sun 13 Dec 2026),
written the same way, by a helper who never read egocli's code either; weekdays: a self-employed gardener's
Monday and Tuesday (Mon 14, Tue 15 Dec 2026: a bus, a bike and lifts, a client's quote moved twice, a late thyroid
tablet), written the same way by another helper who never read egocli's code or answers; flatshare: a claims
handler with ADHD in a shared flat (Fri 15, Sat 16 Jan 2027: working from home then the office by tram, a late
dose, a physio, keys, badge and charger moved about, a bill split three ways, a plan moved twice, a football
match), written the same way by a helper who never read egocli's code or answers; market: a fruit-and-vegetable
stallholder of 58 with type 2 diabetes and early hearing loss who cares for his wife, a wheelchair user (Wed 3, Thu 4
Mar 2027: the wholesale market, the stall, the practice nurse, a float bag, van keys, reading glasses and a hearing
aid case put down and found, her hospital appointment by taxi and bus, the van's MOT, money lent and part paid back,
a grandson's visit moved twice), written the same way by a helper who never read egocli's code or answers; garden:
a retired primary-school teacher of 71 with macular degeneration and some memory trouble, widowed, living alone with
her cat (Sun 11, Mon 12 Apr 2027: a broken boiler and the plumber, church, the allotment, the food bank, the bus
into town and a library book, a tablet taken late, a taxi to the eye clinic for an injection, a neighbour's lift,
house keys and a magnifier put down in odd places, money paid back, given and still owed, a granddaughter's
birthday moved twice), written the same way by a helper who never read egocli's code or answers; school: a
father of 39 with memory, attention and headache trouble after a head injury, on a phased return to an office job,
who does the school run for his two children while his partner works shifts (Tue 18, Wed 19 May 2027: a lunch box
and a PE kit forgotten, a work badge, a child's inhaler and his mother's car keys put down in odd places and found,
paracetamol counted against a daily limit, a tablet taken late, the train to work, a neighbour's lift and a bus
home from neuro rehab, a Lidl shop, money lent, paid back and still owed, the GP surgery and the school office rung,
a football match moved twice), written the same way by a helper who never read egocli's code or answers; nights: a
hospital night porter of 52 with sleep apnoea, tinnitus and some memory trouble after a stroke, who lives with his
son and an old dog and looks in on his mother in sheltered housing (Thu 10, Fri 11 Jun 2027: a night shift across
midnight with patients moved, a lift out of order, chest tightness and two sprays of GTN, the 3 am break, a lanyard
left in the canteen; a flat car battery and the bus home at eight, a bedtime tablet forgotten and taken late, the
pharmacy and the GP rung, car keys, reading glasses, the CPAP mask and the dog's lead put down in odd places and
found, money lent, part paid back and owed, a rota change moved twice), written the same way by a helper who never
read egocli's code or answers; clinic: a part-time library assistant of 46 with relapsing multiple sclerosis (fatigue,
a left eye that blurs in the heat, lost words) who lives with her partner, on lates, and their daughter of 15, and
helps her widowed father in a nearby village (Fri 16, Sat 17 Jul 2027: a morning on the library desk with a photograph
left in a returned book and a colleague covering, the train to Hereford for the MS nurse, a blood test, a new
prescription and a follow-up date told aloud then moved by letter, a tablet taken late, house keys, reading glasses,
a walking stick, a blue badge and a purse put down in odd places and found, money lent, part paid back and owed, a
swimming gala, her father's dosette box, a family barbecue moved twice), written the same way by a helper who never
read egocli's code or answers; depot (Thu 9, Fri 10 Sep 2027: a parcel van driver of 38 with ADHD on his round from
the depot, a second tablet taken by mistake, a lent tenner, missed-delivery cards, a nail in a tyre, a nursery pick-up
changed twice, then a day off with a GP review, a car key lost and found, an MOT moved, a water bill begun and not
finished, debts part paid and five-a-side lost 7-5) and terrace (Sat 23, Sun 24 Oct 2027: a retired bus mechanic of
74 with early Alzheimer's and his wife, the dog, the milk forgotten, keys left in the door, a gas meter read, a
fence to go halves on, a grandson's visit moved twice, a pub quiz, morning tablets forgotten in an egg cup, a leak
and a late plumber, a memory-clinic date moved by phone, a wallet in a wellington boot), each 170 questions (the
forms of the sets before, and 20 of other kinds a person would ask), written by helpers who read neither egocli's
code nor its answers and committed before egocli first ran on them (session 27); bakery (Mon 15, Tue 16 Nov 2027:
an early-shift supermarket baker of 55 with type 1 diabetes and dyslexia, keys in the bread bin, a lift in, an oven
fault and a hypo at work, a clinic moved by text, the bus home, a bank card and a meter lost and found, money lent
and part paid back, his mother's birthday meal moved twice, the grandchildren after school) and campus (Wed 2, Thu 3
Feb 2028: a psychology student of 20 with epilepsy in a shared flat in Dundee, a lecture moved, a bill split four
ways, money lent, a café shift with a till short, an evening tablet taken late, an aura in the library, the nurse's
call, a lift and a food shop, her mum's pick-up moved twice), 170 questions each in the same mix, written the same
way and committed before egocli first ran on them (session 28); salon (Thu 13, Fri 14 Jan 2028: a hairdresser of 44 with
fibromyalgia renting a salon chair, clients paid by card and cash, scissors and glasses put down and found, a dose
forgotten and taken late, the GP, her mother's shopping, parcels, a client's booking moved twice) and rounds (Mon 6,
Tue 7 Mar 2028: a home-care worker of 51 with type 2 diabetes and ADHD on a split shift of visits by car, a phone and
keys left in odd places, a missed dose, then the diabetes nurse, the garage, the bank and a grandson), 130 questions
each weighted to the weakest forms, written the same way and committed before egocli first ran on them (session 31)."""
EVERYDAY = DAYS["everyday"]
SCRIPT, NOISE, EVENTS, QUESTIONS = EVERYDAY.script, EVERYDAY.noise, EVERYDAY.events, EVERYDAY.questions


def build_events(seed: int = SEED) -> list[Ev]:
    """The everyday set's log (see Days.build_events)."""
    return EVERYDAY.build_events(seed)


def jsonl(events: list[Ev]) -> str:
    """The JSONL text `egocli import` reads."""
    return "".join(json.dumps(e.as_json()) + "\n" for e in events)


def load_questions(path: Path = QUESTIONS) -> list[dict]:
    """The hand-written questions."""
    return json.loads(path.read_text(encoding="utf-8"))


def check(events: list[Ev], questions: list[dict]) -> list[str]:
    """Problems: an evidence line not in the log (or not before the question), a gold of an unknown kind, a
    time gold that is not one of its evidence times, a words/first gold none of whose alternatives its evidence
    says, a duplicate id, a missing field."""
    have = {(e.start.isoformat(), e.content) for e in events}
    problems, seen = [], set()
    for q in questions:
        qid = q.get("id", "?")
        missing = [f for f in ("id", "form", "question", "at", "gold", "evidence") if f not in q]
        if missing:
            problems.append(f"{qid}: missing {', '.join(missing)}")
            continue
        if qid in seen:
            problems.append(f"{qid}: duplicate id")
        seen.add(qid)
        at = datetime.fromisoformat(q["at"])
        gold, evidence = q["gold"], q["evidence"]
        if gold.get("kind") not in KINDS:
            problems.append(f"{qid}: unknown gold kind {gold.get('kind')!r}")
        if not evidence and not gold.get("absent"):
            problems.append(f"{qid}: no evidence")
        for when, text in evidence:
            if (when, text) not in have:
                problems.append(f"{qid}: evidence not in the log: {when} {text!r}")
            elif datetime.fromisoformat(when) >= at:
                problems.append(f"{qid}: evidence at {when} is not before the question ({q['at']})")
        said = " ".join(text for _, text in evidence)
        if gold.get("kind") == "time" and gold["time"] not in [w for w, _ in evidence]:
            problems.append(f"{qid}: gold time {gold['time']} is not an evidence time")
        if gold.get("kind") == "words":
            for group in gold["all"]:
                if not any(has_word(said, alt) for alt in group):
                    problems.append(f"{qid}: evidence says none of {group}")
        if gold.get("kind") == "first":
            for side in ("first", "then"):
                if not any(has_word(said, alt) for alt in gold[side]):
                    problems.append(f"{qid}: evidence says none of {gold[side]} ({side})")
        if gold.get("kind") == "count" and gold["n"] != len(evidence):
            problems.append(f"{qid}: count {gold['n']} but {len(evidence)} evidence events")
        if gold.get("kind") == "duration" and len(evidence) >= 2 and gold.get("span"):
            lo, hi = (datetime.fromisoformat(w) for w, _ in (evidence[0], evidence[-1]))
            if int((hi - lo).total_seconds() * 1000) != gold["ms"]:
                problems.append(f"{qid}: duration {gold['ms']} ms is not its evidence span")
    return problems


def main() -> None:
    """Rebuild each set's NAME.jsonl (or compare with it) and check its questions."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="Compare with the committed log instead of writing.")
    parser.add_argument("--sets", default=",".join(DAYS), help=f"Comma-separated: {', '.join(DAYS)}.")
    args = parser.parse_args()
    status = 0
    for name in args.sets.split(","):
        days = DAYS[name]
        events = days.build_events()
        text = jsonl(events)
        if args.check:
            same = days.events.exists() and days.events.read_text(encoding="utf-8") == text
            print(f"{days.events.name} up to date" if same
                  else f"{days.events.name} differs from a rebuild: run python bench/sets/everyday.py")
            status |= 0 if same else 1
        else:
            days.events.write_text(text, encoding="utf-8")
            print(f"{len(events)} events ({sum(e.scripted for e in events)} scripted) -> {days.events}")
        if days.questions.exists():
            questions = days.all_questions()
            problems = check(events, questions)
            for p in problems:
                print("problem:", p)
            kinds: dict[str, int] = {}
            for q in questions:
                kinds[q["gold"]["kind"]] = kinds.get(q["gold"]["kind"], 0) + 1
            print(f"{name}: {len(questions)} questions {kinds}, {len(problems)} problems")
            status |= 1 if problems else 0
    sys.exit(status)


if __name__ == "__main__":
    main()
