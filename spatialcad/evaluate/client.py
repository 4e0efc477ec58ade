"""A client for OpenAI-compatible chat endpoints (vLLM, SGLang, hosted APIs), over httpx.

The connection honours the environment as curl and requests do: ``HTTP_PROXY``,
``HTTPS_PROXY``, ``ALL_PROXY`` and ``NO_PROXY``, and a custom CA bundle in
``SSL_CERT_FILE`` or ``REQUESTS_CA_BUNDLE`` (else the system's certificates).

One user message: the prompt text and, unless text-only, the composite PNG as a base64
data-URL image part (with ``--images panels``: each panel's caption as a text part, then
the panel as an image part, then the prompt).  Transient trouble (HTTP 429, 5xx,
timeouts, dropped connections) is retried with exponential backoff (``Retry-After``
honoured); a refused connection, an unknown host, a rejected key (401/403) or an unknown
model (404) raises :class:`EndpointError` at once; a request the server rejects for this
item alone (other 4xx, an unreadable reply) raises :class:`ItemError`.
"""

from __future__ import annotations

import base64
import json
import os
import random
import socket
import ssl
import time
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from spatialcad.evaluate.redact import redact

MAX_WAIT = 60.0  # longest single backoff, seconds


class EndpointError(Exception):
    """The endpoint cannot serve this run; ``config`` is True when the cause is our input."""

    def __init__(self, message: str, *, config: bool) -> None:
        super().__init__(message)
        self.config = config


class ItemError(Exception):
    """The endpoint rejected the request of one item."""


class _Transient(Exception):
    def __init__(self, message: str, wait: float | None = None) -> None:
        super().__init__(message)
        self.wait = wait


@dataclass
class Reply:
    text: str
    reasoning: str | None
    usage: dict[str, int]
    latency_s: float
    attempts: int
    finish_reason: str | None


@dataclass
class ChatClient:
    """Chat completions at ``base_url`` (e.g. http://127.0.0.1:8000/v1) for ``model``."""

    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 300.0
    retries: int = 6
    backoff: float = 2.0
    max_tokens: int = 4096
    temperature: float = 0.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)

    def __post_init__(self) -> None:
        url = urllib.parse.urlsplit(self.base_url)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ValueError(f"--base-url must be an http(s) URL, got {safe_url(self.base_url)!r}")
        if url.username is not None or url.password is not None or secret_query(url.query):
            raise ValueError(f"--base-url must not carry a key ({safe_url(self.base_url)}): put "
                             "the key in an environment variable and name it with --api-key-env")
        self._url = url
        self._path = url.path.rstrip("/") + "/chat/completions"
        self._jitter = random.Random(0)
        self._http = http_client(self.timeout)

    def close(self) -> None:
        """Close the pooled connections."""
        self._http.close()

    @property
    def endpoint(self) -> str:
        return f"{self._url.scheme}://{self._url.netloc}{self._path}"

    def payload(self, text: str, png: bytes | None, more: Sequence[bytes] = (),
                panels: Sequence[tuple[str, bytes]] = ()) -> dict[str, Any]:
        """The request body: each of ``panels`` as its caption then its image, the image,
        then ``more`` images (eval --steps), then the text."""
        content: list[dict[str, Any]] = []
        for caption, panel in panels:
            content += [{"type": "text", "text": caption}, _image_part(panel)]
        content += [_image_part(image) for image in ([png] if png is not None else []) + list(more)]
        content.append({"type": "text", "text": text})
        return {
            "model": self.model,
            "messages": [{"role": "user", "content": content}],
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
        }

    def redact(self, text: str) -> str:
        """``text`` with the API key blanked out (see :mod:`spatialcad.evaluate.redact`)."""
        return redact(text, self.api_key)

    def chat(self, text: str, png: bytes | None, more: Sequence[bytes] = (),
             panels: Sequence[tuple[str, bytes]] = ()) -> Reply:
        """Send one prompt (and images, see :meth:`payload`); retry transient failures;
        return the reply.

        Error messages (which may echo the request's headers) have the key redacted; the
        reply is returned as it came, to be scored (its stored copy is redacted by the
        caller, :meth:`redact`).
        """
        try:
            return self._chat(json.dumps(self.payload(text, png, more, panels)).encode())
        except (EndpointError, ItemError) as exc:
            exc.args = (self.redact(str(exc)),)
            raise

    def _chat(self, body: bytes) -> Reply:
        start = time.perf_counter()
        last = ""
        for attempt in range(1, self.retries + 2):
            try:
                data = self._post(body)
            except _Transient as exc:
                last = str(exc)
                if attempt > self.retries:
                    break
                wait = exc.wait
                if wait is None:
                    wait = self.backoff * 2 ** (attempt - 1) * (1 + 0.25 * self._jitter.random())
                self.sleep(min(MAX_WAIT, wait))
                continue
            return _reply(data, time.perf_counter() - start, attempt)
        raise EndpointError(
            f"{self.endpoint} still failing after {self.retries + 1} attempts: {last}",
            config=False,
        )

    def _post(self, body: bytes) -> dict[str, Any]:
        """One request; ``timeout`` bounds the whole exchange, not each read."""
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        deadline = time.monotonic() + self.timeout
        try:
            with self._http.stream("POST", self.endpoint, content=body,
                                   headers=headers) as resp:
                chunks = []
                for chunk in resp.iter_raw():  # as the bytes arrive
                    if time.monotonic() > deadline:
                        raise httpx.ReadTimeout("the whole reply took too long")
                    chunks.append(chunk)
                raw = b"".join(chunks)
                status, retry_after = resp.status_code, resp.headers.get("Retry-After")
        except httpx.ConnectError as exc:
            if _caused_by(exc, socket.gaierror):
                raise EndpointError(f"cannot resolve host {self._url.hostname!r} of --base-url",
                                    config=True) from exc
            if _caused_by(exc, ssl.SSLCertVerificationError):
                raise EndpointError(f"cannot verify the TLS certificate of {self.endpoint} "
                                    f"({exc}): name the CA bundle that signed it in "
                                    "SSL_CERT_FILE or REQUESTS_CA_BUNDLE", config=True) from exc
            if _caused_by(exc, ConnectionRefusedError):
                raise EndpointError(f"cannot connect to {self.endpoint}: connection refused (is "
                                    "the server running?)", config=True) from exc
            raise _Transient(f"connection failed: {exc}") from exc
        except httpx.TimeoutException as exc:
            raise _Transient(f"no reply within {self.timeout:g} s") from exc
        except httpx.HTTPError as exc:
            raise _Transient(f"connection failed: {exc.__class__.__name__} {exc}") from exc
        return self._check(status, raw, retry_after)

    def _check(self, status: int, raw: bytes, retry_after: str | None) -> dict[str, Any]:
        message = _error_message(raw) if status != 200 else ""
        if status == 429 or status >= 500:
            raise _Transient(f"HTTP {status}: {message}", _seconds(retry_after))
        if status in (401, 403):
            raise EndpointError(
                f"{self.endpoint} rejected the API key (HTTP {status}): {message}", config=True
            )
        if status == 404:
            raise EndpointError(
                f"HTTP 404 from {self.endpoint} for model {self.model!r}: {message} (check "
                "--model and --base-url, which usually ends in /v1)",
                config=True,
            )
        if status != 200:
            raise ItemError(f"HTTP {status}: {message}")
        try:
            data = json.loads(raw)
        except ValueError as exc:
            raise ItemError(f"the reply is not JSON: {raw[:200]!r}") from exc
        if not isinstance(data, dict) or not data.get("choices"):
            raise ItemError(f"the reply has no choices: {raw[:200]!r}")
        return data


