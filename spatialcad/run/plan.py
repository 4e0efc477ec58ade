"""Which items a generation run makes, and which of them shard ``K/N`` makes.

A run's items are its tasks x indices in order: every index of the first task, then of the
next.  Shard ``K/N`` (0-based: ``0 <= K < N``, so ``--shard $SLURM_ARRAY_TASK_ID/N`` with
``#SBATCH --array=0-(N-1)``) makes the contiguous block ``[K*T//N, (K+1)*T//N)`` of the
``T`` items.  An item's seed, Image_id and answer letter depend only on (seed, task,
level, index, n), so a shard's files are byte-identical to the same files of the unsharded
run.  Nothing here holds the run's items in memory: a run may be far larger than a shard.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

MAX_ITEMS_PER_OUTPUT = 1_000_000  # items one output directory (a run or a shard) may hold


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


@dataclass(frozen=True)
class RunPlan:
    """The items of a run: ``n`` indices of each of ``tasks``, optionally one shard's block."""

    tasks: tuple[str, ...]
    n: int
    shard: Shard | None = None

    @property
    def total(self) -> int:
        """Items of the whole (unsharded) run."""
        return len(self.tasks) * self.n

    @property
    def bounds(self) -> tuple[int, int]:
        """Positions ``[start, stop)`` of the items this plan makes."""
        return self.shard.bounds(self.total) if self.shard else (0, self.total)

    def __len__(self) -> int:
        start, stop = self.bounds
        return stop - start

    def item(self, position: int) -> tuple[str, int]:
        """``(task, index)`` of the run's item at ``position``."""
        return self.tasks[position // self.n], position % self.n

    def __iter__(self) -> Iterator[tuple[str, int]]:
        return (self.item(p) for p in range(*self.bounds))

    def check_shards(self, count: int) -> None:
        """``ValueError`` (one line) unless the run splits into ``count`` non-empty shards
        that each fit in one output directory."""
        if not 1 <= count <= self.total:
            raise ValueError(f"--shards must be between 1 and the run's {self.total} items, "
                             f"got {count}")
        RunPlan(self.tasks, self.n, Shard(count - 1, count)).check()

    def check(self) -> None:
        """``ValueError`` (one line) if the plan makes no item or too many for one output."""
        if self.shard and not len(self):
            raise ValueError(f"shard {self.shard} of this {self.total}-item run would be empty: "
                             f"split it into at most {self.total} shards")
        if len(self) > MAX_ITEMS_PER_OUTPUT:
            raise ValueError(
                f"{len(self):,} items in one output directory is more than the limit of "
                f"{MAX_ITEMS_PER_OUTPUT:,}: split the run with --shard K/N (each shard at most "
                f"{MAX_ITEMS_PER_OUTPUT:,} items) and join the shards with `spatialcad merge`")
