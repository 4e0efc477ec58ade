"""Faults a user meets, one test each: the exit code, the one-line message, and that nothing
was lost, half-written or leaked (tampered benchmarks, concurrent runs, signals, disk full,
secrets, malformed replies, broken FreeCAD installs, runaway sizes)."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import one_line, small_benchmark, tree_bytes
from eval_server import FakeEndpoint, gold_table

from spatialcad import cli
from spatialcad.cad.disk_cache import CACHE_ENV
from spatialcad.record.benchmark import BenchmarkWriter
from spatialcad.run import pipeline
from spatialcad.run.outdir import lock_path
from spatialcad.run.plan import RunPlan, Shard

FAST = ["--timeout", "2", "--backoff", "0.01", "--retries", "1"]
SECRET = "sk-THE-SECRET-KEY-1234"


@pytest.fixture(scope="module")
def bench(tmp_path_factory) -> Path:
    return small_benchmark(tmp_path_factory.mktemp("faults") / "b")


def reseal(bench: Path) -> None:
    """Recompute the manifest as a careful tamperer would: checksums, items and counts."""
    manifest = json.loads((bench / "manifest.json").read_text())
    records = json.loads((bench / "benchmark.json").read_text())
    names = ["benchmark.json", *(r["image"] for r in records)]
    manifest["files"] = {n: hashlib.sha256((bench / n).read_bytes()).hexdigest() for n in names
                         if (bench / n).is_file()}
    manifest["items"] = len(records)
    counts: dict[str, int] = {}
    for r in records:
        counts[f"{r['Task']}/{r['Level']}"] = counts.get(f"{r['Task']}/{r['Level']}", 0) + 1
    manifest["counts"] = counts
    (bench / "manifest.json").write_text(json.dumps(manifest))


def tampered(bench: Path, tmp_path: Path, edit) -> Path:
    copy = tmp_path / "copy"
    shutil.copytree(bench, copy)
    records = json.loads((copy / "benchmark.json").read_text())
    records = edit(records, copy)
    (copy / "benchmark.json").write_text(json.dumps(records))
    reseal(copy)
    return copy


# 1. a record may name only its own image, inside the benchmark

def _outside(tmp_path: Path) -> Path:
    secret = tmp_path / "secret.txt"
    secret.write_text("password=hunter2")
    return secret


@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlink", "category"])
def test_records_cannot_make_readers_touch_files_outside(sc, bench, tmp_path, how):
    secret = _outside(tmp_path)

    def edit(records, copy):
        r = records[0]
        if how == "dotdot":
            r["image"] = "../secret.txt"
        elif how == "absolute":
            r["image"] = str(secret)
        elif how == "symlink":  # the image file itself points outside
            (copy / r["image"]).unlink()
            (copy / r["image"]).symlink_to(secret)
        else:
            r["Category"] = ".."
            r["image"] = "../" + "/".join((r["Task"], r["Level"], r["Image_id"])) + ".png"
        return records

    copy = tampered(bench, tmp_path, edit)
    code, stdout, _ = sc("verify", copy)
    assert code == 1 and "FAIL" in stdout
    with FakeEndpoint(gold=gold_table(bench)) as ep:
        code, _, err = sc("eval", copy, "--model", "fake-vl", "--base-url", ep.base_url,
                          "--out", tmp_path / "run", *FAST)
    assert code == 2 and ep.count == 0, err  # nothing was sent
    assert "spatialcad verify" in one_line(err)
    assert "hunter2" not in err
    for fmt, out in (("jsonl", tmp_path / "x.jsonl"), ("vlmeval", tmp_path / "x.tsv"),
                     ("hf", tmp_path / "hf")):
        code, _, err = sc("export", copy, "--format", fmt, "--out", out)
        assert code == 2 and not out.exists(), err
        one_line(err)
    code, _, err = sc("gallery", copy, "--embed", "--out", tmp_path / "g.html")
    assert code == 2 and not (tmp_path / "g.html").exists()


def test_merge_refuses_a_shard_whose_record_points_outside(sc, tmp_path):
    args = ["generate", "--task", "cube_counting", "--n", "2", "--seed", "1"]
    for k in range(2):
        assert sc(*args, "--shard", f"{k}/2", "--out", tmp_path / f"s{k}")[0] == 0
    secret = _outside(tmp_path)
    records = json.loads((tmp_path / "s1" / "benchmark.json").read_text())
    records[0]["image"] = str(secret)
    (tmp_path / "s1" / "benchmark.json").write_text(json.dumps(records))
    reseal(tmp_path / "s1")
    code, _, err = sc("merge", tmp_path / "s0", tmp_path / "s1", "--out", tmp_path / "m")
    assert code == 2 and not (tmp_path / "m").exists()
    assert "image field" in one_line(err)


# 2. one run per output at a time

def _default_sigint() -> None:
    """A shell without job control starts background commands with SIGINT ignored (and
    Python then keeps ignoring it); the child of a test run that way must still get it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _spawn(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "spatialcad.cli", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_default_sigint, **kw)


