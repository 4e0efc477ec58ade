"""Generation and verification runs: each item built by its task, assembled into a record
and composite image, proved, and written in order (in parallel, atomically)."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from multiprocessing import get_context
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from tqdm import tqdm

from spatialcad import __version__, kernel_cache
from spatialcad.derived import judge_entries, scene_hash, spoken_texts
from spatialcad.record import records as rec
from spatialcad.record.benchmark import (
    Benchmark,
    BenchmarkError,
    BenchmarkWriter,
    Entry,
    manifest_entry,
    record_split,
)
from spatialcad.record.records import LETTERS
from spatialcad.record.splits import split_of, split_seed
from spatialcad.render import raster
from spatialcad.render.layout import TooLarge, compose
from spatialcad.render.opencv import cv2
from spatialcad.render.png import decode_png, encode_png
from spatialcad.run.outdir import atomic_dir
from spatialcad.run.plan import RunPlan, Shard
from spatialcad.run.scenes import (
    SCENE_ATTEMPTS,
    SCENE_BLOCK,
    SceneGroup,
    SceneGroups,
    lists_scenes,
)
from spatialcad.run.verification import check_steps, run_verifier
from spatialcad.seeding import derive_seed, item_rng
from spatialcad.steps import with_steps as add_steps
from spatialcad.tasks import registry
from spatialcad.tasks.base import Draft, ItemSlot, Reject
from spatialcad.tasks.registry import TaskInfo

MAX_ATTEMPTS = 200
WINDOW_PER_JOB = 4  # calls queued per worker process
PR_SET_PDEATHSIG = 1  # linux/prctl.h
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc malloc.h, for mallopt

T = TypeVar("T")
R = TypeVar("R")


class GenerationError(RuntimeError):
    """No verified item could be produced within MAX_ATTEMPTS sub-seeds."""


@dataclass
class ItemResult:
    record: dict[str, Any]
    png: bytes
    rejected: int  # candidates thrown away (Reject or failed verification) before this one
    image: np.ndarray | None = None  # the composed image the PNG encodes (if asked to keep it)
    step_pngs: list[bytes] = field(default_factory=list)  # generate --with-steps
    unverified: int = 0  # of the ``rejected``: those that failed verification
    skipped: dict[str, int] = field(default_factory=dict)  # inputs passed over, by reason


def assemble(
    task: TaskInfo, draft: Draft, *, level: int, image_id: str, letter: str, item_seed: int
) -> tuple[dict[str, Any], np.ndarray]:
    """Shuffle the draft's options so the answer lands on ``letter``; compose the image."""
    if len(draft.options) != 4 or sum(o.is_answer for o in draft.options) != 1:
        raise ValueError(f"{task.name}: a draft needs 4 options with exactly one answer")
    answer = next(i for i, o in enumerate(draft.options) if o.is_answer)
    others = [i for i in range(4) if i != answer]
    others = [others[i] for i in item_rng(derive_seed(item_seed, "shuffle")).permutation(3)]
    order = others[:]
    order.insert(LETTERS.index(letter), answer)
    options = [draft.options[i] for i in order]

    images = [o.image for o in options if o.image is not None]
    image_options = len(images) == len(options)
    image, layout = compose([(p.image, p.caption) for p in draft.reference],
                            images if image_options else None)
    choices = [f"Image {LETTERS[i]}" if image_options else o.text for i, o in enumerate(options)]
    said = spoken_texts(task, draft.spec, [o.data for o in options])
    record = {
        "Category": task.category,
        "Task": task.record_task,
        "Level": f"Level{level}",
        "Image_id": image_id,
        "Question": draft.question,
        "Choices": choices,
        "Answer": letter,
        "Explanation": "\n".join(f"{LETTERS[i]}: {o.explanation}" for i, o in enumerate(options)),
        **_fill_form(draft),
        "judge": judge_entries(said, [o.is_answer for o in options]),
        "seed": item_seed,
        "scene_hash": scene_hash(task, draft.spec),
        "generator": {"name": f"spatialcad.tasks.{task.name}", "version": __version__},
        "spec": draft.spec,
        "options": [
            {"letter": LETTERS[i], "is_answer": o.is_answer, "operator": o.operator, "data": o.data}
            for i, o in enumerate(options)
        ],
        "layout": layout,
    }
    record["image"] = rec.image_path(record) + ".png"
    return record, image


