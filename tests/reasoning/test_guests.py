"""Someone else's visit (guests.py): when they came, when they left, how long they stayed, on a real store; a
phone call with them is no visit, but a visitor the camera cannot name is one when the transcript hears them."""

from __future__ import annotations

import pytest

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning import guests, understand

from .conftest import day_log, said

AT = parse_time_ms("2026-12-04T22:00")
DAY = [
    ("2026-12-04T09:20", "visual", "phone screen lighting up: incoming call from Brian"),
    ("2026-12-04T09:21", "speech", "Brian: can we move our lunch to Friday?"),
    ("2026-12-04T15:30", "visual", "school gate, Alfie running out with his bag"),
    ("2026-12-04T16:10", "visual", "Susan at the door in her work coat"),
    ("2026-12-04T16:40", "visual", "Susan and Alfie leaving, Alfie waving from the back seat"),
    ("2026-12-04T17:50", "visual", "kitchen, starting dinner for Irene, chopping onions"),
    ("2026-12-04T19:00", "visual", "doorbell ringing, Irene at the door with a bunch of flowers"),
    ("2026-12-04T19:01", "speech", "Irene: these are for you"),
    ("2026-12-04T20:15", "visual", "living room, lemon tart and coffee with Irene"),
    ("2026-12-04T21:15", "visual", "Irene in the hallway putting on her coat to leave"),
    ("2026-12-04T21:16", "speech", "Irene: thank you, that was lovely"),
]


@pytest.fixture()
def store(tmp_path):
    return day_log(tmp_path / "log.db", DAY)


@pytest.mark.parametrize("question, relation, who", [
    ("What time did Irene turn up?", "arrive", "irene"),
    ("when did susan and alfie go home", "leave", "susan and alfie"),
    ("How long did Irene stay?", "stay", "irene"),
    ("how long did the plumber stay", "stay", "the plumber"),
    ("How long was the plumber here?", "stay", "the plumber"),
    ("how long was kai here for", "stay", "kai"),
    ("Can you tell me how long the plumber was here?", "stay", "the plumber"),
    ("When did Leanne take Kai home?", "leave", "kai"),  # the one taken home is the one who left
])
def test_a_question_about_someone_elses_visit_is_read_as_one(question, relation, who):
    plan = understand.by_rules(question)
    assert plan is not None and (plan.form, plan.relation, plan.action) == ("guest", relation, who)


@pytest.mark.parametrize("question", ["When did I leave?", "how long was the meeting", "what time did it start",
                                      "how long was I here"])
def test_questions_about_oneself_or_things_are_no_visits(question):
    plan = understand.by_rules(question)
    assert plan is None or plan.form != "guest"


def test_a_visit_runs_from_the_doorbell_to_the_goodbye(store):
    assert said(store, "What time did Irene turn up?", AT).startswith("Irene came today at 19:00")
    stayed = said(store, "How long did Irene stay?", AT)
    assert stayed.startswith("Irene stayed 2 h 15 min") and "19:00" in stayed and "21:15" in stayed


def test_two_people_leave_together(store):
    assert said(store, "what time did susan and alfie go home", AT).startswith("Susan and Alfie left today at 16:40")


def test_a_phone_call_is_no_visit(store):
    answer = said(store, "How long did Brian stay?", AT)
    assert answer.startswith("Not that I can see") and "stayed" not in answer


def test_people_are_read_from_a_phrase():
    assert guests.people("Susan and Alfie") == ["susan", "alfie"]
    assert guests.people("the plumber") == ["plumber"]


UNNAMED = [
    ("2027-01-06T08:31:00", "visual", "front door of the flat, a woman in a lilac tunic on the step"),
    ("2027-01-06T08:31:30", "speech", "Joy: Morning, Frank, only me! The ring road was solid."),
    ("2027-01-06T08:40:00", "visual", "kitchen, the carer filling the kettle"),
    ("2027-01-06T09:07:00", "speech", "Joy: I've done you a cheese sandwich for later."),
    ("2027-01-06T09:16:00", "visual", "the carer going out of the front door in a purple coat"),
    ("2027-01-06T12:05:00", "visual", "a mobile phone buzzing on the cafe table, a photo of a woman on the screen"),
    ("2027-01-06T12:05:20", "speech", "Karen: Hiya Dad, it's me. How did it go at the clinic?"),
    ("2027-01-06T12:07:00", "speech", "Karen: I'll come up on Saturday."),
]