def _wait_for(condition, seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def test_a_second_generate_into_the_same_out_is_refused(sc, tmp_path):
    out = tmp_path / "b"
    first = _spawn("generate", "--task", "cross_section", "--level", "1", "--n", "4",
                   "--out", str(out))
    _wait_for(lambda: lock_path(out).exists() and lock_path(out).stat().st_size > 0)
    code, _, err = sc("generate", "--task", "cube_counting", "--n", "1", "--out", out,
                      "--overwrite")
    line = one_line(err)
    assert code == 2 and f"in use by another spatialcad run (pid {first.pid}" in line
    assert "cross_section" in line  # the holder's command
    assert first.wait(120) == 0, first.stderr.read()
    records = json.loads((out / "benchmark.json").read_text())
    assert [r["Task"] for r in records] == ["CrossSection"] * 4  # the first run's, intact
    assert sc("verify", out)[0] == 0
    assert not lock_path(out).exists()


HOLD = ("import sys, time\nfrom spatialcad.run.outdir import locked\n"
        "with locked(sys.argv[1]):\n    print('held', flush=True)\n    time.sleep(60)\n")


@pytest.mark.parametrize("command", ["merge", "eval"])
def test_merge_and_eval_take_the_lock_too(sc, bench, tmp_path, command):
    out = tmp_path / "target"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(out)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        if command == "merge":
            shard = tmp_path / "s0"
            assert sc("generate", "--task", "cube_counting", "--n", "1", "--shard", "0/1",
                      "--out", shard)[0] == 0
            args = ["merge", shard, "--out", out]
        else:
            args = ["eval", bench, "--baseline", "random", "--out", out]
        code, _, err = sc(*args)
        assert code == 2 and f"(pid {holder.pid}" in one_line(err)
        assert not out.exists()
    finally:
        holder.kill()
        holder.wait()
    assert sc("eval", bench, "--baseline", "random", "--out", out)[0] == 0


# 3. duplicate items

def test_duplicate_task_names_are_refused(sc, tmp_path):
    code, _, err = sc("generate", "--task", "cube_counting,cube_counting", "--n", "2",
                      "--out", tmp_path / "b")
    assert code == 2 and "named more than once" in one_line(err)
    assert not (tmp_path / "b").exists()


def test_verify_fails_on_a_repeated_item(sc, bench, tmp_path):
    copy = tampered(bench, tmp_path, lambda records, _: [*records, records[0]])
    code, stdout, _ = sc("verify", copy)
    assert code == 1 and "more than one record is this item" in stdout


# 4. the benchmark as a whole

def test_verify_fails_on_a_dropped_record_and_on_an_empty_benchmark(sc, bench, tmp_path):
    copy = tampered(bench, tmp_path, lambda records, _: records[:-1])
    code, stdout, _ = sc("verify", copy)
    assert code == 1 and "its parameters make 6 items, benchmark.json holds 5" in stdout
    shutil.rmtree(copy)
    copy = tampered(bench, tmp_path, lambda records, _: [])
    code, stdout, _ = sc("verify", copy)
    assert code == 1 and "the benchmark has no items" in stdout
    assert "all 0 items verified" not in stdout


def test_verify_fails_on_records_out_of_order(sc, bench, tmp_path):
    copy = tampered(bench, tmp_path, lambda records, _: records[::-1])
    code, stdout, _ = sc("verify", copy)
    assert code == 1 and "not the run's items in order" in stdout


# 5. --overwrite replaces only our own output

def test_overwrite_never_deletes_a_folder_that_is_not_ours(sc, tmp_path, monkeypatch):
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "src").mkdir()
    monkeypatch.chdir(tmp_path)
    before = tree_bytes(tmp_path)
    code, _, err = sc("generate", "--task", "cube_counting", "--n", "1", "--out", ".",
                      "--overwrite")
    assert code == 2 and "not a spatialcad output" in one_line(err)
    assert tree_bytes(tmp_path) == before
    out = tmp_path / "mine"
    assert sc("generate", "--task", "cube_counting", "--n", "1", "--out", out)[0] == 0
    assert sc("generate", "--task", "cube_counting", "--n", "2", "--out", out,
              "--overwrite")[0] == 0


