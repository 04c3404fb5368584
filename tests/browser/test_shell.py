"""The site shell in Chromium: search offline under a sub-path, no failed request (favicon), the
status line below the title, the Numbers disclosure, and the contents page."""
from __future__ import annotations

from .conftest import CDN, CHAPTER, expect


def _recorder(page) -> list[str]:
    """Every response >= 400 and every failed request of `page`, as 'status url'."""
    bad: list[str] = []
    page.on("response", lambda r: r.status >= 400 and bad.append(f"{r.status} {r.url}"))
    page.on("requestfailed", lambda r: bad.append(f"failed {r.url}"))
    return bad


def test_search_finds_chapters_offline_under_a_sub_path(new_context, site, serve_folder):
    """The site served from /dist/ (as under a GitHub Pages project path) with every request that
    leaves the machine aborted: results come from the site's own files and link into it."""
    base = serve_folder(site.parent) + site.name + "/"
    context = new_context(bypass_csp=False)  # the page's own policy, enforced
    outside: list[str] = []
    context.route(lambda url: not url.startswith(base), lambda route: (outside.append(route.request.url),
                                                                       route.abort()))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    bad = _recorder(page)
    page.goto(base + "search.html")
    field = page.get_by_role("searchbox", name="Search the chapters")
    expect(field).to_be_enabled()
    expect(field).to_be_focused()
    page.keyboard.type("softmax")
    status = page.locator("[data-search-status]")
    expect(status).to_have_attribute("role", "status")  # announced as results arrive
    expect(status).to_contain_text("mention “softmax”")
    results = page.locator("[data-search-results] li")
    expect(results.first).to_be_visible()
    assert results.count() >= 2
    assert results.first.locator("mark").count() >= 1, "the matching word is not marked in the excerpt"
    href = results.first.locator("a").get_attribute("href")
    assert href.startswith(base) and ".html" in href, href
    assert "q=softmax" in page.url  # the query is in the address, so the result page can be linked
    assert outside == [] and bad == [] and errors == [], (outside, bad, errors)
    results.first.locator("a").click()
    expect(page.locator("article.chapter h1")).to_be_visible()
    assert page.url.startswith(base)
    # Pagefind backtracks a word it lacks to the longest prefix it has (Pagefind/pagefind#599), and
    # formulas index one-letter words (x, q, z): a word that matches nothing starts with a letter
    # the series never uses.
    page.goto(base + "search.html?q=ŋŋŋqqq")
    expect(page.locator("[data-search-status]")).to_have_text("No chapter mentions “ŋŋŋqqq”.")
    assert outside == [] and errors == [], (outside, errors)


def test_pages_request_nothing_that_fails(new_context, base_url):
    """No 404 in the console (the favicon is there) on the contents page, a chapter and search."""
    context = new_context()
    context.route(CDN, lambda route: route.abort())
    icons: list[int] = []
    for rel in ("index.html", CHAPTER, "search.html"):
        page = context.new_page()  # one page each: leaving a page cancels its lazy images
        missing: list[str] = []  # (the chapter's runtime fails on the aborted CDN: that is not this test's)
        page.on("response", lambda r: r.status >= 400 and missing.append(f"{r.status} {r.url}"))
        page.on("response", lambda r: "favicon" in r.url and icons.append(r.status))
        page.goto(base_url + rel)
        page.wait_for_load_state("networkidle")
        assert missing == [], (rel, missing)
        page.close()
    assert icons and set(icons) == {200}, icons


def test_status_line_below_the_title_and_numbers_collapsed(new_context, base_url):
    page = new_context(viewport={"width": 375, "height": 800}).new_page()
    page.route(CDN, lambda route: route.abort())
    page.goto(base_url + CHAPTER)
    title = page.locator("article.chapter h1").bounding_box()
    status = page.locator("[data-runtime-status]").bounding_box()
    assert status["y"] >= title["y"] + title["height"], (title, status)
    figure = page.locator("[data-figure]").first
    figure.scroll_into_view_if_needed()  # its view loads as it nears the screen
    expect(figure).to_have_attribute("data-state", "prerendered")
    numbers = figure.locator("ul.figure-numbers")
    summary = figure.get_by_text("Numbers", exact=True)
    expect(numbers).to_be_hidden()
    summary.focus()
    page.keyboard.press("Enter")  # a disclosure opens from the keyboard
    expect(numbers).to_be_visible()
    assert numbers.locator("li").count() >= 1


def test_contents_page_lists_the_chapters_in_words(new_context, base_url):
    page = new_context(viewport={"width": 375, "height": 800}).new_page()
    page.goto(base_url + "index.html")
    cards = page.locator(".chapter-card")
    assert cards.count() >= 2
    assert page.locator(".chapter-card img").count() == 0  # no thumbnail too small to read
    assert cards.first.locator(".chapter-card-description").is_visible()
    expect(page.locator("a.start-link")).to_have_attribute("href", "01-why-attention.html")
