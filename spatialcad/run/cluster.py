"""One generation run as N shards on a cluster: submitted, watched, merged, checked.

``generate --executor slurm --shards N`` submits the run's N shards as one SLURM job array
through submitit (``--executor local``: the same path with submitit's local executor, one
process per shard).  Each array task runs :func:`run_shard`, which is exactly
``generate --shard K/N --resume`` into ``WORK/shards/K``, so a task that is re-run goes on
where it stopped.  :func:`run` watches the tasks (shards done / running / pending /
failed), re-submits a failed shard once, merges the shards into OUT (spatialcad/run/shards.py:
byte for byte the unsharded run) and checks the merged benchmark.  WORK (``OUT.work``
beside OUT) holds the run's identity (``run.json``), the shards and submitit's logs; it is
removed after a successful merge (and when no job ran: the submission was refused, or SLURM
would never start the jobs as asked) and kept, and named, otherwise.  A WORK of another run
is refused before anything is submitted (:func:`claim_work`)."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from spatialcad.record.benchmark import Benchmark
from spatialcad.run import pipeline, shards
from spatialcad.run.plan import RunPlan, Shard

POLL_S = 1.0  # seconds between looks at the jobs' states
RUN_FILE = "run.json"  # in WORK: the run whose shards it holds (ShardedRun.identity)
REASONS_S = 10.0  # seconds between looks at why pending jobs wait
# Reasons SLURM gives for holding a job that it will never start as asked (the request
# itself must change): https://slurm.schedmd.com/job_reason_codes.html
NEVER_STARTS = frozenset({"BadConstraints", "PartitionConfig", "PartitionTimeLimit",
                          "InvalidAccount", "InvalidQOS", "AccountNotAllowed", "QOSNotAllowed"})
FAILED = ("FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED",
          "BOOT_FAIL", "DEADLINE")


class ClusterError(RuntimeError):
    """The cluster could not run the shards (one line, with where to look)."""


class NothingRan(ClusterError):
    """No shard job ever ran: a WORK directory made for them holds nothing to keep."""


@dataclass(frozen=True)
class ShardedRun:
    """What every shard of the run is: ``generate`` arguments without --shard / --out."""

    tasks: list[str]
    level: int
    n: int
    seed: int
    command: str
    options: dict[str, Any]
    count: int  # N shards
    work: str  # WORK directory (absolute)
    jobs: int = 1  # worker processes per shard
    split: str | None = None
    with_steps: bool = False

    def shard_dir(self, k: int) -> Path:
        return Path(self.work) / "shards" / str(k)

    @property
    def identity(self) -> str:
        """What makes the shards' files (not how they are run): WORK/run.json."""
        return json.dumps({"command": self.command, "options": self.options,
                           "shards": self.count}, sort_keys=True)


def claim_work(run: ShardedRun, overwrite: bool) -> None:
    """Make sure WORK can hold this run's shards: absent, or this run's (its shards go on
    where they stopped); another run's is removed with ``overwrite``, else ``ValueError``,
    as for any folder not ours (never removed)."""
    work = Path(run.work)
    if not work.exists():
        return
    try:
        held = (work / RUN_FILE).read_text()
    except OSError:
        raise ValueError(f"{work} is in the way and holds no spatialcad shards (no {RUN_FILE}): "
                         "move it, or use another --out") from None
    if held == run.identity:
        return
    if not overwrite:
        raise ValueError(f"{work} holds the shards of another run (another command or shard "
                         "count); use --overwrite to discard them, or another --out")
    shutil.rmtree(work)


def run_shard(run: ShardedRun, k: int) -> dict[str, Any]:
    """The job of array task ``k``: shard ``k`` of the run into WORK/shards/k (resumable);
    what its summary counts."""
    summary = pipeline.generate(run.tasks, run.level, run.n, run.seed, run.shard_dir(k),
                                jobs=run.jobs, command=run.command, options=run.options,
                                shard=Shard(k, run.count), resume=True, split=run.split,
                                with_steps=run.with_steps)
    return {"items": summary.items, "rejected": summary.rejected,
            "unverified": summary.unverified, "resumed": summary.resumed,
            "skipped": summary.skipped}


@dataclass
class Merged:
    """A finished sharded run: its items, what its shards passed over (their jobs'
    summaries: inputs skipped by reason), and its items repeating a scene of an earlier item
    (per task, counted over the merged run)."""

    items: int
    skipped: dict[str, int]
    repeats: dict[str, int]


@dataclass
class SlurmSettings:
    partition: str | None = None
    time_min: int = 60
    cpus: int = 1
    setup: list[str] = field(default_factory=list)  # shell lines before the job (env activation)
    options: dict[str, str | bool] = field(default_factory=dict)  # more #SBATCH --NAME[=VALUE]


