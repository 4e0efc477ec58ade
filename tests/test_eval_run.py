"""`spatialcad eval` / `report` end to end against the fake endpoint of tests/eval_server.py."""

from __future__ import annotations

import base64
import hashlib
import json
import time

import numpy as np
import pytest
from eval_server import FakeEndpoint, ForwardingProxy, dead_url, gold_table, judge_table

from spatialcad import forms
from spatialcad.evaluate import ladder, stats
from spatialcad.panels import panel_pngs
from spatialcad.render.png import decode_png
from spatialcad.run import pipeline

FAST = ["--timeout", "0.3", "--backoff", "0.01"]


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    out = tmp_path_factory.mktemp("evalbench") / "b"
    pipeline.generate(["cube_counting", "three_view"], 0, 4, 0, out)
    return out


@pytest.fixture(scope="module")
def gold(bench):
    return gold_table(bench)


def results(run):
    return [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()
            if x.startswith("{") and x.endswith("}")]


def answered_ids(run):
    return {x["id"] for x in results(run) if "error" not in x}


def test_gold_run_survives_500_timeout_429_and_drop(sc, bench, gold, tmp_path):
    run = tmp_path / "run"
    faults = {1: 500, 2: "timeout", 3: 429, 4: "drop"}
    with FakeEndpoint(gold=gold, faults=faults) as ep:
        code, out, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                            "--out", run, "--concurrency", 1, *FAST)
    assert code == 0, err
    lines = results(run)
    assert len(lines) == 8 and all(x["correct"] for x in lines)
    assert ep.count == 8 + 4
    assert lines[0]["attempts"] == 5  # the first item met all four faults
    for x in lines:
        assert {"raw", "extracted", "rule", "correct", "latency_s", "usage", "gold"} <= set(x)
        assert x["usage"]["total_tokens"] > 0
    assert "fake-vl: 100.0% [67.6, 100.0] on 8 items" in out
    # every request carried the prompt text and the composite image as a data URL
    content = ep.requests[-1]["messages"][0]["content"]
    assert content[0]["image_url"]["url"].startswith("data:image/png;base64,")
    assert "Options:\nA. " in content[1]["text"]


def test_images_panels_sends_each_panel_after_its_caption(sc, bench, tmp_path):
    """--images panels: one message per item holding, for every panel, its caption as text
    and then the panel's own picture (the composite's crop by the record's box, pixel for
    pixel), then the prompt; the fake endpoint answers from the first panel's digest."""
    records = json.loads((bench / "benchmark.json").read_text())
    pngs = [(bench / r["image"]).read_bytes() for r in records]
    first = {hashlib.sha256(panel_pngs(r, png)[0][1]).hexdigest(): r
             for r, png in zip(records, pngs, strict=True)}
    assert len(first) == len(records)
    with FakeEndpoint(gold=first) as ep:
        code, _, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                          "--out", tmp_path / "run", "--images", "panels", "--concurrency", 1)
    assert code == 0, err
    lines = results(tmp_path / "run")
    assert len(lines) == len(records) == len(ep.requests) and all(x["correct"] for x in lines)
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    assert meta["identity"]["images"] == "panels"
    for record, png, body in zip(records, pngs, ep.requests, strict=True):
        content = body["messages"][0]["content"]
        assert content[-1]["type"] == "text" and record["Question"] in content[-1]["text"]
        captions = [p["text"] for p in content[:-1:2]]
        images = [decode_png(base64.b64decode(p["image_url"]["url"].split(",", 1)[1]))
                  for p in content[1:-1:2]]
        layout = record["layout"]
        pictured = ["Image A", "Image B", "Image C", "Image D"] if layout["options"] else []
        assert captions == [*layout["captions"], *pictured] and all(layout["captions"])
        composite = decode_png(png)
        boxes = layout["reference"] + layout["options"]
        assert len(images) == len(boxes) >= 2
        for (x, y, w, h), got in zip(boxes, images, strict=True):
            assert np.array_equal(got, composite[y : y + h, x : x + w])
    assert {r["Task"] for r in records} == {"CubeCounting", "3ViewProjection"}


