"""A question becomes one plan whatever its phrasing: the lexicon's rewrites and the registry's patterns (no
model), the model's plan under its schema (checked against the question's words), and the new forms' answers
computed on a real store: spans, amounts, what was said, plans for a coming day, a part of the day."""

from __future__ import annotations

import json

import pytest

from egocli.core.timeutil import parse_time_ms
from egocli.models.fake import ScriptedModel
from egocli.reasoning import asker, forms, understand, voice
from egocli.reasoning.scope import parse_scope
from egocli.store import NewEvent, Store

AT = parse_time_ms("2026-12-01T20:30")


def _plan(question: str):
    plan = understand.by_rules(question, parse_scope(question, AT))
    return (plan.form, forms.phrases(plan)) if plan is not None else None


@pytest.mark.parametrize("said, canonical", [
    ("Before I went to the pharmacy, did I call mum?", "Did I call mum before I went to the pharmacy?"),
    ("Can you tell me which I did first, open the bread or grab the rind?",
     "Which did I do first, open the bread or grab the rind?"),
    ("The last time I watered the plants - when was that?", "When was the last time I watered the plants?"),
    ("My laptop charger - where is it?", "Where is my laptop charger?"),
    ("When'd I last water the plants", "When did I last water the plants?"),
    ("How many goes did I have at slicing the chicken?", "How many times did I slice the chicken?"),
    ("Once I had parked, what did I do?", "What did I do after I parked?"),
    ("What did I do straight after feeding the cat?", "What did I do after feeding the cat?"),
    ("hey, where did I put down my keys please?", "Where did I put my keys?"),
    ("Was the oven on prior to the phone call?", "Was the oven on before the phone call?"),
    ("Any chance I fed the cat this morning?", "Did I feed the cat this morning?"),
    ("Did I lock the shed or not?", "Did I lock the shed?"),
    ("How far back was it that I last rang the bank?", "How long ago did I ring the bank?"),
    ("Where did my wallet end up?", "Where is my wallet?"),
    ("Where did I stick the remote?", "Where did I put the remote?"),
    ("Before I phoned Sam, what was the last thing I did?", "What did I do before I phoned Sam?"),
    ("After I watered the plants, what followed?", "What did I do after I watered the plants?"),
    ("Yesterday, when did I last check the post?", "When did I last check the post yesterday?"),
    ("What time was my last coffee?", "What was my last coffee?"),
    ("Was I at the bank before the bakery?", "Did I go to the bank before I went to the bakery?"),
    ("my reading glasses, where are they now", "Where are my reading glasses now?"),
    ("where've I put my reading glasses", "Where have I put my reading glasses?"),
    ("has the plumber been round yet", "Did the plumber come?"),
    ("how was my friday", "What did I do on Friday?"),
    ("summarise thursday for me", "What did I do on Thursday?"),
    ("how did tuesday go", "What did I do on Tuesday?"),
    ("tell me about my saturday", "What did I do on Saturday?"),
    ("what did alfie and I do yesterday afternoon", "What did I do yesterday afternoon?"),
    ("before I went to the pharmacy what was I doing", "What did I do before I went to the pharmacy?"),
    ("what did I get up to right before lunch", "What did I do before lunch?"),
    ("what had I been doing before mum rang", "What did I do before mum rang?"),
    ("what was the last thing I did before bed", "What did I do before bed?"),
    ("what was the first thing I did after getting home", "What did I do after getting home?"),
    ("what did I do once I got home", "What did I do after I got home?"),
    ("where did I head after work", "Where did I go after work?"),
    ("where was I before the supermarket", "Where did I go before the supermarket?"),
    ("what did we do after we'd seen the consultant", "What did I do after I saw the consultant?"),
    ("what did I do first thing this morning", "What did I do first this morning?"),
    ("where did I go yesterday", "What did I do yesterday?"),  # the day told by its places first
    ("where have I been today", "What did I do today?"),
    ("what was my morning like", "How was my morning?"),
    ("how long is it since I had a coffee", "How long ago did I have a coffee?"),
    ("have you seen my glasses", "Where are my glasses?"),
    ("what have I done so far this morning", "What did I do this morning?"),
    ("what have I got done today", "What did I do today?"),
    ("yesterday morning, where did I go after the bank", "Where did I go after the bank yesterday morning?"),
])
def test_a_paraphrase_gets_its_canonical_plan(said, canonical):
    got, want = _plan(said), _plan(canonical)
    assert want is not None and got is not None and got[0] == want[0]
    assert [_stems(p) for p in got[1]] == [_stems(p) for p in want[1]]  # 'fed the cat' is 'feed the cat'


