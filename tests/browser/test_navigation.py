"""Links between the site's pages followed in place (theme/js/nav.js, page.js): the document and its
Python workers survive the move, and the reader gets what a full load gives (title, address,
history, scroll, fragment, focus, an announcement, the new page's figures). What cannot move in
place is an ordinary load. The worker is the CPython stand-in here; the last test boots the real one."""
from __future__ import annotations

import re

import pytest

from .conftest import ROOT, SHOWN, chapter_pages, expect, follow, pyodide_kit

FOUR, FIVE, SIX = "04-scores-to-weights.html", "05-what-gets-passed-along.html", "06-no-peeking-ahead.html"
SAME_DOCUMENT = "window.__sameDocument = true"  # gone after a full load
# How long a pointer rests on a link before nav.js fetches its page ahead.
INTENT_MS = int(re.search(r"const INTENT_MS = (\d+);", (ROOT / "theme" / "js" / "nav.js").read_text())[1])


def same_document(page) -> bool:
    return page.evaluate("window.__sameDocument === true")


# An init script: window.__workers counts the workers the document starts.
COUNT_WORKERS = """window.__workers = 0;
window.Worker = class extends window.Worker { constructor(...args) { super(...args); window.__workers++; } };"""


# An init script: window.__asked lists what the page asks its workers ([type, name, key] of each
# message; the key names the worker and the message), window.__answered the keys of the results.
RECORD_ASKED = """(() => {
  window.__asked = [];
  window.__answered = [];
  let workers = 0;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (m) {
    if (!this.__n) {
      const n = this.__n = ++workers;
      this.addEventListener("message", ({ data }) => { if (data.type === "result") window.__answered.push(n + ":" + data.id); });
    }
    window.__asked.push([m.type, m.name ?? null, this.__n + ":" + m.id]);
    return post.call(this, m);
  };
})();"""
# The workers booted, and those asked anything of a figure (compute, prepare, job), by number.
BOOTED = "() => window.__asked.filter(([t]) => t === 'boot').map(([, , key]) => key.split(':')[0])"
FIGURES_ASKED = """() => [...new Set(window.__asked.filter(([t]) => ['compute', 'prepare', 'job'].includes(t))
                                       .map(([, , key]) => key.split(':')[0]))]"""
# Whether a worker has prepared figure `name` (answered a prepare for it).
PREPARED = "(name) => window.__asked.some(([t, n, key]) => t === 'prepare' && n === name && window.__answered.includes(key))"


def recolour(figure) -> None:
    """Chapter 5's first live figure (colour-tokens) asks the worker: a token's colour changed."""
    select = figure.locator(".ct-edit select").first
    select.select_option(select.evaluate("s => [...s.options].find((o) => o.value !== s.value).value"))


def test_a_link_to_the_next_chapter_replaces_the_page_in_place(open_live_chapter, base_url):
    chapter = open_live_chapter(base_url + FOUR)
    page = chapter.page
    page.evaluate(SAME_DOCUMENT)
    follow(page, page.locator("a[rel=next]"))
    assert same_document(page)
    assert page.url == base_url + FIVE
    assert page.title().startswith("What gets passed along")
    heading = page.locator("main h1")
    expect(heading).to_be_focused()
    expect(page.locator("[data-page-announce]")).to_have_text(page.title())
    assert page.evaluate("scrollY") == 0
    # The new page's figures, and only they, are drawn from their data; the old ones are gone.
    assert [f.split("-")[1] for f in page.eval_on_selector_all("[data-figure]", "els => els.map(e => e.id)")] == ["5"] * 4
    chapter.wait_prerendered()
    assert page.locator("#runtime-config").count() == 1


def test_the_worker_survives_the_move_and_the_next_figure_recomputes_at_once(open_live_chapter, base_url):
    chapter = open_live_chapter(base_url + FOUR, init_script=RECORD_ASKED)
    page = chapter.page
    chapter.start_runtime()
    expect(chapter.status_el).to_have_attribute("data-state", "ready")
    assert page.evaluate(BOOTED) == ["1"]  # the figures' worker
    follow(page, page.locator("a[rel=next]"))
    expect(chapter.status_el).to_have_attribute("data-state", "ready")  # on the new page's line at once
    figure = page.locator("[data-figure][data-live]").first
    figure.scroll_into_view_if_needed()
    expect(figure).to_have_attribute("data-state", "prerendered")
    recolour(figure)
    expect(figure).to_have_attribute("data-state", "live")
    # Chapter 4's exercise, just above the link, may come into view as the link is clicked, and its
    # grader start a worker of its own (grader.js) before the move: it is never asked for a figure.
    assert page.evaluate(FIGURES_ASKED) == ["1"], "a second worker started for the figures"


