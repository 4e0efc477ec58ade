"""`generate --executor slurm|local --shards N` on a real one-node SLURM cluster
(scripts/local-slurm.sh up): the merged result equals the unsharded run byte for byte, a
killed array task is submitted again, --no-wait prints the merge that finishes the job."""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import tree_bytes

from spatialcad.run.outdir import locked

ROOT = Path(__file__).resolve().parents[1]
RUN = ["generate", "--task", "cube_counting,rotation_2d,arrow_moving", "--level", "1",
       "--n", "4", "--seed", "2"]


@pytest.fixture(scope="module")
def slurm():
    """A running local SLURM; the test fails (never skips) with the daemons' logs if not."""
    up = subprocess.run([str(ROOT / "scripts" / "local-slurm.sh"), "up"], capture_output=True,
                        text=True, timeout=1200)
    if up.returncode:
        pytest.fail(f"SLURM did not start (scripts/local-slurm.sh up):\n{up.stdout[-4000:]}\n"
                    f"{up.stderr[-4000:]}")
    yield
    subprocess.run([str(ROOT / "scripts" / "local-slurm.sh"), "down"], capture_output=True,
                   timeout=300)


@pytest.fixture(scope="module")
def unsharded(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("full") / "b"
    subprocess.run([sys.executable, "-m", "spatialcad.cli", *RUN, "--out", str(out)],
                   check=True, capture_output=True)
    return out


def test_slurm_shards_merge_into_the_unsharded_run(slurm, unsharded, spatialcad, tmp_path):
    out = tmp_path / "b"
    code, stdout, err = spatialcad(*RUN, "--executor", "slurm", "--shards", 2, "--out", out,
                                   "--slurm-option", "mem=300M")
    assert code == 0, err
    array = re.search(r"submitted 2 shards as job array (\d+)", err).group(1)
    assert "wrote 12 items in 2 shards" in stdout
    assert tree_bytes(out) == tree_bytes(unsharded)
    assert not (tmp_path / "b.work").exists()  # shards and logs go once merged
    asked = _accounted(array, "ReqMem", lambda rows: len(rows) == 2)
    assert asked == ["300M", "300M"]  # --slurm-option reached sbatch


@pytest.mark.parametrize(("args", "message"), [
    (["--executor", "slurm", "--shards", 2, "--slurm-option", "time=5"],
     "the run sets it itself"),
    (["--executor", "slurm", "--shards", 2, "--slurm-option", "mem 8G"],
     "give NAME=VALUE or NAME"),
    (["--executor", "slurm", "--shards", 2, "--slurm-option", "mem="], "give NAME=VALUE"),
    (["--slurm-cpus", 4, "--slurm-time", 5], "--slurm-time, --slurm-cpus: only with "
     "--executor slurm (and --shards N)"),
    (["--executor", "local", "--shards", 2, "--slurm-time", 5, "--slurm-partition", "p"],
     "--slurm-partition: only with --executor slurm, not local")])
def test_slurm_flags_that_would_be_ignored_or_are_bad_are_refused(spatialcad, tmp_path, args,
                                                                  message):
    code, _, err = spatialcad(*RUN, "--out", tmp_path / "b", *args)
    assert code == 2 and message in err and list(tmp_path.iterdir()) == []


def test_the_local_executor_takes_the_same_path(unsharded, spatialcad, tmp_path):
    out = tmp_path / "b"
    code, _, err = spatialcad(*RUN, "--executor", "local", "--shards", 3, "--out", out)
    assert code == 0, err
    assert tree_bytes(out) == tree_bytes(unsharded)


def _read_lines(stream, into: list[str]) -> threading.Thread:
    """Collect ``stream``'s lines into ``into`` from a thread (so the pipe never fills)."""
    thread = threading.Thread(target=lambda: into.extend(stream), daemon=True)
    thread.start()
    return thread


def _array_id(lines: list[str], proc: subprocess.Popen) -> str:
    end = time.monotonic() + 120
    while time.monotonic() < end and proc.poll() is None:
        found = re.search(r"as job array (\d+)", "".join(lines))
        if found:
            return found.group(1)
        time.sleep(0.1)
    raise AssertionError(f"no job array was submitted: {''.join(lines)}")


def _state(job: str) -> str:
    return subprocess.run(["squeue", "-h", "-j", job, "-o", "%T"], capture_output=True,
                          text=True).stdout.strip()


def _step_pids(task: str) -> list[int]:
    """The processes of an array task (``<array>_<index>``) on this node, once its job step
    runs (none before)."""
    job = subprocess.run(["squeue", "-h", "-j", task, "-o", "%A"], capture_output=True,
                         text=True).stdout.strip()
    listed = subprocess.run(["scontrol", "listpids", job], capture_output=True,
                            text=True).stdout.splitlines()[1:] if job else []
    rows = [line.split() for line in listed if line.split()]
    return [int(r[0]) for r in rows] if any(r[2] == "0" for r in rows) else []


def test_a_killed_array_task_is_submitted_again(slurm, spatialcad, tmp_path):
    run = ["generate", "--task", "cross_section", "--level", "1", "--n", "40", "--seed", "4"]
    proc = subprocess.Popen([sys.executable, "-m", "spatialcad.cli", *run, "--executor",
                             "slurm", "--shards", "2", "--out", str(tmp_path / "b")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    reader = _read_lines(proc.stderr, lines)
    victim = f"{_array_id(lines, proc)}_1"
    shard = tmp_path / "b.work" / "shards"
    end = time.monotonic() + 120
    while not any(shard.glob(".1.tmp-*/*/*/*/*.png")):  # shard 1 has made an item
        assert time.monotonic() < end and proc.poll() is None, "".join(lines)
        time.sleep(0.1)
    assert _state(victim) == "RUNNING"
    # SIGKILL to every process of the task, as the OOM killer or a lost node would (a plain
    # scancel sends SIGTERM first, which submitit's job wrapper rides out; and scancel's
    # --signal=KILL can reach only the batch script while the step starts, letting a short
    # shard finish within KillWait)
    while not (pids := _step_pids(victim)):
        assert time.monotonic() < end and proc.poll() is None, "".join(lines)
        time.sleep(0.1)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    proc.wait(timeout=600)
    reader.join(10)
    err = "".join(lines)
    assert proc.returncode == 0, err
    assert "shard 1/2 failed (" in err and "submitting it again" in err
    assert spatialcad(*run, "--out", tmp_path / "full")[0] == 0
    assert tree_bytes(tmp_path / "b") == tree_bytes(tmp_path / "full")


def test_no_wait_prints_the_job_and_the_merge(slurm, unsharded, spatialcad, tmp_path):
    out = tmp_path / "b"
    code, _, err = spatialcad(*RUN, "--executor", "slurm", "--shards", 2, "--out", out,
                              "--no-wait")
    assert code == 0 and not out.exists()
    job = re.search(r"as job array (\d+)", err).group(1)
    merge = err.split("when the jobs have finished: ", 1)[1].strip()
    end = time.monotonic() + 300
    while _state(job):
        assert time.monotonic() < end
        time.sleep(0.5)
    assert spatialcad(*shlex.split(merge)[1:])[0] == 0
    assert tree_bytes(out) == tree_bytes(unsharded)


def test_clear_errors_without_slurm_or_with_bad_shard_counts(spatialcad, tmp_path, monkeypatch):
    code, _, err = spatialcad(*RUN, "--executor", "slurm", "--shards", 13, "--out", tmp_path)
    assert code == 2 and "--shards must be between 1 and the run's 12 items" in err
    code, _, err = spatialcad(*RUN, "--shards", 2, "--out", tmp_path / "x")
    assert code == 2 and "--executor and --shards go together" in err
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    code, _, err = spatialcad(*RUN, "--executor", "slurm", "--shards", 2, "--out",
                              tmp_path / "x")
    assert code == 1 and "SLURM is not available here" in err
    assert list(tmp_path.iterdir()) == []  # neither OUT nor OUT.work


def test_a_refused_submission_leaves_nothing_but_earlier_shards(slurm, spatialcad, tmp_path):
    bad = ["--executor", "slurm", "--shards", 2, "--slurm-partition", "no-such-partition"]
    out = tmp_path / "b"
    code, _, err = spatialcad(*RUN, *bad, "--out", out)
    assert code == 1 and "submitting the shards failed" in err and "partition" in err
    assert list(tmp_path.iterdir()) == []  # neither OUT nor OUT.work
    code, _, err = spatialcad(*RUN, "--executor", "slurm", "--shards", 2, "--out", out,
                              "--no-wait")  # an earlier try of the run, its shards made
    assert code == 0
    _wait_gone(re.search(r"as job array (\d+)", err).group(1))
    made = tree_bytes(tmp_path / "b.work" / "shards")
    assert spatialcad(*RUN, *bad, "--out", out)[0] == 1
    assert tree_bytes(tmp_path / "b.work" / "shards") == made and not out.exists()


def test_jobs_slurm_will_never_start_are_cancelled_with_the_reason(slurm, spatialcad, tmp_path):
    """More CPUs a task than any node has: SLURM takes the array but holds it pending
    (PartitionConfig) for ever; the run says why, cancels it and leaves nothing behind."""
    code, _, err = spatialcad(*RUN, "--executor", "slurm", "--shards", 2, "--slurm-cpus",
                              4096, "--out", tmp_path / "b")
    assert code == 1 and "SLURM will never start the shards as asked (pending: " \
        "PartitionConfig" in err and "the jobs are cancelled" in err
    job = re.search(r"as job array (\d+)", err).group(1)
    _wait_gone(job, 60)
    assert list(tmp_path.iterdir()) == []


def test_work_of_another_run_is_refused_up_front(slurm, unsharded, spatialcad, tmp_path):
    """OUT.work holding another run's shards (here: another seed, left by --no-wait) would
    make every shard fail twice; it is refused before anything is submitted, and replaced
    with --overwrite.  A folder that is not spatialcad's is never removed."""
    out = tmp_path / "b"
    other = [*RUN[:-1], "3"]  # RUN with --seed 3
    code, _, err = spatialcad(*other, "--executor", "slurm", "--shards", 2, "--out", out,
                              "--no-wait")
    assert code == 0
    _wait_gone(re.search(r"as job array (\d+)", err).group(1))
    code, _, err = spatialcad(*RUN, "--executor", "slurm", "--shards", 2, "--out", out)
    assert code == 2 and "holds the shards of another run" in err and "submitted" not in err
    code, _, err = spatialcad(*RUN, "--executor", "slurm", "--shards", 2, "--out", out,
                              "--overwrite")
    assert code == 0, err
    assert tree_bytes(out) == tree_bytes(unsharded) and not (tmp_path / "b.work").exists()
    foreign = tmp_path / "c.work" / "notes.txt"
    foreign.parent.mkdir()
    foreign.write_text("mine")
    code, _, err = spatialcad(*RUN, "--executor", "slurm", "--shards", 2, "--out",
                              tmp_path / "c", "--overwrite")
    assert code == 2 and "holds no spatialcad shards" in err and foreign.read_text() == "mine"


def test_one_submitter_of_a_run_at_a_time(spatialcad, tmp_path):
    with locked(tmp_path / "b.work"):  # as a second `generate --executor` of OUT b holds it
        code, _, err = spatialcad(*RUN, "--executor", "local", "--shards", 2, "--out",
                                  tmp_path / "b")
    assert code == 2 and "is in use by another spatialcad run" in err
    assert list(tmp_path.iterdir()) == []


def _wait_gone(job: str, seconds: float = 600) -> None:
    end = time.monotonic() + seconds
    while _state(job):
        assert time.monotonic() < end, f"job {job} still queued: {_state(job)}"
        time.sleep(0.5)


def _sacct_state(job: str) -> str:
    """The final state of a (non-array) job from accounting, e.g. COMPLETED or CANCELLED."""
    final = _accounted(job, "State", lambda rows: bool(rows) and rows[0] not in (
        "PENDING", "RUNNING"))
    return final[0]


def _accounted(job: str, field: str, ready: Callable[[list[str]], bool]) -> list[str]:
    """sacct's ``field`` of ``job`` (one value per array task) once ``ready`` says the
    values are in: accounting lags a little behind the jobs."""
    end = time.monotonic() + 60
    while time.monotonic() < end:
        rows = subprocess.run(["sacct", "-n", "-X", "-P", "-j", job, "-o", field],
                              capture_output=True, text=True).stdout.split()
        if ready(rows):
            return rows
        time.sleep(0.5)
    raise AssertionError(f"accounting has no {field} for job {job}")


def _submit_example(tmp_path: Path, **settings: str) -> tuple[str, str]:
    """Run examples/slurm/submit.sh from ``tmp_path`` (one CPU per job: the scripts ask for
    more than this node has); the ids of its generate and merge jobs."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WORK": str(tmp_path / "shards"),
           "OUT": str(tmp_path / "b"), "SPATIALCAD": f"{sys.executable} -m spatialcad.cli",
           **settings}
    done = subprocess.run([str(ROOT / "examples" / "slurm" / "submit.sh"), "--cpus-per-task=1"],
                          cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = re.search(r"job array (\d+) .*job (\d+)", done.stdout)
    assert found, done.stdout
    return found.group(1), found.group(2)


def test_example_scripts_generate_then_merge_after_ok(slurm, unsharded, tmp_path):
    """examples/slurm: gen.sh as an array, merge.sh chained with --dependency=afterok."""
    gen, merge = _submit_example(tmp_path, TASKS="cube_counting,rotation_2d,arrow_moving",
                                 LEVEL="1", N="4", SEED="2", SHARDS="3")
    _wait_gone(gen)
    _wait_gone(merge)
    assert _sacct_state(merge) == "COMPLETED", list(tmp_path.glob("*.log"))
    assert tree_bytes(tmp_path / "b") == tree_bytes(unsharded)
    assert not (tmp_path / "shards").exists()


def test_example_merge_never_runs_after_a_failed_shard(slurm, tmp_path):
    gen, merge = _submit_example(tmp_path, TASKS="no_such_task", LEVEL="1", N="2",
                                 SHARDS="2")
    _wait_gone(gen)
    _wait_gone(merge)
    assert _sacct_state(merge) == "CANCELLED"
    assert not (tmp_path / "b").exists()
    assert "unknown task" in (tmp_path / f"spatialcad-gen-{gen}_0.log").read_text().lower()