def _stems(phrase: str) -> list[str]:
    from egocli.core.lexicon import stem, words

    return [stem(w) for w in words(phrase.replace("sliced", "slice").replace("slicing", "slice"))]


def test_forms_no_pattern_reads_and_words_that_name_nothing():
    assert _plan("What did I do this afternoon?") == ("digest", ("",))
    assert _plan("summarize my morning") == ("digest", ("",))
    assert _plan("how much did I pay at the pharmacy?") == ("amount", ("the pharmacy",))
    assert _plan("What did Helen say at the stand-up?") == ("said", ("helen", "at the stand-up"))  # an occasion
    assert _plan("did I call anyone?") == ("exists", ("call",))  # 'anyone' is any call
    assert _plan("Where are my keys now?") == ("where", ("keys",))  # 'now' names nothing to look for
    assert _plan("What is the capital of France?") is None


def test_a_question_about_a_coming_day_has_no_past_window():
    scope = parse_scope("What's happening next Tuesday?", AT)
    assert scope.future and all(hi <= AT + 1 for _, hi in scope.windows)
    assert _plan("When am I seeing Anna?") == ("planned", ("seeing anna",))
    assert _plan("when am i next seeing the doctor") == ("planned", ("seeing the doctor",))
    assert parse_scope("when's the plumber coming", AT).future  # 'when's' is 'when is'
    assert not parse_scope("What did I do on Tuesday?", AT).future
    assert _plan("have i booked the taxi for tomorrow") == ("exists", ("booked the taxi",))  # its day: no words of it
    assert _plan("sunday: when did i use the blue inhaler") == ("last", ("use the blue inhaler",))  # the day first
    assert _plan("when did our leanne last text me") == ("last", ("message from leanne",))  # what the verb sends
    assert _plan("when was the first time dad phoned") == ("first", ("call from dad",))
    assert _plan("what did Sam text me about yesterday?") == ("said", ("message from sam", ""))
    assert _plan("wednesday - what time did i get back home")[0] == "last"


def test_tonight_asked_in_the_evening_is_this_evening_and_earlier_a_plan():
    evening = parse_time_ms("2026-11-28T21:30")
    assert _plan("what have I done tonight") == ("digest", ("",))
    assert parse_scope("what did I do tonight", evening).windows  # this evening so far
    assert not parse_scope("what did I do tonight", parse_time_ms("2026-11-28T10:00")).windows  # not yet come
    assert not parse_scope("did I get wine for tonight", evening).windows  # what the wine is for
    assert _plan("what have I done with my keys")[0] != "digest"  # a thing, not a span


def test_a_clock_with_afternoon_or_night_is_in_the_second_half_of_the_day():
    from egocli.core.timeutil import format_local

    assert format_local(parse_scope("Where was I at 3 o'clock yesterday afternoon?", AT).moments[0][0]) == \
        "2026-11-30 15:00:00"
    assert [format_local(lo) for lo, _ in parse_scope("where was i at about 8 last night", AT).moments] == \
        ["2026-11-30 20:00:00"]


def test_the_models_plan_is_checked_against_the_question():
    question = "Any chance you know when the tomatoes last got watered?"
    plan = understand.checked({"form": "last", "action": "tomatoes watered", "relation": "", "other": ""}, question)
    assert plan is not None and (plan.form, plan.action, plan.by) == ("last", "tomatoes watered", "model")
    made_up = {"form": "last", "action": "watered the basil", "relation": "", "other": ""}
    assert understand.checked(made_up, question) is None  # 'basil' is not the question's word
    assert understand.checked({"form": "open", "action": "", "relation": "", "other": ""}, question) is None
    assert understand.checked({"form": "last", "action": "", "relation": "", "other": ""}, question) is None
    assert understand.checked({"form": "nonsense", "action": "tomatoes", "relation": "", "other": ""}, question) is None


