"""The per-user secret of the local servers (`serve`, `timeline`), as Jupyter keeps one: random,
kept 0600 in the egocli home (made 0700), put in the URL the command prints and opens. Other users
of this machine can reach a loopback port, but cannot read the file, so they get 401."""

from __future__ import annotations

import secrets
from pathlib import Path

from egocli.store.files import private_dir, write_private

TOKEN_FILE = "server-token"
"""The file in the egocli home holding the secret (one line)."""


def user_token(home: Path) -> str:
    """This user's server secret: read from <home>/server-token, made there (0600) the first time."""
    private_dir(home)
    path = home / TOKEN_FILE
    try:
        token = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        token = ""
    if len(token) < 32:
        token = secrets.token_urlsafe(32)
        write_private(path, (token + "\n").encode())
    elif path.stat().st_mode & 0o077:
        path.chmod(0o600)
    return token


def with_token(url: str, token: str) -> str:
    """url with ?token= (or &token=) added, as the pages read it."""
    return f"{url}{'&' if '?' in url else '?'}token={token}"
