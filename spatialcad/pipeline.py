"""Generation and verification runs: items in parallel, written atomically, in order."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any, TypeVar

from tqdm import tqdm

from spatialcad import records as rec
from spatialcad.outdir import atomic_dir
from spatialcad.render.png import decode_png, encode_png
from spatialcad.seeding import derive_seed, item_rng
from spatialcad.shards import Shard, manifest_entry, run_items, shard_command
from spatialcad.tasks import registry
from spatialcad.tasks.base import Reject
from spatialcad.verify import run_verifier

MAX_ATTEMPTS = 200

T = TypeVar("T")
R = TypeVar("R")


class GenerationError(RuntimeError):
    """No verified item could be produced within MAX_ATTEMPTS sub-seeds."""


@dataclass
class ItemResult:
    record: dict[str, Any]
    png: bytes
    rejected: int  # candidates thrown away (Reject or failed verification) before this one


def make_item(task_name: str, level: int, index: int, n: int, seed: int,
              options: dict[str, Any] | None = None) -> ItemResult:
    """Build, assemble and verify item ``index``; retry with the next sub-seed on failure.
    ``options`` are the run's task settings (e.g. ``deepcad_dir``)."""
    task = registry.get(task_name, options)
    letter = rec.answer_letter(seed, task_name, level, index)
    last = ""
    for attempt in range(MAX_ATTEMPTS):
        item_seed = derive_seed(seed, task_name, level, index, attempt)
        try:
            draft = task.build(level, item_rng(item_seed))
        except Reject as exc:
            last = f"rejected: {exc}"
            continue
        record, image = rec.assemble(
            task, draft, level=level, image_id=rec.image_id(index, n), letter=letter,
            item_seed=item_seed,
        )
        # PNG is lossless (tests/test_render.py: test_png_round_trip), so the composed image
        # is exactly what the file will show; `spatialcad verify` re-reads the files
        png = encode_png(image)
        failures = run_verifier(record, image)
        if not failures:
            return ItemResult(record, png, attempt)
        last = "verification failed: " + "; ".join(failures)
    raise GenerationError(f"{task_name} level {level} item {index}: no valid item ({last})")


def _call(args: tuple[Callable[..., R], tuple]) -> R:
    fn, a = args
    return fn(*a)


def parallel_map(fn: Callable[..., R], jobs_args: list[tuple], jobs: int) -> Iterator[R]:
    """``fn(*args)`` for each args tuple, in order, over ``jobs`` processes (1: in-process)."""
    if jobs <= 1:
        yield from (fn(*a) for a in jobs_args)
        return
    with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:
        yield from pool.map(_call, [(fn, a) for a in jobs_args], chunksize=1)


def progress(it: Iterable[T], total: int, desc: str) -> Iterator[T]:
    return iter(tqdm(it, total=total, desc=desc, unit="item", file=sys.stderr, disable=None))


@dataclass
class RunSummary:
    items: int
    rejected: int
    per_task: dict[str, int]


def generate(
    tasks: list[str], level: int, n: int, seed: int, out: Path, *, jobs: int = 1,
    overwrite: bool = False, command: str = "", options: dict[str, Any] | None = None,
    shard: Shard | None = None,
) -> RunSummary:
    """Generate ``n`` verified items per task into ``out`` (all or nothing); with ``shard``,
    only that shard's block of the run's items (see spatialcad/shards.py)."""
    options = dict(options or {})
    items = run_items(tasks, n)
    start, stop = shard.bounds(len(items)) if shard else (0, len(items))
    with atomic_dir(out, overwrite) as tmp:
        work = [(t, level, i, n, seed, options) for t, i in items[start:stop]]
        records, rejected, per_task = [], 0, dict.fromkeys(tasks, 0)
        for result in progress(parallel_map(make_item, work, jobs), len(work), "generate"):
            path = tmp / result.record["image"]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(result.png)
            records.append(result.record)
            rejected += result.rejected
            per_task[result.record["generator"]["name"].rsplit(".", 1)[1]] += 1
        (tmp / rec.BENCHMARK).write_bytes(rec.dumps(records))
        params = {"command": shard_command(command, shard) if shard else command,
                  "tasks": tasks, "level": level, "n": n, "seed": seed, "options": options}
        rec.write_manifest(tmp, params, records,
                           manifest_entry(shard, len(items)) if shard else None)
    return RunSummary(len(records), rejected, per_task)


def _verify_one(out: str, record: dict[str, Any]) -> list[str]:
    path = Path(out) / rec.image_path(record)
    try:
        image = decode_png(path.with_suffix(".png").read_bytes())
    except (OSError, ValueError) as exc:
        return [f"image unreadable: {exc}"]
    return run_verifier(record, image)


def verify_dir(out: Path, jobs: int = 1) -> list[tuple[str, list[str]]]:
    """Re-run every item's verifier; return ``(item path, failures)`` for failing items."""
    out = Path(out)
    records = rec.read_benchmark(out)
    failed = []
    work = [(str(out), r) for r in records]
    results = parallel_map(_verify_one, work, jobs)
    for r, failures in zip(records, progress(results, len(work), "verify"), strict=True):
        if failures:
            failed.append((rec.image_path(r), failures))
    failed += [(name, [problem]) for name, problem in rec.check_manifest(out)]
    return failed
