"""The live path as readers run it: the real worker (theme/runtime/worker.js) boots Pyodide with a
real numpy from the site, and every live figure, training job, grader and the offline copy is used
as a reader would, under the pages' Content-Security-Policy. Whatever the worker computes is
checked against the engine on CPython, and no page error, console error or policy violation may
occur. Needs a Pyodide distribution with numpy (conftest.pyodide_kit: CI makes one)."""
from __future__ import annotations

import base64
import dataclasses
import json
import math
import re

import numpy as np
import pytest

from engine.figures import FigureJob, compute, module, parse
from engine.tasks import writing
from tests.engine.exercises.test_graders import ATTENTION, BACKWARD, SOFTMAX

from . import asks
from .conftest import CDN, SETTLE_MS, chapter_pages, expect, figure_numbers, follow, pyodide_kit, save_for_offline
from .figures.helpers import (OWN_TEXT, given_from, text_lines, two_heads_shown, writing_chapter,
                              writing_training_shown)

# Before any page script: record policy violations, the workers started, and every request to and
# answer from a worker (figures' and grader's), so the test can recompute each on CPython.
RECORD = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(e.effectiveDirective + " blocked " + (e.blockedURI || "?") + " at " + e.sourceFile + ":" + e.lineNumber);
});
window.__sent = {};
window.__answers = [];
window.__warms = [];
const RealWorker = window.Worker;
window.Worker = class extends RealWorker {
  constructor(url, options) {
    super(url, options);
    window.__workers = (window.__workers || 0) + 1;
    const sent = {};
    this.addEventListener("message", (e) => {
      const m = e.data;
      const ask = sent[m.id];
      if (!ask || !["result", "error", "cancelled"].includes(m.type)) return;
      if (ask.warm) window.__warms.push({ done: m.type === "result", step: m.step, setup: m.setup, slices: m.slices,
                                          ...(m.type === "error" ? { error: m.message } : {}) });
      else if (m.type === "result") window.__answers.push({ ask, data: m.data });
    });
    const post = this.postMessage.bind(this);
    this.postMessage = (m) => { if (m.type === "compute" || m.type === "job") sent[m.id] = m; post(m); };
  }
};
"""
JOB_MS = 180_000  # a 400-step training on a loaded 2-core machine, with Python booting first


class Reader:
    """One page opened as a reader opens it, with the policy enforced and every error recorded."""

    def __init__(self, new_context, url: str, width: int = 1200, context=None):
        self.context = context or new_context(bypass_csp=False, viewport={"width": width, "height": 800})
        self.cdn: list[str] = []
        self.context.route(CDN, lambda route: (self.cdn.append(route.request.url), route.abort()))
        self.page = self.context.new_page()
        self.console: list[str] = []  # errors
        self.warnings: list[str] = []
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.console.append(m.text) if m.type == "error" else None)
        self.page.on("console", lambda m: self.warnings.append(m.text) if m.type == "warning" else None)
        self.page.on("pageerror", lambda err: self.errors.append(str(err)))
        self.page.add_init_script(RECORD)
        self.page.goto(url)

    def boot(self) -> None:
        """Bring the first live figure on screen, which starts Python, and wait until it is ready."""
        self.page.locator("[data-figure][data-live]").first.scroll_into_view_if_needed()
        status = self.page.locator("[data-runtime-status]")
        expect(status).to_have_attribute("data-state", "ready", timeout=SETTLE_MS)

    def answers(self) -> list[dict]:
        return self.page.evaluate("window.__answers")

    def assert_clean(self, where: str) -> None:
        assert self.page.evaluate("window.__csp") == [], where
        assert self.errors == [], where
        assert self.console == [], where
        assert self.cdn == [], f"{where}: a vendored site must not need the CDN"


def _differences(a, b, path="data", tol=1e-6) -> list[str]:
    """Where two JSON values differ: numbers beyond a relative `tol`, anything else at all; a model
    file (writing-training's model_file) by what it holds, its weights to `tol` as numbers are."""
    if path.endswith(".model_file") and isinstance(a, str) and isinstance(b, str):
        a, b = _model_file(a), _model_file(b)
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return [] if a.shape == b.shape and np.allclose(a, b, rtol=tol, atol=tol) else [f"{path}: arrays differ"]
    if isinstance(a, bool) or isinstance(b, bool) or isinstance(a, str) or a is None:
        return [] if a == b else [f"{path}: {str(a)[:80]!r} != {str(b)[:80]!r}"]
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return [] if math.isclose(a, b, rel_tol=tol, abs_tol=tol) else [f"{path}: {a} != {b}"]
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return [f"{path}: keys {sorted(a)} != {sorted(b)}"]
        return [d for k in a for d in _differences(a[k], b[k], f"{path}.{k}", tol)]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items != {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _differences(x, y, f"{path}[{i}]", tol)]
    return [f"{path}: {type(a).__name__} != {type(b).__name__}"]


def _model_file(b64: str) -> dict:
    """A model file as _differences compares it: its header's record and its weights."""
    m = writing.unpack(base64.b64decode(b64))
    return {"text": m.text, "seed": m.seed, "config": dataclasses.asdict(m.config), "vocab": m.vocab.characters,
            "run": m.run, "params": dict(m.params)}


def _on_cpython(ask: dict) -> dict:
    """What the engine on CPython answers to a request the page sent its worker, given the same files."""
    given = given_from(ask.get("files"))
    if ask["type"] == "compute":
        return compute(parse(ask["name"], ask["params"]), given)
    job = FigureJob(parse(ask["name"], ask["params"]), ask["job"], given=given)
    while True:
        out = job.advance(60.0)
        if out["done"]:
            return out


# A training job runs hundreds of float32 steps, and wasm numpy may sum in another order than
# native numpy: its numbers agree to this relative tolerance (its text still agrees exactly).
TRAINED_TOL = 1e-3
# induction-forms trains in float64, where the orders agree to about 1e-12: the reader's run is the
# build's run for that seed.
TRAINED_TOL_FLOAT64 = {"induction-forms": 1e-9}
# Figures computed from a float32 model the worker trains on its first request (its weights the
# build's to about 1e-6): numbers rounded for the page may round the other way, by one last digit.
WORKER_TRAINED_TOL = {"your-sentence": 0.01}


def _check_answers(reader: Reader, where: str, since: int = 0) -> int:
    """Every answer the worker gave (from the `since`-th on) equals the engine's on CPython:
    computed figures to 1e-6, the same code in wasm numpy, trained ones to TRAINED_TOL, those of a
    model the worker trained to WORKER_TRAINED_TOL."""
    answers = reader.answers()[since:]
    for answer in answers:
        cpython = json.loads(json.dumps(_on_cpython(answer["ask"])))
        tol = WORKER_TRAINED_TOL.get(answer["ask"]["name"], 1e-6)
        if answer["ask"]["type"] == "job":  # only the final slice's figure or snapshot is compared
            cpython = {k: cpython[k] for k in ("result", "snapshot") if k in cpython}
            answer["data"] = {k: answer["data"][k] for k in cpython}
            tol = TRAINED_TOL_FLOAT64.get(answer["ask"]["name"], TRAINED_TOL)
        diffs = _differences(answer["data"], cpython, tol=tol)
        assert not diffs, f"{where}: {answer['ask']['name']} differs from CPython: {diffs[:5]}"
    return len(answers)


def _ask(figure, name: str, data: dict) -> None:
    """Make figure `name` ask Python for something its page has no data for, as a reader would: its
    ASK says what to do (asks.py, which fails for a live figure without one)."""
    _act(figure, asks.ask(name, data))


def _act(figure, ask: dict) -> None:
    """Do what `ask` (a figure's ASK or REFUSE, asks.py) says, to the target it names in `figure`."""
    if "button" in ask:
        target = figure.get_by_role("button", name=ask["button"])
    elif "label" in ask:
        target = figure.get_by_label(ask["label"])
    else:
        target = figure.locator(ask["on"]).nth(ask.get("nth", 0))
    if "press" in ask:
        target.focus()
        target.press(ask["press"])
    elif "select" in ask:
        target.select_option(ask["select"])
    elif "fill" in ask:
        target.fill(ask["fill"])
        target.press("Enter")
    elif "at" in ask:
        box = target.bounding_box()
        figure.page.mouse.click(box["x"] + box["width"] * ask["at"][0], box["y"] + box["height"] * ask["at"][1])
    else:
        target.click()


def _live_pages(site) -> list[str]:
    return [p for p in chapter_pages() if "data-live" in (site / p).read_text()]


def _answered(reader: Reader, name: str) -> dict:
    """The figure data of the worker's last answer to figure `name` (a job's: its final figure)."""
    data = next(a["data"] for a in reversed(reader.answers()) if a["ask"]["name"] == name)
    return data.get("result", data)


def _drawn_from_python(reader: Reader, figure, name: str, data: dict) -> None:
    """What a figure the reader fed or trained shows is the real worker's answer (whose numbers
    _check_answers compares with CPython's): its key numbers at its opening state, a training's
    progress at its last step, and, for typed input, the reason Python gives for input it refuses."""
    refuse = asks.REFUSE.get(name)
    if name != "induction-forms" and refuse is None:
        return
    answer = _answered(reader, name)
    assert figure_numbers(figure) == text_lines(answer, answer["start"]), name
    if name == "induction-forms":
        assert figure.locator("progress").evaluate("(p) => p.value") == data["steps"]
    if refuse is not None:
        refused = refuse(data)
        _act(figure, refused)
        expect(figure.locator(".figure-note")).to_contain_text(refused["says"], timeout=SETTLE_MS)


# Live figures whose ASK is acted out on a page of their own, and why not on the series' page.
OWN_PAGE = {"writing-training": "its Train on chapter 14 runs the whole run a reader trains, about 40 s of CPU "
                                "in Pyodide: test_writing_training_runs_to_the_end_and_cancel_restores_the_shipped_run "
                                "runs the same job for WRITING_STEPS"}


def test_every_live_figure_computes_what_the_engine_computes(new_context, real_site):
    """The series read in one tab, as a reader reads it: every chapter followed in place from the
    first, Python booted once on the first live chapter (from the build's start-up snapshot), and
    every live figure asks the real worker for something its page has no data for. The figures of
    OWN_PAGE are asked on a page of their own."""
    from .test_snapshot_boot import boot_restored_the_snapshot

    chapters = chapter_pages()
    live = _live_pages(real_site["out"])
    assert live, "no chapter has a live figure"
    reader = Reader(new_context, real_site["url"] + chapters[0])
    page = reader.page
    wasm = []
    page.on("request", lambda r: r.url.endswith("pyodide.asm.wasm") and wasm.append(r.method))
    checked = 0
    for i, name in enumerate(chapters):
        if i:
            follow(page, page.locator("a[rel=next]"))
            assert page.url == real_site["url"] + name
        if name not in live:
            continue
        if name == live[0]:
            reader.boot()
            boot_restored_the_snapshot(reader, real_site["out"])
        asked = 0
        for figure in page.locator("[data-figure][data-live]").all():
            figure_name = figure.get_attribute("data-figure")
            if figure_name in OWN_PAGE:
                continue
            asked += 1
            figure.scroll_into_view_if_needed()
            data = json.loads(figure.locator(".figure-data").text_content())
            _ask(figure, figure_name, data)
            expect(figure).to_have_attribute("data-state", "live", timeout=JOB_MS)
            expect(figure).not_to_have_attribute("aria-busy", "true", timeout=JOB_MS)
            _drawn_from_python(reader, figure, figure_name, data)
        got = _check_answers(reader, name, since=checked)
        assert got >= asked, name
        checked += got
        reader.assert_clean(name)
    workers = page.evaluate("window.__workers")  # the figures' worker, and the graders' once an exercise came near
    assert wasm.count("GET") == workers <= 2, f"Pyodide's core fetched {wasm} for {workers} workers in one reading"


def test_retrain_runs_to_the_end_and_cancel_restores_the_model(new_context, real_site):
    reader = Reader(new_context, real_site["url"] + "09-learning-to-look.html")
    page = reader.page
    figure = page.locator('[data-figure="two-heads"]')
    figure.scroll_into_view_if_needed()  # its view loads as it nears the screen
    retrain = figure.get_by_role("button", name="Retrain")
    cancel = figure.get_by_role("button", name="Cancel")
    before = figure_numbers(figure)

    retrain.focus()
    page.keyboard.press("Enter")  # Python boots for the job: the figure says so
    expect(cancel).to_be_focused()  # Retrain disables itself; the keyboard moves to Cancel
    expect(figure.locator(".figure-note")).to_contain_text("starting", timeout=30_000)
    expect(figure).to_have_attribute("data-state", "live", timeout=JOB_MS)
    expect(retrain).to_be_focused()
    assert figure.get_attribute("data-warm") is None  # clicked before Python was ready: no warm-up ran
    status = figure.locator(".th-status")
    answers = reader.answers()
    assert len(answers) == 1 and answers[0]["ask"]["job"] == "retrain"
    result = answers[0]["data"]["result"]
    expect(status).to_have_text(result["text"]["status"])  # the new accuracy, in sight
    assert "held-out accuracy" in status.text_content()
    _check_answers(reader, "two-heads retrain")
    trained = figure_numbers(figure)
    assert trained != before

    page.keyboard.press("Enter")  # again, from the trained model, and cancelled mid-run
    expect(cancel).to_be_focused()
    expect(figure).to_have_attribute("aria-busy", "true")
    assert figure.evaluate(CANCEL_AT_FIRST_PROGRESS).startswith("Training step")
    expect(figure).not_to_have_attribute("aria-busy", "true", timeout=30_000)
    expect(retrain).to_be_focused()
    assert figure_numbers(figure) == trained
    expect(status).to_contain_text("stopped")
    reader.assert_clean("two-heads")


# Cancel pressed in the page as the figure draws its run's first progress (its progress bar moves off
# zero): the worker hears it a slice later, long before the run could end, however busy the machine
# (a test that waited for progress from here and then pressed Cancel could lose that race to a run
# that ended first). Resolves with the status line the run showed then.
CANCEL_AT_FIRST_PROGRESS = """(f) => new Promise((resolve) => {
  const bar = f.querySelector("progress");
  const cancel = [...f.querySelectorAll("button")].find((b) => b.textContent === "Cancel");
  const moved = () => {
    if (!(bar.value > 0 && bar.value < bar.max)) return;
    watch.disconnect();
    const status = f.querySelector("[data-job-status]").textContent;
    cancel.click();  // the keyboard is on Cancel already: the click is what Enter would do
    resolve(status);
  };
  const watch = new MutationObserver(moved);
  watch.observe(bar, { attributes: true });
  moved();
})"""


# A run short enough for this suite: one checkpoint after the start (the job streams the start's while it trains).
WRITING_STEPS = module("writing-training").CONFIG.checkpoint_every
TUNE_STEPS = module("writing-training").writing_own.STEPS[0]  # the shortest fine-tuning a reader can choose


@pytest.fixture(scope="module")
def writing_page(scratch_page) -> str:
    """A page of its own for writing-training, with a run of WRITING_STEPS, Pyodide and numpy vendored
    (its model made from its own prose, once per test run: the run's store)."""
    return scratch_page(writing_chapter({"steps": WRITING_STEPS, "more": WRITING_STEPS})
                        + "\n/// figure | writing-sample\n\nIt writes.\n///\n", pyodide_dist=pyodide_kit())


def test_writing_training_runs_to_the_end_and_cancel_restores_the_shipped_run(new_context, writing_page):
    """Chapter 14's Train from scratch with real numpy, on a page whose figure trains WRITING_STEPS
    (OWN_PAGE says why): started by keyboard and cancelled mid-run, the page's own run comes back
    exactly as drawn; started again, it runs to the end with progress, and the worker's figure equals
    CPython's within TRAINED_TOL (_check_answers): every step's loss, every checkpoint's losses, and
    each checkpoint's sample character for character."""
    reader = Reader(new_context, writing_page)
    page = reader.page
    figure = page.locator('[data-figure="writing-training"]')
    figure.scroll_into_view_if_needed()  # its view loads as it nears the screen
    train = figure.get_by_role("button", name=asks.ASK["writing-training"]["button"])
    cancel = figure.get_by_role("button", name="Cancel")
    progress = figure.locator("progress")
    expect(train).to_be_visible()
    shipped = writing_training_shown(figure)

    train.focus()
    page.keyboard.press("Enter")  # Python boots for the job, if the figure's nearing has not booted it
    expect(cancel).to_be_focused()
    assert figure.evaluate(CANCEL_AT_FIRST_PROGRESS).startswith("Training step")  # the new run was on screen
    expect(figure).not_to_have_attribute("aria-busy", "true", timeout=30_000)
    expect(train).to_be_focused()
    assert writing_training_shown(figure) == shipped
    expect(figure.locator(".th-status")).to_contain_text("stopped")
    assert reader.answers() == []

    page.keyboard.press("Enter")  # again, to the end, read on while it trains
    expect(figure.locator(".th-status")).to_contain_text("Training step", timeout=JOB_MS)
    page.evaluate("document.body.style.paddingBottom = '300vh'; window.scrollTo(0, document.body.scrollHeight)")
    bar = page.get_by_role("complementary", name="Training under way")
    expect(bar.get_by_role("link", name="Back to figure")).to_be_visible()
    expect(figure).to_have_attribute("data-state", "live", timeout=JOB_MS)  # it ran to its end out of sight
    expect(bar).to_be_hidden()
    expect(figure).not_to_be_in_viewport()  # and its end left the reader where they were
    answers = reader.answers()
    assert [a["ask"]["job"] for a in answers] == ["train"]
    result = answers[0]["data"]["result"]
    assert [c["step"] for c in result["checkpoints"]] == [0, WRITING_STEPS]
    assert figure_numbers(figure) == text_lines(result, result["start"])
    expect(figure.locator(".th-status")).to_have_text(result["text"]["status"])
    assert progress.evaluate("p => p.value") == WRITING_STEPS
    _check_answers(reader, "writing-training train")  # CPython reads the model file the worker was given

    # The run's model is kept across a reload, and Keep training takes it on as CPython does from it.
    expect(figure.locator(".wt-kept")).to_contain_text("Your model is kept in this browser")
    page.reload()
    figure.scroll_into_view_if_needed()
    expect(figure.locator(".wt-kept")).to_contain_text("Your model is kept in this browser")
    figure.get_by_role("button", name="Keep training").click()
    expect(figure).to_have_attribute("data-state", "live", timeout=JOB_MS)
    asked, answer = reader.answers()[-1]["ask"], reader.answers()[-1]["data"]
    assert asked["job"] == "keep" and asked["files"]["reader-model"].startswith("blob:")
    site_files = {name: url for name, url in asked["files"].items() if name != "reader-model"}
    job = FigureJob(parse("writing-training", asked["params"]), "keep",
                    given=given_from(site_files).with_file("reader-model", base64.b64decode(result["model_file"])))
    while not (out := job.advance(60.0))["done"]:
        pass
    want = json.loads(json.dumps(out["result"]))
    assert not _differences(answer["result"], want, tol=TRAINED_TOL), _differences(answer["result"], want, tol=TRAINED_TOL)[:5]
    assert answer["result"]["steps"] == 2 * WRITING_STEPS
    kept_on = answer["result"]

    # Fine-tuned on a text of the reader's own, from their model, as CPython fine-tunes it from the same files.
    figure.locator("summary", has_text="Fine-tune on a text of your own").click()
    figure.get_by_label("Your text").fill(OWN_TEXT)
    expect(figure.get_by_label("Start from")).to_have_value("yours")
    figure.get_by_label("Steps").fill(str(TUNE_STEPS))
    figure.get_by_role("button", name="Fine-tune").click()
    expect(figure.locator(".th-status")).to_contain_text("Fine-tuned", timeout=JOB_MS)
    asked, answer = reader.answers()[-1]["ask"], reader.answers()[-1]["data"]
    assert asked["job"] == "tune" and asked["params"]["base"] == "yours"
    site_files = {name: url for name, url in asked["files"].items() if not name.startswith("reader-")}
    job = FigureJob(parse("writing-training", asked["params"]), "tune",
                    given=given_from(site_files).with_file("reader-model", base64.b64decode(kept_on["model_file"]))
                    .with_file("reader-text", OWN_TEXT.encode()))
    while not (out := job.advance(60.0))["done"]:
        pass
    want = json.loads(json.dumps(out["result"]))
    assert not _differences(answer["result"], want, tol=TRAINED_TOL), _differences(answer["result"], want, tol=TRAINED_TOL)[:5]
    result = answer["result"]

    # The next figure writes with the model kept last what CPython writes with the same file.
    sample = page.locator('[data-figure="writing-sample"]')
    sample.scroll_into_view_if_needed()
    sample.get_by_label("the model you trained").check()
    expect(sample).to_have_attribute("data-state", "live", timeout=JOB_MS)
    asked, written = reader.answers()[-1]["ask"], reader.answers()[-1]["data"]
    assert asked["params"]["model"] == "yours" and asked["files"]["reader-model"].startswith("blob:")
    site_files = {name: url for name, url in asked["files"].items() if name != "reader-model"}
    theirs = given_from(site_files).with_file("reader-model", base64.b64decode(result["model_file"]))
    want = json.loads(json.dumps(compute(parse("writing-sample", asked["params"]), theirs)))
    assert not _differences(written, want), _differences(written, want)[:5]
    assert written["written"] != json.loads(sample.locator(".figure-data").text_content())["written"]
    reader.assert_clean("writing-training")


def test_two_heads_warms_retrain_as_it_nears_and_a_retrain_during_or_after_it_is_unchanged(new_context, real_site):
    url = real_site["url"] + "09-learning-to-look.html"
    warm_steps = module("two-heads").WARM_STEPS
    results = []
    for click_during_warm_up in (False, True):
        reader = Reader(new_context, url)
        page = reader.page
        figure = page.locator('[data-figure="two-heads"]')
        figure.scroll_into_view_if_needed()  # near: Python boots, and once it is ready the worker warms Retrain
        retrain = figure.get_by_role("button", name="Retrain")
        expect(retrain).to_be_visible()
        shown = two_heads_shown(figure)
        if click_during_warm_up:  # 50 ms after the page asked for the warm-up: the worker is setting it up
            figure.evaluate("""f => new Promise((resolve) => new MutationObserver((_, o) => {
              if (f.dataset.warm === "running") { o.disconnect(); setTimeout(() => { f.querySelector("[data-key-control]").click(); resolve(); }, 50); }
            }).observe(f, { attributes: true, attributeFilter: ["data-warm"] }))""")
            expect(figure).to_have_attribute("data-warm", "stopped", timeout=SETTLE_MS)  # it gave way to the Retrain
        else:
            expect(figure).to_have_attribute("data-warm", "done", timeout=SETTLE_MS)
            assert two_heads_shown(figure) == shown  # the warm-up changed nothing a reader sees
            retrain.click()
        expect(figure).to_have_attribute("data-state", "live", timeout=JOB_MS)
        warms = page.evaluate("window.__warms")
        assert len(warms) == 1 and "error" not in warms[0] and warms[0]["setup"] > 0, warms  # it had begun
        if click_during_warm_up:
            assert not warms[0]["done"] and warms[0]["step"] < warm_steps, warms
        else:
            assert warms[0]["done"] and warms[0]["step"] == warm_steps, warms
        # A message waits behind one warm-up step at most: the worker advanced it a step per slice.
        # (How long a step takes is a benchmark's to say, benchmarks/retrain_pyodide.py, not a test's.)
        assert warms[0]["slices"] == warms[0]["step"], warms
        answers = reader.answers()
        assert [a["ask"]["job"] for a in answers] == ["retrain"]
        _check_answers(reader, "two-heads retrain after a warm-up")
        results.append(answers[0]["data"]["result"])  # the new figure (the last slice's losses depend on the slicing)
        reader.assert_clean("two-heads warm-up")
        reader.context.close()
    # After a whole warm-up, and after one stopped before its first step: the whole new figure, every
    # loss and the accuracy, bit for bit.
    assert results[0] == results[1]


# --- exercises ---------------------------------------------------------------------------------

CASES = {"softmax": SOFTMAX, "attention": ATTENTION, "softmax-backward": BACKWARD}


def _exercise_pages(site) -> dict[str, str]:
    found = {}
    for page in chapter_pages():
        for name in CASES:
            if f'data-exercise="{name}"' in (site / page).read_text():
                found[name] = page
    return found


def _write(section, code: str) -> None:
    """Replace the editor's code by pasting, as a reader pastes code. (Playwright's insert_text,
    an IME-style insertion, makes Chromium's own editing add a style attribute that the policy
    blocks: harmless, but it is not what a reader's paste or typing does.)"""
    editor = section.locator(".cm-content")
    editor.click()
    editor.press("Control+a")
    editor.page.evaluate("text => navigator.clipboard.writeText(text)", code)
    editor.press("Control+v")


def _run(section, state: str, timeout: float = 60_000):
    section.get_by_role("button", name="Run").click()
    result = section.locator("[data-exercise-result]")
    expect(result).to_have_attribute("data-state", state, timeout=timeout)
    return result


# The grader stops a runaway and restarts its Python the same way whatever the exercise: one shows it.
RUNAWAY_ON = "softmax"


def test_every_exercise_grades_right_and_wrong_answers(new_context, real_site):
    """Every case of each exercise's grader tests, pasted and run in the page, the exercises' pages
    followed in place in one tab as a reader moves through the series (the grader's Python boots
    once); on RUNAWAY_ON also a runaway loop, stopped after 5 s, then the right answer passes in the
    restarted Python."""
    pages = _exercise_pages(real_site["out"])
    assert sorted(pages) == sorted(CASES), f"exercises no chapter holds: {set(CASES) - set(pages)}"
    chapters = chapter_pages()
    order = sorted(CASES, key=lambda name: chapters.index(pages[name]))
    reader = Reader(new_context, real_site["url"] + pages[order[0]])
    reader.context.grant_permissions(["clipboard-read", "clipboard-write"])
    for exercise in order:
        while not reader.page.url.endswith("/" + pages[exercise]):
            follow(reader.page, reader.page.locator("a[rel=next]"))
        section = reader.page.locator(f'[data-exercise="{exercise}"]')
        section.scroll_into_view_if_needed()  # in view: the editor loads and the grader's Python boots
        expect(section.locator(".cm-content")).to_be_visible(timeout=30_000)
        for case, (code, state, words) in CASES[exercise].items():
            _write(section, code)
            result = _run(section, state, timeout=SETTLE_MS)
            expect(result).to_contain_text(words)

        if exercise == RUNAWAY_ON:
            runaway = "import time\nwhile True:\n    pass\n"
            _write(section, runaway)
            expect(_run(section, "timeout")).to_contain_text("Stopped after 5 seconds")
            right = CASES[exercise]["right"][0]
            _write(section, right)
            expect(_run(section, "passed", timeout=SETTLE_MS)).to_contain_text(CASES[exercise]["right"][2])
        reader.assert_clean(exercise)


# --- offline --------------------------------------------------------------------------------------

# Before any page script: window.__said lists every text the runtime's status line shows, in order.
RECORD_STATUS = """document.addEventListener("DOMContentLoaded", () => {
  window.__said = [];
  const line = document.querySelector("[data-runtime-status]");
  new MutationObserver(() => window.__said.push(line.textContent)).observe(line, { childList: true, characterData: true, subtree: true });
});"""
DOWNLOADING = re.compile(r"downloading it… (\d+)% \((\d+\.\d) of (\d+\.\d) MB\)")


def test_boot_progress_follows_the_bytes_that_arrived(new_context, real_site):
    """On a slow connection the status line's share grows with the bytes of Python, numpy and the
    engine as they arrive, and comes to all of them: every file the boot fetches is counted."""
    context = new_context(bypass_csp=False, viewport={"width": 1200, "height": 800})
    context.add_init_script(RECORD_STATUS)
    reader = Reader(new_context, real_site["url"] + "04-scores-to-weights.html", context=context)
    cdp = context.new_cdp_session(reader.page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 20, "downloadThroughput": 4_000_000,
                                                  "uploadThroughput": 1_000_000})
    reader.boot()
    said = reader.page.evaluate("window.__said")
    shares = [(int(m[1]), float(m[2]), float(m[3])) for m in map(DOWNLOADING.search, said) if m]
    assert len({share for share, _, _ in shares}) >= 5, said
    assert [s[:2] for s in shares] == sorted(s[:2] for s in shares), said  # never back
    total = shares[0][2]
    downloaded = [t for t in said if "downloaded" in t]
    assert downloaded and f"downloaded {total:.1f} MB" in downloaded[0], said
    assert said.index(downloaded[0]) < len(said) - 1 and "ready" in said[-1], said
    reader.assert_clean("a slow boot")


def test_saved_for_offline_python_boots_without_the_network(new_context, real_site):
    context = new_context(bypass_csp=False, viewport={"width": 1200, "height": 800})
    reader = Reader(new_context, real_site["url"] + "index.html", context=context)
    save_for_offline(reader.page)
    context.set_offline(True)
    reader.page.goto(real_site["url"] + "04-scores-to-weights.html")
    expect(reader.page.locator("[data-offline-status]")).to_contain_text("reading offline")
    reader.boot()  # Python, numpy and the engine, all from the saved copy
    figure = reader.page.locator('[data-figure="softmax-temperature"]')
    figure.scroll_into_view_if_needed()
    _ask(figure, "softmax-temperature", {})
    expect(figure).to_have_attribute("data-state", "live", timeout=60_000)
    _check_answers(reader, "offline")
    reader.assert_clean("offline")