@pytest.fixture()
def unnamed(tmp_path):
    return day_log(tmp_path / "unnamed.db", UNNAMED)


def test_a_visitor_the_camera_cannot_name_is_heard_in_the_room(unnamed):
    """Their words name them; the door seen just before is their arrival, the door seen just after their going
    ('the ring road' in their own words is no call); no frame names them, so it is said as a reading."""
    at = parse_time_ms("2027-01-06T20:00")
    assert said(unnamed, "when did joy get here", at).startswith("It seems Joy came today at 08:31")
    assert said(unnamed, "what time did joy go", at).startswith("It seems Joy left today at 09:16")


def test_words_after_a_phone_buzzing_are_a_call_not_a_visit(unnamed):
    answer = said(unnamed, "when did karen come round", parse_time_ms("2027-01-06T20:00"))
    assert answer.startswith("Not that I can see")


def test_a_guest_quiet_through_a_match_or_asleep_on_the_sofa_is_still_here(tmp_path):
    """Mentions hours apart are one visit when no one is seen leaving or coming in between; 'left' as a side
    ('head turning left and right') is no departure."""
    store = day_log(tmp_path / "stay.db", [
        ("2027-01-15T21:12", "visual", "the flat door again, a young woman with a pink wheelie case"),
        ("2027-01-15T21:12:30", "speech", "Orla: Hiya, Priya! I'm the sofa surfer."),
        ("2027-01-16T11:33", "speech", "Orla: Thanks for having me, Priya."),
        ("2027-01-16T11:36", "visual", "the flat door closing behind the two freckled women"),
        ("2027-01-16T17:18", "visual", "the flat door, a broad man in a red scarf holding a four-pack of lager"),
        ("2027-01-16T17:18:30", "speech", "Kwame: Alright, Priya! Marcus says you're the enemy tonight."),
        ("2027-01-16T19:25", "speech", "Kwame: Fair play. You were the better side."),
        ("2027-01-16T20:41:30", "speech", "Kwame: Cheers for tea, Priya."),
        ("2027-01-16T20:42", "visual", "the flat door closing behind the man in the red scarf"),
        ("2027-01-16T21:20", "visual", "sitting on the edge of the bed, head turning left and right"),
    ])
    at = parse_time_ms("2027-01-16T22:00")
    assert said(store, "when did kwame get here", at).startswith("It seems Kwame came today at 17:18")
    assert said(store, "what time did kwame go home", at).startswith("It seems Kwame left today at 20:42")
    assert said(store, "how long was kwame round", at).startswith("It seems Kwame stayed 3 h 24 min, from today at 17:18")
    assert said(store, "how long did orla stay", at).startswith("It seems Orla stayed 14 h 24 min, from yesterday at 21:12")


def test_who_came_round_lists_the_doors_and_who_was_at_them(store):
    """Each door seen with who was there, by a name that speaks in the log or the first words after it; the
    wearer's own door ('closing the front door') and people already heard that day are no visitors."""
    listed = said(store, "who's been round today", AT)
    assert listed.startswith("At the door: today at 16:10: Susan at the door") and "Irene, today at 19:00" in listed
    assert "Brian" not in listed  # a phone call
    early = parse_time_ms("2026-12-04T18:00")
    assert "Irene" not in said(store, "who came round today", early)


@pytest.mark.parametrize("question", ["how many people came to the door today", "How many visitors did I have today?",
                                      "how many people have been round today"])
def test_how_many_people_came_counts_the_doors_with_someone_at_them(store, question):
    plan = understand.by_rules(question)
    assert plan is not None and (plan.form, plan.relation) == ("guest", "count")
    counted = said(store, question, AT)
    assert counted.startswith("2 people at the door: today at 16:10: Susan") and "Brian" not in counted


def test_a_door_with_no_one_at_it_or_someone_elses_door_is_no_visitor(tmp_path):
    """The empty hook by the front door and Dean speaking after it are no caller; the wearer at Mum's bungalow, its
    door opened by her, is the wearer's visit, not hers; a door opened to a driver is one."""
    store = day_log(tmp_path / "doors.db", [
        ("2028-01-14T10:01", "visual", "the empty hook by the front door"),
        ("2028-01-14T10:01:30", "speech", "Dean: Have you looked in your coat?"),
        ("2028-01-14T13:20", "visual", "a bungalow with a ramp up to the front door and net curtains, a small woman waving"),
        ("2028-01-14T13:21", "visual", "the front door opened by a tiny white-haired woman in a lilac cardigan"),
        ("2028-01-14T13:21:30", "speech", "Pat: Come in, love, come in."),
        ("2028-01-14T18:56", "visual", "the front door opened to a delivery driver in a motorbike helmet holding a bag"),
        ("2028-01-14T18:56:20", "speech", "Driver: Jasmine Garden? Enjoy."),
    ])
    counted = said(store, "how many people came to the door today", parse_time_ms("2028-01-14T20:00"))
    assert counted.startswith("1 person at the door: Driver, today at 18:56"), counted


