"""The ``spatialcad`` command line: thin wrappers that parse, call and report."""

from __future__ import annotations

import errno
import os
import shlex
import signal
import sys
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource
from tqdm import tqdm

from spatialcad import __version__, freecad_env
from spatialcad.cad.disk_cache import CACHE_ENV
from spatialcad.cad.part_import import import_parts, import_report_lines
from spatialcad.cad.part_index import part_index
from spatialcad.cad.parts import SUFFIXES, scan_parts
from spatialcad.cli_support import OutputDir, fail, interruption
from spatialcad.record import versions
from spatialcad.record.benchmark import read_manifest
from spatialcad.record.splits import SPLITS
from spatialcad.run import cluster, pipeline, shards
from spatialcad.run.cluster import SlurmSettings
from spatialcad.run.outdir import check_apart, check_replaceable_dir, locked
from spatialcad.run.plan import RunPlan, Shard, parse_shard
from spatialcad.run.scenes import SCENE_BLOCK, level_space, lists_scenes, scene_space
from spatialcad.tasks import registry
from spatialcad.tasks.three_view.generate_parts import passed_over_lines, supply_line


def write_failure(exc: OSError, out: Path) -> str:
    """One line for an OSError met while writing ``out`` (which is then left as it was)."""
    what = "disk full" if exc.errno == errno.ENOSPC else (exc.strerror or str(exc))
    where = f" ({exc.filename})" if exc.filename else ""
    return f"{what} while writing {out}{where}: nothing was written, {out} is as it was"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="spatialcad")
def cli() -> None:
    """Generate spatial-visualization benchmark items with proved answers, headless.

    \b
    Typical use:
      spatialcad tasks                                  # what can be generated
      spatialcad generate --task all --level 2 --n 40 --out output/bench-L2
      spatialcad verify output/bench-L2                 # re-prove every item
      spatialcad merge output/shards/* --out output/big # join --shard K/N outputs
      spatialcad deepcad import cad_json --out parts    # DeepCAD JSON to STEP, mm
    """


@cli.command("tasks")
def tasks_cmd() -> None:
    """List the tasks: CLI name, record name, category, levels, whether `generate
    --with-steps` gives step-by-step solutions, and which items have an open form.

    Levels past a task's practical range still work, but one item may take minutes.
    "scenes L0/L1/L2": how many distinct scenes each level holds ("=": counted, every
    scene drawn at least twice in the candidates drawn; "~": estimated; ">": at least, no
    scene came twice; "?": not measured), as `python -m spatialcad.run.scenes` measured them.
    """
    rows = [(info.name, info.record_task, info.category, info.levels_text(),
             "yes" if info.has_steps else "no", _scene_counts(info.name),
             info.open_form or "none")
            for info in registry.tasks().values()]
    head = ("name", "task", "category", "levels", "steps", "scenes L0/L1/L2", "open form")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head) - 1)]
    for row in [head, *rows]:
        click.echo("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=False))
                   + "  " + row[-1])


MARKS = {"counted": "=", "estimated": "~", "at least": ">"}


def _scene_counts(task: str) -> str:
    """E.g. "=52/~1.2e+04/~3e+07" (see ``tasks``)."""
    out = []
    for level in range(3):
        space = scene_space(task, level)
        out.append("?" if space is None else
                   MARKS[space["how"]] + f"{space['scenes']:.3g}")
    return "/".join(out)


def _parse_tasks(spec: str, level: int) -> list[registry.TaskInfo]:
    known = registry.tasks()
    if spec == "all":
        chosen = [t for t in known.values() if t.has_level(level)]
        if not chosen:
            fail(f"no task has level {level}")
        return chosen
    names = [s.strip() for s in spec.split(",") if s.strip()]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        fail(f"task {repeated[0]!r} is named more than once in --task")
    if not names:
        fail("no task selected")
    for name in names:
        if name not in known:
            fail(f"unknown task {name!r}; choose from: all, {', '.join(known)}")
        if not known[name].has_level(level):
            fail(f"task {name!r} has no level {level} (its levels: {known[name].levels_text()})")
    return [known[n] for n in names]


