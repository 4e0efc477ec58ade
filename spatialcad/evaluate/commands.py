"""Click commands ``eval``, ``report``, ``export``, ``gallery`` and ``quiz`` of the CLI."""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any

import click

from spatialcad import panels
from spatialcad.cli_support import OutputDir, UsageFailure, fail
from spatialcad.evaluate import baselines, ladder, report, runner, stats
from spatialcad.evaluate import steps as eval_steps
from spatialcad.evaluate.client import ChatClient, EndpointError
from spatialcad.evaluate.prompts import FORMS, STYLES
from spatialcad.panels import IMAGES
from spatialcad.record.benchmark import Benchmark, counts_of
from spatialcad.run.outdir import OutputError, check_apart, locked
from spatialcad.run.pipeline import GenerationError


def _endpoint_failure(exc: EndpointError) -> click.ClickException:
    message = " ".join(str(exc).split()) + " (answered items are kept; re-run to resume)"
    return UsageFailure(message) if exc.config else click.ClickException(message)


def _check_options(dir_: Path | None, model: str | None, base_url: str | None,
                   baseline: str | None, ladder_mode: bool, task: str | None, form: str) -> None:
    if (model is None) == (baseline is None):
        fail("give either --model (with --base-url) or --baseline")
    if model is not None and not base_url:
        fail("--model needs --base-url, e.g. http://127.0.0.1:8000/v1")
    if ladder_mode:
        if not task:
            fail("--ladder needs --task NAME (see `spatialcad tasks`)")
        if dir_ is not None:
            fail("--ladder generates its own items: give no benchmark DIR")
        if baseline == "audit":
            fail("--baseline audit scores a benchmark DIR, not a ladder")
    elif dir_ is None:
        fail("give the benchmark DIR to score (or --ladder --task NAME)")
    if baseline and form != "choice":
        fail(f"baselines answer the multiple-choice form only (drop --form {form})")
    if ladder_mode and form == "judge":
        fail("--ladder scores one answer per item: use --form choice or open")


def _api_key(var: str | None) -> str | None:
    if var is None:
        return None
    key = os.environ.get(var)
    if not key:
        fail(f"--api-key-env {var}: the environment variable {var} is not set")
    return key


def _answerer(model: str | None, baseline: str | None, client_args: dict[str, Any],
              style: str, form: str, text_only: bool, seed: int, letter: str,
              images: str) -> Any:
    if baseline:
        return baselines.make(baseline, seed=seed, letter=letter)
    assert model is not None  # _check_options
    try:
        client = ChatClient(model=model, **client_args)
    except ValueError as exc:
        fail(str(exc))
    return runner.ModelAnswerer(client, style, form, text_only, images=images)


def _system(answerer: Any, baseline: str | None) -> str:
    return "audit" if baseline == "audit" else answerer.system


def _summary_line(out: Path, lines: list[dict[str, Any]], done: runner.Progress) -> str:
    good = [x for x in lines if "error" not in x]
    systems = sorted({x["system"] for x in good})
    parts = []
    for system in systems:
        mine = {x["id"]: x for x in good if x["system"] == system}.values()
        acc = report.accuracy(mine)
        lo, hi = stats.wilson(acc.k, acc.n)
        unparsed = sum(x.get("extracted") is None for x in mine)
        parts.append(f"{system}: {100 * acc.value:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] "
                     f"on {acc.n} items, {unparsed} unparsed")
    return (f"{out}: {done.new} items answered now, {done.rejected} rejected by the endpoint; "
            + "; ".join(parts))


@click.command("eval")
@click.argument("dir_", metavar="[DIR]", required=False, type=OutputDir())
@click.option("--out", type=click.Path(path_type=Path), required=True,
              help="Run directory: run.json and results.jsonl (re-run to resume).")
@click.option("--model", help="Model name sent to the endpoint.")
@click.option("--base-url", help="OpenAI-compatible API root, e.g. http://127.0.0.1:8000/v1.")
@click.option("--api-key-env", metavar="VAR",
              help="Environment variable holding the API key (no key is sent without it).")
@click.option("--prompt", "style", type=click.Choice(STYLES), default="cot_tags",
              show_default=True, help="Answering style: reasoning + tags, reasoning + "
              "\\boxed{}, or the answer alone.")