def test_a_link_the_pointer_or_focus_rests_on_is_fetched_once_ahead_and_the_click_uses_it(open_live_chapter, base_url):
    chapter = open_live_chapter(base_url + FOUR, init_script=RECORD_ASKED)
    page = chapter.page
    chapter.start_runtime()
    expect(chapter.status_el).to_have_attribute("data-state", "ready")
    page.evaluate(SAME_DOCUMENT)
    fetched = []  # the page's fetches of chapter 5's page
    page.on("request", lambda r: r.resource_type == "fetch" and r.url.split("?")[0].endswith(FIVE) and fetched.append(r.url))
    link = page.locator("a[rel=next]")
    link.scroll_into_view_if_needed()
    box = link.bounding_box()
    away = (2, box["y"] + box["height"] / 2)  # the margin beside it: no link there
    entries, title = page.evaluate("history.length"), page.title()

    # A reader who asks to save data: nothing is fetched ahead. A pointer resting on a link fetches once
    # its rest has lasted INTENT_MS, by a timer nav.js sets as the pointer arrives (before hover()
    # returns); a page timer of the same delay set after it runs after it, and by then the page would
    # have called fetch (recorded in the page, as it is called).
    page.evaluate("""() => { window.__fetched = []; const fetch = window.fetch;
      window.fetch = function (resource, options) { window.__fetched.push(String(resource.url ?? resource)); return fetch.call(this, resource, options); }; }""")
    page.evaluate("Object.defineProperty(navigator, 'connection', { value: { saveData: true }, configurable: true })")
    link.hover()
    page.evaluate("(ms) => new Promise((resolve) => setTimeout(resolve, ms))", INTENT_MS)
    assert page.evaluate("window.__fetched") == [] and fetched == []
    page.mouse.move(*away)
    page.evaluate("delete navigator.connection")

    # Rested on, then left: fetched once, its live figure prepared, then forgotten (the fetch of the
    # next rest below shows it); nothing else changes as the pointer leaves (its handler has run).
    link.hover()
    page.wait_for_function(PREPARED, arg="colour-tokens")
    assert len(fetched) == 1
    page.mouse.move(*away)
    assert (page.url, page.evaluate("history.length"), page.title(), same_document(page)) == (base_url + FOUR, entries, title, True)

    # Rested on again: fetched again (nothing of the first was kept), and the click uses that fetch.
    link.hover()
    page.wait_for_function("(n) => performance.getEntriesByType('resource').filter((e) => e.name.endsWith(n)).length >= 2", arg=FIVE)
    follow(page, link)
    assert page.url == base_url + FIVE and same_document(page)
    assert len(fetched) == 2, fetched
    chapter.wait_prerendered()

    # From the keyboard: focus resting on the next link fetches its page once, and Enter uses that fetch.
    # A pointer passing over the focused link and off it, before or after its fetch, leaves it held; one
    # resting on another link meanwhile (a page scrolled under it) fetches nothing in its place.
    six, back = [], []
    page.on("request", lambda r: r.resource_type == "fetch" and r.url.split("?")[0].endswith(SIX) and six.append(r.url))
    page.on("request", lambda r: r.resource_type == "fetch" and r.url.split("?")[0].endswith(FOUR) and back.append(r.url))
    link = page.locator("a[rel=next]")
    link.focus()
    link.hover()
    page.locator("a[rel=prev]").hover()
    page.evaluate("(ms) => new Promise((resolve) => setTimeout(resolve, ms))", INTENT_MS)  # its rest has lasted (above)
    box = link.bounding_box()
    page.mouse.move(2, box["y"] + box["height"] / 2)
    page.wait_for_function("(n) => performance.getEntriesByType('resource').some((e) => e.name.endsWith(n))", arg=SIX)
    assert back == []
    before = page.evaluate(SHOWN)
    page.keyboard.press("Enter")
    page.wait_for_function(f"(n) => ({SHOWN})() > n", arg=before)
    assert page.url == base_url + SIX and same_document(page)
    assert len(six) == 1, six


