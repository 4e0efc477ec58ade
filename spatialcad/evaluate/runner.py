"""Resumable scoring runs: one JSONL line per answered item, appended and flushed at once.

A run directory holds ``run.json`` (what was scored, against which benchmark, how) and
``results.jsonl``.  Re-running the same command skips every item that already has an
answer line; a line whose request failed for that item alone is kept with an ``error``
field and retried next time.  A killed run loses at most the requests in flight.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from spatialcad import __version__, forms
from spatialcad.evaluate.client import ChatClient, EndpointError, ItemError
from spatialcad.evaluate.extract import extract, extract_choice_rule_a, is_correct, refusal
from spatialcad.evaluate.prompts import build_prompt
from spatialcad.evaluate.steps import StepView
from spatialcad.panels import panel_pngs
from spatialcad.record.benchmark import file_sha256
from spatialcad.record.records import BENCHMARK, LETTERS, MANIFEST, image_path

RESULTS = "results.jsonl"
META = "run.json"
MAX_REJECTED_IN_A_ROW = 5
MAX_STORED = 100_000  # characters of a reply (and of its reasoning) kept in a results line

Record = dict[str, Any]
Line = dict[str, Any]
Work = Callable[[Record, bytes], list[Line]]


def item_id(record: Record) -> str:
    return image_path(record)


def asked(record: Record, form: str) -> list[int | None]:
    """The questions a run asks of ``record``: one (None) in the choice and open forms; in
    the judge form one yes and one no option (:func:`spatialcad.forms.balanced_options`)."""
    if forms.canonical(form) == "judge":
        return list(forms.balanced_options(record))
    return [None]


def line_id(record: Record, option: int | None) -> str:
    """The id of a results line: the item's, plus ``#<letter>`` for a judged option."""
    return item_id(record) if option is None else f"{item_id(record)}#{LETTERS[option]}"


def pending(records: list[Record], form: str, done: set[str]) -> list[Record]:
    """The records some of whose questions have no answer line in ``done`` yet."""
    return [r for r in records if any(line_id(r, k) not in done for k in asked(r, form))]


def select(records: list[Record], form: str, limit: int | None) -> list[Record]:
    """The items a run scores: those with the form, at most ``limit`` per task and level."""
    chosen: list[Record] = []
    seen: dict[tuple[str, str], int] = {}
    for r in records:
        if not (forms.has_form(r, form) and asked(r, form)):
            continue
        key = (r["Task"], r["Level"])
        seen[key] = seen.get(key, 0) + 1
        if limit is None or seen[key] <= limit:
            chosen.append(r)
    return chosen


def base_line(record: Record, system: str, form: str, option: int | None = None) -> Line:
    """The fields of a results line that do not depend on the answer (the judge form adds
    ``judge_option``, the letter of the judged option)."""
    line = {
        "id": line_id(record, option),
        "system": system,
        "category": record["Category"],
        "task": record["Task"],
        "level": record["Level"],
        "form": form,
        "gold": forms.gold(record, form, option),
    }
    if option is not None:
        line["judge_option"] = LETTERS[option]
    return line


def stored(text: str, field: str, line: Line) -> str:
    """``text`` as a results line keeps it: at most :data:`MAX_STORED` characters, the
    first and the last halves of a longer one (where answers and loops show); the line then
    records the cut in ``truncated`` (field -> original length).  Scoring reads the whole
    reply before this."""
    if len(text) <= MAX_STORED:
        return text
    line.setdefault("truncated", {})[field] = len(text)
    half = MAX_STORED // 2
    return f"{text[:half]}\n[... {len(text) - 2 * half} characters not stored ...]\n{text[-half:]}"


def score(record: Record, form: str, text: str, option: int | None = None) -> Line:
    """Extraction and correctness of response ``text`` for ``record``."""
    form = forms.canonical(form)
    got = extract(form, text, record["Choices"])
    line: Line = {"extracted": got.value, "rule": got.rule,
                  "correct": is_correct(form, got.value, forms.gold(record, form, option))}
    refused = refusal(form, got.value)
    if refused:
        line["refused"] = refused
    if form == "choice":
        line["extracted_rule_a"] = extract_choice_rule_a(text)
    return line


@dataclass
class ModelAnswerer:
    """Asks the model behind ``client`` one item at a time."""

    client: ChatClient
    style: str
    form: str = "choice"
    text_only: bool = False
    steps: StepView | None = None  # eval --steps other than none
    images: str = "composite"  # or "panels": each panel after its caption (spatialcad.panels)

    @property
    def system(self) -> str:
        return self.client.model

    def __call__(self, record: Record, png: bytes) -> list[Line]:
        return [self._ask(record, png, k) for k in asked(record, self.form)]

    def _ask(self, record: Record, png: bytes, option: int | None) -> Line:
        prompt = build_prompt(record, self.style, self.form, option)
        more: list[bytes] = []
        if self.steps is not None:
            prompt, more = self.steps.apply(record, prompt)
        if self.text_only:
            reply = self.client.chat(prompt, None)
        elif self.images == "panels":
            reply = self.client.chat(prompt, None, more, panel_pngs(record, png, option))
        else:
            image = png if option is None else forms.judge_png(record, png, option)
            reply = self.client.chat(prompt, image, more)
        line = base_line(record, self.system, self.form, option)
        line.update(score(record, self.form, reply.text, option))
        line.update(raw=stored(self.client.redact(reply.text), "raw", line),  # scored as it
                    reasoning=reply.reasoning and stored(  # came, stored redacted and capped
                        self.client.redact(reply.reasoning), "reasoning", line),
                    latency_s=reply.latency_s,
                    usage=reply.usage, attempts=reply.attempts, finish_reason=reply.finish_reason)
        return line