def test_the_model_parser_asks_under_the_plans_schema():
    reply = json.dumps({"form": "count", "action": "checked the post", "relation": "", "other": ""})
    model = ScriptedModel(reply)
    plan = understand.model_parser(model)("What's the tally of post checks, checked the post I mean?")
    assert plan is not None and plan.form == "count" and plan.by == "model"
    assert model.primed[-1] == model.prompts[-1][0]["content"] == understand.system_prompt()  # the cached turn
    schema = understand.schema()
    assert set(schema["properties"]["form"]["enum"]) == {f.name for f in forms.FORMS} | {understand.OPEN}
    assert "maxLength" not in json.dumps(schema)  # it made llama.cpp's grammar 10-20x slower


def _day(store: Store) -> None:
    rows = [("2026-12-01T07:10", "speech", "morning tablet, done"),
            ("2026-12-01T08:21", "visual", "arriving at the office, badge at the door"),
            ("2026-12-01T09:30", "speech", "Helen: the client wants the drawings by Friday"),
            ("2026-12-01T12:10", "visual", "Ashdown Pharmacy counter"),
            ("2026-12-01T12:14", "text", "receipt: total 9.90 GBP"),
            ("2026-12-01T13:30", "speech", "on Sunday I'm seeing Anna at the garden centre"),
            ("2026-12-01T14:00", "visual", "budget review in the meeting room"),
            ("2026-12-01T15:45", "visual", "walking in the park, ducks on the pond"),
            ("2026-12-01T17:20", "visual", "leaving the office"),
            ("2026-12-01T19:05", "visual", "dinner: pasta at the kitchen table")]
    src = store.add_source("import", "day")
    store.add_events([NewEvent(parse_time_ms(t), parse_time_ms(t) + 4000, m, c) for t, m, c in rows], src.id)


def _ask(store: Store, question: str) -> asker.Answer:
    req = asker.AskRequest(question, at_ms=AT, hcc=False, llm=False)
    return asker.answer(None, asker.assemble(store, req, None), req)


def test_new_forms_answer_from_the_store(tmp_path):
    store = Store.open(tmp_path / "log.db")
    _day(store)
    afternoon = _ask(store, "What did I do this afternoon?")
    cited = {c.content for c in afternoon.citations}
    assert {"budget review in the meeting room", "walking in the park, ducks on the pond"} <= cited
    assert not cited & {"morning tablet, done", "dinner: pasta at the kitchen table"}
    paid = _ask(store, "How much did I pay at the pharmacy?")
    assert paid.text.startswith("9.90 GBP") and paid.citations[0].content == "receipt: total 9.90 GBP"
    helen = _ask(store, "What did Helen say?")
    assert "drawings by Friday" in helen.text
    anna = _ask(store, "When am I seeing Anna?")
    assert "Sunday" in anna.text and anna.citations[0].content.startswith("on Sunday I'm seeing Anna")
    evening = _ask(store, "Did I take my evening tablet?")  # only the morning one today
    assert evening.text.startswith(("No", "Not")), evening.text
    store.close()


def test_answers_are_said_to_the_user():
    assert voice.when(parse_time_ms("2026-12-01T13:02"), AT) == "today at 13:02"
    assert voice.when(parse_time_ms("2026-11-30T12:30"), AT) == "yesterday at 12:30"
    assert voice.when(parse_time_ms("2026-11-24T09:05"), AT) == "on 24 Nov at 09:05"
    assert voice.past(voice.you("take my blood pressure tablet")) == "took your blood pressure tablet"
    assert voice.past("put the keys down") == "put the keys down"
    assert voice.sentence("receipt: total 12.40 euros..") == "Receipt: total 12.40 euros."


