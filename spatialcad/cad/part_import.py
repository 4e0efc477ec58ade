"""``spatialcad deepcad import``: part files (DeepCAD JSON, STEP) converted to STEP in mm."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from spatialcad.cad.deepcad import bbox_of
from spatialcad.cad.input_files import reason_counts, reason_of
from spatialcad.cad.parts import load_noting
from spatialcad.cad.step_io import write_step


@dataclass(frozen=True)
class ImportResult:
    """What :func:`import_parts` did with one input file."""

    source: Path
    step: Path | None = None
    error: str | None = None
    reason: str = ""  # the error's kind in a few words, counted in the summary line
    volume: float | None = None  # mm^3
    bbox: tuple[float, float, float, float, float, float] | None = None  # min xyz, max xyz
    faces: int | None = None
    warnings: tuple[str, ...] = ()  # what the reader left out of the model (DeepCADWarning)

    @property
    def ok(self) -> bool:
        return self.error is None


def import_parts(paths: Iterable[str | Path], out_dir: str | Path,
                 overwrite: bool = False, strict: bool = False) -> list[ImportResult]:
    """Convert part files (DeepCAD ``.json``, ``.step``, ``.stp``) to ``out_dir/<stem>.step``
    in millimetres; one result per input, in order.

    A file that fails (unreadable or invalid model, no regular file, another suffix, a
    second input with the same stem, an existing STEP file when not ``overwrite``) gets its
    reason in ``error`` and writes nothing; the others are still converted.  With
    ``strict``, a file that cannot be read as a part raises its ``ValueError`` instead.
    ``out_dir`` is made when the first file is written (``OSError`` if it cannot be).
    """
    out = Path(out_dir)
    results: list[ImportResult] = []
    used: set[str] = set()  # the stems written
    for p in map(Path, paths):
        step = out / f"{p.stem}.step"
        if p.stem in used:
            results.append(ImportResult(p, error=f"{p.name}: another input already wrote "
                                                 f"{step.name}", reason="name taken"))
            continue
        if step.exists() and not overwrite:
            results.append(ImportResult(p, error=f"{p.name}: {step} exists (use --overwrite "
                                                 f"to replace it)", reason="STEP file exists"))
            continue
        try:
            shape, skipped = load_noting(p)
        except ValueError as exc:  # DeepCADError, StepError, unsupported suffix
            if strict:
                raise
            results.append(ImportResult(p, error=str(exc), reason=reason_of(exc)))
            continue
        out.mkdir(parents=True, exist_ok=True)
        try:
            write_step(shape, step)
        except OSError as exc:
            results.append(ImportResult(p, error=f"{p.name}: cannot write {step} "
                                                 f"({exc.strerror or exc})",
                                        reason="cannot write"))
        else:
            used.add(p.stem)
            results.append(ImportResult(p, step, volume=shape.Volume, bbox=bbox_of(shape),
                                        faces=len(shape.Faces), warnings=skipped))
    return results


def import_report_lines(results: Sequence[ImportResult]) -> list[str]:
    """One line per result, then a summary line: the text of ``spatialcad deepcad import``."""
    lines = []
    for r in results:
        if r.ok:
            assert r.bbox is not None and r.volume is not None
            # rounded to 1e-6 mm, so that kernel noise (-2.2e-15) prints as 0
            lo, hi = (", ".join(f"{round(v, 6) + 0.0:g}" for v in corner)
                      for corner in (r.bbox[:3], r.bbox[3:]))
            lines.append(f"ok     {r.source.name} -> {r.step}  volume {r.volume:.6g} mm^3  "
                         f"bbox ({lo}) .. ({hi}) mm  faces {r.faces}"
                         + "".join(f"  warning: {w.removeprefix(r.source.name + ': ')}"
                                   for w in r.warnings))
        else:
            lines.append(f"FAILED {r.error}")
    n_ok = sum(r.ok for r in results)
    failed = [r.reason for r in results if not r.ok]
    lines.append(f"{n_ok} of {len(results)} files imported"
                 + (f"; failed: {reason_counts(failed)}" if failed else ""))
    return lines
