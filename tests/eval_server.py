"""A fake OpenAI-compatible chat endpoint for the evaluation tests.

Serves ``POST /v1/chat/completions`` on 127.0.0.1 (an ephemeral port) from a thread.  It
answers each item from its gold answer (found by the SHA-256 of the PNG in the request)
or at random, in a rotating choice of response styles, and can inject faults by request
number: an HTTP status (429, 500, 401...), ``"timeout"`` (reply later than the client
waits), ``"drop"`` (close the connection), ``"trickle"`` (a valid reply sent one byte every
``slow / 20`` seconds), ``"echo_key"`` (HTTP 400 whose message repeats the Authorization
header) or ``{"status": S, "payload": P}`` (any crafted reply).  Bounded: it serves at
most ``max_requests`` requests and shuts itself down after ``lifetime`` seconds.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

STYLES = [
    "<think>Comparing the views with the reference.</think><answer>{}</answer>",
    "Looking at options A and B first, neither fits. The answer is {}.",
    "Step by step: the cube count matches. \\boxed{{{}}}",
    "{}",
]


def gold_table(bench: Path) -> dict[str, dict[str, Any]]:
    """PNG SHA-256 -> record, for every item of the benchmark at ``bench``."""
    records = json.loads((Path(bench) / "benchmark.json").read_text())
    return {hashlib.sha256((Path(bench) / r["image"]).read_bytes()).hexdigest(): r
            for r in records}


def judge_table(bench: Path) -> dict[tuple[str, str], str]:
    """(SHA-256 of the judge image, judge question) -> "yes"/"no", for every judged option
    of every item of ``bench`` (the images as spatialcad.forms.judge_png cuts them)."""
    from spatialcad import forms

    table = {}
    for r in json.loads((Path(bench) / "benchmark.json").read_text()):
        png = (Path(bench) / r["image"]).read_bytes()
        for k in forms.judged(r):
            digest = hashlib.sha256(forms.judge_png(r, png, k)).hexdigest()
            table[digest, r["judge"][k]["question"]] = r["judge"][k]["answer"]
    return table


class FakeEndpoint:
    """Start with ``with FakeEndpoint(...) as ep:``; ``ep.base_url`` is the API root."""

    def __init__(self, *, gold: dict[str, dict[str, Any]] | None = None, mode: str = "gold",
                 model: str = "fake-vl", api_key: str | None = None,
                 faults: dict[int, int | str] | Callable[[int], int | str | None] | None = None,
                 slow: float = 1.0, max_requests: int = 400, lifetime: float = 30.0,
                 seed: int = 0, judge: dict[tuple[str, str], str] | None = None) -> None:
        self.gold = gold or {}
        self.judge = judge or {}
        self.mode = mode
        self.model = model
        self.api_key = api_key
        self.faults = faults or {}
        self.slow = slow
        self.max_requests = max_requests
        self.lifetime = lifetime
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.count = 0
        self.answered: list[str] = []  # PNG hashes of the items answered with 200
        self.requests: list[dict[str, Any]] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.timer = threading.Timer(lifetime, self.stop)
        self.timer.daemon = True

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> FakeEndpoint:
        self.thread.start()
        self.timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self.timer.cancel()
        self.server.shutdown()
        self.server.server_close()

    def _fault(self, n: int) -> int | str | None:
        if callable(self.faults):
            return self.faults(n)
        return self.faults.get(n)

    def reply_text(self, body: dict[str, Any]) -> tuple[str, str | None]:
        """The response text for a request body, and the hash of its (first) image."""
        content = body["messages"][0]["content"]
        text = [p["text"] for p in content if p["type"] == "text"][-1]  # after any captions
        digest = None
        for part in content:
            if part["type"] == "image_url":
                data = part["image_url"]["url"].split(",", 1)[1]
                digest = hashlib.sha256(base64.b64decode(data)).hexdigest()
                break  # the item's image; eval --steps sends step pictures after it
        record = self.gold.get(digest) if digest else None
        with self.lock:
            style = STYLES[self.count % len(STYLES)]
            guess = self.rng.choice("ABCD")
        if text.rstrip().endswith("Answer yes or no."):  # a judge question
            asked = text.split("Question: ", 1)[1].strip()
            value = self.judge.get((digest or "", asked), "maybe")
            if self.mode.startswith("constant:"):
                value = self.mode.split(":", 1)[1]
            return f"<think>Comparing.</think><answer>{value}</answer>", digest
        if "Options:" not in text:  # the open form
            value = record["Answer_direct"] if record and self.mode == "gold" else "0"
            return f"<answer>{value}</answer>", digest
        letter = record["Answer"] if record and self.mode == "gold" else guess
        if self.mode.startswith("constant:"):
            letter = self.mode.split(":", 1)[1]
        return style.format(letter), digest

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _send(self, status: int, payload: Any,
                      headers: dict[str, str] | None = None, pause: float = 0.0) -> None:
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                if not pause:
                    self.wfile.write(raw)
                for i in range(len(raw) if pause else 0):
                    self.wfile.write(raw[i:i + 1])
                    self.wfile.flush()
                    time.sleep(pause)

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with endpoint.lock:
                    endpoint.count += 1
                    n = endpoint.count
                    endpoint.requests.append(body)
                if n > endpoint.max_requests:
                    return self._send(503, {"error": {"message": "request budget spent"}})
                fault = endpoint._fault(n)
                try:
                    if fault == "timeout":
                        time.sleep(endpoint.slow)
                    elif fault == "drop":
                        self.close_connection = True
                        return None
                    elif isinstance(fault, dict):
                        return self._send(fault.get("status", 200), fault["payload"])
                    elif fault == "echo_key":
                        return self._send(400, {"error": {"message": "bad request from "
                                                          + self.headers.get("Authorization", "")}})
                    elif isinstance(fault, int):
                        return self._send(fault, {"error": {"message": f"injected {fault}"}},
                                          {"Retry-After": "0"} if fault == 429 else None)
                    if endpoint.api_key and self.headers.get("Authorization") != (
                            f"Bearer {endpoint.api_key}"):
                        return self._send(401, {"error": {"message": "Incorrect API key"}})
                    if self.path != "/v1/chat/completions":
                        return self._send(404, {"error": {"message": f"no route {self.path}"}})
                    if body.get("model") != endpoint.model:
                        return self._send(404, {"error": {
                            "message": f"The model `{body.get('model')}` does not exist."}})
                    text, digest = endpoint.reply_text(body)
                    with endpoint.lock:
                        endpoint.answered.append(digest or "")
                    pause = endpoint.slow / 20 if fault == "trickle" else 0.0
                    return self._send(200, {
                        "id": f"chatcmpl-{n}", "object": "chat.completion",
                        "model": endpoint.model,
                        "choices": [{"index": 0, "finish_reason": "stop",
                                     "message": {"role": "assistant", "content": text}}],
                        "usage": {"prompt_tokens": 100, "completion_tokens": len(text.split()),
                                  "total_tokens": 100 + len(text.split())},
                    }, pause=pause)
                except (BrokenPipeError, ConnectionResetError):
                    return None

        return Handler


class ForwardingProxy:
    """A plain HTTP forward proxy on 127.0.0.1, from a thread: it takes requests in the
    absolute form proxies get (``POST http://host:port/path``), sends them on and relays
    the reply; ``seen`` lists the URLs it forwarded."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> ForwardingProxy:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                import http.client
                import urllib.parse

                target = urllib.parse.urlsplit(self.path)
                if not target.hostname:  # not a proxy request
                    self.send_error(400, "a proxy wants an absolute URL")
                    return
                proxy.seen.append(self.path)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                headers = {k: v for k, v in self.headers.items()
                           if k.lower() not in ("host", "proxy-connection", "connection")}
                conn = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
                try:
                    conn.request("POST", target.path, body=body, headers=headers)
                    reply = conn.getresponse()
                    raw = reply.read()
                    self.send_response(reply.status)
                    for k, v in reply.getheaders():
                        if k.lower() not in ("content-length", "connection",
                                             "transfer-encoding", "date", "server"):
                            self.send_header(k, v)
                    self.send_header("Content-Length", str(len(raw)))
                    self.end_headers()
                    self.wfile.write(raw)
                finally:
                    conn.close()

        return Handler


def dead_url() -> str:
    """An API root on 127.0.0.1 where nothing listens (connection refused)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


if __name__ == "__main__":  # try the evaluation flow without a model
    import argparse

    parser = argparse.ArgumentParser(description="Serve a fake OpenAI-compatible endpoint "
                                     "answering a benchmark's items (prints its base URL).")
    parser.add_argument("bench", type=Path, help="benchmark directory (has benchmark.json)")
    parser.add_argument("--mode", default="gold", help="gold, random or constant:<letter>")
    parser.add_argument("--seconds", type=float, default=600.0, help="serve this long")
    args = parser.parse_args()
    with FakeEndpoint(gold=gold_table(args.bench), mode=args.mode, lifetime=args.seconds,
                      max_requests=10**6) as endpoint:
        print(endpoint.base_url, flush=True)
        endpoint.thread.join()
