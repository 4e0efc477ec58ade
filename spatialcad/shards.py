"""Deterministic shards of a generation run, and their merge into the unsharded output.

A run's items are its tasks x indices in order: every index of the first task, then of the
next.  Shard ``K/N`` (0-based: ``0 <= K < N``, so ``--shard $SLURM_ARRAY_TASK_ID/N`` with
``#SBATCH --array=0-(N-1)``) generates the contiguous block ``[K*T//N, (K+1)*T//N)`` of the
``T`` items.  An item's seed, Image_id and answer letter depend only on (seed, task, level,
index, n), so a shard's files are byte-identical to the same files of the unsharded run and
the shards, concatenated in ``K`` order, are that run.

A shard's manifest differs from the unsharded one in two places: its ``command`` ends with
`` --shard K/N`` (the command that regenerates the shard) and it has a ``shard`` entry:
``{"index": K, "count": N, "run_items": [start, stop]}``.  Its ``parameters`` are the whole
run's.  :func:`merge` writes the run's own command (without ``--shard``), no ``shard`` entry,
and counts and checksums over all items: the unsharded run's manifest, byte for byte.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialcad import records as rec
from spatialcad.outdir import atomic_dir


@dataclass(frozen=True)
class Shard:
    index: int  # K, 0-based
    count: int  # N

    def __post_init__(self) -> None:
        if not 0 <= self.index < self.count:
            raise ValueError(f"shard {self} is not K/N with 0 <= K < N")

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def bounds(self, total: int) -> tuple[int, int]:
        """``(start, stop)``: the positions of this shard's items among ``total`` run items."""
        return self.index * total // self.count, (self.index + 1) * total // self.count


def parse_shard(text: str) -> Shard:
    """``"K/N"`` -> :class:`Shard`; ``ValueError`` with a usage message otherwise."""
    usage = (f"--shard must be K/N with 0 <= K < N (e.g. $SLURM_ARRAY_TASK_ID/16 for "
             f"--array=0-15), got {text!r}")
    k, sep, n = text.partition("/")
    try:
        if sep:
            return Shard(int(k), int(n))
    except ValueError:
        pass
    raise ValueError(usage)


def run_items(tasks: list[str], n: int) -> list[tuple[str, int]]:
    """The run's items ``(task, index)`` in the order they are written."""
    return [(t, i) for t in tasks for i in range(n)]


def shard_command(command: str, shard: Shard) -> str:
    return f"{command} --shard {shard}"


def manifest_entry(shard: Shard, total: int) -> dict[str, Any]:
    """The ``shard`` entry of a shard's manifest."""
    return {"index": shard.index, "count": shard.count, "run_items": list(shard.bounds(total))}


@dataclass
class ShardDir:
    """One shard's output, read and checked against its manifest."""

    path: Path
    shard: Shard
    run: dict[str, Any]  # what every shard of the run shares: version, command, parameters, N
    records: list[dict[str, Any]]


def _read_shard(path: Path) -> ShardDir:
    problems = rec.check_manifest(path)
    if problems:
        name, problem = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ValueError(f"{path}: {name}: {problem}{more}")
    manifest = rec.read_manifest(path)
    entry = manifest.get("shard")
    try:
        shard = Shard(int(entry["index"]), int(entry["count"]))
        params = manifest["parameters"]
        tasks, n = list(params["tasks"]), int(params["n"])
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"{path} is not a shard (made without --shard?)") from None
    suffix = f" --shard {shard}"
    if not str(manifest.get("command", "")).endswith(suffix):
        raise ValueError(f"{path}: the manifest's command does not end with {suffix.strip()!r}")
    records = rec.read_benchmark(path)
    images = [r.get("image") for r in records]
    if set(manifest.get("files", {})) != {rec.BENCHMARK, *images}:
        raise ValueError(f"{path}: the manifest does not list exactly benchmark.json and "
                         "the items' images")
    start, stop = shard.bounds(len(tasks) * n)
    expected = [(t, rec.image_id(i, n)) for t, i in run_items(tasks, n)[start:stop]]
    found = [(r["generator"]["name"].rsplit(".", 1)[-1], r["Image_id"]) for r in records]
    if found != expected:
        raise ValueError(f"{path}: its items are not those of shard {shard}")
    run = {"version": manifest.get("version"), "command": manifest["command"][:-len(suffix)],
           "parameters": params, "shard count": shard.count}
    return ShardDir(path, shard, run, records)


def _in_order(shards: list[ShardDir]) -> list[ShardDir]:
    """The shards sorted by K; ``ValueError`` unless they are one run's shards, each once."""
    first = shards[0]
    for s in shards[1:]:
        differs = [key for key, value in first.run.items() if s.run[key] != value]
        if differs:
            raise ValueError(f"{s.path} and {first.path} are shards of different runs "
                             f"({', '.join(differs)} differ)")
    by_index: dict[int, ShardDir] = {}
    for s in shards:
        if s.shard.index in by_index:
            raise ValueError(f"shard {s.shard} given twice: {by_index[s.shard.index].path} "
                             f"and {s.path}")
        by_index[s.shard.index] = s
    count = first.shard.count
    missing = [f"{k}/{count}" for k in range(count) if k not in by_index]
    if missing:
        raise ValueError(f"missing shard{'s' if len(missing) > 1 else ''} "
                         f"{', '.join(missing)} ({len(by_index)} of {count} given)")
    return [by_index[k] for k in range(count)]


def merge(paths: list[Path], out: Path, overwrite: bool = False) -> int:
    """Join the shards of one run into ``out``, exactly as the unsharded run writes it.

    Every check happens before anything is written; ``out`` is written atomically.  Raises
    ``ValueError`` (one line) on a tampered shard, shards of different runs, a missing or
    repeated shard, or an ``out`` that may not be written.  Returns the number of items.
    """
    if not paths:
        raise ValueError("no shard given")
    shards = _in_order([_read_shard(Path(p)) for p in paths])
    run = shards[0].run
    records = [r for s in shards for r in s.records]
    with atomic_dir(out, overwrite) as tmp:
        for s in shards:
            for r in s.records:
                target = tmp / r["image"]
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(s.path / r["image"], target)
        (tmp / rec.BENCHMARK).write_bytes(rec.dumps(records))
        rec.write_manifest(tmp, {"command": run["command"], **run["parameters"]}, records)
    return len(records)
