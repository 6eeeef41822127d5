"""'What did I do after X?' names the next thing done, not what the camera keeps reading (a network's name
seen all day), while an act done again and again stays an act (a kitchen's 'stir the pan'), on a real store."""

from __future__ import annotations

from egocli.core.timeutil import parse_time_ms

from .conftest import day_log, said

AT = parse_time_ms("2026-12-05T22:00")
WIFI = [(f"2026-12-05T{h:02d}:{m:02d}", "text", "Wi-Fi: HomeNet_5G") for h, m in
        [(7, 5), (9, 40), (12, 10), (15, 30), (18, 31), (20, 45)]]
DAY = sorted([
    *WIFI,
    ("2026-12-05T18:30", "speech", "hello, is that Swift Locks? my back door key snapped in the lock"),
    ("2026-12-05T18:40", "visual", "kitchen, chopping onions for a curry"),
    ("2026-12-05T19:00", "text", "stir the pan"),
    ("2026-12-05T19:05", "text", "stir the pan"),
    ("2026-12-05T19:10", "text", "stir the pan"),
    ("2026-12-05T19:12", "text", "switch off the hob"),
])


def test_after_an_act_comes_the_next_act_not_the_scenery(tmp_path):
    store = day_log(tmp_path / "log.db", DAY)
    answer = said(store, "What did I do after I rang Swift Locks?", AT)
    assert "chopping onions" in answer and "HomeNet" not in answer


def test_an_act_said_again_and_again_is_still_an_act(tmp_path):
    store = day_log(tmp_path / "log.db", DAY)
    answer = said(store, "What did I do before I switched off the hob?", AT)
    assert "stir the pan" in answer


VISITS = [
    ("2026-12-05T09:30", "visual", "kitchen, writing FOOT CLINIC 10 on the calendar"),  # a mention, not being there
    ("2026-12-05T09:55", "text", "sign — Riverside Foot Clinic — podiatry"),
    ("2026-12-05T10:05", "visual", "a treatment room, the podiatrist trimming a toenail"),
    ("2026-12-05T10:31", "visual", "walking out of the clinic door onto the high street"),
    ("2026-12-05T10:33", "visual", "a pigeon on the pavement by a bin"),
    ("2026-12-05T10:40", "text", "sign — Blue Door Bakery — fresh bread daily"),
    ("2026-12-05T10:42", "speech", "a cheese scone and a tea, please"),
    ("2026-12-05T11:20", "text", "sign — Hollins Hardware"),
]


def test_after_a_visit_comes_the_next_place_not_the_next_frame(tmp_path):
    store = day_log(tmp_path / "log.db", VISITS)
    answer = said(store, "What did I do straight after the foot clinic?", AT)
    assert answer.startswith("After") and "Blue Door Bakery" in answer and "pigeon" not in answer
    assert answer.index("Blue Door Bakery") < answer.index("Hollins")  # the next place first, then the one after


def test_just_before_someone_came_or_rang_is_from_when_they_came_not_their_words(tmp_path):
    """The door their visit opens with, or their call's first line, is the moment; what the wearer was doing is
    their own last doing before it (a note, a frame of doing), not scenery, a sound heard nor the visitor's words."""
    store = day_log(tmp_path / "before.db", [
        ("2027-03-04T13:04", "visual", "leaning into the driver's footwell of the van, a cash bag under the seat"),
        ("2027-03-04T13:06", "note", "float bag found under driver's seat of van"),
        ("2027-03-04T13:07", "visual", "a car up on a lift with its wheels off"),
        ("2027-03-04T13:12", "speech", "(radio) a pop song crackling out of a radio"),
        ("2027-03-04T13:21", "visual", "the phone buzzing in the jacket pocket, LEANNE on the screen"),
        ("2027-03-04T13:21:30", "speech", "Leanne: Dad, it's me. Change of plan again, sorry."),
        ("2027-03-04T17:00", "visual", "kitchen, chopping onions for a curry"),
        ("2027-03-04T17:16", "visual", "a draught stirring the slats of a blind"),
        ("2027-03-04T17:18", "visual", "the flat door, a broad man in a red scarf holding a four-pack"),
        ("2027-03-04T17:18:30", "speech", "Kwame: Alright! Marcus says you're the enemy tonight."),
        ("2027-03-04T19:24", "text", "TV score - FULL-TIME - MAN UTD 1-2 ASTON VILLA"),
        ("2027-03-04T19:25", "speech", "Kwame: Fair play. You were the better side."),
    ])
    at = parse_time_ms("2027-03-04T21:00")
    assert said(store, "what was i doing just before leanne rang", at).startswith("Today at 13:06: float bag")
    assert said(store, "what was i doing just before kwame came", at).startswith("Today at 17:00: kitchen, chopping")