# 6. signals and leftovers

def _descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    out, todo = set(), [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.add(c)
            todo.append(c)
    return out


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for p in pids:
        try:
            state = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(p)
    return alive


def _temp_dirs(out: Path) -> list[Path]:
    return list(out.parent.glob(f".{out.name}.tmp-*"))


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_sigterm_and_sigint_clean_up_and_stop_the_workers(tmp_path, sig, code):
    out = tmp_path / "b"
    run = _spawn("generate", "--task", "cross_section", "--level", "1", "--n", "30",
                 "--jobs", "2", "--out", str(out))
    _wait_for(lambda: _temp_dirs(out) and len(_descendants(run.pid)) >= 2)
    workers = _descendants(run.pid)
    time.sleep(1.0)  # let the workers start on items
    run.send_signal(sig)
    assert run.wait(30) == code
    name = "SIGTERM" if sig == signal.SIGTERM else "SIGINT"
    assert f"interrupted by {name}; stopped cleanly" in one_line(
        run.stderr.read().replace("\r", "\n").splitlines()[-1])
    assert not out.exists() and not _temp_dirs(out) and not lock_path(out).exists()
    _wait_for(lambda: not _alive(workers), 5)


@pytest.mark.parametrize(("stop", "code", "name"), [("Terminated", 143, "SIGTERM"),
                                                    ("KeyboardInterrupt", 130, "SIGINT")])
def test_a_signal_wrapped_by_c_code_still_stops_cleanly(tmp_path, monkeypatch, capsys, stop,
                                                        code, name):
    """numba's dispatcher, loading a kernel when the signal comes, hands the handler's
    exception on as the cause of a SystemError: the run still ends as an interrupted one."""
    signalled = getattr(cli, stop) if stop == "Terminated" else KeyboardInterrupt

    def interrupted(*args, **kwargs):
        try:
            raise signalled()
        except KeyboardInterrupt as exc:
            raise SystemError("<function _numba_unpickle> returned a result with an "
                              "exception set") from exc

    monkeypatch.setattr(pipeline, "generate", interrupted)
    monkeypatch.setattr(sys, "argv", ["spatialcad", "generate", "--task", "cube_counting",
                                      "--n", "2", "--out", str(tmp_path / "b"), "--resume"])
    with pytest.raises(SystemExit) as stopped:
        cli.main()
    assert stopped.value.code == code
    err = capsys.readouterr().err
    assert "re-run with --resume to go on" in err
    assert f"interrupted by {name}; stopped cleanly" in err and "Traceback" not in err


def test_workers_die_with_a_killed_parent_and_leftovers_are_removed_next_time(sc, tmp_path):
    out = tmp_path / "b"
    run = _spawn("generate", "--task", "cross_section", "--level", "1", "--n", "30",
                 "--jobs", "2", "--out", str(out))
    _wait_for(lambda: _temp_dirs(out) and len(_descendants(run.pid)) >= 2)
    workers = _descendants(run.pid)
    run.kill()
    run.wait()
    start = time.monotonic()
    _wait_for(lambda: not _alive(workers), 10)
    assert time.monotonic() - start < 5
    assert _temp_dirs(out)  # SIGKILL leaves the temporary directory behind ...
    assert sc("generate", "--task", "cube_counting", "--n", "1", "--out", out)[0] == 0
    assert not _temp_dirs(out)  # ... and the next run into the same OUT removes it


def test_a_live_runs_temporary_directory_is_never_removed(sc, tmp_path):
    out = tmp_path / "b"
    host = os.uname().nodename.split(".")[0]
    live = tmp_path / f".b.tmp-{host}-{os.getppid()}"  # a living process of this host
    other = tmp_path / f".b.tmp-elsewhere-{os.getpid()}"  # another host's
    for d in (live, other):
        d.mkdir()
    assert sc("generate", "--task", "cube_counting", "--n", "1", "--out", out)[0] == 0
    assert live.is_dir() and other.is_dir()


READERS = [("verify",), ("eval", "--baseline", "random", "--out", "run"),
           ("export", "--format", "jsonl", "--out", "x.jsonl"), ("gallery", "--out", "g"),
           ("quiz", "--out", "q"), ("merge", "--out", "m")]


def test_reading_a_benchmark_still_being_written_says_where_its_items_are(sc, tmp_path):
    out = tmp_path / "b"
    for command, *options in READERS:
        code, _, err = sc(command, out, *options)
        assert code == 2 and f"{out} does not exist (not made, or not yet)" in err, command
    run = _spawn("generate", "--task", "cross_section", "--level", "1", "--n", "30",
                 "--out", str(out))
    try:
        _wait_for(lambda: _temp_dirs(out))
        for command, *options in READERS:
            code, _, err = sc(command, out, *options)
            assert code == 2 and (f"{out} is not finished: its items so far are in "
                                  f"{_temp_dirs(out)[0]}") in err, command
    finally:
        run.kill()
        run.wait()
    assert not any((tmp_path / name).exists() for name in ("run", "x.jsonl", "g", "q", "m"))


# 7. eval resume never mixes settings; report says what is missing

def test_eval_refuses_other_settings_unless_restart(sc, bench, tmp_path):
    run = tmp_path / "run"
    gold = gold_table(bench)
    with FakeEndpoint(gold=gold) as ep:
        base = ["eval", bench, "--model", "fake-vl", "--base-url", ep.base_url, "--out", run,
                *FAST]
        assert sc(*base)[0] == 0
        for flag, value in (("--temperature", "0.7"), ("--max-tokens", "100")):
            code, _, err = sc(*base, flag, value)
            assert code == 2 and f"{flag[2:].replace('-', '_')} differs" in one_line(err)
        assert ep.count == 6
        code, _, err = sc(*base, "--temperature", "0.7", "--restart")
        assert code == 0, err
    meta = json.loads((run / "run.json").read_text())
    assert meta["identity"]["temperature"] == 0.7 and ep.count == 12
    assert len((run / "results.jsonl").read_text().splitlines()) == 6


def test_report_says_a_run_is_incomplete(sc, bench, tmp_path):
    run = tmp_path / "run"
    with FakeEndpoint(gold=gold_table(bench), faults=lambda n: 401 if n > 4 else None) as ep:
        code, _, _ = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                        "--out", run, "--concurrency", 1, *FAST)
    assert code == 2
    code, stdout, _ = sc("report", run)
    assert code == 0
    first = [line for line in stdout.splitlines() if line.strip()][1]
    assert first.startswith("**Incomplete run run: 4 of 6 items answered.**")
    assert "2DRotation/Level0 (2 missing)" in first