@click.option("--form", type=click.Choice(FORMS), default="choice", show_default=True,
              help="choice: the four-option question; open: the open-ended form "
              "(Question_direct), for the items that have one; judge: yes/no questions, one "
              "with answer yes and one with answer no per item (the image shows the "
              "reference and the judged option alone).")
@click.option("--text-only", is_flag=True, help="Send no image (text-only baseline).")
@click.option("--images", type=click.Choice(IMAGES), default="composite", show_default=True,
              help="composite: the item's one picture; panels: each panel cut out of it on "
              "its own, after its caption as text (the reference pictures, then the options "
              "Image A-D), all in one message.")
@click.option("--concurrency", type=int, default=4, show_default=True,
              help="Requests in flight at once.")
@click.option("--limit", type=int, default=None,
              help="Score only the first N items of each task and level.")
@click.option("--timeout", type=float, default=300.0, show_default=True,
              help="Seconds to wait for one reply.")
@click.option("--retries", type=int, default=6, show_default=True,
              help="Retries of a request after HTTP 429/5xx or a timeout.")
@click.option("--backoff", type=float, default=2.0, show_default=True,
              help="First wait before a retry, seconds; doubled at each retry.")
@click.option("--max-tokens", type=int, default=4096, show_default=True,
              help="Longest reply allowed, in tokens.")
@click.option("--temperature", type=float, default=0.0, show_default=True,
              help="Sampling temperature (0: greedy).")
@click.option("--baseline", type=click.Choice(["random", "constant", "audit"]),
              help="Score a model-free answerer instead of a model.")
@click.option("--letter", type=click.Choice(list("ABCD")), default="A", show_default=True,
              help="The letter of --baseline constant.")
@click.option("--ladder", "ladder_mode", is_flag=True,
              help="Inf-Bench ladder on freshly generated items of --task.")
@click.option("--task", help="Task of the ladder (CLI name, see `spatialcad tasks`).")
@click.option("--runs", type=int, default=10, show_default=True, help="Ladder climbs.")
@click.option("--max-level", type=int, default=20, show_default=True,
              help="Highest ladder level (a climb passing it stops there).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the ladder's items and of --baseline random.")
@click.option("--restart", is_flag=True,
              help="Discard the answers already in OUT and score from scratch (needed to "
              "change the model, prompt, form, temperature or max tokens of a run).")
@click.option("--steps", "steps", type=click.Choice(eval_steps.MODES), default="none",
              show_default=True,
              help="Show the model each item's step-by-step solution (a benchmark made with "
              "`generate --with-steps`; only its items with steps are scored): text = the "
              "step lines in the prompt; images = every step picture after the item's image, "
              "with its line; partial = the same without the last step (STARE).")
