"""The privacy report: what is stored and how old it is, what redaction and retention are in force,
whether the log is encrypted, and which network addresses egocli may contact."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from egocli.core.config import Settings
from egocli.privacy import retention
from egocli.privacy.crypto import SUFFIX
from egocli.privacy.redact import RedactionPolicy
from egocli.store import Store
from egocli.store import retentionsql as sql
from egocli.store.summaries import summary_count
from egocli.core.timeutil import now_ms

AGE_BUCKETS = (("under 1 day", 86_400_000), ("1-7 days", 7 * 86_400_000), ("7-30 days", 30 * 86_400_000),
               ("30-365 days", 365 * 86_400_000))
OLDEST = "over 365 days"


def _media(media_dir: Path) -> dict[str, Any]:
    files = [p for p in media_dir.rglob("*") if p.is_file()] if media_dir.is_dir() else []
    encrypted = sum(p.name.endswith(SUFFIX) for p in files)
    return {"folder": str(media_dir), "files": len(files), "encrypted_files": encrypted,
            "bytes": sum(p.stat().st_size for p in files)}


def network(settings: Settings) -> list[dict[str, str]]:
    """Every address egocli may contact or listen on, with when and why."""
    serve = settings.section("serve")
    host, port = str(serve.get("host", "127.0.0.1")), int(serve.get("port", 8765))
    out = [{"address": f"{host}:{port}", "direction": "listen",
            "when": "only while `egocli serve` runs (loopback unless --host is given)"}]
    for url in serve.get("ice_servers", []) or []:
        out.append({"address": str(url), "direction": "connect", "when": "egocli serve: configured STUN/TURN"})
    for role, value in settings.models.items():
        if "://" in value:
            out.append({"address": value, "direction": "connect", "when": f"the configured {role} model"})
    return out


def build(store: Store, settings: Settings, at_ms: int | None = None) -> dict[str, Any]:
    """The report as a JSON-ready dict."""
    at = now_ms() if at_ms is None else at_ms
    ages = sql.age_counts(store, at, [b for _, b in AGE_BUCKETS])
    names = [n for n, _ in AGE_BUCKETS] + [OLDEST]
    stored = {modality: dict(zip(names, counts, strict=True)) for modality, counts in sorted(ages.items())}
    policy = RedactionPolicy.from_settings(settings)
    summaries = summary_count(store)
    return {
        "db": str(store.path or ":memory:"),
        "encrypted": store.encrypted,
        "events": sum(sum(c.values()) for c in stored.values()),
        "stored": stored,
        "summaries": summaries,
        "media": _media(settings.media_dir),
        "redaction": policy.describe() if policy else None,
        "retention": [{"modality": r.modality, "max_age": retention.format_age(r.max_age_ms)}
                      for r in retention.rules(store)],
        "retention_pending": retention.pending(store, at),
        "network": network(settings),
    }


def render(report: dict[str, Any]) -> str:
    """The report as readable text."""
    lines = [f"Event log: {report['db']} ({'encrypted (SQLCipher)' if report['encrypted'] else 'NOT encrypted'})",
             f"Stored: {report['events']} events"]
    for modality, ages in report["stored"].items():
        parts = ", ".join(f"{n} {age}" for age, n in ages.items() if n)
        lines.append(f"  {modality}: {parts}")
    if report["summaries"]:
        lines.append("Summaries: " + ", ".join(f"{n} {lvl}" for lvl, n in sorted(report["summaries"].items())))
    media = report["media"]
    lines.append(f"Media: {media['files']} files ({media['encrypted_files']} encrypted) in {media['folder']}")
    red = report["redaction"]
    lines.append("Redaction: OFF ([privacy] redact = false)" if red is None else
                 f"Redaction: faces {'blurred' if red['faces'] else 'NOT blurred'}; "
                 f"text masked: {', '.join(red['text']) or 'nothing'}")
    rules = report["retention"]
    lines.append("Retention: " + (", ".join(f"{r['modality'].replace('*', 'everything')} {r['max_age']}"
                                            for r in rules) if rules else "none (kept until forgotten)"))
    lines.append("Network: egocli makes no outgoing connections by default.")
    for net in report["network"]:
        lines.append(f"  {net['direction']} {net['address']}: {net['when']}")
    return "\n".join(lines)