# sbatch options the run sets itself (or has its own flag for): not taken from --slurm-option
OWN_OPTIONS = frozenset({"array", "cpus-per-task", "error", "job-name", "nodes", "open-mode",
                         "output", "partition", "signal", "time", "wckey", "wrap"})


def parse_slurm_options(texts: Iterable[str]) -> dict[str, str | bool]:
    """``NAME=VALUE`` or ``NAME`` (a flag) texts as sbatch options; ``ValueError`` for a
    malformed one or one the run sets itself."""
    options: dict[str, str | bool] = {}
    for text in texts:
        name, has_value, value = text.partition("=")
        name = name.strip().removeprefix("--")
        if not re.fullmatch(r"[a-z][a-z0-9-]*", name) or (has_value and not value):
            raise ValueError(f"--slurm-option {text!r}: give NAME=VALUE or NAME, as sbatch "
                             "spells its long options (e.g. account=lab, mem=8G, exclusive)")
        if name in OWN_OPTIONS:
            raise ValueError(f"--slurm-option {name}: the run sets it itself (see "
                             "--slurm-partition, --slurm-time and --slurm-cpus)")
        options[name] = value if has_value else True
    return options


def work_dir(out: Path) -> Path:
    out = Path(out).resolve()
    return out.with_name(out.name + ".work")