def eval_cmd(dir_: Path | None, out: Path, model: str | None, base_url: str | None,
             api_key_env: str | None, style: str, form: str, text_only: bool, images: str,
             concurrency: int, limit: int | None, timeout: float, retries: int, backoff: float,
             max_tokens: int, temperature: float, baseline: str | None, letter: str,
             ladder_mode: bool, task: str | None, runs: int, max_level: int, seed: int,
             restart: bool, steps: str) -> None:
    """Score a model (or a baseline) on benchmark DIR, or climb the ladder of one task.

    \b
    Examples:
      spatialcad eval output/bench-L1 --out runs/qwen \\
          --model qwen2.5-vl --base-url http://127.0.0.1:8000/v1
      spatialcad eval output/bench-L1 --baseline audit --out runs/audit
      spatialcad eval --ladder --task cube_counting --runs 10 --out runs/ladder \\
          --model qwen2.5-vl --base-url http://127.0.0.1:8000/v1

    Each item's composite image is sent as an image part beside the prompt (with
    --images panels: each panel on its own, after its caption).  Every answer
    is appended to OUT/results.jsonl at once (raw response, extracted answer, correctness,
    latency, token usage); re-running the same command resumes where it stopped.  HTTP
    429/5xx and timeouts are retried with exponential backoff; a refused connection, a
    rejected key or an unknown model stops the run at once (exit 2).

    --ladder (Inf-Bench): each climb starts at level 1 with five new items per visit of a
    level; three or more right climb one level, fewer descend one and count a failure of
    that level; a climb ends at a level's second failure, at level 0 or above --max-level.
    The score is the mean final level over --runs climbs (OUT/ladder.json).
    """
    _check_options(dir_, model, base_url, baseline, ladder_mode, task, form)
    if steps != "none" and (ladder_mode or baseline):
        fail("--steps shows a model a benchmark's step-by-step solutions: not with --ladder "
             "or --baseline")
    if text_only and steps in ("images", "partial"):
        fail(f"--steps {steps} sends step pictures: not with --text-only (use --steps text)")
    if images == "panels" and (text_only or baseline):
        fail("--images panels sends a model each panel: not with "
             + ("--text-only" if text_only else "--baseline"))
    for name, value, least in (("--concurrency", concurrency, 1), ("--runs", runs, 1),
                               ("--limit", 1 if limit is None else limit, 1),
                               ("--retries", retries, 0), ("--max-tokens", max_tokens, 1)):
        if value < least:
            fail(f"{name} must be >= {least}")
    if timeout <= 0 or backoff < 0:
        fail("--timeout must be > 0 and --backoff >= 0")
    client_args = {"base_url": base_url, "api_key": _api_key(api_key_env), "timeout": timeout,
                   "retries": retries, "backoff": backoff, "max_tokens": max_tokens,
                   "temperature": temperature}
    answerer = _answerer(model, baseline, client_args, style, form, text_only, seed, letter,
                         images)
    identity = {"system": _system(answerer, baseline), "prompt": None if baseline else style,
                "form": form, "text_only": text_only, "seed": seed if baseline == "random"
                else None, "temperature": None if baseline else temperature,
                "max_tokens": None if baseline else max_tokens,
                **({"steps": steps} if steps != "none" else {}),
                **({"images": images} if images != "composite" else {})}
    extra = {"base_url": base_url}
    try:
        check_apart(out, [dir_] if dir_ is not None else [])
        with locked(out):
            if restart:
                runner.clear_run(out)
            _run(dir_, out, answerer, identity, extra, form, limit, concurrency, ladder_mode,
                 task, runs, max_level, seed)
    except OutputError as exc:  # the run directory is locked or unwritable
        fail(str(exc))
    finally:
        if isinstance(answerer, runner.ModelAnswerer):
            answerer.client.close()  # its pooled connections


def _run(dir_: Path | None, out: Path, answerer: Any, identity: dict[str, Any],
         extra: dict[str, Any], form: str, limit: int | None, concurrency: int,
         ladder_mode: bool, task: str | None, runs: int, max_level: int, seed: int) -> None:
    try:
        if ladder_mode:
            assert task is not None  # _check_options
            _run_ladder(out, task, answerer, identity, extra, runs, max_level, seed, concurrency)
        else:
            assert dir_ is not None  # _check_options
            _run_benchmark(dir_, out, answerer, identity, extra, form, limit, concurrency)
    except EndpointError as exc:
        raise _endpoint_failure(exc) from exc
    except KeyboardInterrupt:
        click.echo(f"the answers in {out} are kept; re-run the same command to resume",
                   err=True)
        raise


def _run_benchmark(bench: Path, out: Path, answerer: Any, identity: dict[str, Any],
                   extra: dict[str, Any], form: str, limit: int | None, concurrency: int) -> None:
    try:
        checked = Benchmark.checked(bench)
        records = runner.select(checked.records, form, limit)
        if identity.get("steps", "none") != "none":
            records = eval_steps.prepare(checked, records, answerer, identity["steps"])
        if not records:
            fail(f"{bench} has no items with the {form!r} form")
        if identity.get("images") == "panels":
            panels.require_captions(records)
        identity = {**identity, "kind": "benchmark",
                    "benchmark_sha256": runner.benchmark_digest(bench)}
        planned = {"items": len(records), "counts": counts_of(records)}
        lines = runner.open_run(out, identity, {**extra, "benchmark": str(bench.resolve()),
                                                "planned": planned})
    except (ValueError, OSError) as exc:
        fail(str(exc))
    answered = runner.answered(lines)
    todo = runner.pending(records, form, answered)
    log = runner.ResultLog(out / runner.RESULTS)
    try:
        done = runner.run_items(todo, checked.png, answerer, log, concurrency)
    finally:
        log.close()
    click.echo(_summary_line(out, runner.read_lines(out / runner.RESULTS), done))
    click.echo(f"report: spatialcad report {out}")