# 8. secrets

def test_a_key_echoed_by_the_server_is_never_stored_or_printed(sc, bench, tmp_path,
                                                               monkeypatch):
    monkeypatch.setenv("SC_KEY", SECRET)
    run = tmp_path / "run"
    with FakeEndpoint(gold=gold_table(bench), faults={1: "echo_key"}) as ep:
        code, stdout, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                               "--api-key-env", "SC_KEY", "--out", run, "--concurrency", 1,
                               *FAST)
    assert code == 0, err
    assert ep.requests  # the key was sent in the header, and echoed back
    stored = "".join(p.read_text() for p in run.iterdir() if p.is_file())
    assert "bad request from Bearer [redacted]" in stored
    assert SECRET not in stored + stdout + err


@pytest.mark.parametrize("url", [f"http://user:{SECRET}@127.0.0.1:9/v1",
                                 f"http://127.0.0.1:9/v1?api_key={SECRET}"])
def test_keys_in_urls_are_refused_without_echoing_them(sc, bench, tmp_path, url):
    code, stdout, err = sc("eval", bench, "--model", "m", "--base-url", url,
                           "--out", tmp_path / "run")
    assert code == 2 and "must not carry a key" in one_line(err)
    assert SECRET not in stdout + err and not (tmp_path / "run").exists()


# 9. one line, never a traceback, and the run goes on where it can

@pytest.mark.parametrize("payload", [{"choices": [None]}, {"choices": "oops"},
                                     {"choices": [{"message": {"content": 3}}]}])
def test_malformed_replies_are_logged_and_the_run_goes_on(sc, bench, tmp_path, payload):
    run = tmp_path / "run"
    with FakeEndpoint(gold=gold_table(bench), faults={2: {"payload": payload}}) as ep:
        code, stdout, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                               "--out", run, "--concurrency", 1, *FAST)
    assert code == 0, err
    lines = [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()]
    errors = [x["error"] for x in lines if "error" in x]
    assert len(errors) == 1 and errors[0].startswith("malformed reply")
    assert len(lines) == 6 and "1 rejected by the endpoint" in stdout


