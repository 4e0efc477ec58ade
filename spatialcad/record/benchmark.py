"""A benchmark directory on disk: written item by item, read back only after it is checked.

``<out>/benchmark.json`` is a JSON list of records; each item's composite image is at
``<out>/<Category>/<Task>/<Level>/<Image_id>.png`` (and, for a record with ``steps``, its
step pictures beside it, ``<Image_id>-step<k>.png``); ``<out>/manifest.json`` holds the
generation parameters, counts and a SHA-256 of every other file.

:class:`BenchmarkWriter` streams a run into a fresh directory: each image is written and
each record appended as soon as it is proved, so a run of any size holds one item at a
time.  :class:`Benchmark` is what every reader (verify, eval, export, merge, gallery, quiz)
gets: :meth:`Benchmark.problems` lists everything that makes a directory other than what
``generate`` wrote (a record naming a path outside the benchmark or another item's file, a
file that differs from its checksum, a repeated or missing item, a count that differs
from the manifest, an empty benchmark), and :meth:`Benchmark.png` reads an item's image
only by the path the record format prescribes, inside the benchmark, with its checksum.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO, Any

from spatialcad import __version__
from spatialcad.record import versions
from spatialcad.record.records import (
    BENCHMARK,
    MANIFEST,
    dumps,
    expected_image,
    image_id,
    item_key,
    step_images,
    task_name,
    type_problem,
)
from spatialcad.record.splits import split_of
from spatialcad.run.plan import RunPlan, Shard

Record = dict[str, Any]
Entry = dict[str, Any]  # a spooled item: {"sha256": ..., "record": ...[, "steps_sha256": ...]}
GENERATOR = "spatialcad"
SPOOL = ".spool.jsonl"  # records of a run in progress (see BenchmarkWriter)
LIST_PART = ".benchmark.part"  # benchmark.json's list so far (see BenchmarkWriter)


class BenchmarkError(ValueError):
    """A directory that is not a sound benchmark (one line, for the command line)."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_sha256(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _record_text(record: Record) -> str:
    """``record`` as one element of the benchmark.json list: ``dumps`` of the list, sliced."""
    return "\n".join(" " + line for line in json.dumps(record, indent=1,
                                                         ensure_ascii=False).split("\n"))