def _warn_past_practical(chosen: list[registry.TaskInfo], level: int) -> None:
    for info in chosen:
        top = info.practical_max_level
        if top is not None and level > top:
            click.echo(f"spatialcad: warning: level {level} of {info.name} is past its practical "
                       f"range (up to {top}): one item may take minutes", err=True)


@cli.command()
@click.option("--task", "task_spec", default="all", show_default=True,
              help="Task name, comma-separated names, or 'all' (see `spatialcad tasks`).")
@click.option("--level", "level_spec", default="0", show_default=True,
              help="Difficulty level (0, 1, 2 follow the paper; higher levels keep growing), "
              "or several as a list or range (0,1,2 or 0-2): one run whose workers start "
              "once, each level into its own OUT (name it with {level}).")
@click.option("--n", "n", type=int, default=40, show_default=True, help="Items per task.")
@click.option("--seed", type=int, default=0, show_default=True, help="Base seed.")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Output directory (default: output/L<level>); {level} in it stands for "
              "the level. Written atomically.")
@click.option("--jobs", type=int, default=1, show_default=True,
              help="Worker processes; the output is identical for any value.")
@click.option("--overwrite", is_flag=True, help="Replace OUT if it already has files.")
@click.option("--deepcad-dir", type=click.Path(path_type=Path, exists=True, file_okay=False),
              default=None, help="Parts for three_view levels >= 1: a directory searched "
              "recursively for DeepCAD JSON (e.g. the dataset's cad_json/) and STEP files. "
              "Files no part can come from (malformed, too large or too deeply nested JSON, "
              "no extrude, several solids, FIFOs, broken links...) are passed over and "
              "counted by reason. Default: the bundled deepcad_assets/.")
@click.option("--verbose", is_flag=True,
              help="Name each file of --deepcad-dir that is passed over, with its reason.")
@click.option("--shard", "shard_spec", metavar="K/N", default=None,
              help="Generate only shard K of N, 0 <= K < N (e.g. $SLURM_ARRAY_TASK_ID/16 "
              "with --array=0-15): a contiguous block of the run's items, byte-identical to "
              "the same items of the unsharded run. Join shards with `spatialcad merge`. "
              "Default OUT: output/L<level>-shards/<K>.")
@click.option("--resume", is_flag=True,
              help="Go on with an interrupted run of this same command into OUT where it "
              "stopped (the same bytes as an uninterrupted run); do nothing if OUT is already "
              "complete.  A --resume run that is interrupted keeps its items for the next.")
@click.option("--executor", type=click.Choice(["slurm", "local"]), default=None,
              help="Split the run into --shards shards and run them as one SLURM job array "
              "(through submitit) or as local processes; wait, re-submit a failed shard "
              "once, merge into OUT and check it.  Shards and logs go to OUT.work.")
@click.option("--shards", type=int, default=None, help="Number of shards for --executor.")
@click.option("--slurm-partition", default=None, help="SLURM partition (default: the "
              "cluster's default).")
@click.option("--slurm-time", type=int, default=60, show_default=True,
              help="Time limit of one shard, minutes.")
@click.option("--slurm-cpus", type=int, default=1, show_default=True,
              help="CPUs per shard (its worker processes).")
@click.option("--slurm-setup", multiple=True, metavar="LINE",
              help="Shell line each job runs first, e.g. 'conda activate spatialcad' "
              "(repeatable).")
@click.option("--slurm-option", "slurm_options", multiple=True, metavar="NAME[=VALUE]",
              help="Any other sbatch option of the jobs, as sbatch spells it without the "
              "dashes, e.g. account=lab, qos=normal, mem=8G, exclusive (repeatable).")
@click.option("--no-wait", is_flag=True,
              help="With --executor: submit, print the job id and the merge command, exit.")
