"""Settings, resolved once: flag > environment (EGOCLI_*) > config.toml > default."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from egocli.core.errors import ConfigError, UsageError

ROLES = ("llm", "summarizer", "embedder", "asr", "labeler", "ocr", "tts", "narrator")


def default_home() -> Path:
    """The user data directory: EGOCLI_HOME, else the platform's data dir."""
    env = os.environ.get("EGOCLI_HOME")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("egocli", appauthor=False))


@dataclass(frozen=True)
class Settings:
    """Everything a command needs to know about where things are and how to run."""

    home: Path
    """Folder for the default database, media, model cache and config.toml."""
    db: Path
    """SQLite event log file."""
    models: dict[str, str] = field(default_factory=dict)
    """Per-role model override: a file/folder path, a backend name, or 'fake'."""
    cache: Path | None = None
    """Where assembled model files are cached (default: <home>/models)."""
    options: dict[str, Any] = field(default_factory=dict)
    """Other config.toml sections, by name (e.g. 'ingest', 'ask', 'privacy')."""

    @property
    def model_cache(self) -> Path:
        """Folder for assembled model files."""
        return self.cache or self.home / "models"

    @property
    def media_dir(self) -> Path:
        """Folder for stored frames and crops, beside the database."""
        return self.db.parent / (self.db.stem + "-media")

    def section(self, name: str) -> dict[str, Any]:
        """One config.toml section as a dict (empty if absent)."""
        value = self.options.get(name, {})
        return value if isinstance(value, dict) else {}

    def with_models(self, **overrides: str | None) -> Settings:
        """A copy with per-role model overrides (None values ignored)."""
        models = dict(self.models)
        models.update({k: v for k, v in overrides.items() if v})
        return replace(self, models=models)


def _read_toml(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as ex:
        raise ConfigError(f"{path}: not valid TOML: {ex}") from ex


def load_settings(db: str | Path | None = None, home: str | Path | None = None,
                  models: dict[str, str] | None = None) -> Settings:
    """Resolve settings from flags, EGOCLI_* environment, config.toml and defaults."""
    home_path = Path(home).expanduser() if home else default_home()
    config = _read_toml(home_path / "config.toml")
    model_cfg = {k: str(v) for k, v in config.get("models", {}).items() if k in ROLES}
    llm_url = config.get("llm", {}).get("url") if isinstance(config.get("llm"), dict) else None
    if llm_url:  # [llm] url = "http://host:port/v1": the text model is a model server's
        if "llm" in model_cfg:
            raise ConfigError("config.toml: [models] llm and [llm] url are both set; keep one")
        model_cfg["llm"] = str(llm_url)
    for role in ROLES:
        env = os.environ.get(f"EGOCLI_{role.upper()}")
        if env:
            model_cfg[role] = env
    model_cfg.update({k: v for k, v in (models or {}).items() if v})
    if db is not None:
        if not str(db).strip():  # Path("") is ".", the current folder: refuse before it becomes one
            raise UsageError("--db is empty: give the path of a log file")
        db_path = Path(db).expanduser()
    elif os.environ.get("EGOCLI_DB"):
        db_path = Path(os.environ["EGOCLI_DB"]).expanduser()
    elif config.get("db"):
        db_path = Path(str(config["db"])).expanduser()
    else:
        db_path = home_path / "egocli.db"
    cache_env = os.environ.get("EGOCLI_MODEL_CACHE") or config.get("model_cache")
    options = {k: v for k, v in config.items() if isinstance(v, dict) and k != "models"}
    return Settings(home=home_path, db=db_path, models=model_cfg,
                    cache=Path(cache_env).expanduser() if cache_env else None, options=options)


_YES, _NO = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def switch(settings: Settings, section: str, key: str, flag: bool | None = None, default: bool = True) -> bool:
    """A yes/no setting: the flag when given, else EGOCLI_<SECTION>_<KEY> (1/0, true/false, yes/no, on/off),
    else `key` in config.toml's [section], else `default` (e.g. serve's background summaries)."""
    if flag is not None:
        return flag
    name = f"EGOCLI_{section}_{key}".upper()
    env = os.environ.get(name, "").strip().lower()
    if env:
        if env not in _YES + _NO:
            raise ConfigError(f"{name}={env!r}: give one of {', '.join(_YES + _NO)}")
        return env in _YES
    value = settings.section(section).get(key, default)
    if not isinstance(value, bool):
        raise ConfigError(f"config.toml: [{section}] {key} must be true or false, not {value!r}")
    return value


def config_file(home: Path | None = None) -> Path:
    """The config.toml this invocation reads (in EGOCLI_HOME)."""
    return (home or default_home()) / "config.toml"


def _check_key(key: str) -> list[str]:
    parts = key.split(".")
    if not all(parts):
        raise ConfigError(f"not a config key: {key!r} (e.g. models.llm, privacy.redact, db)")
    if parts[0] == "models" and (len(parts) != 2 or parts[1] not in ROLES):
        raise ConfigError(f"models.ROLE takes a role: {', '.join(ROLES)}")
    return parts


def get_config_value(key: str, home: Path | None = None) -> Any:
    """The value of a dotted key in config.toml (NotFound when unset)."""
    from egocli.core.errors import NotFound

    value: Any = _read_toml(config_file(home))
    for part in _check_key(key):
        if not isinstance(value, dict) or part not in value:
            raise NotFound(f"{key} is not set in {config_file(home)}")
        value = value[part]
    return value


def set_config_value(key: str, raw: str, home: Path | None = None) -> Any:
    """Set a dotted key in config.toml, keeping the file's comments and layout; the value is read as
    TOML (true, 30, "text") and otherwise taken as text. Returns the stored value."""
    import tomlkit

    parts = _check_key(key)
    path = config_file(home)
    _read_toml(path)  # refuse to rewrite a file that is not valid TOML
    doc = tomlkit.parse(path.read_text(encoding="utf-8")) if path.exists() else tomlkit.document()
    try:
        value = tomlkit.parse(f"v = {raw}")["v"]
    except tomlkit.exceptions.ParseError:
        value = raw
    table = doc
    for part in parts[:-1]:
        if part not in table:
            table[part] = tomlkit.table()
        table = table[part]
        if not isinstance(table, dict):
            raise ConfigError(f"{key}: {part} is a value, not a table, in {path}")
    table[parts[-1]] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(tomlkit.dumps(doc), encoding="utf-8")
    tmp.replace(path)
    return get_config_value(key, home)