def _run_ladder(out: Path, task: str, answerer: Any, identity: dict[str, Any],
                extra: dict[str, Any], runs: int, max_level: int, seed: int,
                concurrency: int) -> None:
    from spatialcad import freecad_env
    from spatialcad.tasks import registry

    try:
        cls = registry.task(task)
    except KeyError as exc:
        fail(exc.args[0])
    if cls.needs_freecad:
        try:
            freecad_env.load()
        except freecad_env.FreeCADNotFound as exc:
            fail(str(exc))
    start = max(1, cls.min_level)
    top = max_level if cls.max_level is None else min(max_level, cls.max_level)
    if top < start:
        fail(f"--max-level {max_level} is below the ladder's first level {start}")
    identity = {**identity, "kind": "ladder", "task": task, "ladder_seed": seed,
                "per_level": ladder.PER_LEVEL, "top": top}
    try:
        lines = runner.open_run(out, identity, extra)
    except ValueError as exc:
        fail(str(exc))
    done = {x["id"]: x for x in lines if "error" not in x}
    log = runner.ResultLog(out / runner.RESULTS)
    try:
        lad = ladder.Ladder(task, answerer, log, done, seed=seed, concurrency=concurrency)
        climbs = lad.climbs(runs, start=start, top=top)
    except GenerationError as exc:
        raise click.ClickException(f"ladder item generation failed: {exc}") from exc
    finally:
        log.close()
    used = [x for x in done.values() if x.get("ladder", {}).get("run", runs) < runs]
    summary = ladder.summarize(task, seed, climbs, used)
    ladder.write_summary(out, summary)
    finals = ", ".join(str(c.final_level) for c in climbs)
    click.echo(f"{out}: ladder of {task}, {runs} climbs: mean final level "
               f"{summary['mean_final_level']:.2f} (sd {summary['sd_final_level']:.2f}); "
               f"final levels {finals}")


@click.command("report")
@click.argument("runs", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True))
@click.option("--out", type=click.Path(path_type=Path),
              help="Report directory (default: RUN/report for a single run).")
@click.option("--benchmark", "benchmarks", multiple=True, type=OutputDir(),
              help="A benchmark the runs scored (repeatable): human-*.jsonl quiz files are "
              "scored against theirs (found by its manifest digest: here, among the "
              "benchmarks of the other runs, or where the quiz was made), and a run of it "
              "is re-scored from its records.")
def report_cmd(runs: tuple[Path, ...], out: Path | None,
               benchmarks: tuple[Path, ...]) -> None:
    """Accuracy tables with 95% Wilson intervals and plots for one or more runs.

    Accuracy overall, per category, task and level, beside the chance interval; several
    runs are compared with the first (McNemar's exact test on paired items).  Writes
    report.md, summary.json, accuracy_by_task.png and accuracy_by_level.png to OUT and
    prints the markdown.  Include an audit run (`spatialcad eval DIR --baseline audit`)
    to flag tasks with shortcuts.  A human-<name>.jsonl file of `spatialcad quiz` is
    scored against its benchmark only (it carries no answer key): it must answer exactly
    its quiz's items, each once.
    """
    if out is None:
        if len(runs) > 1:
            fail("give --out DIR when reporting several runs")
        base = runs[0] if runs[0].is_dir() else runs[0].parent
        out = base / report.DEFAULT_DIR
    try:
        path, md = report.write(list(runs), out, list(benchmarks))
    except ValueError as exc:
        fail(str(exc))
    click.echo(md)
    click.echo(f"wrote {path} and plots to {out}")


QUIZ_FORMS = ("choice", "open")
EXPORT_FORMATS = ("hf", "spatialviz", "vlmeval", "jsonl")


