"""A day at work and a long stay (workplace.py, visits.py), on a real store: 'work' names no place, so the stay at
work is the day's stretch among the signs of working; a night shift seen only at its arrival and its leaving is
one stay from one to the other."""

from __future__ import annotations

from egocli.core.timeutil import parse_time_ms

from .conftest import day_log, said

SHOP_DAY = [
    ("2026-12-12T07:00", "visual", "kitchen, a mug of tea, the radio on"),
    ("2026-12-12T07:12", "visual", "hallway, zipping up the green work fleece, taking the car keys from the bowl"),
    ("2026-12-12T07:38", "visual", "pulling into the staff car park behind Brannock's Hardware on Station Road"),
    ("2026-12-12T07:45", "visual", "staff room at Brannock's, hanging the lanyard on the hook by the kettle"),
    ("2026-12-12T08:05", "text", "Brannock's Hardware - Rota: Carol 8-4, Martin 8-4"),
    ("2026-12-12T09:30", "visual", "behind the counter, cutting two door keys for a customer"),
    ("2026-12-12T11:10", "visual", "a customer weighing up two watering cans"),
    ("2026-12-12T12:10", "visual", "staff room, lunch break, a ham sandwich"),
    ("2026-12-12T13:50", "visual", "the staff car park, Kieran pointing at the back tyre of the Skoda"),
    ("2026-12-12T14:00", "visual", "a customer asking for rawlplugs at the counter"),
    ("2026-12-12T15:40", "visual", "paint mixing area, the till roll running out"),
    ("2026-12-12T16:01", "text", "Brannock's staff terminal - Martin H - clocked out 16:01"),
    ("2026-12-12T16:04", "visual", "driving slowly out of the staff car park, the tyre warning light on"),
    ("2026-12-12T16:20", "text", "Tyre Depot - customers are not permitted in the workshop"),
    ("2026-12-12T16:33", "text", "Tyre Depot - customers please wait in reception"),
    ("2026-12-12T16:50", "visual", "a mechanic in blue overalls, a member of staff at the till"),
    ("2026-12-12T17:25", "visual", "getting home, letting myself in at the front door"),
]


def test_a_day_at_work_is_the_stretch_among_signs_of_working(tmp_path):
    store = day_log(tmp_path / "shop.db", SHOP_DAY)
    at = parse_time_ms("2026-12-13T09:00")
    assert said(store, "how long was i at work yesterday", at).startswith("8 h 26 min, from yesterday at 07:38")
    assert "16:04" in said(store, "when did i leave work yesterday", at)
    assert "07:38" in said(store, "what time did i get to work yesterday", at)
    told = said(store, "what did i do at work yesterday", at)  # the day's stay there, not its last mention
    assert told.startswith("Yesterday at work") and "cutting two door keys" in told and "Tyre Depot" not in told


def test_a_night_shift_seen_at_its_ends_is_one_stay(tmp_path):
    rows = [("2027-06-10T19:45", "visual", "arriving at the hospital staff entrance, a lanyard held to a reader"),
            ("2027-06-10T19:50", "text", "sign - Derwent General Hospital - Staff Entrance"),
            *[(f"2027-06-1{0 if h >= 20 else 1}T{h:02d}:30", "visual", "a long corridor, green floor arrows")
              for h in (20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7)],
            ("2027-06-11T08:02", "visual", "leaving the hospital by the staff entrance, rain"),
            ("2027-06-11T08:20", "visual", "on the bus home, rain on the window"),
            ("2027-06-11T08:50", "visual", "bedroom, putting the CPAP mask on"),
            ("2027-06-11T14:05", "visual", "kitchen, the kettle on")]  # slept from 08:50: last night ends then
    store = day_log(tmp_path / "nights.db", rows)
    answer = said(store, "how long was i at the hospital last night", parse_time_ms("2027-06-11T16:00"))
    assert answer.startswith("12 h 17 min, from yesterday at 19:45 to today at 08:02"), answer


def test_a_ride_that_ends_among_offices_is_not_yet_at_work(tmp_path):
    day = [
        ("2027-01-15T12:50", "visual", "getting on the tram at Piccadilly, standing by the doors"),
        ("2027-01-15T13:22", "visual", "stepping down onto the platform at St Peter's Square, glass office blocks"),
        ("2027-01-15T13:29", "visual", "a revolving glass door into the office, a lobby with a long reception desk"),
        ("2027-01-15T13:40", "visual", "the office, a desk with two monitors, logging in"),
        ("2027-01-15T15:10", "visual", "the office kitchen, a flat white in a paper cup"),
        ("2027-01-15T17:30", "visual", "the office, shutting down the laptop"),
    ]
    store = day_log(tmp_path / "tram.db", day)
    got = said(store, "what time did i get into the office yesterday", parse_time_ms("2027-01-16T11:00"))
    assert "13:29" in got and "13:22" not in got, got