@click.option("--split", type=click.Choice(SPLITS), default=None,
              help="Make the items of one split of a leak-free train/val/test split: its own "
              "seed stream, and only scenes whose scene hash is in its share (no scene is in "
              "two splits).  Default: no split (the benchmark as it always was).")
@click.option("--cache-dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Cache of the engineering parts' solids read from STEP, projections and "
              "tessellations (three_view levels >= 1), "
              "shared by processes and shards; the items are the same with or without it. "
              "Default: $SPATIALCAD_CACHE_DIR, else ~/.cache/spatialcad.")
@click.option("--no-cache", is_flag=True,
              help="Keep no part, projection or tessellation cache on disk.")
@click.option("--with-steps", is_flag=True,
              help="Also store each item's step-by-step solution: one picture and one line "
              "of text per step (a fold undone, a move, a quarter turn), beside the item's "
              "image as <Image_id>-step<k>.png and listed in its record's \"steps\" (tasks "
              "without steps, see README, get none).")
def generate(task_spec: str, level_spec: str, n: int, seed: int, out: Path | None, jobs: int,
             overwrite: bool, deepcad_dir: Path | None, shard_spec: str | None,
             resume: bool, executor: str | None, shards: int | None,
             slurm_partition: str | None, slurm_time: int, slurm_cpus: int,
             slurm_setup: tuple[str, ...], slurm_options: tuple[str, ...], no_wait: bool,
             split: str | None, cache_dir: Path | None, no_cache: bool,
             with_steps: bool, verbose: bool) -> None:
    """Generate N verified items per task at one level (or several) into OUT.

    Every item is proved by its task's verifier before it is written; a candidate that
    fails is replaced by the next sub-seed.  OUT receives benchmark.json, one composite
    PNG per item under <Category>/<Task>/<Level>/ and manifest.json.  Nothing is left
    behind if the run fails (unless --resume: then its items are kept to go on with).
    Several levels (e.g. --level 0-2 --out output/bench-L{level}) make one directory per
    level, each the same bytes as a run of that level alone.
    """
    levels = parse_levels(level_spec)
    try:
        shard = parse_shard(shard_spec) if shard_spec is not None else None
    except ValueError as exc:
        fail(str(exc))
    if len(levels) > 1 and (shard or executor or shards is not None or no_wait):
        fail("--shard, --executor, --shards and --no-wait take one --level")
    _check_slurm_flags(executor)
    if n < 1:
        fail(f"--n must be >= 1, got {n}")
    if jobs < 1:
        fail(f"--jobs must be >= 1, got {jobs}")
    chosen = {level: _parse_tasks(task_spec, level) for level in levels}
    if len(levels) > 1 and out is not None and "{level}" not in str(out):
        fail("several levels need one OUT each: put {level} in --out "
             "(e.g. output/bench-L{level})")
    if no_cache:  # read by spatialcad/cad/disk_cache.py, in workers too
        os.environ[CACHE_ENV] = ""
    elif cache_dir is not None:
        try:  # a cache this run cannot make would cost every projection silently
            cache_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail(f"--cache-dir {cache_dir}: {exc.strerror or exc}; give a directory this run "
                 "can create, or --no-cache")
        os.environ[CACHE_ENV] = str(cache_dir.resolve())
    for level in levels:
        _warn_past_practical(chosen[level], level)
    if any(t.needs_freecad for tasks in chosen.values() for t in tasks):
        try:
            freecad_env.load()
        except freecad_env.FreeCADNotFound as exc:
            fail(str(exc))
    options = {}
    if deepcad_dir is not None:
        try:  # indexed once here, before any worker reads the index
            part_index(deepcad_dir.resolve())
        except ValueError as exc:
            fail(str(exc))
        options["deepcad_dir"] = str(deepcad_dir.resolve())
        part_levels = [lv for lv in levels if lv >= 1
                       and "three_view" in {t.name for t in chosen[lv]}]
        if part_levels:
            click.echo(supply_line(deepcad_dir.resolve(), part_levels))
            for line in passed_over_lines(deepcad_dir.resolve(), verbose):
                click.echo(line)
    runs = []
    for level in levels:
        names = [t.name for t in chosen[level]]
        command = shlex.join([
            "spatialcad", "generate", "--task", ",".join(names), "--level", str(level),
            "--n", str(n), "--seed", str(seed),
            *(["--deepcad-dir", str(deepcad_dir)] if deepcad_dir else []),
            *(["--split", split] if split else []), *(["--with-steps"] if with_steps else [])])
        runs.append(_LevelRun(names, level, _level_out(out, level, shard), command))
    inputs = [p for p in (deepcad_dir, cache_dir) if p is not None]
    try:
        for run in runs:
            check_apart(run.out, inputs)
    except ValueError as exc:
        fail(str(exc))
    if executor or shards is not None or no_wait:
        (run,) = runs
        try:
            extra = cluster.parse_slurm_options(slurm_options)
        except ValueError as exc:
            fail(str(exc))
        _generate_sharded(run.names, run.level, n, seed, run.out, overwrite, run.command,
                          options, executor, shards, shard, resume, jobs, no_wait, split,
                          with_steps, SlurmSettings(slurm_partition, slurm_time, slurm_cpus,
                                                    list(slurm_setup), extra))
        return
    with pipeline.worker_pool(jobs) as pool:
        for run in runs:
            _generate_level(run, n, seed, jobs, overwrite, options, shard, resume, split,
                            with_steps, pool)