def _image_part(png: bytes) -> dict[str, Any]:
    url = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    return {"type": "image_url", "image_url": {"url": url}}


def _reply(data: dict[str, Any], latency: float, attempts: int) -> Reply:
    """The reply in ``data``; ``ItemError`` if it is not shaped as the API promises."""
    choices = data["choices"]
    choice = choices[0] if isinstance(choices, list) else None
    message = choice.get("message") if isinstance(choice, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    reasoning = (message.get("reasoning_content") or message.get("reasoning")
                 if isinstance(message, dict) else None)
    if not isinstance(message, dict) or not isinstance(content, str | None) or not isinstance(
            reasoning, str | None):
        raise ItemError(f"malformed reply: {json.dumps(data)[:200]}")
    raw_usage = data.get("usage")
    usage = {k: int(v) for k, v in (raw_usage if isinstance(raw_usage, dict) else {}).items()
             if isinstance(v, int)}
    return Reply(
        text=content or "",
        reasoning=reasoning,
        usage=usage,
        latency_s=round(latency, 3),
        attempts=attempts,
        finish_reason=choice.get("finish_reason") if isinstance(choice, dict) else None,
    )


CA_BUNDLE_VARIABLES = ("SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE")


def ssl_context() -> ssl.SSLContext:
    """Certificates to trust: the first CA bundle the environment names, else the system's."""
    bundle = next((os.environ[v] for v in CA_BUNDLE_VARIABLES if os.environ.get(v)), None)
    try:
        return ssl.create_default_context(cafile=bundle)
    except (OSError, ssl.SSLError) as exc:
        raise ValueError(f"cannot read the CA bundle {bundle!r}: {exc}") from exc


def http_client(timeout: float) -> httpx.Client:
    """A pooled client whose proxies come from the environment; ``timeout`` bounds each
    connect and read (the caller bounds the whole exchange)."""
    return httpx.Client(timeout=httpx.Timeout(timeout), verify=ssl_context(), trust_env=True,
                        follow_redirects=False)


def _caused_by(exc: BaseException, kind: type[BaseException]) -> bool:
    """True if ``kind`` is somewhere in the chain of causes of ``exc``."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, kind):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


SECRET_WORDS = ("key", "token", "secret", "password", "passwd", "auth", "sig", "credential")


def secret_query(query: str) -> bool:
    """True if a URL query has a parameter that looks like a credential."""
    return any(any(w in name.lower() for w in SECRET_WORDS)
               for name, _ in urllib.parse.parse_qsl(query, keep_blank_values=True))


def safe_url(url: str) -> str:
    """``url`` with its user info and query values replaced by ``***``, for messages."""
    parts = urllib.parse.urlsplit(url)
    netloc = parts.netloc.rpartition("@")[2]
    if "@" in parts.netloc:
        netloc = "***@" + netloc
    query = "&".join(f"{k}=***" for k, _ in urllib.parse.parse_qsl(parts.query, True))
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc, query=query))


def _error_message(raw: bytes) -> str:
    """The server's error text: OpenAI-style ``{"error": {"message": ...}}`` or the body."""
    try:
        data = json.loads(raw)
        err = data.get("error", data) if isinstance(data, dict) else data
        msg = err.get("message", err) if isinstance(err, dict) else err
        return str(msg)[:300]
    except ValueError:
        return raw[:300].decode("utf-8", "replace").strip() or "(empty body)"


def _seconds(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None