def _fill_form(draft: Draft) -> dict[str, str]:
    """``Question_direct`` and ``Answer_direct``, each only if the draft has it: an item
    without a fill-in form has neither key (SpatialViz-Bench's scorer takes any record
    holding ``Answer_direct``, even a null one, for a numeric item)."""
    form = {"Question_direct": draft.question_direct, "Answer_direct": draft.answer_direct}
    return {k: v for k, v in form.items() if v is not None}


def candidates(task: TaskInfo, level: int, index: int, seed: int,
               options: dict[str, Any] | None = None, split: str | None = None,
               n: int | None = None, skipped: Counter[str] | None = None,
               first_attempt: int = 0, held: frozenset[str] = frozenset(),
               ) -> Iterator[tuple[int, int, Draft | str]]:
    """The candidate drafts of item ``index``: ``(attempt, item seed, draft)``, or the reason
    a candidate was thrown away instead of the draft (``Reject``, a scene of another split,
    a scene in ``held``), from attempt ``first_attempt`` on (with ``held``, for at most
    ``SCENE_ATTEMPTS`` attempts).  With ``split``, candidates
    come from that split's seed stream (spatialcad/record/splits.py).  With ``n`` (the run's
    items), the generator knows its :class:`ItemSlot`; the inputs it passes over
    (``Reject.skipped``, ``Draft.skipped``) are added to ``skipped``."""
    generator = task.generator(options, split)
    base = seed if split is None else split_seed(seed, split)
    if n is not None:
        generator.slot = ItemSlot(index, n, base, held)
    last = min(MAX_ATTEMPTS, first_attempt + SCENE_ATTEMPTS) if held else MAX_ATTEMPTS
    for attempt in range(first_attempt, last):
        item_seed = derive_seed(base, task.name, level, index, attempt)
        try:
            draft = generator.build(level, item_rng(item_seed))
        except Reject as exc:
            if skipped is not None:
                skipped.update(exc.skipped)
            yield attempt, item_seed, f"rejected: {exc}"
            continue
        if skipped is not None:
            skipped.update(draft.skipped)
        scene = scene_hash(task, draft.spec)
        if split is not None and split_of(scene) != split:
            yield attempt, item_seed, f"its scene belongs to another split than {split}"
            continue
        if scene in held:
            yield attempt, item_seed, "its scene is already in the run"
            continue
        yield attempt, item_seed, draft


def make_item(task_name: str, level: int, index: int, n: int, seed: int,
              options: dict[str, Any] | None = None, split: str | None = None,
              with_steps: bool = False, *, keep_image: bool = False,
              encode: bool = True, first_attempt: int = 0,
              held: frozenset[str] = frozenset()) -> ItemResult:
    """Build, assemble and verify item ``index``; retry with the next sub-seed on failure.
    ``options`` are the run's task settings (e.g. ``deepcad_dir``); with ``split``, the item
    comes from that split (:func:`candidates`); ``with_steps`` adds the step-by-step
    solution of a task that has one (spatialcad/steps.py), proved too; with ``keep_image``,
    the result also holds the composed image array (``generate`` leaves it out: it would
    cross process pipes), and with ``encode=False`` its ``png`` is empty (for a caller that
    encodes another picture, such as a judge question's crop).  ``first_attempt`` and
    ``held``: the candidates from that attempt on whose scenes are not held
    (:func:`settled`)."""
    _keep_freed_memory()
    task = registry.task(task_name)
    raster.forget()  # the render memo serves one item (memory stays flat over a long run)
    letter = rec.answer_letter(seed if split is None else split_seed(seed, split), task_name,
                               level, index)
    last, unverified, skipped = "", 0, Counter[str]()
    for attempt, item_seed, draft in candidates(task, level, index, seed, options, split, n,
                                                skipped, first_attempt, held):
        if isinstance(draft, str):
            last = draft
            continue
        try:
            record, image = assemble(
                task, draft, level=level, image_id=rec.image_id(index, n), letter=letter,
                item_seed=item_seed,
            )
        except TooLarge as exc:  # its pictures do not fit the composite: the next candidate
            last = f"rejected: {exc}"
            continue
        # PNG is lossless (tests/test_render.py: test_png_round_trip), so the composed image
        # is exactly what the file will show; `spatialcad verify` re-reads the files
        failures = run_verifier(record, image)
        if not failures:
            png = encode_png(image) if encode else b""
            item = ItemResult(record, png, attempt, image if keep_image else None,
                              unverified=unverified, skipped=dict(skipped))
            return _with_steps(task, item) if with_steps and task.has_steps else item
        last, unverified = "verification failed: " + "; ".join(failures), unverified + 1
    raise GenerationError(f"{task_name} level {level} item {index}: no valid item ({last})")