SLURM_FLAGS = {"slurm_partition": "--slurm-partition", "slurm_time": "--slurm-time",
               "slurm_cpus": "--slurm-cpus", "slurm_setup": "--slurm-setup",
               "slurm_options": "--slurm-option"}


def _check_slurm_flags(executor: str | None) -> None:
    """Refuse --slurm-* flags the run would ignore: all of them without --executor, all
    but --slurm-time (a shard's time limit) with --executor local."""
    ctx = click.get_current_context()
    given = [flag for name, flag in SLURM_FLAGS.items()
             if ctx.get_parameter_source(name) is not ParameterSource.DEFAULT]
    if executor is None and given:
        fail(f"{', '.join(given)}: only with --executor slurm (and --shards N)")
    if executor == "local" and (unused := [f for f in given if f != "--slurm-time"]):
        fail(f"{', '.join(unused)}: only with --executor slurm, not local")


def parse_levels(spec: str) -> list[int]:
    """``--level``: "2", "0,1,2" or "0-2" -> the levels, in order."""
    parts = [p.strip() for p in spec.split(",")]
    levels: list[int] = []
    try:
        for part in parts:
            if part.lstrip("-").isdigit():
                levels.append(int(part))
            else:
                first, last = (int(x) for x in part.split("-"))
                if last < first:
                    fail(f"--level range {part!r} runs backwards")
                levels.extend(range(first, last + 1))
    except ValueError:
        fail(f"--level must be a level (2), a list (0,1,2) or a range (0-2), got {spec!r}")
    if any(lv < 0 for lv in levels):
        fail(f"--level must be >= 0, got {spec}")
    if len(set(levels)) < len(levels):
        fail(f"--level names a level more than once: {spec}")
    return levels


@dataclass(frozen=True)
class _LevelRun:
    """One level of a generate command: its tasks, output directory and the command its
    manifest records (the single-level one: a level made in a multi-level run is the same
    bytes as one made alone)."""

    names: list[str]
    level: int
    out: Path
    command: str


def _level_out(out: Path | None, level: int, shard: Shard | None) -> Path:
    if out is None:
        return Path("output") / (f"L{level}-shards/{shard.index}" if shard else f"L{level}")
    return Path(str(out).replace("{level}", str(level)))