@pytest.mark.parametrize("question", ["has irene been", "did irene come round today", "has Irene been over?"])
def test_whether_someone_came_is_their_visit_seen(store, question):
    answer = said(store, question, AT)
    assert answer.startswith("Yes") and "19:00" in answer, answer


def test_talk_of_someone_coming_is_not_their_coming(tmp_path):
    store = day_log(tmp_path / "taxi.db", [
        ("2027-03-04T08:37", "speech", "I'll look later, the taxi's coming."),
        ("2027-03-04T09:10", "speech", "Lorraine: is that taxi here yet?"),
        ("2027-03-04T09:38", "visual", "through the front window, a black taxi pulling up outside"),
        ("2027-03-04T09:40", "visual", "the taxi driver lowering the ramp for the wheelchair"),
    ])
    answer = said(store, "when did the taxi turn up", parse_time_ms("2027-03-04T12:00"))
    assert answer.startswith("The taxi came today at 09:38"), answer


ENGINEER = [
    ("2026-12-03T15:06", "text", "Warmhome Heating: Reminder - your engineer Kyle will visit Fri 4 Dec between 16:00 "
                                 "and 18:00 for your annual boiler service."),
    ("2026-12-04T17:03", "visual", "front door, a young man in a grey fleece on the step with a toolbox"),
    ("2026-12-04T17:04", "speech", "Kyle: Hiya, Kyle from Warmhome, here for the boiler service."),
    ("2026-12-04T17:41", "speech", "Kyle: All done, it's passed."),
    ("2026-12-04T17:48", "visual", "the young man in the grey fleece going out the front door with his toolbox"),
]


def test_a_visitor_called_by_their_job_is_the_one_the_log_names_for_it(tmp_path):
    """'The boiler engineer' is Kyle: the reminder says 'your engineer Kyle'; he came at the door before his words."""
    answer = said(day_log(tmp_path / "k.db", ENGINEER), "What time did the boiler engineer turn up?", AT)
    assert "17:03" in answer and "Kyle" in answer, answer


def test_a_visitor_unnamed_going_out_the_front_door_is_their_leaving(tmp_path):
    answer = said(day_log(tmp_path / "k.db", ENGINEER), "when did kyle go", AT)
    assert "17:48" in answer, answer


def test_a_visitor_is_seen_leaving_by_how_they_looked_coming_in(tmp_path):
    """Named while here, seen going by their looks over an hour after their last mention; someone else at the door
    meanwhile who shares one word of it is not them, and one moment of a visit is no length."""
    store = day_log(tmp_path / "looks.db", [
        ("2027-03-04T16:31", "visual", "the front door, a small boy in a red school jumper with a book bag"),
        ("2027-03-04T16:31:30", "speech", "Kai: Grandad! I got my swimming badge!"),
        ("2027-03-04T18:12", "speech", "Kai, that's your trip money in your book bag."),
        ("2027-03-04T18:40", "visual", "the front door closing behind a boy from next door in a blue coat"),
        ("2027-03-04T19:13", "visual", "the front door closing behind the woman in the green fleece and the boy with "
                                       "the book bag"),
        ("2027-03-05T09:36", "visual", "paying the plumber eighty-five pounds by card on his reader"),
    ])
    stayed = said(store, "how long was kai here for", parse_time_ms("2027-03-04T21:00"))
    assert stayed.startswith("It seems Kai stayed 2 h 42 min") and "19:13" in stayed  # no frame names him
    once = said(store, "How long did the plumber stay?", parse_time_ms("2027-03-05T21:00"))
    assert "0 s" not in once and once.startswith("I can't tell how long")


