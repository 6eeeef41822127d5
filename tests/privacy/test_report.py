"""`egocli privacy report`: stored counts by modality and age, redaction, retention, encryption, network."""

from __future__ import annotations

import json


def test_report_counts_and_settings(cli, isolated_home):
    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / "config.toml").write_text('[privacy]\nfaces = false\n[privacy.custom]\nbadge = "EMP-\\\\d+"\n')
    cli("log", "add", "today")
    cli("log", "add", "last year", "--at", "2020-01-01T10:00:00Z")
    cli("log", "add", "seen", "-m", "visual", "--at", "2h ago")
    cli("retention", "set", "2w", "-m", "visual")
    doc = json.loads(cli("privacy", "report", "--json").stdout)
    assert doc["encrypted"] is False and doc["events"] == 3
    assert doc["stored"]["note"]["under 1 day"] == 1 and doc["stored"]["note"]["over 365 days"] == 1
    assert doc["stored"]["visual"]["under 1 day"] == 1
    assert doc["redaction"] == {"faces": False, "face_threshold": 0.3, "text": ["email", "card", "phone", "badge"]}
    assert doc["retention"] == [{"modality": "visual", "max_age": "2w"}]
    assert doc["network"] == [{"address": "127.0.0.1:8765", "direction": "listen",
                               "when": "only while `egocli serve` runs (loopback unless --host is given)"}]
    text = cli("privacy", "report").stdout
    assert "NOT encrypted" in text and "faces NOT blurred" in text and "visual 2w" in text


def test_report_when_redaction_is_off(cli, isolated_home):
    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / "config.toml").write_text("[privacy]\nredact = false\n")
    assert "Redaction: OFF" in cli("privacy", "report").stdout