def settled(group: SceneGroup, first: ItemResult,
            again: Callable[[int, frozenset[str]], ItemResult]) -> tuple[ItemResult, bool]:
    """The item of a run whose first verified candidate is ``first`` (made without ``held``):
    ``first`` if its scene is new to ``group``, else ``again(next attempt, held scenes)``;
    when that finds none, ``first`` (the group's space is spent).  Also whether the item
    repeats a scene of the group (spatialcad/run/scenes.py)."""
    scene = first.record["scene_hash"]
    item, repeat = first, scene in group.held
    if repeat and not group.spent:
        try:
            item = again(first.rejected + 1, frozenset(group.held))
        except GenerationError:
            group.spent = True
        else:
            item.unverified += first.unverified
            repeat = False
    group.held.add(item.record["scene_hash"])
    return item, repeat


def _with_steps(task: TaskInfo, item: ItemResult) -> ItemResult:
    """``item`` with its proved step-by-step solution (the same item as without steps: a
    solution that fails its proof is a bug, not a reason to draw another item).  The chain
    and texts are proved here; the pictures were just drawn from those states by the code
    that would redraw them, so only ``verify`` (reading files) compares them again."""
    record, pictures = add_steps(task, item.record)
    failures = check_steps(record, None)
    if failures:
        raise GenerationError(f"{rec.image_path(record)}: its steps failed: "
                              + "; ".join(failures))
    return ItemResult(record, item.png, item.rejected, item.image,
                      [encode_png(p) for p in pictures], item.unverified, item.skipped)


@cache
def _keep_freed_memory() -> None:
    """Once per process, on glibc: keep freed memory (up to 64 MiB, arrays up to 32 MiB) for
    the next allocation instead of returning it to the kernel at once.  By default glibc
    maps most image-sized arrays afresh and unmaps them when freed, so an item's thousands
    of short-lived arrays page-fault again on every use: ~10% of generation time (kernel
    time and page clearing).  Peak memory does not change measurably."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None)
    if hasattr(libc, "mallopt") and hasattr(libc, "gnu_get_libc_version"):  # glibc only
        libc.mallopt(M_MMAP_THRESHOLD, 32 << 20)
        libc.mallopt(M_TRIM_THRESHOLD, 64 << 20)


def _worker_start(parent: int, jobs: int) -> None:
    """In each worker: die with the parent (even by SIGKILL), leave Ctrl-C to the parent,
    and give OpenCV only this worker's share of the cores (its own thread pool on top of
    ``jobs`` busy workers only adds switching: ~15% more CPU time for the picture-heavy
    tasks; the pixels are the same)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    share = (os.cpu_count() or 1) // jobs
    cv2.setNumThreads(share if share > 1 else 0)  # 0: OpenCV runs each call in its caller
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    pool.shutdown(wait=False, cancel_futures=True)
    workers = multiprocessing.active_children()
    for p in workers:
        p.terminate()
    for p in workers:
        p.join(5)


@contextmanager
def worker_pool(jobs: int) -> Iterator[ProcessPoolExecutor | None]:
    """``jobs`` worker processes for :func:`parallel_map` (None for ``jobs <= 1``: calls run
    in-process), which several runs can share: a worker starts (imports, warms its caches)
    once, not once per run.  If the block fails or is interrupted, the workers are killed at
    once."""
    if jobs <= 1:
        yield None
        return
    pool = ProcessPoolExecutor(jobs, mp_context=get_context("spawn"),
                               initializer=_worker_start, initargs=(os.getpid(), jobs))
    try:
        yield pool
    except BaseException:
        _kill_workers(pool)
        raise
    pool.shutdown(wait=True)


def parallel_map(fn: Callable[..., R], jobs_args: Iterable[tuple], jobs: int,
                 pool: ProcessPoolExecutor | None) -> Iterator[R]:
    """``fn(*args)`` for each args tuple, in order, over the ``jobs`` processes of ``pool``
    (:func:`worker_pool`; None: in this process).

    At most ``WINDOW_PER_JOB * jobs`` calls are queued at once, so ``jobs_args`` may be long
    and lazy.  If the caller stops early or is interrupted, the workers are killed at once.
    """
    if pool is None:
        yield from (fn(*a) for a in jobs_args)
        return
    pending: deque[Future[R]] = deque()
    try:
        for a in jobs_args:
            pending.append(pool.submit(fn, *a))
            if len(pending) >= WINDOW_PER_JOB * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    except BaseException:
        _kill_workers(pool)
        raise