def test_just_before_a_call_from_a_firm_leaving_home_or_breakfast_is_the_last_act_before_it(tmp_path):
    """A caller of two words ('Hillside Motors rang') is the call's moment; leaving the house is the last move out of
    home, breakfast the first line of its sitting; what was done before is the last act seen or noted, not the
    wearer's chatter ('come on, come on')."""
    store = day_log(tmp_path / "moments.db", [
        ("2026-12-14T06:52", "note", "levothyroxine 50mcg 06:52"),
        ("2026-12-14T07:20", "visual", "kitchen table, a bowl of porridge with sliced banana and a mug of black coffee"),
        ("2026-12-14T07:50", "visual", "hallway, lacing up brown leather work boots, a tool bag by the front door"),
        ("2026-12-14T08:12", "visual", "Weir Street, frost on the pavement, walking towards the bus shelter"),
        ("2026-12-14T10:41", "visual", "cutting back dead brown stems in the long flower border"),
        ("2026-12-14T10:44", "speech", "come on, come on"),
        ("2026-12-14T11:10", "visual", "phone screen: incoming call — Hillside Motors"),
    ])
    at = parse_time_ms("2026-12-14T20:00")
    assert said(store, "what was I doing just before Hillside Motors rang", at).startswith("Today at 10:41: cutting")
    assert said(store, "what did I do before breakfast", at).startswith("Today at 06:52: levothyroxine")
    assert said(store, "what was I doing before I left the house", at).startswith("Today at 07:50: hallway, lacing")
    store.close()


def test_a_line_read_just_before_a_call_is_what_was_being_done(tmp_path):
    """Reading is doing: the headline read at the kitchen table is what the wearer was at when Jan rang, not the
    front door come in through before it."""
    store = day_log(tmp_path / "reading.db", [
        ("2027-10-23T09:49", "visual", "the green door of number 9, a key turned in the lock, the door pushed open"),
        ("2027-10-23T09:55", "visual", "a newspaper spread on a kitchen table, a mug of tea, a pair of reading glasses"),
        ("2027-10-23T09:56", "text", "newspaper headline \u2014 COUNCIL TAX TO RISE 4.9% \u2014 Bus fares frozen"),
        ("2027-10-23T10:02", "visual", "a mobile phone buzzing on the kitchen table, its screen lit"),
        ("2027-10-23T10:02:20", "text", "phone \u2014 incoming call \u2014 Jan"),
        ("2027-10-23T10:02:40", "speech", "Hello, love."),
        ("2027-10-23T10:03", "speech", "Jan: Hiya Dad, just checking in."),
    ])
    text = said(store, "what was i doing just before jan rang yesterday", parse_time_ms("2027-10-24T12:00"))
    assert text.startswith("Yesterday at 09:56: newspaper headline"), text
    store.close()


def test_before_going_to_a_place_no_other_place_named_is_the_leaving_seen(tmp_path):
    """A stay whose end is not seen still has a beginning: before it, with no other place named, the last leaving
    seen says where one was ('driving out of the market square'), not a screen read in its waiting room."""
    store = day_log(tmp_path / "surgery.db", [
        ("2027-03-04T14:02", "visual", "loading crates of leftover cauliflowers into the side door of the white van"),
        ("2027-03-04T14:38", "visual", "the driver's door of the van open, pushing the blue cash bag under the seat"),
        ("2027-03-04T14:47", "visual", "driving out of the market square, wipers going"),
        ("2027-03-04T15:02", "visual", "pulling into a small car park beside a low brick building"),
        ("2027-03-04T15:02:30", "text", "sign \u2014 Millbrook Surgery \u2014 Dr A Mistry \u2014 Practice Nurse Clinics"),
        ("2027-03-04T15:21", "text", "waiting room screen \u2014 CLIVE BANNISTER \u2014 Nurse Room 3"),
        ("2027-03-04T15:34:40", "text", "appointment card \u2014 Millbrook Surgery \u2014 Diabetes review \u2014 09:10"),
    ])
    text = said(store, "what did i do just before i went to the surgery", parse_time_ms("2027-03-04T18:00"))
    assert "14:47" in text and "market square" in text, text
    store.close()


def test_after_seeing_someone_is_after_the_stay_where_they_were_seen(tmp_path):
    """'After seeing the GP', 'after I saw Dr Okafor': the verb of seeing names no act to find; the stay with them
    does, and the place gone to after it answers, not the morning's note of the appointment."""
    store = day_log(tmp_path / "gp.db", [
        ("2026-11-24T07:37", "note", "GP Dr Okafor today 17:40, Riverside Surgery"),
        ("2026-11-24T07:47", "visual", "window view of wet rooftops and a chimney"),
        ("2026-11-24T17:30", "text", "sign \u2014 Riverside Surgery \u2014 GP Practice"),
        ("2026-11-24T17:40", "speech", "Dr Okafor: Come in. How's the chest been?"),
        ("2026-11-24T17:44", "visual", "the GP's room, Dr Okafor printing a green prescription"),
        ("2026-11-24T17:55", "visual", "walking out of Riverside Surgery into the rain"),
        ("2026-11-24T18:14", "visual", "handing the green prescription over the pharmacy counter"),
    ])
    at = parse_time_ms("2026-11-24T22:00")
    for question in ("where did I go after seeing the GP?", "After I saw Dr Okafor, where did I go?"):
        assert "pharmacy" in said(store, question, at), question
    store.close()