@click.command("export")
@click.argument("dir_", metavar="DIR", type=OutputDir())
@click.option("--format", "fmt", type=click.Choice(EXPORT_FORMATS), required=True,
              help="hf: Hugging Face hub folder (parquet + dataset card); spatialviz: "
              "SpatialViz-Bench's layout for its evaluation scripts; vlmeval: VLMEvalKit "
              "multiple-choice TSV; jsonl: one record per line.")
@click.option("--out", type=click.Path(path_type=Path), required=True,
              help="Output path (a directory for hf and spatialviz, a file otherwise).")
@click.option("--overwrite", is_flag=True, help="Replace OUT if it exists.")
@click.option("--images", type=click.Choice(IMAGES), default="composite", show_default=True,
              help="With --format hf: panels adds the columns panels (each panel cut out "
              "of the composite) and panel_captions; with --format vlmeval: the image cell "
              "holds the panels (and image_path their names), the question starts with "
              "their captions.")
@click.option("--push-to-hub", "repo", metavar="REPO",
              help="With --format hf: upload OUT to the Hugging Face dataset repository REPO "
              "(owner/name); the token is read only from the environment variable HF_TOKEN.")
def export_cmd(dir_: Path, fmt: str, out: Path, overwrite: bool, images: str,
               repo: str | None) -> None:
    """Export benchmark DIR for other tools, every image embedded or copied.

    \b
    hf          OUT/data/<split>-*.parquet (the split of `generate --split`, else test),
                OUT/README.md (dataset card), OUT/manifest.json:
                datasets.load_dataset(OUT, split="test"); --images panels adds the
                columns panels and panel_captions
    spatialviz  OUT/data.json + OUT/<Category>/<Task>/<Level>/<Image_id>.png: run
                SpatialViz-Bench's evaluation/evaluate.py with --benchmark_test_path OUT
                --data_file data.json
    vlmeval     TSV: index, image (base64 PNG), question, A-D, answer, category
                (Task/Level), l2-category (Category/Level), level, image_id, id;
                --images panels: image holds the panels, image_path their names
    jsonl       the records of benchmark.json, one per line, plus image_base64
    """
    from spatialcad.export import hf, hub, jsonl, spatialviz, vlmeval

    write = {"hf": hf.export_hf, "spatialviz": spatialviz.export_spatialviz,
             "vlmeval": vlmeval.export_tsv, "jsonl": jsonl.export_jsonl}[fmt]
    try:
        if repo is not None and fmt != "hf":
            raise ValueError("--push-to-hub needs --format hf")
        if images != "composite" and fmt not in ("hf", "vlmeval"):
            raise ValueError(f"--images {images} needs --format hf or vlmeval")
        push = (repo, hub.hub_token(repo)) if repo is not None else None  # refused first
        pictures = {"images": images} if fmt in ("hf", "vlmeval") else {}
        n = write(dir_, out, overwrite, **pictures)
        click.echo(f"exported {n} items of {dir_} as {fmt} to {out}")
        if push is not None:
            click.echo(f"pushed {out} to {hub.push_folder(out, *push)}")
    except (ValueError, OSError) as exc:
        fail(str(exc))


@click.command("gallery")
@click.argument("dir_", metavar="DIR", type=OutputDir())
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False),
              help="HTML file to write (default: DIR/gallery.html).")
@click.option("--embed", is_flag=True, help="Embed the images: one self-contained file.")
@click.option("--run", "runs", multiple=True, type=click.Path(path_type=Path, exists=True),
              help="A run of DIR (`spatialcad eval --out RUN`) or a human-*.jsonl quiz file "
              "whose answers to show; repeat for several.")
def gallery_cmd(dir_: Path, out: Path | None, embed: bool, runs: tuple[Path, ...]) -> None:
    """Write a static HTML page to browse benchmark DIR: images, questions, answers.

    Filters by category, task and level (and "wrong only" with --run) are kept in the
    URL's hash, e.g. gallery.html#task=CubeCounting&level=Level1&wrong=1, and every item
    has an anchor, gallery.html#VisualPenetration/CubeCounting/Level1/0003: a link opens
    the page on that view or item.  With --run, each item shows the answer each system
    gave (extracted, right or wrong, the raw reply folded).
    """
    from spatialcad.export.gallery import DEFAULT_PAGE, write_gallery

    out = out or dir_ / DEFAULT_PAGE
    try:
        n = write_gallery(dir_, out, embed, list(runs))
    except (ValueError, OSError) as exc:
        fail(str(exc))
    shown = f" with the answers of {', '.join(map(str, runs))}" if runs else ""
    click.echo(f"wrote a gallery of {n} items{shown} to {out}")