def progress(it: Iterable[T], total: int, desc: str, done: int = 0, unit: str = "item"
             ) -> Iterator[T]:
    return iter(tqdm(it, total=total, initial=done, desc=desc, unit=unit, file=sys.stderr,
                     disable=None))


@dataclass
class RunSummary:
    items: int
    rejected: int  # candidates thrown away in this run (redrawn)
    per_task: Mapping[str, int]
    resumed: int = 0  # items an earlier, interrupted run had made
    unverified: int = 0  # of the ``rejected``: those that failed verification
    skipped: Mapping[str, int] = field(default_factory=dict)  # inputs passed over, by reason
    # per task: the run's items whose scene an earlier item of the run holds (run-wide)
    repeats: Mapping[str, int] = field(default_factory=dict)


def generate(
    tasks: list[str], level: int, n: int, seed: int, out: Path, *, jobs: int = 1,
    overwrite: bool = False, command: str = "", options: dict[str, Any] | None = None,
    shard: Shard | None = None, resume: bool = False, split: str | None = None,
    with_steps: bool = False, pool: ProcessPoolExecutor | None = None,
) -> RunSummary:
    """Generate ``n`` verified items per task into ``out`` (all or nothing); with ``shard``,
    only that shard's block of the run's items (see spatialcad/run/plan.py).  Records and
    images stream to disk as they are proved: memory does not grow with the run.

    With ``resume``, an interrupted run of the same command is continued where it stopped
    (same bytes as an uninterrupted run; the items it keeps are proved first,
    :func:`prove_kept`), an ``out`` this command already completed is left as it is, and an
    interruption keeps what was done for the next ``resume``.
    ``with_steps``: records and pictures of step-by-step solutions (spatialcad/steps.py).
    ``pool``: worker processes shared with other runs (:func:`worker_pool`; ``jobs`` of them).
    With workers, the numba kernels of ``tasks`` are compiled first where numba's disk cache
    lacks them (:func:`compile_missing`).
    """
    plan = RunPlan(tuple(tasks), n, shard)
    plan.check()
    options = dict(options or {})
    params = {"command": f"{command} --shard {shard}" if shard else command,
              "tasks": tasks, "level": level, "n": n, "seed": seed, "options": options,
              **({"split": split} if split else {}),
              **({"with_steps": True} if with_steps else {})}
    per_task = dict.fromkeys(tasks, 0)
    for t, _ in plan:
        per_task[t] += 1
    if resume and _completed(out, params):
        return RunSummary(len(plan), 0, per_task, resumed=len(plan))
    with atomic_dir(out, overwrite, resume=resume) as tmp, \
            _shared_or_own(pool, jobs) as workers:
        if workers is not None:
            compile_missing(workers, tasks, options)
        writer = BenchmarkWriter(tmp, params, check=lambda kept: prove_kept(
            tmp, kept, plan, level, split, with_steps, jobs, workers))
        try:
            done = writer.items
            start, stop = plan.bounds[0] + done, plan.bounds[1]
            listed = {t: lists_scenes(t, level, options) for t in tasks}
            first_task, first_index = plan.item(start) if start < stop else (tasks[0], 0)
            remade = 0 if listed[first_task] else first_index % SCENE_BLOCK
            positions = range(start - remade, stop)  # from the block's start (scenes.py)
            work = ((t, level, i, n, seed, options, split, with_steps)
                    for t, i in map(plan.item, positions))
            rejected = unverified = 0
            skipped = Counter[str]()
            groups = SceneGroups()
            firsts = parallel_map(make_item, work, jobs, workers)
            bar = progress(zip(positions, firsts, strict=True), len(plan) + remade,
                           "generate", done)
            for position, first in bar:
                t, i = plan.item(position)
                result = first
                if not listed[t]:  # a listed level's items take their scenes in turn
                    again = _again(workers, (t, level, i, n, seed, options, split, with_steps))
                    result, _ = settled(groups.of(t, i), first, again)
                if position < start:
                    continue  # an earlier item of the block, made only for its scene
                writer.add(result.record, result.png, result.step_pngs)
                rejected += result.rejected
                unverified += result.unverified
                skipped.update(result.skipped)
            writer.finish(manifest_entry(shard, plan.total) if shard else None)
            repeats = {key.split("/")[0]: n for key, n in writer.scenes.repeats.items()}
        finally:
            writer.close()
    return RunSummary(len(plan), rejected, per_task, resumed=done, unverified=unverified,
                      skipped=dict(sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0]))),
                      repeats=by_task(repeats, tasks))


