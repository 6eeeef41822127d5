import json

import pytest

SRT_BAD = "1\n00:00:01,000 --> 00:00:02,000\nfine\n\n2\n00:00:03,000 -> 00:00:04,000\nbroken arrow\n"


@pytest.fixture
def files(tmp_path):
    d = tmp_path / "in"
    d.mkdir()
    (d / "good.vtt").write_text("WEBVTT\n\nintro\n00:00:01.000 --> 00:00:03.500\n<v Ann>Hello there\n\n"
                                "00:01:00.000 --> 00:01:02.000\nGeneral Kenobi\n")
    (d / "bad.srt").write_text(SRT_BAD)
    (d / "epic.csv").write_text(
        "narration_id,participant_id,video_id,narration_timestamp,start_timestamp,stop_timestamp,"
        "start_frame,stop_frame,narration\n"
        "P01_01_0,P01,P01_01,00:00:01.089,00:00:00.14,00:00:03.37,8,202,open door\n"
        "P01_01_1,P01,P01_01,00:00:02.629,00:00:04.37,00:00:06.17,262,370,turn on light\n")
    (d / "nocols.csv").write_text("when,what\n1,hello\n")
    (d / "events.jsonl").write_text('{"start": 5, "end": 6, "content": "five seconds in", "modality": "speech"}\n')
    return d


def test_batch_reports_failures_and_keeps_going(cli, files):
    res = cli("import", files / "good.vtt", files / "bad.srt", files / "epic.csv", files / "nocols.csv",
              files / "missing.srt", files / "events.jsonl", "--start", "2026-11-29T09:00:00Z")
    assert res.exit_code == 1
    errors = [line for line in res.stderr.splitlines() if line.startswith("Error:")]
    assert f"Error: {files / 'bad.srt'}:6: malformed cue timing '00:00:03,000 -> 00:00:04,000'" in errors
    assert any("nocols.csv:1: CSV needs a start column" in e for e in errors)
    assert any("missing.srt: no such file" in e for e in errors)
    assert "3 imported, 3 failed" in res.stderr
    rows = [json.loads(x) for x in cli("log", "list", "--jsonl", "--oldest").stdout.splitlines()]
    assert [r["content"] for r in rows] == ["open door", "Hello there", "turn on light",
                                            "five seconds in", "General Kenobi"]
    assert rows[0]["start"] == "2026-11-29T09:00:00.140Z" and rows[0]["end"] == "2026-11-29T09:00:03.370Z"
    assert rows[3]["modality"] == "speech"
    assert "broken" not in cli("log", "list").stdout


def test_fixed_file_reimports(cli, files):
    assert cli("import", files / "bad.srt").exit_code == 1
    (files / "bad.srt").write_text(SRT_BAD.replace(" -> ", " --> "))
    res = cli("import", files / "bad.srt", "--source-name", "morning", "--json")
    assert res.exit_code == 0
    assert json.loads(res.stdout)[0]["events"] == 2
    assert "morning" in cli("log", "list", "--source", "morning").stdout


def test_unknown_extension(cli, tmp_path):
    f = tmp_path / "x.docx"
    f.write_text("hi")
    res = cli("import", f)
    assert res.exit_code == 1 and "unknown format '.docx'" in res.stderr
