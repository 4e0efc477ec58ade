"""The part cache's entry files (spatialcad/cad/disk_cache.py): what is stored is read back
exactly, and a damaged entry reads as absent (it is made again), never as other arrays."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from spatialcad.cad import disk_cache


def entry_arrays() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(3)
    return {
        "counts": np.array([3, 4]),
        "points": rng.normal(size=(33, 2)),
        "none": np.zeros((0, 2)),
        "scalar": np.array(2.5),
        "flags": np.array([True, False, True]),
        "bytes": np.frombuffer(b"a brep as text", dtype=np.uint8),
        "triangles": np.arange(12, dtype=np.int32).reshape(4, 3),
        "fortran": np.asfortranarray(rng.normal(size=(3, 5))),
    }


def test_an_entry_reads_back_exactly_and_writable(tmp_path: Path) -> None:
    file = tmp_path / f"entry{disk_cache.SUFFIX}"
    arrays = entry_arrays()
    disk_cache._save(file, arrays)
    read = disk_cache._load(file)
    assert read is not None and list(read) == list(arrays)
    for name, array in arrays.items():
        got = read[name]
        assert got.dtype == array.dtype and got.shape == array.shape, name
        assert np.array_equal(got, array), name
        assert got.flags.writeable and got.ctypes.data % disk_cache.ALIGN == 0, name


@pytest.mark.parametrize("damage", ["absent", "empty", "other", "truncated", "header",
                                    "object"])
def test_a_damaged_entry_reads_as_absent(tmp_path: Path, damage: str) -> None:
    file = tmp_path / f"entry{disk_cache.SUFFIX}"
    disk_cache._save(file, entry_arrays())
    data = file.read_bytes()
    start = len(disk_cache.MAGIC) + 8
    if damage == "absent":
        file.unlink()
    elif damage == "empty":
        file.write_bytes(b"")
    elif damage == "other":
        with file.open("wb") as f:
            np.savez(f, points=np.zeros(3))
    elif damage == "truncated":
        file.write_bytes(data[:-5])
    elif damage == "header":
        file.write_bytes(data[:start] + b"{" + data[start + 1:])
    else:  # an object array named in the header is refused, not unpickled
        file.write_bytes(data.replace(b'"<i8"', b'"|O8"', 1))
    assert disk_cache._load(file) is None


def test_cached_makes_once_then_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(disk_cache.CACHE_ENV, str(tmp_path))
    made = []

    def make() -> dict[str, np.ndarray]:
        made.append(1)
        return {"points": np.arange(6.0).reshape(3, 2)}

    first = disk_cache.cached("kind", "ab" * 32, "name", make)
    again = disk_cache.cached("kind", "ab" * 32, "name", make)
    assert len(made) == 1 and np.array_equal(first["points"], again["points"])
    assert list((tmp_path / "kind").rglob(f"*{disk_cache.SUFFIX}"))