def test_a_persons_name_is_read_from_the_lines_that_say_their_role(tmp_path):
    """'What's my physio called?': the name said in a clause with the role (a clock's '8.15' ends no clause), not
    the place's name on its sign nor a surgery's name beside the doctor's."""
    store = day_log(tmp_path / "roles.db", [
        ("2027-01-15T12:01", "text", "sign - Chorlton Physio & Sports Injury Clinic - 212 Barlow Moor Road"),
        ("2027-01-15T12:41", "note", "physio next Thu 28 Jan 8.15 with Gemma - X exercise 10 each way"),
        ("2027-01-15T14:47", "note", "GP Dr Anand blood pressure review Tuesday 12 January 10am Park Lane Surgery"),
        ("2027-01-15T15:44", "note", "GP moved - Tuesday 12th 11.20 not 10 - Dr Anand"),
    ])
    at = parse_time_ms("2027-01-15T21:00")
    assert said(store, "what's my physio called", at).startswith("Gemma: ")
    assert said(store, "who's my gp", at).startswith("Anand: ")
    assert not said(store, "what's my dentist called", at).startswith(("Gemma", "Anand"))  # no dentist named


def test_who_one_saw_at_a_place_is_who_was_heard_there(tmp_path):
    """The people heard through the latest visit, in the order they first spoke; not those heard at home after."""
    store = day_log(tmp_path / "clinic.db", [
        ("2027-01-06T10:04", "text", "sign - Kingsmead Hospital Eye Clinic - Lister Wing"),
        ("2027-01-06T10:12", "speech", "Receptionist: Mr Mallory, ten forty with Mr Osei. Take a seat."),
        ("2027-01-06T11:10", "speech", "Mr Osei: The right eye's stable, no fluid at all."),
        ("2027-01-06T11:40", "visual", "leaving the eye clinic, the lift down to the ground floor"),
        ("2027-01-06T13:00", "speech", "Stan: Afternoon, Frank."),
    ])
    told = said(store, "who did i see at the eye clinic", parse_time_ms("2027-01-06T21:00"))
    assert told.startswith("At the eye clinic: Receptionist") and "Mr Osei (" in told and "Stan" not in told


NEIGHBOUR = [
    ("2027-10-23T06:50", "speech", "Maureen: Ken, the dog wants to go out."),
    ("2027-10-23T07:41", "speech", "Maureen: Take your phone. And your keys."),
    ("2027-10-23T07:43", "visual", "a man in a dressing gown in the next yard lifting a fallen fence panel"),
    ("2027-10-23T07:43", "speech", "Trevor: Morning. Blew clean over in the night."),
    ("2027-10-23T08:22", "speech", "Maureen: You were quick. Tablets, come on, before I go."),
    ("2027-10-23T10:32", "visual", "a figure through the frosted glass of the front door; the door opened to a man "
                                   "holding up a bunch of keys with a small brass bus on the ring"),
    ("2027-10-23T10:32", "speech", "Trevor: These were hanging out of your front door."),
    ("2027-10-23T13:36", "visual", "the front door opening, Maureen coming in with a carrier bag"),
    ("2027-10-23T13:37", "speech", "Maureen: It's only me."),
]


def test_someone_met_earlier_outside_who_comes_later_is_a_visitor_and_one_who_lives_here_is_not(tmp_path):
    store = day_log(tmp_path / "door.db", NEIGHBOUR)
    came = said(store, "who came round to the house today", parse_time_ms("2027-10-23T20:00"))
    assert "Trevor" in came and "10:32" in came, came  # keys 'on the ring' are no phone call
    assert "Maureen" not in came, came  # heard all morning: she lives here


def test_someone_talked_about_is_not_here_until_they_come(tmp_path):
    day = [
        ("2027-10-23T13:36", "visual", "the front door opening, a woman in a purple fleece coming in with shopping"),
        ("2027-10-23T13:38", "speech", "What time's Liam coming?"),
        ("2027-10-23T14:45", "speech", "Maureen: He's texted you, look. Liam says four."),
        ("2027-10-23T15:05", "visual", "the front door opened to a tall young man with a beard"),
        ("2027-10-23T15:05", "speech", "Liam: Now then, Grandad!"),
        ("2027-10-23T16:30", "speech", "Thanks, Liam."),
        ("2027-10-23T17:10", "speech", "Liam: Right, I'm off to Jade's."),
        ("2027-10-23T17:11", "visual", "the front door closing behind the young man with the beard"),
    ]
    store = day_log(tmp_path / "liam.db", day)
    stayed = said(store, "how long was Liam here", parse_time_ms("2027-10-23T20:00"))
    assert "from today at 15:05" in stayed, stayed  # not from 13:38, when he was only asked about