def test_bad_questions_get_a_clear_answer_or_error(tmp_path):
    from egocli.core.errors import UsageError

    store = Store.open(tmp_path / "log.db")
    _day(store)
    for bad in ("", "   ", "x" * 1_000_000, "what did I do yesterday tomorrow?"):
        with pytest.raises(UsageError):
            _ask(store, bad)
    for foreign in ("¿dónde están mis llaves?", "何をしましたか"):
        assert _ask(store, foreign).text == asker.NOTHING  # nothing guessed
    plans = _ask(store, "what am I doing on Sunday?")
    assert "Anna" in plans.text  # a question about the future only: the plan said aloud
    store.close()


@pytest.mark.parametrize("question, form, slots", [
    ("what did irene say she's booked", "said", ("irene", "booked")),
    ("what did the taxi cost", "amount", ("taxi",)),
    ("how long ago did brian ring", "ago", ("ring from brian",)),
    ("how many times did the doorbell go today", "count", ("doorbell go",)),
    ("how long ago was my blood test", "ago", ("blood test",)),
    ("how long were we at the hospital", "duration", ("at the hospital",)),  # 'we' asks what the wearer did
    ("did we go to the pub last night", "exists", ("go to the pub",)),
    ("wot time did kai get here", "guest", ("kai",)),  # words typed as said
    ("did the van pass its mot", "exists", ("the van pass its mot",)),  # someone else did it
    ("has the plumber been", "exists", ("the plumber come",)),  # someone who has been came
    ("did lorraine have her bedtime tablet", "exists", ("lorraine have her bedtime tablet",)),
    ("has hannah rung?", "exists", ("call from hannah",)),  # a call from her, 'me' unsaid
    ("has priya texted", "exists", ("texted from priya",)),
    ("did mum ring sam", "exists", ("mum ring sam",)),  # a call to someone else: no call from mum
    ("did i go to the garden centre before or after i picked the van up", "which",
     ("first", "go to the garden centre", "picked the van up")),
    ("did leanne ring before or after i went in the spar", "which", ("first", "call from leanne", "went in the spar")),
    ("what time did the boiler engineer turn up?", "guest", ("the boiler engineer", "arrive")),  # two words
    ("when did lisa turn up for ellie", "guest", ("lisa", "arrive")),
    ("when did sam get home from work", "guest", ("sam", "arrive")),
    ("what time did tasha come and get me", "guest", ("tasha", "arrive")),
    ("jo's phone call or kwame turning up - which came first", "which", ("first", "jo's phone call", "kwame turning up")),
    ("who texted me last night", "list", ("incoming messages",)),  # the kind the verb sends, as it came in
    ("who rang me", "list", ("incoming calls",)),
    ("who visited me", "guest", ()),
    ("how did the match end", "outcome", ("match",)),
    ("how long since i last had a drink", "ago", ("had a drink",)),
    ("how much do i owe the window cleaner", "owed", ("the window cleaner",)),  # a role of two words
    ("how many times did the phone ring", "count", ("get incoming phone calls",)),  # no call the wearer made
    ("when did i turn up at work", "last", ("arrive at work",)),
    ("what time did i make it home last night", "last", ("arrive home",)),
    ("what time did i walk in the door", "last", ("arrive home",)),
    ("what time was i home by", "last", ("arrive home",)),
    ("what time did i pitch up at the surgery", "last", ("arrive at the surgery",)),
    ("what time did i get away from the office", "last", ("leave the office",)),
    ("what time did i come away from the hospital", "last", ("leave the hospital",)),
    ("what time did we get off to the hospital this morning", "last", ("set off to the hospital",)),
    ("what time did i pack up and leave the allotment", "last", ("leave the allotment",)),
    ("my blood pressure tablet, when did i last have one", "last", ("have my blood pressure tablet",)),
    ("the bank this morning, what time did i get there", "last", ("arrive at the bank",)),
    ("what time was i last talking to dev", "last", ("talking to dev",)),
    ("what time did that plumber get here in the end", "guest", ("the plumber", "arrive")),
    ("how many texts have i had off hannah pike", "count", ("texts from hannah pike",)),
    ("when did our leanne last text me", "last", ("message from leanne",)),
    ("how long was i stood on the market", "duration", ("on the market",)),
    ("how long was i at the allotment all told", "duration", ("at the allotment",)),
    ("biscuit's walk this afternoon, how long were we out", "duration", ("out for biscuit's walk",)),
    ("what was i up to this morning", "digest", ()),
    ("this morning, before brian rang, what was i busy with", "next", ("before", "brian rang")),
    ("Mum rang last night - what was I in the middle of just before that?", "next", ("before", "mum rang")),
    ("Aga went home - what did I do after she'd gone?", "next", ("after", "aga went home")),
    ("once kyle had packed up and gone, what did i get on with", "next", ("after", "kyle had packed up and gone")),
    ("when we come out of chapel, where did i go", "next", ("after", "come out of chapel")),
    ("what did we do when we got back from the infirmary", "next", ("after", "arrive back from the infirmary")),
    ("stan went home and then what did i do", "next", ("after", "stan went home")),
    ("after i'd seen the nurse, where next", "next", ("after", "seen the nurse")),
    ("when i got in from the doctor's, what did i do first", "next", ("after", "arrive in from the doctor's")),
    ("how long was i stuck on the phone to octopus", "duration", ("call with octopus",)),  # either way
])