def read_lines(path: Path) -> list[Line]:
    """Every well-formed line of a results file (a line cut short by a kill is skipped)."""
    if not path.is_file():
        return []
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        if isinstance(line, dict) and "id" in line:
            lines.append(line)
    return lines


def answered(lines: Iterable[Line]) -> set[str]:
    return {line["id"] for line in lines if "error" not in line}


class ResultLog:
    """Append-only JSONL writer, safe across threads; every line is flushed and synced."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        if path.is_file() and path.stat().st_size:
            with open(path, "rb") as f:
                f.seek(-1, os.SEEK_END)
                cut_short = f.read(1) != b"\n"
        else:
            cut_short = False
        self._file = open(path, "a", encoding="utf-8")  # closed by close()
        if cut_short:
            self._file.write("\n")

    def write(self, lines: list[Line]) -> None:
        text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
        with self._lock:
            self._file.write(text)
            self._file.flush()
            os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def benchmark_digest(bench_dir: Path) -> str:
    """SHA-256 of the benchmark's benchmark.json (what a run's identity names)."""
    return hashlib.sha256((Path(bench_dir) / BENCHMARK).read_bytes()).hexdigest()


def manifest_digest(bench_dir: Path) -> str:
    """SHA-256 of the benchmark's manifest.json (what a human results file names)."""
    return file_sha256(Path(bench_dir) / MANIFEST)


def open_run(out: Path, identity: dict[str, Any], extra: dict[str, Any]) -> list[Line]:
    """Create or reopen run ``out``; return its existing lines.

    ``identity`` says what the run is (system, benchmark, prompt...): reopening a run that
    has answers made with a different identity raises ValueError.  ``extra`` is only
    informative (URL, limits).
    """
    out.mkdir(parents=True, exist_ok=True)
    meta_path = out / META
    lines = read_lines(out / RESULTS)
    if meta_path.is_file() and answered(lines):
        try:
            old = json.loads(meta_path.read_text())["identity"]
            if "form" in old:  # runs of the old form name "fill" resume as "open"
                old = {**old, "form": forms.ALIASES.get(old["form"], old["form"])}
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{meta_path} is unreadable; use a new --out") from exc
        diff = [k for k in sorted(set(old) | set(identity)) if old.get(k) != identity.get(k)]
        if diff:
            verb = "differs" if len(diff) == 1 else "differ"
            raise ValueError(f"{out} holds a run with other settings ({', '.join(diff)} "
                             f"{verb}); use a new --out, or --restart to discard it")
    meta = {"spatialcad": __version__, "identity": identity, **extra}
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    return lines


def clear_run(out: Path) -> None:
    """Forget the answers of run ``out`` (``eval --restart``)."""
    for name in (RESULTS, META):
        (out / name).unlink(missing_ok=True)


@dataclass
class Progress:
    new: int = 0
    rejected: int = 0


def run_items(records: list[Record], load_png: Callable[[Record], bytes], work: Work,
              log: ResultLog, concurrency: int = 1, desc: str = "eval") -> Progress:
    """Answer ``records`` with ``work`` on ``concurrency`` threads, logging every line.

    An :class:`EndpointError` stops the run: nothing more is sent, requests in flight are
    finished and logged, then the error is raised.  Five :class:`ItemError` in a row mean
    the endpoint rejects everything, and are turned into an EndpointError.
    """
    done = Progress()
    stop = threading.Event()
    lock = threading.Lock()
    streak = [0]

    def one(record: Record) -> None:
        if stop.is_set():
            return
        try:
            lines = work(record, load_png(record))
        except ItemError as exc:
            log.write([{"id": item_id(record), "error": str(exc)}])
            with lock:
                done.rejected += 1
                streak[0] += 1
                if streak[0] >= MAX_REJECTED_IN_A_ROW:
                    raise EndpointError(f"{streak[0]} requests in a row were rejected; "
                                        f"last: {exc}", config=True) from exc
            return
        except EndpointError:
            stop.set()
            raise
        log.write(lines)
        with lock:
            done.new += 1
            streak[0] = 0

    bar = tqdm(total=len(records), desc=desc, unit="item", file=sys.stderr, disable=None)
    pool = ThreadPoolExecutor(max(1, concurrency))
    try:
        pending: set[Future] = {pool.submit(one, r) for r in records}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_EXCEPTION)
            bar.update(len(finished))
            for fut in finished:
                error = fut.exception()
                if error is not None:
                    stop.set()
                    for p in pending:
                        p.cancel()
                    wait(pending)
                    raise error
    finally:
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
        bar.close()
    return done