@pytest.mark.parametrize("variable", ["HTTP_PROXY", "http_proxy", "ALL_PROXY"])
def test_eval_goes_through_the_proxy_the_environment_names(sc, bench, gold, tmp_path,
                                                          monkeypatch, variable):
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"):
        for spelled in (name, name.lower()):
            monkeypatch.delenv(spelled, raising=False)
    with FakeEndpoint(gold=gold) as ep, ForwardingProxy() as proxy:
        monkeypatch.setenv(variable, proxy.url)
        code, out, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                            "--out", tmp_path / "run", "--limit", 2, *FAST)
        assert code == 0, err
        through = ep.count
        assert through > 0 and proxy.seen == [ep.base_url + "/chat/completions"] * through
        assert len(answered_ids(tmp_path / "run")) == through
        # NO_PROXY naming the endpoint's host goes around the proxy
        monkeypatch.setenv("NO_PROXY", "127.0.0.1")
        code, _, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                          "--out", tmp_path / "direct", "--limit", 1, *FAST)
        assert code == 0, err
        assert len(proxy.seen) == through and ep.count > through


def _tls_endpoint(ep: FakeEndpoint, folder) -> tuple[str, str]:
    """Serve ``ep`` over TLS with a fresh self-signed certificate for 127.0.0.1: its https
    base URL and the certificate (the CA bundle that trusts it)."""
    import ssl
    import subprocess
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    ep.server.socket = context.wrap_socket(ep.server.socket, server_side=True)
    return ep.base_url.replace("http://", "https://"), str(cert)


def test_eval_trusts_the_ca_bundle_the_environment_names(sc, bench, gold, tmp_path,
                                                         monkeypatch):
    for name in ("SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):
        monkeypatch.delenv(name, raising=False)
    ep = FakeEndpoint(gold=gold)
    url, bundle = _tls_endpoint(ep, tmp_path)
    with ep:
        code, _, err = sc("eval", bench, "--model", "fake-vl", "--base-url", url,
                          "--out", tmp_path / "untrusted", "--limit", 1, *FAST)
        assert code == 2 and "cannot verify the TLS certificate" in err, err
        assert "REQUESTS_CA_BUNDLE" in err and ep.count == 0
        for name in ("REQUESTS_CA_BUNDLE", "SSL_CERT_FILE"):
            monkeypatch.setenv(name, bundle)
            run = tmp_path / name
            code, _, err = sc("eval", bench, "--model", "fake-vl", "--base-url", url,
                              "--out", run, "--limit", 1, *FAST)
            assert code == 0, err
            assert answered_ids(run) and all(x["correct"] for x in results(run))
            monkeypatch.delenv(name)


def test_a_ca_bundle_that_cannot_be_read_is_refused_in_one_line(sc, bench, tmp_path,
                                                                monkeypatch):
    for name in ("SSL_CERT_FILE", "CURL_CA_BUNDLE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(tmp_path / "missing.pem"))
    code, _, err = sc("eval", bench, "--model", "m", "--base-url", "https://127.0.0.1:9/v1",
                      "--out", tmp_path / "run", *FAST)
    assert code == 2 and "missing.pem" in err and "Traceback" not in err


def test_resume_after_interruption(sc, bench, gold, tmp_path):
    run = tmp_path / "run"
    with FakeEndpoint(gold=gold, faults=lambda n: 401 if n > 3 else None) as ep:
        code, out, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                            "--out", run, "--concurrency", 1, *FAST)
    assert code == 2
    assert err.count("\n") == 1 and "rejected the API key (HTTP 401)" in err
    assert len(answered_ids(run)) == 3
    with open(run / "results.jsonl", "a") as f:
        f.write('{"id": "half a line')  # as if killed while writing
    with FakeEndpoint(gold=gold) as ep:
        code, out, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                            "--out", run, "--concurrency", 3, *FAST)
    assert code == 0, err
    assert ep.count == 5
    assert len(answered_ids(run)) == 8 and len(results(run)) == 8
    with FakeEndpoint(gold=gold) as ep:
        assert sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                  "--out", run, *FAST)[0] == 0
    assert ep.count == 0
    code, _, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                      "--out", run, "--prompt", "direct")
    assert code == 2 and "other settings (prompt differs)" in err