def by_task(repeats: Mapping[str, int], tasks: Sequence[str]) -> dict[str, int]:
    """``repeats`` keyed by record task name, keyed by CLI task name (those above 0)."""
    names = {registry.task(t).record_task: t for t in tasks}
    return {names.get(k, k): n for k, n in repeats.items() if n}


def _again(pool: ProcessPoolExecutor | None, args: tuple[Any, ...]
           ) -> Callable[[int, frozenset[str]], ItemResult]:
    """:func:`make_item` of ``args`` from an attempt on, clear of held scenes, in ``pool``
    (for :func:`settled`)."""
    def call(first_attempt: int, held: frozenset[str]) -> ItemResult:
        if pool is None:
            return make_item(*args, first_attempt=first_attempt, held=held)
        return pool.submit(make_item, *args, first_attempt=first_attempt, held=held).result()
    return call


@contextmanager
def _shared_or_own(pool: ProcessPoolExecutor | None, jobs: int
                   ) -> Iterator[ProcessPoolExecutor | None]:
    """``pool``, else ``jobs`` workers of the run's own (:func:`worker_pool`; None for
    ``jobs <= 1``)."""
    if pool is not None:
        yield pool
        return
    with worker_pool(jobs) as own:
        yield own


def compile_missing(pool: Executor, tasks: Iterable[str],
                    options: dict[str, Any] | None = None) -> dict[str, float | None]:
    """Compile the numba kernels of ``tasks`` not yet in numba's disk cache (no stamp,
    spatialcad/kernel_cache.py) with :func:`compile_in`, showing progress; otherwise every
    worker compiles each kernel it meets, all of them the same ones at the same time."""
    cold = kernel_cache.missing(tasks)
    if not cold:
        return {}
    return dict(progress(compile_in(pool, cold, options), len(cold), "compile numba kernels",
                         unit="task"))


def compile_in(pool: Executor, tasks: Iterable[str], options: dict[str, Any] | None = None
               ) -> Iterator[tuple[str, float | None]]:
    """Compile the kernels of ``tasks`` in ``pool``'s processes, heaviest first, by one
    level-1 item each, and stamp them; yields (task, seconds its item took) as they finish,
    in that order.  ``options``: the run's task settings (three_view reads its parts).  A
    task that cannot make a level-1 item with them (None for its seconds: say, a directory
    of parts only of level 2's face band) is not stamped; its kernels compile where used."""
    order = kernel_cache.compile_order(tasks)
    for task, seconds in zip(order, pool.map(_first_item, order, [options] * len(order)),
                             strict=True):
        if seconds is not None:
            kernel_cache.mark_compiled(task)
        yield task, seconds


def _first_item(task: str, options: dict[str, Any] | None) -> float | None:
    """Make (and drop) one level-1 item of ``task``: the seconds it took (None: none made)."""
    start = time.perf_counter()
    try:
        make_item(task, 1, 0, 1, 0, options, encode=False)
    except GenerationError:
        return None
    return time.perf_counter() - start


def _completed(out: Path, params: dict[str, Any]) -> bool:
    """True if ``out`` is the sound output of a run with ``params``."""
    try:
        bench = Benchmark.open(out)
    except ValueError:
        return False
    manifest = bench.manifest
    same = (manifest.get("command") == params["command"] and manifest.get("parameters") == {
        k: v for k, v in params.items() if k != "command"})
    return same and not bench.problems()


def _verify_one(image_file: str | None, record: dict[str, Any],
                step_files: list[str] | None = None, with_steps: bool = False) -> list[str]:
    """The item's failures; with ``step_files`` (its sound step pictures) its steps' too;
    ``with_steps``: the run was made with steps, so a task that has them must show them."""
    if image_file is None:
        return ["not verified: its image is not a sound file of the benchmark"]
    task = registry.by_record_task(record["Task"])
    if task is None or task.name != rec.task_name(record):
        return [f"its generator {record['generator'].get('name')!r} did not make "
                f"{record.get('Task')!r} items"]
    try:
        image = decode_png(Path(image_file).read_bytes())
    except (OSError, ValueError) as exc:
        return [f"image unreadable: {exc}"]
    failures = run_verifier(record, image)
    if with_steps and task.has_steps and "steps" not in record:
        failures.append("it has no steps, though its run was made with --with-steps")
    if "steps" in record:
        if step_files is None:
            return failures + ["not verified: its step images are not sound files"]
        try:
            pictures = [decode_png(Path(f).read_bytes()) for f in step_files]
        except (OSError, ValueError) as exc:
            return failures + [f"step image unreadable: {exc}"]
        failures += check_steps(record, pictures)
    return failures


