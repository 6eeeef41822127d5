"""Encryption at rest: the passphrase (EGOCLI_KEY or a prompt, never written to disk), and
AES-256-GCM for stored media files with a key derived from it (scrypt, salt kept in the log)."""

from __future__ import annotations

import base64
import getpass
import os
import sys
from pathlib import Path

from egocli.core.errors import StoreError
from egocli.store import Store
from egocli.store import retentionsql as sql

KEY_ENV = "EGOCLI_KEY"
MAGIC = b"EGOENC1\n"
SUFFIX = ".enc"
_NONCE = 12


def key_from_env() -> str | None:
    """The passphrase from EGOCLI_KEY (None when unset or empty)."""
    return os.environ.get(KEY_ENV) or None


def media_key(store: Store) -> bytes | None:
    """The 32-byte key for media files of an encrypted log (None for a plain log)."""
    if not store.encrypted or store.key is None:
        return None
    salt_text = sql.get_setting(store, "media_salt")
    if salt_text is None:
        salt_text = base64.b64encode(os.urandom(16)).decode()
        sql.put_setting(store, "media_salt", salt_text)
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    return Scrypt(salt=base64.b64decode(salt_text), length=32, n=2 ** 14, r=8, p=1).derive(store.key.encode())


def write_media(path: Path, data: bytes, key: bytes | None) -> Path:
    """Write data to path, or encrypted to path + '.enc' when a key is given; returns the file written."""
    from egocli.store.files import write_private

    if key is None:
        write_private(path, data)
        return path
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    nonce = os.urandom(_NONCE)
    target = path.with_name(path.name + SUFFIX)
    write_private(target, MAGIC + nonce + AESGCM(key).encrypt(nonce, data, MAGIC))
    return target


def read_media(path: Path, key: bytes | None) -> bytes:
    """The plain bytes of a stored media file (decrypting an .enc file with the key)."""
    raw = path.read_bytes()
    if not raw.startswith(MAGIC):
        return raw
    if key is None:
        raise StoreError(f"{path}: encrypted media: open the log with its key")
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    body = raw[len(MAGIC):]
    try:
        return AESGCM(key).decrypt(body[:_NONCE], body[_NONCE:], MAGIC)
    except InvalidTag:
        raise StoreError(f"{path}: cannot decrypt (wrong key, or the file was altered)") from None



def looks_encrypted(path: Path) -> bool:
    """True when path holds whole pages of data without the plain SQLite header (an SQLCipher log).

    Read through the store's file guard: a plain open/close here would drop this process's locks."""
    from egocli.store.files import is_encrypted

    if not path.is_file():
        return False
    try:
        return is_encrypted(path)
    except StoreError:
        return False


def key_for(path: Path, interactive: bool | None = None) -> str | None:
    """The passphrase to open the log at path: None for a plain or new log, else EGOCLI_KEY or a prompt."""
    if not looks_encrypted(path):
        return None
    key = key_from_env()
    if key is None and (sys.stdin.isatty() if interactive is None else interactive):
        key = getpass.getpass(f"Passphrase for {path.name}: ") or None
    return key