def test_dead_endpoint_fails_fast(sc, bench, tmp_path):
    start = time.perf_counter()
    code, _, err = sc("eval", bench, "--model", "m", "--base-url", dead_url(),
                      "--out", tmp_path / "run")
    assert time.perf_counter() - start < 3
    assert code == 2 and "connection refused (is the server running?)" in err
    assert answered_ids(tmp_path / "run") == set()


def test_unknown_model_and_keys(sc, bench, gold, tmp_path, monkeypatch):
    with FakeEndpoint(gold=gold, api_key="sekret") as ep:
        args = ["eval", bench, "--base-url", ep.base_url, "--out", tmp_path / "run", *FAST]
        code, _, err = sc(*args, "--model", "fake-vl")
        assert code == 2 and "rejected the API key (HTTP 401): Incorrect API key" in err
        code, _, err = sc(*args, "--model", "fake-vl", "--api-key-env", "SC_TEST_KEY")
        assert code == 2 and "SC_TEST_KEY is not set" in err
        monkeypatch.setenv("SC_TEST_KEY", "sekret")
        code, _, err = sc(*args, "--model", "nope", "--api-key-env", "SC_TEST_KEY")
        assert code == 2 and "The model `nope` does not exist" in err
        code, _, err = sc(*args, "--model", "fake-vl", "--api-key-env", "SC_TEST_KEY")
        assert code == 0, err
    assert len(answered_ids(tmp_path / "run")) == 8


def test_gives_up_after_retries(sc, bench, tmp_path):
    with FakeEndpoint(faults=lambda n: 503) as ep:
        code, _, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                          "--out", tmp_path / "run", "--retries", 2, *FAST)
    assert code == 1 and "still failing after 3 attempts: HTTP 503" in err
    assert ep.count == 3 * 4  # the four requests in flight each tried three times


def test_rejected_items_are_logged_and_retried(sc, bench, gold, tmp_path):
    run = tmp_path / "run"
    with FakeEndpoint(gold=gold, faults={2: 400}) as ep:
        code, out, _ = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                          "--out", run, "--concurrency", 1)
    assert code == 0 and "1 rejected by the endpoint" in out
    assert len(answered_ids(run)) == 7
    assert [x["error"] for x in results(run) if "error" in x] == ["HTTP 400: injected 400"]
    with FakeEndpoint(gold=gold) as ep:
        assert sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                  "--out", run)[0] == 0
    assert ep.count == 1 and len(answered_ids(run)) == 8
    with FakeEndpoint(gold=gold, faults=lambda n: 400) as ep:
        code, _, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                          "--out", tmp_path / "run2", "--concurrency", 1)
    assert code == 2 and "5 requests in a row were rejected" in err


def test_open_form_and_text_only(sc, bench, gold, tmp_path):
    with FakeEndpoint(gold=gold) as ep:
        code, _, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                          "--out", tmp_path / "open", "--form", "open", "--prompt", "direct")
        assert code == 0, err
        lines = results(tmp_path / "open")
        assert len(lines) == 4 and all(x["correct"] and x["form"] == "open" for x in lines)
        assert {x["task"] for x in lines} == {"CubeCounting"}
        # a run made when the open form was called "fill" resumes under --form open
        meta = json.loads((tmp_path / "open" / "run.json").read_text())
        meta["identity"]["form"] = "fill"
        (tmp_path / "open" / "run.json").write_text(json.dumps(meta))
        asked = ep.count
        code, out, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                            "--out", tmp_path / "open", "--form", "open", "--prompt", "direct")
        assert code == 0 and ep.count == asked and "0 items answered now" in out, err
        code, _, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                          "--out", tmp_path / "text", "--text-only", "--limit", 1)
        assert code == 0, err
    assert len(results(tmp_path / "text")) == 2  # one per task and level
    parts = [[p["type"] for p in body["messages"][0]["content"]] for body in ep.requests[-2:]]
    assert parts == [["text"], ["text"]]