def prove_kept(root: Path, kept: list[Entry], plan: RunPlan, level: int, split: str | None,
               with_steps: bool, jobs: int, workers: ProcessPoolExecutor | None) -> None:
    """Refuse (``BenchmarkError`` naming the first of them) the items an interrupted run
    spooled in ``root`` (``kept``: their images intact) unless each is the run's item at
    its place and passes the proof ``verify`` gives it.  Checksums beside a record prove
    nothing about it (whoever edits the record can rewrite them), the proof can't be
    rewritten, and it costs a fraction of making the item (~10%)."""
    failed: dict[int, str] = {}
    work: list[tuple[int, tuple[str, dict[str, Any], list[str], bool]]] = []
    for k, entry in enumerate(kept):
        record = entry["record"]
        task, index = plan.item(plan.bounds[0] + k)
        problem = _misplaced(record, (task, f"Level{level}", rec.image_id(index, plan.n)),
                             split, with_steps)
        if problem:
            failed[k] = problem
            continue
        work.append((k, (str(root / record["image"]), record,
                         [str(root / s) for s in rec.step_images(record)], with_steps)))
    proofs = parallel_map(_verify_one, (args for _, args in work), jobs, workers)
    for (k, _), failures in zip(work, progress(proofs, len(work), "prove kept items"),
                                strict=True):
        if failures:
            failed[k] = "; ".join(failures)
    if failed:
        k = min(failed)
        more = f" (and {len(failed) - 1} more items)" if len(failed) > 1 else ""
        reason = " ".join(failed[k].split())  # one line
        raise BenchmarkError(f"the interrupted run in {root} was changed after it was written: "
                             f"its item {rec.image_path(kept[k]['record'])} fails ({reason})"
                             f"{more}; run without --resume to start afresh")


def _misplaced(record: dict[str, Any], want: tuple[str, str, str], split: str | None,
               with_steps: bool) -> str | None:
    """Why a spooled record (its key plain names) is not the run's item ``want`` (task,
    level, image id) as ``verify`` reads it, before its proof; None if it is."""
    problem = rec.type_problem(record)
    if problem:
        return problem
    if record["image"] != rec.expected_image(record):
        return f"its image field {record['image']!r} is not {rec.expected_image(record)!r}"
    found = (rec.task_name(record), record["Level"], record["Image_id"])
    if found != want:
        return f"it is not the run's item {'/'.join(want)} but {'/'.join(found)}"
    if split and record_split(record) != split:
        return f"its scene belongs to another split than {split}"
    if "steps" in record and not with_steps:
        return "it has steps, though the run is made without --with-steps"
    return None


def verify_dir(out: Path, jobs: int = 1) -> tuple[int, list[tuple[str, list[str]]]]:
    """Check benchmark ``out`` as a whole and re-run every item's verifier; return the
    number of records and ``(where, failures)`` for every failing item or file.  With
    workers, the kernels of its tasks are compiled first as for ``generate``."""
    bench = Benchmark.open(out)
    problems = bench.problems()
    failed: list[tuple[str, list[str]]] = [(name, [p]) for name, p in problems]
    unsound = {name for name, _ in problems}
    work = []
    for r in bench.records:
        try:
            image = rec.expected_image(r)
            steps = rec.step_images(r)
        except ValueError:
            continue  # reported by problems()
        if rec.type_problem(r):
            continue  # reported by problems(); a verifier may rely on the types
        sound = r.get("image") == image and image not in unsound
        steps_sound = not unsound.intersection(steps)
        work.append((str(out / image) if sound else None, r,
                     [str(out / s) for s in steps] if steps_sound else None, bench.with_steps))
    tasks = {t.name for _, r, _, _ in work if (t := registry.by_record_task(r.get("Task")))}
    with _shared_or_own(None, jobs) as workers:
        if workers is not None:
            compile_missing(workers, sorted(tasks))
        results = parallel_map(_verify_one, work, jobs, workers)
        for (_, r, _, _), failures in zip(work, progress(results, len(work), "verify"),
                                          strict=True):
            if failures:
                failed.append((rec.image_path(r), failures))
    return len(bench.records), failed