def executor(kind: str, folder: Path, slurm: SlurmSettings, count: int) -> Any:
    """A submitit executor: ``kind`` "slurm" (never silently local) or "local"."""
    import submitit

    if kind == "local":
        local = submitit.LocalExecutor(folder=str(folder))
        local.update_parameters(timeout_min=slurm.time_min)
        return local
    try:
        ex = submitit.AutoExecutor(folder=str(folder), cluster="slurm")
    except RuntimeError as exc:  # no srun on PATH
        raise NothingRan(f"SLURM is not available here ({exc}); use --executor local, or "
                           "run on a machine with sbatch") from exc
    params: dict[str, Any] = {
        "timeout_min": slurm.time_min, "cpus_per_task": slurm.cpus, "name": "spatialcad",
        "slurm_array_parallelism": count, "slurm_setup": list(slurm.setup),
        "slurm_signal_delay_s": min(90, max(10, slurm.time_min * 60 // 4))}
    if slurm.partition:
        params["slurm_partition"] = slurm.partition
    if slurm.options:
        params["slurm_additional_parameters"] = dict(slurm.options)
    ex.update_parameters(**params)
    return ex


def _submit_error(exc: Exception) -> NothingRan:
    text = " ".join(str(exc).split())
    if isinstance(exc, FileNotFoundError):
        text = f"{exc.filename or 'sbatch'} was not found (is SLURM installed on this machine?)"
    return NothingRan(f"submitting the shards failed: {text[:400]}")


def submit(run: ShardedRun, kind: str, slurm: SlurmSettings) -> tuple[Any, list[Any]]:
    """Submit the run's shards as one job array; return the executor and its jobs."""
    ex = executor(kind, Path(run.work) / "logs", slurm, run.count)
    try:
        jobs = ex.map_array(run_shard, [run] * run.count, list(range(run.count)))
    except Exception as exc:  # sbatch missing, controller down, bad partition...
        raise _submit_error(exc) from exc
    return ex, jobs


def array_id(jobs: list[Any]) -> str:
    return str(jobs[0].job_id).split("_")[0]


def merge_command(run: ShardedRun, out: Path) -> str:
    return shlex.join(["spatialcad", "merge", *(str(run.shard_dir(k)) for k in range(run.count)),
                       "--out", str(out)])


def _state(job: Any) -> str:
    """The job's state, "DONE" once its result is in (FAILED etc. for a dead job)."""
    if job.done():
        return "FAILED" if job.exception() is not None else "DONE"
    state = str(job.state).split()[0]
    return "FAILED" if state.startswith(FAILED) else state


def _why(job: Any) -> str:
    exc = job.exception() if job.done() else None
    lines = [x for x in str(exc).splitlines() if x.strip()] if exc else []
    last = next((x.strip() for x in reversed(lines) if "Error" in x or "error" in x), "")
    state = str(job.state)
    return f"{state}{': ' + last[:200] if last else ''} (log: {job.paths.stderr})"


def pending_reasons(job_ids: list[str]) -> set[str]:
    """Why SLURM holds the pending ones of ``job_ids`` (squeue's reasons; none if squeue
    cannot tell, e.g. the jobs have just ended)."""
    done = subprocess.run(["squeue", "-h", "-r", "-t", "PD", "-j", ",".join(job_ids),
                           "-o", "%r"], capture_output=True, text=True)
    return set(done.stdout.split()) if done.returncode == 0 else set()


def _cancel(jobs: Iterable[Any]) -> None:
    for job in jobs:
        if not job.done():
            job.cancel(check=False)


def watch(ex: Any, jobs: list[Any], run: ShardedRun, echo: Callable[[str], None],
          slurm: bool) -> list[Any]:
    """Wait for every shard and return the jobs that made them; re-submit a failed one
    once; ``ClusterError`` if it fails again,
    ``NothingRan`` (the jobs cancelled) if SLURM holds them for a reason that means they
    can never start as asked (``NEVER_STARTS``)."""
    current = dict(enumerate(jobs))
    tries = dict.fromkeys(current, 1)
    looked, reasons = -REASONS_S, set[str]()
    bar = tqdm(total=run.count, desc="shards", unit="shard", file=sys.stderr, disable=None)
    try:
        while True:
            next(iter(current.values())).get_info(mode="force")  # one sacct for all jobs
            states = {k: _state(j) for k, j in current.items()}
            waiting = [str(current[k].job_id) for k, st in states.items() if st == "PENDING"]
            if slurm and waiting and time.monotonic() - looked >= REASONS_S:
                looked, reasons = time.monotonic(), pending_reasons(waiting)
                never = sorted(reasons & NEVER_STARTS)
                if never:
                    _cancel(current.values())
                    raise NothingRan(
                        f"SLURM will never start the shards as asked (pending: "
                        f"{', '.join(never)}; see https://slurm.schedmd.com/job_reason_codes."
                        "html): ask for what the partition has (--slurm-cpus, --slurm-time, "
                        "--slurm-partition); the jobs are cancelled")
            for k, state in states.items():
                if state != "FAILED":
                    continue
                job = current[k]
                if tries[k] > 1:
                    raise ClusterError(f"shard {k}/{run.count} failed twice: {_why(job)}; the "
                                       f"shards made so far are in {run.work}")
                echo(f"spatialcad: shard {k}/{run.count} failed ({_why(job)}); submitting it "
                     "again")
                try:
                    current[k] = ex.submit(run_shard, run, k)
                except Exception as exc:
                    raise ClusterError(f"{_submit_error(exc)}; the shards made so far are in "
                                       f"{run.work}") from exc
                tries[k] += 1
                states[k] = "PENDING"
            done = sum(s == "DONE" for s in states.values())
            running = sum(s == "RUNNING" for s in states.values())
            bar.n = done
            pending = run.count - done - running
            shown = sorted(reasons - {"None"}) if pending else []  # None: not looked at yet
            why = f" ({', '.join(shown)})" if shown else ""
            bar.set_postfix_str(f"running {running}, pending {pending}{why}, "
                                f"re-submitted {sum(t > 1 for t in tries.values())}")
            bar.refresh()
            if done == run.count:
                return list(current.values())
            time.sleep(POLL_S)
    except KeyboardInterrupt:
        _cancel(current.values())
        echo(f"spatialcad: cancelled the shards still running; the shards made so far are in "
             f"{run.work}: run the same command again to go on")
        raise
    finally:
        bar.close()


def run(run: ShardedRun, out: Path, overwrite: bool, kind: str, slurm: SlurmSettings,
        wait: bool, echo: Callable[[str], None]) -> Merged | None:
    """Submit, watch, merge into ``out`` and check it (None with ``wait=False``: the job
    id and the merge command are printed instead)."""
    RunPlan(tuple(run.tasks), run.n).check_shards(run.count)
    fresh = not Path(run.work).exists()  # else an earlier try's, which keeps its shards
    if fresh:
        Path(run.work).mkdir(parents=True)
        (Path(run.work) / RUN_FILE).write_text(run.identity)
    try:
        ex, jobs = submit(run, kind, slurm)
        what = f"job array {array_id(jobs)}" if kind == "slurm" else "local processes"
        echo(f"spatialcad: submitted {run.count} shards as {what}; logs in {run.work}/logs")
        if not wait:
            echo(f"when the jobs have finished: {merge_command(run, out)}")
            return None
        done = watch(ex, jobs, run, echo, kind == "slurm")
    except NothingRan:
        if fresh and not (Path(run.work) / "shards").exists():
            shutil.rmtree(run.work, ignore_errors=True)
        raise
    items = shards.merge([run.shard_dir(k) for k in range(run.count)], out, overwrite)
    merged = Benchmark.checked(out)
    results = [job.result() for job in done]
    shutil.rmtree(run.work, ignore_errors=True)
    skipped: Counter[str] = Counter()
    for r in results:
        skipped.update(r.get("skipped", {}))
    return Merged(items, dict(skipped),
                  pipeline.by_task(merged.manifest["repeated_scenes"], run.tasks))
