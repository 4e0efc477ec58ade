"""Merging the shards of a generation run into the unsharded output, byte for byte.

Shards are planned in spatialcad/run/plan.py.  A shard's manifest differs from the unsharded
one in two places: its ``command`` ends with `` --shard K/N`` (the command that regenerates
the shard) and it has a ``shard`` entry: ``{"index": K, "count": N, "run_items": [start,
stop]}``.  Its ``parameters`` are the whole run's.  :func:`merge` writes the run's own
command (without ``--shard``), no ``shard`` entry, and counts and checksums over all items:
the unsharded run's manifest, byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialcad.record.benchmark import Benchmark, BenchmarkWriter
from spatialcad.run.outdir import absent, atomic_dir, check_apart
from spatialcad.run.plan import MAX_ITEMS_PER_OUTPUT, Shard


@dataclass
class ShardDir:
    """One shard's output, checked like any benchmark (files, items, counts)."""

    bench: Benchmark
    shard: Shard
    run: dict[str, Any]  # what every shard of the run shares: version, command, parameters, N

    @property
    def path(self) -> Path:
        return self.bench.root


def _read_shard(path: Path) -> ShardDir:
    if not path.is_dir():
        raise ValueError(f"shard {absent(path)}")
    bench = Benchmark.checked(path)
    manifest = bench.manifest
    entry = manifest.get("shard")
    if entry is None:
        raise ValueError(f"{path} is not a shard (made without --shard?)")
    shard = Shard(int(entry["index"]), int(entry["count"]))
    suffix = f" --shard {shard}"
    if not str(manifest.get("command", "")).endswith(suffix):
        raise ValueError(f"{path}: the manifest's command does not end with {suffix.strip()!r}")
    run = {"version": manifest.get("version"), "command": manifest["command"][:-len(suffix)],
           "parameters": manifest["parameters"], "shard count": shard.count,
           "environment": manifest.get("environment")}
    return ShardDir(bench, shard, run)


def _version_changes(a: ShardDir, b: ShardDir) -> list[str]:
    """``name a's -> b's`` for each library version that differs."""
    x, y = a.run["environment"] or {}, b.run["environment"] or {}
    return [f"{k} {x.get(k)} -> {y.get(k)}" for k in sorted(set(x) | set(y))
            if x.get(k) != y.get(k)]


def _in_order(shards: list[ShardDir]) -> list[ShardDir]:
    """The shards sorted by K; ``ValueError`` unless they are one run's shards, each once."""
    first = shards[0]
    splits = sorted({str(s.run["parameters"].get("split")) for s in shards})
    if len(splits) > 1:
        raise ValueError(f"the shards belong to different splits ({', '.join(splits)}); a "
                         "merged dataset holds one split")
    for s in shards[1:]:
        differs = [key for key, value in first.run.items() if s.run[key] != value]
        if differs == ["environment"]:
            changed = ", ".join(
                d.replace(" -> ", " and ") for d in _version_changes(s, first))
            raise ValueError(f"{s.path} and {first.path} were made with different library "
                             f"versions ({changed}): install constraints.txt's versions on "
                             "every node and make the shards again")
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
    check_apart(out, paths)
    shards = _in_order([_read_shard(Path(p)) for p in paths])
    total = sum(len(s.bench.records) for s in shards)
    if total > MAX_ITEMS_PER_OUTPUT:
        raise ValueError(f"the merged run would hold {total:,} items, more than the limit of "
                         f"{MAX_ITEMS_PER_OUTPUT:,} per output directory")
    run = shards[0].run
    with atomic_dir(out, overwrite) as tmp:
        writer = BenchmarkWriter(tmp, {"command": run["command"], **run["parameters"]},
                                 run["environment"])
        try:
            for s in shards:
                for r in s.bench.records:
                    writer.add(r, s.bench.png(r), s.bench.step_pngs(r))
            writer.finish()
        finally:
            writer.close()
    return total