def _generate_level(run: _LevelRun, n: int, seed: int, jobs: int, overwrite: bool,
                    options: dict[str, Any], shard: Shard | None, resume: bool,
                    split: str | None, with_steps: bool,
                    pool: ProcessPoolExecutor | None) -> None:
    """Generate one level's directory (in ``pool``'s workers) and report it."""
    out = run.out
    start = time.perf_counter()
    kept = "; the items made so far are kept: re-run with --resume to go on"
    try:
        summary = pipeline.generate(run.names, run.level, n, seed, out, jobs=jobs,
                                    overwrite=overwrite, command=run.command, options=options,
                                    shard=shard, resume=resume, split=split,
                                    with_steps=with_steps, pool=pool)
    except ValueError as exc:
        fail(str(exc))
    except pipeline.GenerationError as exc:
        raise click.ClickException(f"generation failed: {exc}"
                                   + (kept if resume else "; nothing written")) from exc
    except OSError as exc:
        message = write_failure(exc, out)
        raise click.ClickException(message.split(":")[0] + f" while writing {out}{kept}"
                                   if resume else message) from exc
    except BaseException as exc:
        if resume and interruption(exc) is not None:
            click.echo(f"spatialcad: {kept[2:]}", err=True)
        raise
    took = time.perf_counter() - start
    of_shard = f" (shard {shard})" if shard else ""
    if summary.resumed == summary.items:
        click.echo(f"{out} is already complete ({summary.items} items){of_shard}; nothing to do")
        return
    per_task = ", ".join(f"{k} {v}" for k, v in summary.per_task.items())
    new = summary.items - summary.resumed
    went_on = f", going on after {summary.resumed} made before" if summary.resumed else ""
    click.echo(f"wrote {summary.items} items ({per_task}) at level {run.level}{of_shard} to "
               f"{out} in {took:.1f} s ({new / took:.2f} items/s{went_on}); "
               f"{summary.rejected} candidates redrawn ({summary.unverified} of them failed "
               "verification; the rest the generators' own checks threw away)")
    _passed_over(summary.skipped, summary.repeats, run.names, run.level, options)


def _passed_over(skipped: Mapping[str, int], repeats: Mapping[str, int], names: list[str],
                 level: int, options: Mapping[str, Any]) -> None:
    """The summary's lines on inputs skipped (by reason) and items repeating a scene."""
    if skipped:
        ordered = sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0]))
        click.echo(f"skipped {sum(skipped.values())} inputs that could not make an item: "
                   + ", ".join(f"{k} {v}" for k, v in ordered))
    if repeats:
        repeated = [t for t in names if repeats.get(t)]
        space = _space_text(repeated, level, options)
        per_task = ", ".join(f"{t} {repeats[t]}" for t in repeated)
        click.echo(f"{sum(repeats.values())} items repeat the scene of an earlier item of the "
                   f"run ({per_task}; the level holds {space})")


def _space_text(names: list[str], level: int, options: Mapping[str, Any]) -> str:
    """E.g. "three_view: 80 counted, taken in turn, paper_folding: 580 estimated, kept
    apart within blocks of 100 items" for the tasks of a run (spatialcad/run/scenes.py);
    what a generator lists (three_view's parts, from --deepcad-dir too) from its run's
    options."""
    def text(task: str) -> str:
        space = level_space(task, level, options)
        size = "not measured" if space is None else f"{space['scenes']} {space['how']}"
        if lists_scenes(task, level, options):
            return f"{size}, taken in turn"
        return f"{size}, kept apart within blocks of {SCENE_BLOCK} items"
    return ", ".join(f"{t}: {text(t)}" for t in names)


def _generate_sharded(names: list[str], level: int, n: int, seed: int, out: Path,
                      overwrite: bool, command: str, options: dict[str, Any],
                      executor: str | None, shards: int | None, shard: Shard | None,
                      resume: bool, jobs: int, no_wait: bool, split: str | None,
                      with_steps: bool, slurm: SlurmSettings) -> None:
    """generate --executor local|slurm --shards N: the run as N shards, merged into OUT."""
    if executor is None or shards is None:
        fail("--executor and --shards go together (e.g. --executor slurm --shards 16)")
    if shard is not None or resume:
        fail("--executor runs every shard itself (resumably): drop --shard / --resume")
    if slurm.time_min < 2 or slurm.cpus < 1:
        fail("--slurm-time must be >= 2 minutes and --slurm-cpus >= 1")
    run = cluster.ShardedRun(names, level, n, seed, command, options, shards,
                             str(cluster.work_dir(out)),
                             slurm.cpus if executor == "slurm" else jobs, split, with_steps)
    with ExitStack() as stack:
        try:
            RunPlan(tuple(names), n).check_shards(shards)
            check_replaceable_dir(out.resolve(), overwrite)
            stack.enter_context(locked(run.work))  # one submitter of the run at a time
            cluster.claim_work(run, overwrite)
        except ValueError as exc:
            fail(str(exc))
        _run_sharded(run, out, overwrite, executor, slurm, no_wait)


