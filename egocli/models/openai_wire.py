"""HTTP for the OpenAI-compatible text-model backend: JSON requests, server-sent event streams, and every
way a model server can fail said in one line (down, slow, gone mid-answer, speaking something else).

Standard library only (http.client): a model call runs on a role thread that blocks anyway, one connection
per request (a closed stream drops its connection, which tells llama-server to stop generating)."""

from __future__ import annotations

import http.client
import json
import socket
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from egocli.core.errors import ConfigError, ModelError

class HttpStatusError(ModelError):
    """The server answered with an HTTP status other than 200."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status
        """The HTTP status."""


class AlienReply(ModelError):
    """The server answered, but not in the OpenAI API's terms (HTML, plain text, another JSON shape)."""


DONE: dict[str, Any] = {"[DONE]": True}
"""The event a stream ends with (`data: [DONE]`, or llama-server's native `"stop": true`)."""


@dataclass(frozen=True)
class Endpoint:
    """Where a model server is and how long to wait for it."""

    url: str
    """The OpenAI base URL as given, e.g. http://127.0.0.1:8080/v1."""
    role: str = "llm"
    """The model role, for messages."""
    key: str | None = None
    """Bearer token (from the environment, never from config.toml)."""
    timeout_s: float = 60.0
    """Longest silence while waiting for a reply or the next piece of one."""
    connect_s: float = 5.0
    """Longest wait for the connection itself."""

    @property
    def root(self) -> str:
        """The server's root (the URL without its trailing /v1): llama-server's own routes live there."""
        base = self.url.rstrip("/")
        return base[:-3] if base.endswith("/v1") else base

    @property
    def api(self) -> str:
        """The OpenAI routes' prefix (root + /v1)."""
        return self.root + "/v1"