def counts_of(records: Iterable[Record]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in records:
        key = f"{r['Task']}/{r['Level']}"
        counts[key] = counts.get(key, 0) + 1
    return counts


def repeats_of(records: Iterable[Record]) -> dict[str, int]:
    """Per task/level, how many records hold the scene (``scene_hash``) of an earlier record
    of their task and level: the run-wide count of repeated scenes."""
    seen = SceneTally()
    for r in records:
        seen.add(r)
    return seen.repeats


class SceneTally:
    """The scenes of a run's records so far, and how many records repeated one."""

    def __init__(self) -> None:
        self._held: dict[str, set[str]] = {}
        self.repeats: dict[str, int] = {}

    def add(self, record: Record) -> None:
        key = f"{record['Task']}/{record['Level']}"
        held = self._held.setdefault(key, set())
        scene = str(record.get("scene_hash"))
        self.repeats[key] = self.repeats.get(key, 0) + (scene in held)
        held.add(scene)


def manifest_bytes(params: dict[str, Any], counts: dict[str, int], items: int,
                   files: dict[str, str], shard: dict[str, Any] | None = None,
                   environment: dict[str, str] | None = None,
                   repeats: dict[str, int] | None = None) -> bytes:
    """manifest.json: parameters, the library versions that made the bytes
    (:mod:`spatialcad.record.versions`), counts per task/level, the items per task/level
    whose scene an earlier item of the same task and level holds (``repeated_scenes``,
    counted over all the directory's items), the checksum of every file (sorted by path
    components); a shard's manifest also says which shard it is."""
    manifest = {
        "generator": GENERATOR,
        "version": __version__,
        "command": params["command"],
        "parameters": {k: v for k, v in params.items() if k != "command"},
        "environment": environment if environment is not None else versions.byte_versions(),
        **({"shard": shard} if shard is not None else {}),
        "counts": counts,
        "repeated_scenes": repeats if repeats is not None else dict.fromkeys(counts, 0),
        "items": items,
        "files": {k: files[k] for k in sorted(files, key=lambda k: PurePosixPath(k).parts)},
    }
    return dumps(manifest)


class BenchmarkWriter:
    """Fills a directory with a benchmark, one item at a time, in order, resumably.

    Each image is written (and hashed) as it comes, and its record appended to a spool,
    ``.spool.jsonl``, whose first line is the run's parameters, and, as its element of
    ``benchmark.json``'s list, to ``.benchmark.part``: :meth:`finish` closes that list (its
    bytes equal ``dumps(records)``), names it ``benchmark.json`` and writes the manifest, so
    the end of a run writes no record again.  A directory an interrupted run left behind is
    taken up again by opening a writer on it with the same parameters: the items spooled
    with intact images are kept (:attr:`items` of them), and the run goes on from the next
    one, with the same library versions (``environment``: this process's unless given, as
    when merging shards).  ``check`` is called with the kept items' entries before anything
    is written: it raises (``BenchmarkError``) to refuse them, leaving the directory as it was.
    """

    def __init__(self, root: Path, params: dict[str, Any],
                 environment: dict[str, str] | None = None,
                 check: Callable[[list[Entry]], None] | None = None) -> None:
        self.root = Path(root)
        self.items = 0
        self.environment = environment if environment is not None else versions.byte_versions()
        self._params = json.loads(json.dumps(params))  # as the spool's header holds them
        self._files: dict[str, str] = {}  # the checksum of every file written
        self._counts: dict[str, int] = {}  # items per task/level
        self.scenes = SceneTally()  # items repeating a scene, per task/level
        self._digest = hashlib.sha256()  # of the list's bytes so far
        spool = self.root / SPOOL
        header = {"run": params, "environment": self.environment}
        size, kept = self._intact(spool, header) if spool.is_file() else (0, [])
        if kept and check is not None:
            check(kept)
        if not size:
            spool.write_bytes((json.dumps(header) + "\n").encode())
        self._spool: IO[bytes] = open(spool, "r+b")  # noqa: SIM115
        self._spool.seek(size or spool.stat().st_size)
        self._spool.truncate()
        self._list: IO[bytes] = open(self.root / LIST_PART, "wb")  # noqa: SIM115
        for entry in kept:
            self._listed(entry)

    def _intact(self, spool: Path, expected: dict[str, Any]) -> tuple[int, list[Entry]]:
        """Byte length of the spool's header and of the items whose images are intact, and
        those items' entries; 0 when the spool belongs to another run.  Sets :attr:`items`."""
        with open(spool, "rb") as f:
            lines = f.read().split(b"\n")
        try:
            header = json.loads(lines[0])
        except ValueError:
            return 0, []
        if not isinstance(header, dict) or header.get("run") != expected["run"]:
            raise BenchmarkError(f"the interrupted run in {self.root} was made by another "
                                 "command; run without --resume to start afresh")
        if header.get("environment") != expected["environment"]:
            changed = ", ".join(versions.differences(header.get("environment")))
            raise BenchmarkError(f"the interrupted run in {self.root} was made with other "
                                 f"library versions ({changed}): its items would not match "
                                 "the rest; run without --resume to start afresh")
        size, kept = len(lines[0]) + 1, []
        for raw in lines[1:-1]:  # the last piece has no newline: cut short
            try:
                entry = json.loads(raw)
                intact = all((self.root / name).is_file()
                             and file_sha256(self.root / name) == digest
                             for name, digest in _entry_files(entry))
            except (ValueError, KeyError, TypeError, OSError):
                intact = False
            if not intact:
                break
            size += len(raw) + 1
            kept.append(entry)
            self.items += 1
        return size, kept

    def add(self, record: Record, png: bytes, step_pngs: list[bytes] | None = None) -> None:
        """Write the item's image (and its step pictures, one per ``record["steps"]``)."""
        path = self.root / record["image"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        steps = step_images(record)
        if len(steps) != len(step_pngs or []):
            raise ValueError(f"{record['image']}: {len(steps)} steps, "
                             f"{len(step_pngs or [])} step pictures")
        for name, data in zip(steps, step_pngs or [], strict=True):
            (self.root / name).write_bytes(data)
        entry: dict[str, Any] = {"sha256": sha256(png), "record": record}
        if steps:
            entry["steps_sha256"] = [sha256(d) for d in step_pngs or []]
        line = json.dumps(entry, ensure_ascii=False)
        self._spool.write((line + "\n").encode())
        self._spool.flush()
        self.items += 1
        self._listed(entry)

    def _listed(self, entry: Entry) -> None:
        """Count a spooled item's files and its task/level, and append its record to the
        list (after the ones before it)."""
        record = entry["record"]
        self._files.update(_entry_files(entry))
        key = f"{record['Task']}/{record['Level']}"
        self._counts[key] = self._counts.get(key, 0) + 1
        self.scenes.add(record)
        first = sum(self._counts.values()) == 1
        chunk = (("[\n" if first else ",\n") + _record_text(record)).encode()
        self._list.write(chunk)
        self._digest.update(chunk)

    def finish(self, shard: dict[str, Any] | None = None) -> None:
        """Close the list into benchmark.json, then write the manifest; remove the spool."""
        end = b"\n]\n" if self._counts else b"[]\n"
        self._list.write(end)
        self._digest.update(end)
        self.close()
        os.replace(self.root / LIST_PART, self.root / BENCHMARK)
        (self.root / SPOOL).unlink()
        files = {**self._files, BENCHMARK: self._digest.hexdigest()}
        (self.root / MANIFEST).write_bytes(
            manifest_bytes(self._params, self._counts, sum(self._counts.values()), files,
                           shard, self.environment, self.scenes.repeats))

    def close(self) -> None:
        self._spool.close()
        self._list.close()


def _entry_files(entry: Entry) -> list[tuple[str, str]]:
    """(path, SHA-256) of a spooled item's image and step pictures: the paths its record's
    key gives (``ValueError`` if that key is not plain names), whatever else it says."""
    record = entry["record"]
    return [(expected_image(record), entry["sha256"]),
            *zip(step_images(record), entry.get("steps_sha256", []), strict=True)]


def read_records(root: Path) -> list[Record]:
    """The parsed benchmark.json of ``root`` (a list), unchecked; ``BenchmarkError`` if absent
    or not a JSON list."""
    path = Path(root) / BENCHMARK
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise BenchmarkError(f"{root} has no {BENCHMARK}: not a spatialcad benchmark") from exc
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise BenchmarkError(f"{path} is not valid JSON: {exc}") from exc
    if not isinstance(records, list):
        raise BenchmarkError(f"{path} must hold a JSON list of records")
    return records


def read_manifest(root: Path) -> dict[str, Any]:
    """The parsed manifest.json of ``root``; ``BenchmarkError`` if missing or not an object."""
    try:
        manifest = json.loads((Path(root) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise BenchmarkError(f"{root}: missing or unreadable {MANIFEST}") from exc
    if not isinstance(manifest, dict):
        raise BenchmarkError(f"{root}: {MANIFEST} must hold a JSON object")
    return manifest


def _plan_of(manifest: dict[str, Any]) -> tuple[RunPlan, int]:
    """The run plan and level the manifest's parameters describe; ValueError if malformed."""
    params = manifest["parameters"]
    tasks, n, level = params["tasks"], params["n"], params["level"]
    if not (isinstance(tasks, list) and all(isinstance(t, str) for t in tasks)
            and isinstance(n, int) and n >= 1 and isinstance(level, int)):
        raise ValueError("malformed parameters")
    entry = manifest.get("shard")
    shard = None if entry is None else Shard(int(entry["index"]), int(entry["count"]))
    return RunPlan(tuple(tasks), n, shard), level


@dataclass
class Benchmark:
    """A benchmark directory, parsed: check it with :meth:`problems` or :meth:`check`."""

    root: Path
    records: list[Record]
    manifest: dict[str, Any]
    _checked: dict[str, str] = field(default_factory=dict, repr=False)

    @classmethod
    def open(cls, root: str | Path) -> Benchmark:
        """Parse ``root``'s benchmark.json and manifest.json (``BenchmarkError`` if either
        is missing or malformed); nothing else is read yet."""
        root = Path(root)
        return cls(root, read_records(root), read_manifest(root))

    @classmethod
    def checked(cls, root: str | Path) -> Benchmark:
        """:meth:`open` then :meth:`check`: the benchmark readers may trust."""
        bench = cls.open(root)
        bench.check()
        return bench

    def check(self) -> None:
        """``BenchmarkError`` naming the first problem (and how many more) unless sound."""
        problems = self.problems()
        if problems:
            name, problem = problems[0]
            more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
            raise BenchmarkError(f"{self.root}: {name}: {problem}{more}; run "
                                 f"`spatialcad verify {self.root}` for the full list")

    def problems(self) -> list[tuple[str, str]]:
        """``(where, problem)`` for everything that differs from what ``generate`` writes."""
        out: list[tuple[str, str]] = []
        images = self._record_problems(out)
        files = self._manifest_problems(out, images)
        if not out:
            self._checked = files
        return out

    def _record_problems(self, out: list[tuple[str, str]]) -> list[str]:
        images: list[str] = []
        seen: Counter[tuple[str, str, str, str]] = Counter()
        if not self.records:
            out.append((BENCHMARK, "the benchmark has no items"))
        for i, r in enumerate(self.records):
            try:
                key = item_key(r)
            except ValueError as exc:
                out.append((f"record {i}", str(exc)))
                continue
            name = "/".join(key)
            seen[key] += 1
            if seen[key] == 2:
                out.append((name, "more than one record is this item"))
            if r.get("image") != expected_image(r):
                out.append((name, f"its image field {r.get('image')!r} is not "
                                  f"{expected_image(r)!r}"))
                continue
            images.append(r["image"])
            try:
                images += step_images(r)
            except ValueError as exc:
                out.append((name, str(exc)))
            problem = type_problem(r)
            if problem:
                out.append((name, problem))
        return images

    def _manifest_problems(self, out: list[tuple[str, str]], images: list[str]) -> dict[str, str]:
        m = self.manifest
        if m.get("generator") != GENERATOR:
            out.append((MANIFEST, "not a spatialcad manifest"))
            return {}
        files = m.get("files")
        if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
            out.append((MANIFEST, "its file list is malformed"))
            return {}
        root = os.path.realpath(self.root)
        for name in sorted(set(files) - {BENCHMARK, *images}):
            out.append((name, "listed in the manifest but not a file of the benchmark"))
        for name in [BENCHMARK, *images]:
            if name not in files:
                out.append((name, "not listed in the manifest"))
                continue
            path = os.path.realpath(self.root / name)
            if os.path.commonpath([root, path]) != root:
                out.append((name, "resolves to a path outside the benchmark"))
            elif not os.path.isfile(path):
                out.append((name, "listed in the manifest but missing"))
            elif file_sha256(Path(path)) != files[name]:
                out.append((name, "checksum differs from the manifest"))
        self._count_problems(out)
        return files

    def _count_problems(self, out: list[tuple[str, str]]) -> None:
        m = self.manifest
        if m.get("items") != len(self.records):
            out.append((MANIFEST, f"it counts {m.get('items')} items, {BENCHMARK} holds "
                                  f"{len(self.records)}"))
        try:
            counts = counts_of(self.records)
        except (KeyError, TypeError):
            return  # malformed records are reported already
        if m.get("counts") != counts:
            out.append((MANIFEST, f"its counts per task and level {m.get('counts')} differ from "
                                  f"the records' {counts}"))
        repeats = repeats_of(self.records)
        if "repeated_scenes" in m and m["repeated_scenes"] != repeats:
            out.append((MANIFEST, f"its repeated scenes per task and level "
                                  f"{m['repeated_scenes']} differ from the records' {repeats}"))
        try:
            plan, level = _plan_of(m)
        except (KeyError, TypeError, ValueError):
            out.append((MANIFEST, "its parameters (tasks, n, level, shard) are malformed"))
            return
        if len(plan) != len(self.records):
            out.append((MANIFEST, f"its parameters make {len(plan)} items, {BENCHMARK} holds "
                                  f"{len(self.records)}"))
            return
        if not m["parameters"].get("with_steps") and any("steps" in r for r in self.records):
            out.append((MANIFEST, "records have steps but the run was made without "
                                  "--with-steps"))
        split = m["parameters"].get("split")
        strays = [r for r in self.records if split and record_split(r) != split]
        if strays:
            out.append((MANIFEST, f"{len(strays)} records belong to another split than {split} "
                                  f"(e.g. {'/'.join(item_key(strays[0]))})"))
        for (task, index), r in zip(plan, self.records, strict=True):
            want = (task, f"Level{level}", image_id(index, plan.n))
            try:
                found = (task_name(r), r["Level"], r["Image_id"])
            except (KeyError, TypeError, AttributeError):
                found = None
            if found != want:
                out.append((MANIFEST, f"the records are not the run's items in order: expected "
                                      f"{'/'.join(want)}, found {found and '/'.join(found)}"))
                return

    def image_file(self, record: Record) -> Path:
        """The path of ``record``'s image, known to be a checked file of this benchmark."""
        if not self._checked:
            self.check()
        name = expected_image(record)
        if record.get("image") != name or name not in self._checked:
            raise BenchmarkError(f"{self.root}: {name}: not an image of this benchmark")
        return self.root / name

    def png(self, record: Record) -> bytes:
        """The image bytes of ``record``; ``BenchmarkError`` unless they are the manifest's."""
        path = self.image_file(record)
        return self._read_checked(record["image"], path)

    def step_pngs(self, record: Record) -> list[bytes]:
        """The step pictures of ``record`` in order (none without ``steps``): exactly
        ``<Image_id>-step<k>.png`` for k = 1 .. len(steps), each the manifest's file."""
        self.image_file(record)
        try:
            names = step_images(record)
        except ValueError as exc:
            raise BenchmarkError(f"{self.root}: {expected_image(record)}: {exc}") from exc
        for name in names:
            if name not in self._checked:
                raise BenchmarkError(f"{self.root}: {name}: not an image of this benchmark")
        return [self._read_checked(name, self.root / name) for name in names]

    def _read_checked(self, name: str, path: Path) -> bytes:
        data = path.read_bytes()
        if sha256(data) != self._checked[name]:
            raise BenchmarkError(f"{self.root}: {name}: checksum differs from the manifest")
        return data

    @property
    def with_steps(self) -> bool:
        """The benchmark was generated with step-by-step solutions."""
        return bool(self.manifest.get("parameters", {}).get("with_steps"))


def record_split(record: Record) -> str | None:
    """The split of a record's scene (None if it has no well-formed scene hash)."""
    h = record.get("scene_hash")
    if isinstance(h, str) and len(h) == 16 and all(c in "0123456789abcdef" for c in h):
        return split_of(h)
    return None


def manifest_entry(shard: Shard, total: int) -> dict[str, Any]:
    """The ``shard`` entry of a shard's manifest."""
    return {"index": shard.index, "count": shard.count, "run_items": list(shard.bounds(total))}