def _run_sharded(run: cluster.ShardedRun, out: Path, overwrite: bool, executor: str,
                 slurm: SlurmSettings, no_wait: bool) -> None:
    start = time.perf_counter()
    try:
        merged = cluster.run(run, out, overwrite, executor, slurm, not no_wait,
                            lambda line: click.echo(line, err=True))
    except cluster.ClusterError as exc:
        raise click.ClickException(str(exc)) from exc
    except ValueError as exc:
        raise click.ClickException(f"merging the shards failed: {exc}; they are kept in "
                                   f"{run.work}") from exc
    if merged is not None:
        click.echo(f"wrote {merged.items} items in {run.count} shards to {out} in "
                   f"{time.perf_counter() - start:.1f} s (merged and checked)")
        _passed_over(merged.skipped, merged.repeats, run.tasks, run.level, run.options)


@cli.command()
@click.argument("out", type=OutputDir())
@click.option("--jobs", type=int, default=1, show_default=True, help="Worker processes.")
def verify(out: Path, jobs: int) -> None:
    """Re-run every item's verifier from its stored spec and image.

    Exits 0 only if every item passes and every file matches manifest.json; otherwise
    lists the failures and exits 1.  Also says (without failing) when the benchmark was
    made with other versions of the libraries that decide its bytes: generating it again
    here could then give other bytes.
    """
    try:
        total, failed = pipeline.verify_dir(out, jobs)
    except ValueError as exc:
        fail(str(exc))
    changed = versions.differences(read_manifest(out).get("environment"))
    if changed:
        click.echo(f"note: made with other library versions than this machine's "
                   f"({'; '.join(changed)}): the items verify, but generating them again "
                   "here may not give the same bytes (constraints.txt pins the versions)")
    for name, problems in failed:
        for p in problems:
            click.echo(f"FAIL {name}: {p}")
    if failed:
        click.echo(f"{len(failed)} of {total} items or files failed verification")
        sys.exit(1)
    click.echo(f"all {total} items verified")


@cli.command()
@click.argument("shard_dirs", metavar="SHARD_DIR...", nargs=-1, required=True,
                type=click.Path(path_type=Path, file_okay=False))
@click.option("--out", type=click.Path(path_type=Path), required=True,
              help="Output directory for the whole run. Written atomically.")
@click.option("--overwrite", is_flag=True, help="Replace OUT if it already has files.")
def merge(shard_dirs: tuple[Path, ...], out: Path, overwrite: bool) -> None:
    """Join the outputs of `generate --shard K/N` (K = 0 .. N-1) into OUT.

    Every shard's files must match its manifest, all shards must come from the same run
    (command, parameters, version, N) and together hold every shard exactly once.  OUT
    then receives exactly what `generate` without --shard writes, byte for byte, manifest
    included.  On any problem: one line, exit 2, nothing written.
    """
    try:
        items = shards.merge(list(shard_dirs), out, overwrite)
    except ValueError as exc:
        fail(str(exc))
    except OSError as exc:
        raise click.ClickException(write_failure(exc, out)) from exc
    click.echo(f"merged {len(shard_dirs)} shards ({items} items) into {out}")


PROGRESS_MIN_FILES = 10  # fewer files get no progress bar


@cli.group()
def deepcad() -> None:
    """DeepCAD models: convert them to STEP solids."""