@click.command("quiz")
@click.argument("dir_", metavar="DIR", type=OutputDir())
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), required=True,
              help="Directory to write: index.html (the quiz), quiz.json (the items drawn) "
              "and manifest.json.")
@click.option("--n", type=int, default=40, show_default=True, help="Items in the quiz.")
@click.option("--tasks", metavar="NAME[,NAME..]",
              help="Only these tasks (CLI or record names; default: every task of DIR).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the sample, its order and the practice item.")
@click.option("--form", type=click.Choice(QUIZ_FORMS), default="choice", show_default=True,
              help="choice: pick one of four options; open: type the answer of the open "
              "form (Question_direct), only items that have one.")
@click.option("--overwrite", is_flag=True, help="Replace an earlier quiz in OUT.")
def quiz_cmd(dir_: Path, out: Path, n: int, tasks: str | None, seed: int, form: str,
             overwrite: bool) -> None:
    """Write a human baseline quiz of benchmark DIR: one offline HTML page, OUT/index.html.

    \b
    Example:
      spatialcad quiz output/bench-L1 --n 40 --seed 1 --out quiz/
      (participants open quiz/index.html in a browser, no server needed)
      spatialcad report runs/qwen human-alice.jsonl --out report/

    The page asks for a name, gives one unscored practice item, then N items (as even as
    possible over task and level) one at a time without feedback: keys A-D or clicks to
    choose, Enter to go on, Esc to pause; the time on each item is recorded.  Progress is
    kept in the browser (a reload resumes).  At the end the participant downloads
    human-<name>.jsonl, in the line format of `spatialcad eval`'s results.jsonl and naming
    the benchmark's manifest digest; `spatialcad report` reads it as the system human:<name>,
    scored against DIR (neither the page nor the file holds the quiz items' answers).
    """
    from spatialcad.export.quiz import PAGE, write_quiz

    names = [t.strip() for t in (tasks or "").split(",") if t.strip()]
    command = shlex.join(["spatialcad", "quiz", str(dir_), "--n", str(n), "--seed", str(seed),
                          "--form", form, *(["--tasks", ",".join(names)] if names else [])])
    try:
        quiz = write_quiz(dir_, out, n, seed, names, form, overwrite, command)
    except (ValueError, OSError) as exc:
        fail(str(exc))
    click.echo(f"wrote a quiz of {len(quiz.items)} items (id {quiz.id}) to {out / PAGE}")


@click.command("audit")
@click.argument("dir_", metavar="DIR", type=OutputDir())
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False),
              help="Also write the table to this markdown file.")
def audit_cmd(dir_: Path, out: Path | None) -> None:
    """Per task, the pictures of benchmark DIR at the size a model sees them.

    The largest picture (w x h, megapixels), how many fit 1,003,520 px (Qwen2.5-VL's
    default max_pixels), the smallest factor its smart resize applies (sides rounded to
    multiples of 28, scaled down to fit), and at that size the smallest cube edge, dot,
    section piece (each as the task's verifier measures it), hidden-line dash and caption
    letter height, in px: native -> resized; n/a where the task's pictures have none.
    Every item's verifier runs (as `spatialcad verify`).  The shortcut audit, which
    answers without a model, is `spatialcad eval DIR --baseline audit`.
    """
    from spatialcad.evaluate import picture_sizes
    from spatialcad.render.png import decode_png

    try:
        checked = Benchmark.checked(dir_)
        items = [picture_sizes.item_sizes(r, decode_png(checked.png(r)))
                 for r in checked.records]
        md = picture_sizes.table(picture_sizes.by_task(items))
        if out is not None:
            out.write_text(md, encoding="utf-8")
    except (ValueError, OSError) as exc:
        fail(str(exc))
    click.echo(md)


COMMANDS = [eval_cmd, report_cmd, export_cmd, gallery_cmd, quiz_cmd, audit_cmd]