def test_judge_form_is_balanced_resumes_and_reports(sc, bench, gold, tmp_path):
    judge = judge_table(bench)
    records = {r["image"].removesuffix(".png"): r for r in gold.values()}
    args = ("--model", "fake-vl", "--form", "judge", "--prompt", "direct")
    with FakeEndpoint(judge=judge) as ep:
        code, _, err = sc("eval", bench, *args, "--base-url", ep.base_url,
                          "--out", tmp_path / "judge")
        assert code == 0, err
        asked = ep.count
        code, _, err = sc("eval", bench, *args, "--base-url", ep.base_url,
                          "--out", tmp_path / "judge")
        assert code == 0 and ep.count == asked, err  # all answered: nothing asked again
    lines = results(tmp_path / "judge")
    records = {k: r for k, r in records.items() if forms.balanced_options(r)}
    assert 0 < len(records) < 8  # cube_counting item 3: its answer "none" has no question
    assert len(lines) == 2 * len(records) == asked
    assert all(x["correct"] and x["form"] == "judge" for x in lines)
    for item, record in records.items():
        mine = [x for x in lines if x["id"].split("#")[0] == item]
        assert sorted(x["gold"] for x in mine) == ["no", "yes"]
        for x in mine:
            k = "ABCD".index(x["judge_option"])
            assert x["id"] == f"{item}#{x['judge_option']}"
            assert record["judge"][k]["answer"] == x["gold"]
    # every answer was found by (image, question): three_view's pictured options were sent
    # as their own cuts, cube_counting's text options on the item's whole image
    assert set(ep.answered) - set(gold) and set(ep.answered) & set(gold)
    with FakeEndpoint(judge=judge, mode="constant:yes") as ep:
        code, _, err = sc("eval", bench, *args, "--base-url", ep.base_url,
                          "--out", tmp_path / "yes")
        assert code == 0, err
    yes = results(tmp_path / "yes")
    assert sum(x["correct"] for x in yes) * 2 == len(yes)  # always "yes" scores 50%
    code, md, err = sc("report", tmp_path / "yes", "--out", tmp_path / "rep")
    assert code == 0 and "| judge |" in md, err
    assert "| chance | random guess | - | judge |" in md  # a yes/no guess: 50%
    n = sum(x["task"] == "CubeCounting" for x in yes)
    lo, hi = stats.chance_interval(n, 0.5)
    counting = next(x for x in md.splitlines() if x.startswith("| CubeCounting |"))
    assert counting.endswith(f"| 50.0 [{100 * lo:.1f}, {100 * hi:.1f}] |"), counting


def test_baselines_and_report(sc, bench, gold, tmp_path):
    for args in (["--baseline", "constant", "--letter", "A"], ["--baseline", "random"],
                 ["--baseline", "audit"]):
        code, _, err = sc("eval", bench, *args, "--out", tmp_path / args[1])
        assert code == 0, err
    constant = results(tmp_path / "constant")
    assert sum(x["correct"] for x in constant) == 2  # balanced letters: one A per 4 items
    first = results(tmp_path / "random")
    sc("eval", bench, "--baseline", "random", "--out", tmp_path / "random2")
    assert {x["id"]: x["extracted"] for x in first} == {
        x["id"]: x["extracted"] for x in results(tmp_path / "random2")}
    audit = results(tmp_path / "audit")
    systems = {x["system"] for x in audit}
    assert {"audit:nearest_to_reference", "audit:farthest_from_reference",
            "audit:odd_one_out", "audit:most_typical", "audit:longest_text"} <= systems
    assert {x["task"] for x in audit if x["system"] == "audit:odd_one_out"} == {
        "3ViewProjection"}
    with FakeEndpoint(gold=gold) as ep:
        assert sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                  "--out", tmp_path / "model")[0] == 0
    code, out, err = sc("report", tmp_path / "model", tmp_path / "constant", tmp_path / "audit",
                        "--out", tmp_path / "rep")
    assert code == 0, err
    assert "| model | fake-vl | cot_tags | choice | 8 | 0 | 100.0 [67.6, 100.0] n=8" in out
    assert "paired n=8, b=6, c=0" in out and "## Shortcut audit" in out
    assert (tmp_path / "rep" / "report.md").is_file()
    code, _, _ = sc("report", tmp_path / "model")
    assert code == 0 and (tmp_path / "model" / "report" / "accuracy_by_task.png").is_file()