def test_everyday_wordings_read_their_plan(question, form, slots):
    plan = understand.by_rules(question)
    assert plan is not None and plan.form == form and forms.phrases(plan)[:len(slots)] == slots


@pytest.mark.parametrize("said, digits", [
    ("twelve pounds forty-five", "£12.45"), ("a hundred pounds", "£100"), ("twenty-six pounds eighty", "£26.80"),
    ("five euros", "€5"), ("9.90 GBP", "9.90 GBP"), ("ninety-nine pence", "ninety-nine pence"),
])
def test_an_amount_said_in_words_is_given_in_digits(said, digits):
    from egocli.reasoning.digest import in_digits

    assert in_digits(said) == digits


def test_british_and_american_words_are_one_term():
    from egocli.reasoning import terms

    assert terms.terms("the tire place") == ["tyre", "plac"] and terms.terms("Tyre Depot") == ["tyre", "depot"]
    assert terms.terms("drugstore") == terms.terms("chemist") == ["pharmacy"]
    assert terms.terms("phoning the plumber")[0] == terms.terms("phone call")[0]  # a verb keeps its class's stem


def _drill_day(store: Store) -> None:
    rows = [("2026-12-01T10:00", "visual", "garage, using the drill on the shelf bracket"),
            ("2026-12-01T16:10", "visual", "phone screen: incoming call from Maria"),
            ("2026-12-01T16:11", "speech", "Maria: sorry I missed you, ringing back about the fence")]
    src = store.add_source("import", "drill day")
    store.add_events([NewEvent(parse_time_ms(t), parse_time_ms(t) + 4000, m, c) for t, m, c in rows], src.id)


def _model_plan(**slots: str) -> ScriptedModel:
    return ScriptedModel(json.dumps({"form": "", "who": "", "action": "", "relation": "", "other": "", **slots}))


def test_the_rules_honest_nothing_stands_and_the_model_plans_what_they_cannot_read(tmp_path):
    """A rules' plan that found nothing is not replaced by the model's reading of the question (on the dev sets that
    turned honest 'not that I can see' answers into wrong ones); a question the rules read no plan for is."""
    from egocli.reasoning import neuro

    store = Store.open(tmp_path / "log.db")
    _drill_day(store)
    question = "when did I last get the drill out of the shed?"
    scope = parse_scope(question, AT)
    rules = neuro.check(store, scope, question, (), None)
    assert rules is not None and rules.plan.by == "rules" and not rules.finding.answered  # no shed in the log
    kept = neuro.check(store, scope, question, (), None, understand.model_parser(_model_plan(form="last",
                                                                                            action="drill")))
    assert kept.plan.by == "rules" and kept.finding.text == rules.finding.text
    unread = "the drill, when was it last out"
    assert understand.by_rules(unread) is None
    scope = parse_scope(unread, AT)
    taken = neuro.check(store, scope, unread, (), None, understand.model_parser(_model_plan(form="last",
                                                                                           action="drill")))
    assert taken is not None and taken.plan.by == "model" and taken.finding.answered
    assert taken.finding.events[0].content == "garage, using the drill on the shelf bracket"
    store.close()


