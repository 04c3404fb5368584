"""The worker's job protocol (theme/runtime/server.js) from the page's side, through runtime.ask():
start, throttled progress, cancel, errors, and computes answered while a job runs; and a figure's
newer job replacing its older one (theme/js/context.js). The engine runs on CPython behind the stand-in worker, which uses the
site's own server.js; its slices here are one training step each, so a job lasts long enough to watch."""
from __future__ import annotations

import pytest

from .conftest import expect

# runtime, and retrain(params, onProgress): a job of two-heads' Retrain, as a figure asks for one.
RUNTIME = """async () => {
  const { runtime } = await import(new URL("runtime/runtime.js", document.querySelector("link[rel=icon]").href).href);
  const retrain = (params, onProgress) => runtime.ask({ type: "job", name: "two-heads", job: "retrain", params }, onProgress);"""


@pytest.fixture
def chapter(open_live_chapter, scratch_page):
    url = scratch_page("# Jobs\n\n/// figure | two-heads\n\nThe model.\n///\n\n" + "Filler paragraph.\n\n" * 200)
    return open_live_chapter(url, slow_jobs=True)


def test_progress_is_throttled_and_no_step_is_lost(chapter):
    out = chapter.page.evaluate(RUNTIME + """
      const seen = [];
      const start = performance.now();
      const job = retrain({ seed: 5 }, (slices) => seen.push({ at: performance.now(), slices }));
      const done = await job.result;
      const slices = seen.flatMap((s) => s.slices);
      return { elapsed: performance.now() - start,
               gaps: seen.slice(1).map((s, i) => s.at - seen[i].at), steps: slices.map((s) => s.step),
               messages: seen.length, losses: slices.reduce((n, s) => n + s.losses.length, 0) + done.losses.length,
               snapshots: slices.every((s) => s.snapshot.sentences.length === 4), last: done.step,
               seed: done.result.seed };
    }""")
    # Every slice reaches the figure once, in order (server.js reads only `done` and `step`: the rest is the figure's).
    assert out["last"] == 400 and out["losses"] == 400 and out["seed"] == 5
    assert out["messages"] >= 3 and out["steps"] == sorted(set(out["steps"])) and out["steps"][-1] < 400
    # About one message per 100 ms, however fast the steps. Counted against the run's length
    # rather than by each gap: on a loaded machine the page can receive two messages together.
    assert out["messages"] <= out["elapsed"] / 100 + 2, (out["messages"], out["elapsed"])  # + the flush before done
    assert sorted(out["gaps"])[len(out["gaps"]) // 2] >= 90, out["gaps"]
    assert out["snapshots"]


def test_a_newer_job_of_the_same_figure_cancels_the_older(chapter):
    out = chapter.page.evaluate(RUNTIME + """
      const { figureContext } = await import(new URL("js/context.js", document.querySelector("link[rel=icon]").href).href);
      const el = document.querySelector('[data-figure="two-heads"]');
      const { ctx } = figureContext(el, el.querySelector(".figure-view"), runtime, () => true);
      let running;
      const progressed = new Promise((r) => { running = r; });
      const first = ctx.job("retrain", { seed: 1 }, running);
      await progressed; // the first job runs
      const second = ctx.job("retrain", { seed: 2 });
      const other = retrain({ seed: 3 }); // another figure's
      const [a, b, c] = await Promise.all([first, second, other.result]);
      return [a, b && b.result.seed, c && c.result.seed];
    }""")
    assert out == [None, 2, 3]


def test_cancel_and_errors_settle_the_promise(chapter):
    out = chapter.page.evaluate(RUNTIME + """
      const early = retrain({});
      early.cancel();
      const later = retrain({}, () => later.cancel()); // cancelled as it runs
      const bad = runtime.ask({ type: "job", name: "two-heads", job: "nope", params: {} }).result.then(() => "resolved", (e) => e.message);
      const badParams = retrain({ seed: -1 }).result.then(() => "resolved", (e) => e.message);
      return [await early.result, await later.result, await bad, await badParams];
    }""")
    assert out[:2] == [None, None]
    assert out[2] == "figure 'two-heads' has no job 'nope'"
    assert out[3].startswith("option 'seed' must lie between 0")


def test_the_worker_answers_computes_while_a_job_runs(chapter):
    out = chapter.page.evaluate(RUNTIME + """
      let finished = false;
      let running;
      const progressed = new Promise((r) => { running = r; });
      const job = retrain({}, running);
      job.result.then(() => { finished = true; });
      await progressed; // the job runs
      const data = await runtime.ask({ type: "compute", name: "softmax-bars", params: { scores: [1, 0], labels: ["a", "b"] } }).result;
      const answeredFirst = !finished;
      job.cancel();
      await job.result;
      return [answeredFirst, data.figure];
    }""")
    assert out == [True, "softmax-bars"]


def test_a_figure_scrolled_away_keeps_its_job_and_the_page_shows_it_with_a_way_back(chapter):
    figure = chapter.figure("two-heads")
    figure.get_by_role("button", name="Retrain").click()
    expect(figure).to_have_attribute("aria-busy", "true")
    bar = chapter.page.get_by_role("complementary", name="Training under way")
    expect(bar).to_be_hidden()  # the figure is in sight
    chapter.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    back = bar.get_by_role("link", name="Back to figure")
    expect(back).to_be_visible()
    expect(bar).to_contain_text("Training step")  # the figure's own progress line, as it goes
    expect(figure).to_have_attribute("aria-busy", "true")
    back.click()
    expect(figure).to_be_in_viewport()
    expect(bar).to_be_hidden()
    assert chapter.page.evaluate("document.activeElement.closest('[data-figure]')?.id") == figure.get_attribute("id")
    expect(figure).not_to_have_attribute("aria-busy", "true", timeout=60_000)  # it ran to its end
    expect(figure.locator(".th-status")).not_to_contain_text("stopped")


def test_a_job_goes_on_while_the_reader_reads_another_page_and_its_figure_comes_back_as_it_left_it(chapter):
    page = chapter.page
    figure = chapter.figure("two-heads")
    figure.get_by_role("button", name="Retrain").click()
    expect(figure).to_have_attribute("aria-busy", "true")
    figure.evaluate("(f) => { f.__carried = true; }")  # the element itself comes back, not a fresh copy
    page.evaluate("window.__same_document = true")
    page.get_by_role("navigation", name="Chapters").get_by_role("link", name="Contents").click()
    expect(page.locator("main h1")).not_to_have_text("Jobs")  # the contents, shown in place
    bar = page.get_by_role("complementary", name="Training under way")
    back = bar.get_by_role("link", name="Back to figure")
    expect(back).to_be_visible()
    back.click()
    # the page's fresh copy of the figure is there first; the carried one takes its place as the page enters
    page.wait_for_function("() => document.querySelector('[data-figure=\"two-heads\"]')?.__carried === true")
    assert page.evaluate("window.__same_document") is True  # both links followed in place, no page loaded again
    expect(figure).to_be_in_viewport()
    expect(figure).to_have_attribute("data-state", "live", timeout=60_000)  # the run went on to its end
    expect(figure.locator(".th-status")).not_to_contain_text("stopped")
    expect(bar).to_be_hidden()
