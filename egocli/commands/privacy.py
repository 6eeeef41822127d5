"""`egocli privacy report`, `egocli retention set|show|clear|apply`, `egocli init [--encrypt]`."""

from __future__ import annotations

import sys

import typer

from egocli.cli import ui
from egocli.commands.common import JSON, open_store, settings
from egocli.core.errors import StoreError, UsageError

privacy_app = typer.Typer(help="What egocli stores and what it may contact.", no_args_is_help=True)
retention_app = typer.Typer(help="How long events are kept.", no_args_is_help=True)
MODALITY_ONE = typer.Option(None, "--modality", "-m", help="Only this modality (default: every modality).")


@privacy_app.command("report", short_help="What is stored, how old, and where egocli may connect.")
def report(ctx: typer.Context, json_: bool = JSON) -> None:
    """What is stored and how old, redaction, retention, encryption, network addresses (a table on a terminal).

    \b
    Examples:
      egocli privacy report
      egocli privacy report --json
    """
    from egocli.privacy import report as rep

    doc = rep.build(open_store(ctx), settings(ctx))
    if json_:
        ui.emit_json(doc)
    elif ui.is_terminal():
        pairs = [line.split(": ", 1) if ": " in line else (line, "") for line in rep.render(doc).splitlines()]
        ui.emit_pairs([("Privacy", [(key, value) for key, value in pairs])])
    else:
        ui.emit_text(rep.render(doc))


@retention_app.command("set", short_help="Keep events (of one modality) for at most AGE.")
def retention_set(ctx: typer.Context, age: str = typer.Argument(..., help="Keep for: 12h, 30d, 6w, 3m, 1y."),
                  modality: str = MODALITY_ONE,
                  yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask before removing events.")) -> None:
    """Keep events (of one modality) for at most AGE; older ones are removed now (after asking) and from now on.

    \b
    Examples:
      egocli retention set 30d
      egocli retention set 7d --modality visual
    """
    from egocli.privacy import retention

    store = open_store(ctx)
    doomed = retention.would_expire(store, age, modality)
    if doomed and not ui.confirm(f"Keeping {age} removes {doomed} event(s) for good now. Continue?", yes):
        raise UsageError(f"not confirmed: no rule set, {doomed} event(s) kept (use --yes to skip the question)")
    rule = retention.set_rule(store, age, modality)
    result = retention.apply(store, settings(ctx).media_dir)
    who = "everything" if rule.modality == "*" else f"{rule.modality} events"
    ui.emit_text(f"keeping {who} for {retention.format_age(rule.max_age_ms)}; removed {result.events} "
                 f"expired event(s), {result.summaries} summary(ies)")


@retention_app.command("show")
def retention_show(ctx: typer.Context, json_: bool = JSON) -> None:
    """The retention rules in force.

    \b
    Example:
      egocli retention show --json
    """
    from egocli.privacy import retention

    store = open_store(ctx)
    rows = [{"modality": r.modality, "max_age": retention.format_age(r.max_age_ms)} for r in retention.rules(store)]
    if json_:
        ui.emit_json(rows)
    elif not rows:
        ui.emit_text("no retention rules: events are kept until forgotten")
    else:
        ui.emit_text("\n".join(f"{r['modality'].replace('*', 'all')}\t{r['max_age']}" for r in rows))


@retention_app.command("clear")
def retention_clear(ctx: typer.Context, modality: str = MODALITY_ONE) -> None:
    """Remove the rule for a modality (or the rule for everything).

    \b
    Example:
      egocli retention clear --modality visual
    """
    from egocli.privacy import retention

    if not retention.clear_rule(open_store(ctx), modality):
        raise UsageError(f"no retention rule for {modality or 'all modalities'}")
    ui.emit_text(f"rule for {modality or 'all modalities'} removed")


@retention_app.command("apply", short_help="Remove expired events, their media and summaries now.")
def retention_apply(ctx: typer.Context, json_: bool = JSON) -> None:
    """Remove expired events, their media and the summaries that covered them, now.

    \b
    Example:
      egocli retention apply
    """
    from egocli.privacy import retention

    result = retention.apply(open_store(ctx), settings(ctx).media_dir)
    doc = {"events": result.events, "summaries": result.summaries, "media": len(result.media)}
    if json_:
        ui.emit_json(doc)
    else:
        ui.emit_text(f"removed {doc['events']} event(s), {doc['summaries']} summary(ies), {doc['media']} media file(s)")


def init(ctx: typer.Context, encrypt: bool = typer.Option(
        False, "--encrypt", help="Create an SQLCipher-encrypted log (key: EGOCLI_KEY, else a prompt).")) -> None:
    """Create the event log (optionally encrypted at rest).

    \b
    Examples:
      egocli init
      EGOCLI_KEY=... egocli --db secret.db init --encrypt
    """
    from egocli.privacy import crypto
    from egocli.store import Store

    path = settings(ctx).db
    if path.exists() and path.stat().st_size:
        state = "encrypted" if crypto.looks_encrypted(path) else "not encrypted"
        raise StoreError(f"{path}: an event log already exists ({state}); egocli encrypts new logs only")
    key = None
    if encrypt:
        key = crypto.key_from_env()
        if key is None and sys.stdin.isatty():
            key = typer.prompt("New passphrase", hide_input=True, confirmation_prompt=True) or None
        if key is None:
            raise UsageError(f"--encrypt needs a passphrase: set {crypto.KEY_ENV} or run in a terminal")
    store = Store.open(path, create=True, key=key)
    store.close()
    ui.emit_text(f"created {path}" + (" (encrypted; the key is not stored: keep it safe)" if key else ""))


def register(app: typer.Typer) -> None:
    """Attach `privacy`, `retention` and `init` to the root app."""
    app.add_typer(privacy_app, name="privacy")
    app.add_typer(retention_app, name="retention")
    app.command("init")(init)