def _part_files(paths: tuple[Path, ...]) -> list[Path]:
    """The files named, and the part files of the directories named, in order (a
    directory's entries with a part file's name that are no regular file after them)."""
    files: list[Path] = []
    for path in paths:
        if not path.is_dir():
            files.append(path)
            continue
        found = scan_parts(path)
        if not found.files and not found.unreadable:
            fail(f"{path}: no part files ({', '.join(SUFFIXES)}) in this directory")
        files += found.files + [p for p, _ in found.unreadable]
    if not any(f.suffix.lower() in SUFFIXES for f in files):
        fail(f"nothing to import: no {', '.join(SUFFIXES)} file given")
    return files


@deepcad.command("import")
@click.argument("paths", metavar="PATH...", nargs=-1, required=True,
                type=click.Path(path_type=Path, exists=True))
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), required=True,
              help="Directory for the STEP files (created if missing).")
@click.option("--overwrite", is_flag=True, help="Replace STEP files that already exist in OUT.")
def deepcad_import(paths: tuple[Path, ...], out: Path, overwrite: bool) -> None:
    """Convert DeepCAD JSON models (and STEP files) to STEP solids in OUT.

    Each PATH is a DeepCAD JSON file (.json), a STEP file (.step, .stp) or a directory,
    whose part files are taken: one per part, its STEP file if it has one, else its JSON
    (index.json is not a part).  Each input becomes OUT/<name>.step: its solid in
    millimetres, in the model's own coordinates (DeepCAD's metres x 1000), as STEP AP214
    with the same bytes on every run.

    One line per file reports ok with its volume (mm^3), bounding box (min and max x, y, z
    in mm) and face count, or FAILED with the reason; a last line counts the imports and
    the failures by reason.  A file that fails writes nothing and does not stop the others:
    unreadable or invalid models, JSON too large or nested too deeply, and
    what is no regular file (FIFOs, directories, broken links: never opened).  An existing
    OUT/<name>.step fails its input unless --overwrite.

    \b
    Exit status: 0 if every file imported, 1 if some failed,
                 2 for a usage error (no PATH, nothing to import, OUT not writable)
                 or when the only PATH is a file that cannot be read as a part.
    """
    files = _part_files(paths)
    try:
        check_apart(out, paths)
        freecad_env.load()
    except (freecad_env.FreeCADNotFound, ValueError) as exc:
        fail(str(exc))
    bar = tqdm(files, desc="import", unit="file", file=sys.stderr,
               disable=None if len(files) >= PROGRESS_MIN_FILES else True)
    try:  # a single file named: its problem is the command's (OUT is made only to write)
        results = import_parts(bar, out, overwrite,
                               strict=len(paths) == 1 and not paths[0].is_dir())
    except ValueError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot create {out}: {exc.strerror or exc}")
    for line in import_report_lines(results):
        click.echo(line)
    if not all(r.ok for r in results):
        sys.exit(1)


def _register_evaluation() -> None:
    from spatialcad.evaluate.commands import COMMANDS

    for command in COMMANDS:
        cli.add_command(command)


_register_evaluation()


class Terminated(KeyboardInterrupt):
    """SIGTERM (sent by timeout, SLURM, Docker), handled like Ctrl-C: clean up, then exit."""


def _on_sigterm(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # let the clean-up finish
    raise Terminated()


def main() -> None:
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        rv = cli.main(standalone_mode=False)
    except click.exceptions.UsageError as exc:
        click.echo(f"spatialcad: error: {exc.format_message()}", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        click.echo(f"spatialcad: error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except BaseException as exc:
        stop = interruption(exc)
        if stop is None:
            raise
        term = isinstance(stop, Terminated)
        click.echo(f"spatialcad: interrupted by {'SIGTERM' if term else 'SIGINT'}; stopped "
                   "cleanly (no half-written output is left)", err=True)
        sys.exit(143 if term else 130)
    sys.exit(rv if isinstance(rv, int) else 0)


if __name__ == "__main__":
    main()