def test_ladder_against_the_endpoint(sc, tmp_path):
    # the endpoint knows the gold answers of climb 0's first visits of levels 1-3
    items = [ladder.new_item("cube_counting", 7, 0, lv, 0, k) for lv in (1, 2, 3)
             for k in range(ladder.PER_LEVEL)]
    import hashlib

    table = {hashlib.sha256(png).hexdigest(): record for record, png in items}
    run = tmp_path / "ladder"
    args = ["eval", "--ladder", "--task", "cube_counting", "--runs", 1, "--max-level", 3,
            "--seed", 7, "--out", run, "--concurrency", 2, *FAST]
    with FakeEndpoint(gold=table) as ep:
        code, out, err = sc(*args, "--model", "fake-vl", "--base-url", ep.base_url)
    assert code == 0, err
    assert ep.count == 15 and "mean final level 3.00" in out
    summary = json.loads((run / "ladder.json").read_text())
    assert summary["runs"][0]["stop"] == "passed the top level 3"
    assert [s["level"] for s in summary["runs"][0]["steps"]] == [1, 2, 3]
    with FakeEndpoint(gold=table) as ep:
        code, out, _ = sc(*args, "--model", "fake-vl", "--base-url", ep.base_url)
    assert code == 0 and ep.count == 0 and "mean final level 3.00" in out
    code, _, _ = sc("report", run)
    assert code == 0 and "## Ladder: ladder" in (run / "report" / "report.md").read_text()


@pytest.mark.parametrize(("args", "message"), [
    ([], "give either --model (with --base-url) or --baseline"),
    (["--model", "m"], "--model needs --base-url"),
    (["--baseline", "random", "--model", "m"], "give either --model"),
    (["--baseline", "random", "--form", "open"], "multiple-choice form only"),
    (["--baseline", "random", "--ladder"], "--ladder needs --task"),
    (["--baseline", "random", "--ladder", "--task", "cube_counting"], "give no benchmark DIR"),
    (["--baseline", "random", "--concurrency", 0], "--concurrency must be >= 1"),
    (["--model", "m", "--base-url", "ftp://x"], "must be an http(s) URL"),
    (["--baseline", "random", "--images", "panels"], "--images panels sends a model each "
     "panel: not with --baseline"),
    (["--model", "m", "--base-url", "http://x", "--text-only", "--images", "panels"],
     "not with --text-only"),
])
def test_bad_input(sc, bench, tmp_path, args, message):
    code, _, err = sc("eval", bench, *args, "--out", tmp_path / "run")
    assert code == 2 and message in err and err.count("\n") == 1


def test_bad_ladder_task_and_report_input(sc, tmp_path):
    code, _, err = sc("eval", "--ladder", "--task", "nope", "--baseline", "random",
                      "--out", tmp_path / "x")
    assert code == 2 and "unknown task 'nope'; choose from: rotation_2d" in err
    (tmp_path / "empty").mkdir()
    code, _, err = sc("report", tmp_path / "empty")
    assert code == 2 and "is not a run" in err
    code, _, err = sc("report", tmp_path / "empty", tmp_path / "empty")
    assert code == 2 and "give --out" in err