def parse_url(url: str, role: str = "llm") -> tuple[str, str, int, str]:
    """(scheme, host, port, path prefix) of a model server URL; ConfigError when it is not one."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"{role}: {url!r} is not a model server URL (expected http://host:port/v1)")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise ConfigError(f"{role}: {url!r} has no valid port") from None
    return parts.scheme, parts.hostname, port, parts.path.rstrip("/")


class Wire:
    """Requests to one model server, with its failures turned into ModelErrors that say what happened."""

    def __init__(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint
        self._scheme, self._host, self._port, _ = parse_url(endpoint.url, endpoint.role)

    # ---- requests -----------------------------------------------------
    def get(self, url: str) -> Any:
        """GET a JSON document (ModelError on any failure)."""
        return self._json(self._open("GET", url, None), url)

    def post(self, url: str, body: dict[str, Any]) -> Any:
        """POST a JSON body, read a JSON reply (ModelError on any failure)."""
        return self._json(self._open("POST", url, body), url)

    def events(self, url: str, body: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """POST a streaming request; yield each event's JSON object, DONE last. A server that closes the
        stream early, falls silent or sends something that is not an event stream raises ModelError; closing
        the generator drops the connection (the server stops generating)."""
        conn, resp = self._open("POST", url, body)
        started = False
        try:
            kind = resp.getheader("Content-Type", "")
            if "application/json" in kind:  # a server that ignores "stream": one whole reply
                yield self._json((conn, resp), url)
                yield DONE
                return
            if "text/event-stream" not in kind:
                raise self.alien(url, f"a {kind or 'typeless'} reply instead of an event stream")
            while True:
                try:
                    line = resp.readline()
                except (OSError, http.client.HTTPException) as ex:
                    raise self._failure(ex, url, mid_answer=started) from ex
                if not line:
                    raise ModelError(f"{self._who()} closed the connection "
                                     + ("mid-answer" if started else "before answering")
                                     + " (stopped or restarted?)")
                event = self._event(line.strip(), url)
                if event is None:
                    continue
                if event is DONE or event.get("stop") is True:
                    if event is not DONE:
                        yield event
                    yield DONE
                    return
                started = True
                yield event
        finally:
            conn.close()

    # ---- plumbing -----------------------------------------------------
    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if self.endpoint.key:
            headers["Authorization"] = f"Bearer {self.endpoint.key}"
        return headers

    def _connection(self) -> http.client.HTTPConnection:
        if self._scheme == "https":
            return http.client.HTTPSConnection(self._host, self._port, timeout=self.endpoint.connect_s,
                                               context=ssl.create_default_context())
        return http.client.HTTPConnection(self._host, self._port, timeout=self.endpoint.connect_s)

    def _open(self, method: str, url: str, body: dict[str, Any] | None
              ) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        """Send a request and read the reply's status line and headers; a status other than 200 raises."""
        conn = self._connection()
        try:
            conn.connect()
            assert conn.sock is not None
            conn.sock.settimeout(self.endpoint.timeout_s)
            data = json.dumps(body).encode("utf-8") if body is not None else None
            conn.request(method, urlsplit(url).path or "/", body=data, headers=self._headers())
            resp = conn.getresponse()
        except (OSError, http.client.HTTPException) as ex:
            conn.close()
            raise self._failure(ex, url, mid_answer=False) from ex
        if resp.status != 200:
            try:
                text = resp.read(4096).decode("utf-8", "replace")
            except (OSError, http.client.HTTPException):
                text = ""
            conn.close()
            raise self._status(resp.status, text, url)
        return conn, resp

    def _json(self, opened: tuple[http.client.HTTPConnection, http.client.HTTPResponse], url: str) -> Any:
        conn, resp = opened
        try:
            raw = resp.read()
        except (OSError, http.client.HTTPException) as ex:
            raise self._failure(ex, url, mid_answer=True) from ex
        finally:
            conn.close()
        try:
            doc = json.loads(raw)
        except ValueError:
            raise self.alien(url, f"{raw[:60]!r}, not JSON") from None
        if isinstance(doc, dict) and "error" in doc:
            raise ModelError(f"{self._who()}: {_message(doc['error'])}")
        return doc

    def _event(self, line: bytes, url: str) -> dict[str, Any] | None:
        """One line of an event stream: its JSON object, DONE, or None for comments, pings and other fields."""
        if not line or line.startswith(b":") or not line.startswith(b"data:"):
            if line and not line.startswith((b":", b"event:", b"id:", b"retry:")):
                raise self.alien(url, f"{line[:60]!r} in its event stream")
            return None
        data = line[5:].strip()
        if data == b"[DONE]":
            return DONE
        try:
            event = json.loads(data)
        except ValueError:
            raise self.alien(url, f"{data[:60]!r}, not a JSON event") from None
        if not isinstance(event, dict):
            raise self.alien(url, f"{data[:60]!r}, not a JSON object")
        if "error" in event:
            raise ModelError(f"{self._who()} failed mid-answer: {_message(event['error'])}")
        return event

    def _who(self) -> str:
        return f"{self.endpoint.role}: the model server at {self.endpoint.url}"

    def alien(self, url: str, what: str) -> AlienReply:
        """The error for a reply that is not the OpenAI API's."""
        return AlienReply(f"{self._who()} does not speak the OpenAI API ({urlsplit(url).path} gave {what})")

    def _status(self, status: int, text: str, url: str) -> HttpStatusError:
        try:
            detail = _message(json.loads(text).get("error", text))
        except (ValueError, AttributeError):
            detail = " ".join(text.split())[:160]
        path = urlsplit(url).path
        if status in (401, 403):
            return HttpStatusError(f"{self._who()} refused the request (HTTP {status}: {detail}); "
                              f"give its key in EGOCLI_{self.endpoint.role.upper()}_KEY", status)
        if status == 404:
            return HttpStatusError(f"{self._who()} has no {path} (HTTP 404): not an OpenAI-compatible server, "
                                   "or the URL lacks its /v1", status)
        if status == 503:
            return HttpStatusError(f"{self._who()} is not ready (HTTP 503: {detail}); is it still loading its "
                                   "model?", status)
        return HttpStatusError(f"{self._who()} answered HTTP {status} to {path}: {detail}", status)

    def _failure(self, ex: BaseException, url: str, mid_answer: bool) -> ModelError:
        who, wait = self._who(), self.endpoint.timeout_s
        if isinstance(ex, ConnectionRefusedError):
            return ModelError(f"{who} refused the connection: nothing listens there (start it with "
                              "`egocli models serve`, or fix --llm / [llm] url)")
        if isinstance(ex, socket.gaierror):
            return ModelError(f"{who}: cannot resolve {self._host} ({ex.strerror or ex})")
        if isinstance(ex, TimeoutError | socket.timeout):
            return ModelError(f"{who} sent nothing for {wait:g} s "
                              + ("mid-answer" if mid_answer else "after the request")
                              + f" (overloaded or stuck; [llm] timeout sets the wait)")
        if isinstance(ex, ConnectionResetError | BrokenPipeError | http.client.RemoteDisconnected
                      | http.client.IncompleteRead | ConnectionAbortedError):
            return ModelError(f"{who} closed the connection " + ("mid-answer" if mid_answer else "before answering")
                              + " (stopped or restarted?)")
        if isinstance(ex, http.client.HTTPException):
            return ModelError(f"{who} does not speak HTTP as expected ({type(ex).__name__}: {ex})")
        return ModelError(f"{who}: {type(ex).__name__}: {ex}")


def _message(error: Any) -> str:
    """The text of an OpenAI-style error object ({"message": ...}) or whatever else was sent."""
    if isinstance(error, dict):
        return str(error.get("message") or error.get("type") or error)[:300]
    return str(error)[:300]