def test_who_did_it_joins_the_models_action(tmp_path):
    question = "Has Maria rung back?"
    plan = understand.checked({"form": "exists", "who": "Maria", "action": "rung back", "relation": "",
                               "other": ""}, question)
    assert plan is not None and plan.action == "Maria rung back"
    asker_is_who = understand.checked({"form": "exists", "who": "I", "action": "rung back", "relation": "",
                                       "other": ""}, question)
    assert asker_is_who is not None and asker_is_who.action == "rung back"
    scope = parse_scope("how many texts did Lisa send me this weekend", AT)
    folded = understand.folded(forms.QuestionPlan("count", "send me texts", "Lisa", "", "model"), scope)
    assert (folded.action.lower(), folded.other) == ("lisa send me texts", "")
    timed = understand.folded(forms.QuestionPlan("count", "send me texts", "this weekend", "", "model"), scope)
    assert (timed.action, timed.other) == ("send me texts", "")
    order = forms.QuestionPlan("order", "a", "b", "before", "model")
    assert understand.folded(order, scope) == order  # a form that reads `other` keeps it


@pytest.mark.parametrize("text, amount", [
    ("Dean: Three hundred and twelve pounds forty all in, with the MOT.", "£312.40"),
    ("Co-op — Mushrooms £1.45, Double cream £1.60 — TOTAL £15.35", "£15.35"),
    ("paying four pounds fifty by card", "£4.50"),
])
def test_the_amount_of_a_line_is_its_total_and_hundreds_said_with_and_count(text, amount):
    from egocli.reasoning.digest import _money, in_digits

    assert in_digits(_money(text)) == amount


def test_a_price_asked_of_a_thing_named_more_loosely_is_found_where_a_price_is_said(tmp_path):
    """'the electric bill' is the Octopus bill where an amount is said; 'how much did Niamh send me' asks about
    something done, not a thing's price, and is not read as one."""
    from egocli.core.timeutil import parse_time_ms

    from .conftest import day_log, said

    store = day_log(tmp_path / "bill.db", [
        ("2027-01-15T18:24", "text", "letter — Octopus Energy — Your bill 14 Oct 2026 – 13 Jan 2027 — Total £186.60"),
        ("2027-01-15T20:40", "text", "Deliveroo on Niamh's phone — Golden Dragon — Total £27.60"),
    ])
    at = parse_time_ms("2027-01-15T22:00")
    assert said(store, "how much is the electric bill", at).startswith("£186.60: today at 18:24")
    assert not said(store, "how much did niamh send me, and why wasn't it the full amount", at).startswith("£")


@pytest.mark.parametrize("question, action", [
    ("how often did the phone ring this morning", "get incoming phone calls"),
    ("how many times did callum text me", "messages from callum"),
    ("how many times has kelly rung", "phone calls from kelly"),
    ("how many calls did i get from mum", "calls from mum"),
    ("how many people rang me today", "get incoming phone calls"),
    ("how many phone calls have come in for me", "get incoming phone calls"),
    ("how many people texted me", "get messages"),
    ("Dean, how many texts did he send me", "texts from dean"),  # the person said first
    ("how many phone calls did i have today", "have phone calls"),  # both ways, not only those that came in
])
def test_counts_of_calls_and_texts_said_other_ways(question, action):
    plan = understand.by_rules(question)
    assert plan is not None and (plan.form, plan.action) == ("count", action)


@pytest.mark.parametrize("question, form, action", [
    ("when did I last hear from shanice", "last", "message from shanice"),
    ("when did Sophie last get in touch", "last", "message from sophie"),  # no arrival 'in touch'
    ("has Dean been in touch", "exists", "message from dean"),
])
def test_hearing_from_someone_is_their_messages(question, form, action):
    plan = understand.by_rules(question)
    assert plan is not None and (plan.form, plan.action) == (form, action)
