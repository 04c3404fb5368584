"""Reading offline through the service worker: install, "Save for offline" with its progress and
size, every chapter reloaded with the network cut (and, vendored, Python started from the saved
copy), then a new build: offered, taken on the reader's word, the old cache dropped."""
from __future__ import annotations

import json
import shutil

import pytest
from playwright.sync_api import Error as PlaywrightError

from builder.build import Paths, build
from tests.conftest import drafting
from tests.site_layout import theme_folder

from .conftest import NO_WORKERS, ROOT, SETTLE_MS, chapter_pages, draw_every_figure, expect, save_for_offline
from .test_state_links import _view


@pytest.fixture(scope="module")
def offline_site(tmp_path_factory, serve_folder, stand_in_distribution):
    """A vendored build (numpy a stand-in) served from a folder the update test rebuilds."""
    tmp = tmp_path_factory.mktemp("offline-site")
    dist = stand_in_distribution
    content = tmp / "content"
    shutil.copytree(ROOT / "content", content)
    out = tmp / "dist"
    build(Paths.at(ROOT, content), out, pyodide_dist=dist)
    return {"out": out, "content": content, "dist": dist, "url": serve_folder(out)}


def _version(out) -> str:
    head = (out / "sw.js").read_text().split("\n", 1)[0]
    return json.loads(head.removeprefix("const MANIFEST = ").rstrip(";"))["version"]



def test_save_then_read_every_chapter_offline(new_context, offline_site):
    context = new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(offline_site["url"] + "index.html")
    save_for_offline(page)

    context.set_offline(True)
    # Python starts the same way on every page: here it starts once, after the others, which read
    # as in a browser that cannot start a worker (each start would compile Pyodide for seconds).
    page.add_init_script(NO_WORKERS)
    for name in ["index.html", *chapter_pages()]:
        page.goto(offline_site["url"] + name)
        expect(page.locator("h1")).to_be_visible()
        expect(page.locator("[data-offline-status]")).to_contain_text("reading offline")
        draw_every_figure(page)  # their views' modules come from the cache
        fallbacks = page.eval_on_selector_all(".figure-fallback img", "imgs => imgs.map(i => i.src)")
        assert all(page.evaluate("u => fetch(u).then(r => r.ok)", u) for u in fallbacks), name
        assert not page.locator('[data-runtime-status][data-state="ready"]').count(), name
    # A link to a figure's view (test_state_links.py) is its page with a query: the saved copy serves it.
    page.goto(offline_site["url"] + "04-scores-to-weights.html")
    figure = page.locator("[data-figure=softmax-temperature]")
    figure_id = figure.get_attribute("id")
    page.goto(offline_site["url"] + "04-scores-to-weights.html?view=" + _view(figure_id, {"i": 0}) + "#" + figure_id)
    expect(figure.locator("input[type=range]")).to_have_value("0")
    expect(figure.locator(".figure-note")).to_be_hidden()
    page = context.new_page()  # without the init script
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(offline_site["url"] + "04-scores-to-weights.html")
    page.locator("[data-figure][data-live]").first.scroll_into_view_if_needed()
    status = page.locator("[data-runtime-status]")
    expect(status).to_have_attribute("data-state", "ready", timeout=SETTLE_MS)  # Python, from the saved copy
    assert errors == []


def test_a_new_build_is_offered_then_replaces_the_old_cache(new_context, offline_site, shared_figure_cache):
    context = new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    url = offline_site["url"] + "01-why-attention.html"
    page.goto(url)
    save_for_offline(page)
    old = _version(offline_site["out"])
    # A saved copy whose stored hash header is right but whose bytes are not: the new build must
    # hash what it carries over, and download this file instead of keeping it.
    css = (theme_folder(offline_site["out"]) / "css" / "site.css").relative_to(offline_site["out"]).as_posix()
    page.evaluate("""async (css) => {
      const cache = await caches.open((await caches.keys())[0]);
      const url = new URL(css, location.href).href;
      const old = await cache.match(url);
      await cache.put(url, new Response("tampered", { headers: old.headers }));
    }""", css)

    chapter = offline_site["content"] / "01-why-attention.md"
    chapter.write_text(chapter.read_text() + "\nA sentence of the new build.\n")
    with drafting(shared_figure_cache):
        build(Paths.at(ROOT, offline_site["content"]), offline_site["out"], pyodide_dist=offline_site["dist"])
    new = _version(offline_site["out"])
    assert new != old

    page.reload()  # still the old build, from the old cache: never a mix
    expect(page.locator("main")).not_to_contain_text("A sentence of the new build.")
    update = page.get_by_role("button", name="A new version is ready: update")
    expect(update).to_be_visible(timeout=60_000)  # the new build was saved before it was offered
    update.click()
    expect(page.locator("main")).to_contain_text("A sentence of the new build.", timeout=15_000)
    names = page.evaluate("caches.keys()")
    assert len(names) == 1 and names[0].endswith(":" + new), names
    carried = page.evaluate("async (css) => (await (await caches.open((await caches.keys())[0]))"
                            ".match(new URL(css, location.href).href)).text()", css)
    assert carried == (offline_site["out"] / css).read_text()
    expect(page.locator("[data-offline]")).to_have_attribute("data-state", "saved")