def test_a_page_left_in_place_ends_its_exercise_editor(open_live_chapter, base_url):
    page = open_live_chapter(base_url + FOUR).page
    section = page.locator("[data-exercise]").first
    section.scroll_into_view_if_needed()
    expect(section.locator(".cm-content")).to_be_visible()
    page.evaluate("window.__editor = document.querySelector('[data-exercise] .exercise-code').shadowRoot")
    follow(page, page.locator("a[rel=next]"))
    # CodeMirror's destroy() takes its view out of the box, and with it its observers and listeners
    assert page.evaluate("window.__editor.querySelector('.cm-editor')") is None


def test_back_and_forward_restore_the_page_and_its_scroll(open_live_chapter, base_url):
    chapter = open_live_chapter(base_url + FOUR)
    page = chapter.page
    page.evaluate(SAME_DOCUMENT)
    link = page.locator("a[rel=next]")
    link.scroll_into_view_if_needed()
    assert page.evaluate("scrollY") > 1000
    at = link.evaluate("a => a.getBoundingClientRect().top")  # where the reader was: the link on screen
    follow(page, link)
    shown = page.evaluate(SHOWN)
    page.go_back()
    expect(page).to_have_url(base_url + FOUR)
    # FOUR shown again, not FIVE scrolled to its foot, whose link to SIX sits where FOUR's to FIVE did
    page.wait_for_function(f"(n) => ({SHOWN})() > n", arg=shown)
    page.wait_for_function("(at) => Math.abs(document.querySelector('a[rel=next]').getBoundingClientRect().top - at) < 2", arg=at)
    expect(page.locator("main h1")).to_be_focused()
    page.go_forward()
    expect(page).to_have_url(base_url + FIVE)
    page.wait_for_function("() => scrollY === 0")
    assert page.title().startswith("What gets passed along")
    assert same_document(page)


def test_a_fragment_is_scrolled_to_and_takes_focus(open_live_chapter, base_url):
    page = open_live_chapter(base_url + FOUR).page
    page.evaluate(SAME_DOCUMENT)
    target = page.locator(f'a[href^="{FIVE}#"]')  # a link into the next chapter's part, if the prose has one
    if not target.count():
        page.evaluate(f"""() => {{ const a = document.createElement("a"); a.href = "{FIVE}#figure-5-4";
                                   a.textContent = "to the figure"; a.id = "to-fragment"; document.querySelector("main").prepend(a); }}""")
        target = page.locator("#to-fragment")
    fragment = target.first.get_attribute("href").split("#", 1)[1]
    follow(page, target.first)
    assert same_document(page) and page.url == base_url + FIVE + "#" + fragment
    focused = page.locator(f"#{fragment}")
    expect(focused).to_be_focused()
    expect(focused).to_be_in_viewport()
    assert page.evaluate("document.querySelector(':target')?.id") == fragment


@pytest.mark.parametrize("refuse", ["fetch fails", "another build", "not a page"])
def test_what_cannot_move_in_place_is_an_ordinary_load(open_chapter, base_url, refuse):
    def route(r):
        if r.request.resource_type != "fetch":
            return r.continue_()
        if refuse == "fetch fails":
            return r.abort()
        response = r.fetch()
        body = response.text()
        if refuse == "another build":
            body = re.sub(r'(name="attention-build" content=")[^"]*', r"\1another", body)
        r.fulfill(response=response, body=body,
                  content_type="text/plain" if refuse == "not a page" else response.headers["content-type"])

    chapter = open_chapter(base_url + FOUR, routes=[(f"**/{FIVE}", route)])
    page = chapter.page
    page.wait_for_load_state("load")
    page.evaluate(SAME_DOCUMENT)
    page.locator("a[rel=next]").click()
    page.wait_for_url(base_url + FIVE)
    page.wait_for_load_state("load")
    assert not same_document(page)
    assert page.title().startswith("What gets passed along")