def test_timeout_bounds_the_whole_reply_not_each_read(sc, bench, tmp_path):
    with FakeEndpoint(gold=gold_table(bench), faults=lambda n: "trickle", slow=4.0) as ep:
        start = time.monotonic()
        code, _, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                          "--out", tmp_path / "run", "--concurrency", 1, "--limit", 1,
                          "--timeout", "0.5", "--retries", "0")
        took = time.monotonic() - start
    assert code == 1 and "no reply within 0.5 s" in one_line(err)
    assert took < 3  # a trickled reply takes about 4 s to arrive


def test_a_cache_dir_that_cannot_be_made_is_refused_up_front(sc, tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, "")  # restored afterwards (the CLI sets it)
    (tmp_path / "file").write_text("")
    out = tmp_path / "b"
    code, _, err = sc("generate", "--task", "three_view", "--level", "1", "--n", "1",
                      "--out", out, "--cache-dir", tmp_path / "file" / "cache")
    assert code == 2 and "--cache-dir" in err and "Not a directory" in err
    assert not out.exists() and not _temp_dirs(out)


def test_disk_full_keeps_the_old_output(sc, tmp_path, monkeypatch):
    out = tmp_path / "b"
    assert sc("generate", "--task", "cube_counting", "--n", "2", "--out", out)[0] == 0
    before = tree_bytes(out)
    real_add = BenchmarkWriter.add

    def add(self, record, png, step_pngs=None):
        if self.items == 1:
            raise OSError(errno.ENOSPC, "No space left on device", str(self.root / "x.png"))
        real_add(self, record, png, step_pngs)

    monkeypatch.setattr(BenchmarkWriter, "add", add)
    code, _, err = sc("generate", "--task", "cube_counting", "--n", "3", "--out", out,
                      "--overwrite")
    assert code == 1 and "disk full while writing" in one_line(err)
    assert tree_bytes(out) == before and not _temp_dirs(out)


def test_runaway_sizes_are_refused_up_front(sc, tmp_path):
    start = time.monotonic()
    code, _, err = sc("generate", "--task", "cube_counting", "--n", "1000000000",
                      "--out", tmp_path / "b")
    assert code == 2 and "more than the limit of 1,000,000" in one_line(err)
    assert time.monotonic() - start < 5 and not (tmp_path / "b").exists()
    shard = RunPlan(("cube_counting",), 10**9, Shard(1999, 2000))  # a shard of it is fine
    shard.check()
    assert len(shard) == 500_000 and next(iter(shard)) == ("cube_counting", 999_500_000)


def test_a_broken_freecad_lib_neither_hides_a_working_install_nor_its_error(tmp_path):
    bad = tmp_path / "fc"
    bad.mkdir()
    (bad / "FreeCAD.so").write_bytes(b"not a library")
    env = {**os.environ, "FREECAD_LIB": str(bad)}
    probe = ("from spatialcad import freecad_env\n"
             "print(freecad_env.load()[0].Version()[0])\n")
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "0"
    assert f"{bad}/FreeCAD.so does not import" in done.stderr
    assert "using FreeCAD from" in done.stderr
    only_bad = ("from spatialcad import freecad_env\n"
                f"freecad_env.candidate_dirs = lambda: [freecad_env.Path({str(bad)!r})]\n"
                "import sys; sys.path = [p for p in sys.path if 'freecad' not in p.lower()]\n"
                "from spatialcad import cli\n"
                "sys.argv = ['spatialcad', 'generate', '--task', 'cross_section', '--n', '1',"
                f" '--out', {str(tmp_path / 'out')!r}]\ncli.main()\n")
    done = subprocess.run([sys.executable, "-c", only_bad], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert f"{bad}/FreeCAD.so does not import: {bad}/FreeCAD.so: file too short" in line
    assert not (tmp_path / "out").exists()


def _opencv_threads() -> int:
    from spatialcad.render.opencv import cv2
    return int(cv2.getNumThreads())


def test_a_workers_opencv_uses_only_its_share_of_the_cores():
    """A pool of two workers keeps two cores busy: OpenCV's own threads in each worker would
    only add switching (a share of one core or less: one thread)."""
    from spatialcad.run.pipeline import worker_pool
    with worker_pool(2) as pool:
        assert pool is not None
        assert pool.submit(_opencv_threads).result() == max((os.cpu_count() or 1) // 2, 1)