def test_a_file_changed_on_the_server_never_reaches_a_page_of_this_build(new_context, offline_site):
    """On a cache miss the network's answer is checked against this build's manifest: a changed
    page or figure is refused with a note that offers the update, never shown as this build's."""
    context = new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    page.goto(offline_site["url"] + "01-why-attention.html")
    page.locator("footer").scroll_into_view_if_needed()  # the reader reaches "Save for offline": it registers
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now the service worker controls the page
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
    out = offline_site["out"]
    drawing = next((out / "figures").glob("02-words-as-points-1.*.svg")).relative_to(out).as_posix()
    changed = {rel: (out / rel).read_bytes() for rel in ("bibliography.html", drawing)}
    try:
        for rel, data in changed.items():
            (out / rel).write_bytes(data.replace(b"</body>", b"<p>Tampered</p></body>").replace(b"</svg>", b"<!-- x --></svg>"))
        status = page.evaluate("u => fetch(u).then(r => r.status)", offline_site["url"] + drawing)
        assert status == 503
        page.goto(offline_site["url"] + "bibliography.html")
        expect(page.locator("h1")).to_have_text("Site updated")
        expect(page.locator("body")).not_to_contain_text("Tampered")
        for rel, data in changed.items():  # the file as built again: served, and kept
            (out / rel).write_bytes(data)
        page.goto(offline_site["url"] + "bibliography.html")
        expect(page.locator("h1")).to_have_text("Bibliography")
    finally:
        for rel, data in changed.items():
            (out / rel).write_bytes(data)



def _site_state(page, scope: str) -> dict:
    """What the browser keeps for the site at `scope`: its registration, its caches, and whether this
    page is controlled; asked again if the page navigates while answering (the retiring worker reloads it)."""
    for _ in range(5):
        try:
            return page.evaluate("""async (scope) => ({
              controlled: Boolean(navigator.serviceWorker.controller),
              registered: (await navigator.serviceWorker.getRegistrations()).some((r) => r.scope === scope),
              caches: (await caches.keys()).filter((k) => k.startsWith("attention:" + scope)).length })""", scope)
        except PlaywrightError:
            page.wait_for_load_state()
    raise AssertionError("the page kept navigating")


def _reload(page) -> None:
    """Reload, or wait for the load under way if the retiring worker reloaded the page first."""
    try:
        page.reload()
    except PlaywrightError:
        page.wait_for_load_state()


def _until(page, scope: str, done, again=None) -> None:
    """Poll the site's state at `scope` until done(state), for at most 20 s; `again()` every 5 s."""
    for i in range(1, 101):
        state = _site_state(page, scope)
        if done(state):
            return
        page.wait_for_timeout(200)
        if again and i % 25 == 0:
            again()
    raise AssertionError(f"still {state}")


def test_turning_offline_reading_off_retires_the_worker_of_that_site_only(new_context, tmp_path):
    """Two sites share an origin (user.github.io/a/ and /b/) and a reader saved both. The next deploy of
    /a/ turns offline reading off: deleting sw.js would leave the reader's worker serving the old copy
    for good, so sw.js becomes a worker that removes itself and /a/'s caches. /b/ keeps its own."""
    from tests.builder.helpers import one_chapter_site
    from tests.pages_host import PagesHost

    content = one_chapter_site(tmp_path / "content", "# Saved\n\nA page kept for offline reading.\n")
    build(Paths.at(ROOT, content), tmp_path / "first")
    toml = content / "site.toml"
    toml.write_text(toml.read_text().replace('title = "Test"', 'title = "Test"\noffline = false'))
    (content / "01-test.md").write_text("# Online\n\nThe page as the network has it now.\n")
    build(Paths.at(ROOT, content), tmp_path / "second")

    host = PagesHost(tmp_path)
    try:
        a, b = host.deploy("a", tmp_path / "first"), host.deploy("b", tmp_path / "first")
        context = new_context()
        page, other = context.new_page(), context.new_page()
        for p, base in ((page, a), (other, b)):
            p.goto(base + "01-test.html")
            save_for_offline(p)
            p.reload()
        assert _site_state(page, a) == {"controlled": True, "registered": True, "caches": 1}
        assert _site_state(other, b) == {"controlled": True, "registered": True, "caches": 1}

        host.deploy("a", tmp_path / "second")
        page.reload()  # still the saved copy: the browser checks sw.js past its HTTP cache as it loads
        # the retiring worker installed: on a loaded machine Chromium once let that first check pass
        # (a full run of the suite), so the reader comes back every 5 s, each visit a check again
        _until(page, a, lambda state: not state["registered"], again=lambda: _reload(page))
        _reload(page)  # from the network: its page removes what the old worker left
        expect(page.locator("h1")).to_have_text("Online")
        _until(page, a, lambda state: state == {"controlled": False, "registered": False, "caches": 0})
        assert _site_state(other, b) == {"controlled": True, "registered": True, "caches": 1}
    finally:
        host.close()