def test_the_print_edition_and_other_sites_are_ordinary_loads(open_chapter, base_url):
    page = open_chapter(base_url + "index.html").page
    page.wait_for_load_state("load")
    page.evaluate(SAME_DOCUMENT)
    page.locator('main a[href="print.html"]').click()  # other stylesheets
    page.wait_for_url(base_url + "print.html")
    page.wait_for_load_state("load")
    assert not same_document(page)


def test_thirteen_moves_through_the_series_then_back_raise_no_error(open_live_chapter, base_url):
    pages = chapter_pages()
    chapter = open_live_chapter(base_url + pages[0])
    page = chapter.page
    page.evaluate(SAME_DOCUMENT)
    for name in pages[1:]:
        follow(page, page.locator("a[rel=next]"))
        assert page.url == base_url + name
        expect(page.locator("main h1")).to_be_focused()
        chapter.wait_prerendered()  # every figure of each page drawn
    for name in reversed(pages[:-1]):
        page.go_back()
        expect(page).to_have_url(base_url + name)
    assert same_document(page)
    assert chapter.page_errors == []


def test_quiz_answers_are_kept_per_page_after_a_move(open_live_chapter, base_url):
    chapter = open_live_chapter(base_url + FOUR)
    page = chapter.page
    follow(page, page.locator("a[rel=next]"))
    quiz = page.locator("[data-quiz]").first
    quiz.scroll_into_view_if_needed()
    quiz.locator(".quiz-choice input").first.check()
    keys = page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('attention:/:answer:'))")
    assert keys and all(k.startswith(f"attention:/:answer:{FIVE}:") for k in keys), keys


def test_search_works_after_a_move(open_chapter, base_url):
    page = open_chapter(base_url + FOUR).page
    page.wait_for_load_state("load")
    page.evaluate(SAME_DOCUMENT)
    follow(page, page.get_by_role("navigation", name="Site").get_by_role("link", name="Search"))
    field = page.get_by_label("Search the chapters")
    field.fill("softmax")
    expect(page.locator("[data-search-results] li").first).to_be_visible(timeout=30_000)
    follow(page, page.locator("[data-search-results] a").first)
    assert same_document(page)


def test_python_boots_once_across_live_chapters(new_context, real_site):
    """The real worker with numpy: booted on chapter 4, it answers chapter 5's figure after an
    in-place move without a second boot (no second worker, no second download of Pyodide's core);
    the link rested on before the click, chapter 5's live figure was prepared before it."""
    pyodide_kit()
    context = new_context(viewport={"width": 1200, "height": 800})
    context.route("https://cdn.jsdelivr.net/**", lambda route: route.abort())
    page = context.new_page()
    page.add_init_script(COUNT_WORKERS)
    page.add_init_script(RECORD_ASKED)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    wasm = []
    page.on("request", lambda r: r.url.endswith("pyodide.asm.wasm") and wasm.append(r.method))
    page.goto(real_site["url"] + FOUR)
    page.locator("[data-figure][data-live]").first.scroll_into_view_if_needed()
    status = page.locator("[data-runtime-status]")
    expect(status).to_have_attribute("data-state", "ready", timeout=180_000)
    link = page.locator("a[rel=next]")
    # Focus rests on the link (the pointer's rest is tested with the stand-in): a pointer resting on
    # it lost it when the page's end, coming into view, laid itself out late on a loaded machine.
    link.focus()
    page.wait_for_function(PREPARED, arg="colour-tokens", timeout=30_000)  # before the click
    booted = page.evaluate("window.__workers")  # the figures' worker, and the exercise's grader if it came near
    follow(page, link)
    expect(status).to_have_attribute("data-state", "ready")
    figure = page.locator("[data-figure][data-live]").first
    figure.scroll_into_view_if_needed()
    expect(figure).to_have_attribute("data-state", "prerendered")
    recolour(figure)
    expect(figure).to_have_attribute("data-state", "live", timeout=10_000)
    for _ in range(300):  # a worker counted may still be fetching the core (the grader, started at chapter 4's end)
        if wasm.count("GET") >= booted:
            break
        page.wait_for_timeout(100)
    assert page.evaluate("window.__workers") == booted and wasm.count("GET") == booted, wasm
    assert errors == []