def test_the_moment_said_first_or_in_everyday_idiom_is_someones_coming_going_or_getting_home(tmp_path):
    """'Stan knocked tonight, what was I up to right before he came', 'once Kyle had packed up and gone, what did I
    get on with', 'what did I do when I got back with the shopping': the moment is the visitor's door, their going,
    or getting home, and the answer the wearer's own doing next to it (getting ready to go out is part of leaving;
    a meal seen is eating; eyes closing is the wearer's)."""
    store = day_log(tmp_path / "moments.db", [
        ("2027-01-07T07:18", "visual", "kitchen table, a bowl of muesli and a mug of coffee"),
        ("2027-01-07T07:36", "visual", "hallway, putting on a green parka, laptop bag over the shoulder"),
        ("2027-01-07T07:38", "visual", "locking the front door of 14 Ashdown Road, putting the house keys in the coat pocket"),
        ("2027-01-07T07:45", "visual", "walking along Ashdown Road in the rain"),
        ("2027-01-07T11:05", "visual", "walking home along Market Street with a shopping bag"),
        ("2027-01-07T11:22", "visual", "letting myself in, the shopping bag on the kitchen floor"),
        ("2027-01-07T11:26", "visual", "unpacking the shopping onto the kitchen counter"),
        ("2027-01-07T11:28", "visual", "putting the pharmacy bag with the atorvastatin box in the bathroom cabinet"),
        ("2027-01-07T14:15", "visual", "armchair by the window, the radio murmuring, eyes closing"),
        ("2027-01-07T14:34", "visual", "a radiator under the window, its paint chipped at one corner"),
        ("2027-01-07T14:44", "visual", "the flat door, an old man in a flat cap knocking, a parcel under his arm"),
        ("2027-01-07T14:44:30", "speech", "Stan: Afternoon, Frank. A parcel came for you."),
        ("2027-01-07T15:10", "speech", "Stan: Right, I'll leave you to it."),
        ("2027-01-07T15:11", "visual", "the old man in the flat cap going out of the front door"),
        ("2027-01-07T15:30", "visual", "kitchen table, cutting the tape on the parcel with scissors"),
    ])
    at = parse_time_ms("2027-01-07T21:00")
    assert "eyes closing" in said(store, "stan knocked today, what was i up to right before he came", at)
    assert "cutting the tape" in said(store, "once stan had gone, what did i get on with", at)
    assert "cutting the tape" in said(store, "Stan went home - what did I do after he'd gone?", at)
    got_back = said(store, "What did I do when I got back with the shopping", at)
    assert "unpacking the shopping" in got_back and "pharmacy" not in got_back.partition("(after")[2]
    assert "muesli" in said(store, "what was I doing right before I left the house this morning?", at)


def test_a_call_said_any_way_is_its_moment_and_a_scene_or_someone_else_is_no_doing(tmp_path):
    """'Dean rang about the van', 'after I'd rung the tyre place': the call's first line (the wearer's own by whom
    it named); a frame described in the same words twice that day is a scene, and a frame of someone else (the
    tall man holding up a key) is theirs, not the wearer's doing."""
    store = day_log(tmp_path / "calls.db", [
        ("2027-01-15T08:54", "visual", "a rug with a fringe, one corner flipped over"),
        ("2027-01-15T10:30", "visual", "cutting back dead brown stems in the long flower border"),
        ("2027-01-15T10:38", "visual", "a rug with a fringe, one corner flipped over"),
        ("2027-01-15T10:41", "visual", "the fridge door open, the tall man with dreadlocks holding up a brass key, eyebrows raised"),
        ("2027-01-15T10:44", "visual", "phone screen: incoming call — Dean"),
        ("2027-01-15T10:44:30", "speech", "Dean: the van's ready, you can pick it up after two"),
        ("2027-01-15T14:05", "visual", "phone, calling Tyre Depot on Mill Road"),
        ("2027-01-15T14:06", "speech", "Tyre Depot: bring it in before half four"),
        ("2027-01-15T14:30", "visual", "the screws aisle, counting boxes of wood screws for the stock check"),
    ])
    at = parse_time_ms("2027-01-15T18:00")
    assert "cutting back" in said(store, "what was i doing just before dean rang about the van", at)
    assert "counting boxes" in said(store, "what did i crack on with after i'd rung the tyre place", at)
