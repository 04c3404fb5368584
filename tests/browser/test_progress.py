"""Where the reader is (theme/js/store.js, reading.js, progress.js): what the chapters keep in the
browser shows on the contents page (read to the end, questions answered and right at the first try,
exercises passed, where to continue), a chapter left partway offers to continue there, progress
saves to a file, opens from one (a hostile file refused in one line of text) and is forgotten, two
sites on one origin keep theirs apart, all by keyboard and at 375 px. A small series of three
chapters stands in for the real one: the contents page and the chapters are the real templates."""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from tests.builder.test_exercise import GOOD as EXERCISE

from .conftest import PHONE, ROOT, expect, follow, live_routes, serious_violations, type_code
from .test_exercise import RIGHT

FILLER = "\n\n".join(["A sentence to read, long enough to fill the line it stands on and the next one too. " * 4] * 8)


def quiz(qid: str) -> str:
    return f"""/// quiz | {qid}
    choices:
      a: They add up to 1.
      b: The largest is always 1.
    answer: a
    explain:
      a: Softmax divides each exponential by their total.
      b: That is a hard arg-max.

What do the weights of one row add up to?
///
"""


CHAPTERS = {
    "01-first.md": f"# First\n\n{FILLER}\n\n## Section one\n\n{FILLER}\n\n{quiz('q-one')}\n"
                   f"## Section two\n\n{FILLER}\n\n{quiz('q-two')}\n## Section three\n\n{FILLER}\n",
    "02-second.md": "# Second\n\nText.\n\n" + EXERCISE.split("\n", 2)[2],
    "03-third.md": "# Third\n\nThe end.\n",
}
FIRST, SECOND = "01-first.html", "02-second.html"
CARD = ".chapter-card[data-page='{}'] [data-progress-status]"
STORE = "js/store.js"  # in the theme's folder, beside the favicon


def build_series(folder: Path) -> Path:
    from builder.build import Paths, build

    content = folder / "content"
    content.mkdir()
    (content / "site.toml").write_text('[site]\ntitle = "Progress"\n\n'
                                       + "".join(f'[[chapters]]\nfile = "{name}"\n\n' for name in CHAPTERS))
    for name, text in CHAPTERS.items():
        (content / name).write_text(text)
    build(Paths.at(ROOT, content), folder / "dist", pyodide_dist=None)
    return folder / "dist"


@pytest.fixture(scope="module")
def series(tmp_path_factory):
    return build_series(tmp_path_factory.mktemp("progress-series"))


@pytest.fixture(scope="module")
def base_url(series, serve_folder) -> str:
    """The small series' (open_chapter opens its pages, not the whole series')."""
    return serve_folder(series)


def card(page, chapter: str):
    return page.locator(CARD.format(chapter))


def keep(page, entries: dict[str, str]) -> None:
    """Keep `entries` ({"kind:part:...": value}) through the site's own store, as its pages do."""
    page.evaluate("""async ([url, entries]) => {
        const store = await import(url);
        for (const [name, value] of Object.entries(entries)) {
          const [kind, ...parts] = name.split(":");
          if (!store.entry(kind, ...parts).set(value)) throw new Error("not kept: " + name);
        }
    }""", [_store(page), entries])


def kept(page) -> dict[str, str]:
    return page.evaluate("async (url) => (await import(url)).all()", _store(page))


def _store(page) -> str:
    """The address of the site's store module (the theme's folder is named by its digest)."""
    return page.evaluate("(rel) => new URL(rel, document.querySelector('link[rel=icon]').href).href", STORE)


def wait_kept(page, name: str, value: str, timeout: float = 10.0) -> None:
    """Wait until the page keeps `value` under `name` (the foot's observer and the place's scroll
    handler write after a frame). Polled from here: wait_for_function takes a promise for true."""
    deadline = time.monotonic() + timeout
    while kept(page).get(name) != value:
        assert time.monotonic() < deadline, f"{name} was not kept as {value!r}: {kept(page)}"
        page.wait_for_timeout(50)


def contents_view(page) -> dict:
    """What the contents page says of the reader's progress: each card's line and where to continue."""
    expect(page.locator("[data-progress]")).to_be_visible()
    return page.evaluate("""() => ({
        cards: [...document.querySelectorAll("[data-progress-status]")].map((p) => p.hidden ? null : p.textContent),
        next: document.querySelector("[data-progress-continue]").hidden ? null
              : document.querySelector("[data-progress-continue]").innerHTML })""")


def test_a_chapter_read_to_its_end_shows_read_on_the_contents_page_reached_in_place(open_chapter, base_url):
    chapter = open_chapter(base_url + "index.html")
    page = chapter.page
    assert contents_view(page) == {"cards": [None, None, None], "next": None}
    follow(page, page.get_by_role("link", name="Chapter 1 First"))
    expect(card(page, FIRST)).to_have_count(0)  # the chapter, in place of the contents
    page.locator(".chapter-nav").scroll_into_view_if_needed()
    wait_kept(page, f"read:{FIRST}", "yes")
    follow(page, page.locator(".chapter-nav").get_by_role("link", name="Contents"))
    view = contents_view(page)
    assert view["cards"][0] == "Read to the end; 0 of 2 questions answered."
    assert view["cards"][1:] == [None, None]
    assert view["next"] == 'Continue with the next chapter: <a href="02-second.html">Chapter 2, Second</a>.'


def test_a_quiz_answered_wrong_then_right_is_answered_but_not_right_at_the_first_try(open_chapter, base_url):
    page = open_chapter(base_url + FIRST).page
    for qid, choices in (("q-one", "ba"), ("q-two", "a")):
        quiz = page.locator(f'[data-quiz="{qid}"]')
        quiz.scroll_into_view_if_needed()
        for choice in choices:
            quiz.locator(f'input[value="{choice}"]').check()
            expect(quiz).to_have_attribute("data-state", "right" if choice == "a" else "wrong")
    quiz = page.locator('[data-quiz="q-two"]')
    quiz.locator('input[value="b"]').check()  # a later answer changes the answer kept, not the first try
    expect(quiz).to_have_attribute("data-state", "wrong")
    page.goto(base_url + "index.html")
    assert contents_view(page)["cards"][0] == ("Not read to the end yet; 2 of 2 questions answered, "
                                               "1 right at the first try.")


def test_an_exercise_passed_shows_on_the_contents_page(open_chapter, base_url):
    page = open_chapter(base_url + SECOND, routes=live_routes()).page
    section = page.locator('[data-exercise="softmax"]')
    expect(section.locator(".cm-content")).to_be_visible()
    section.get_by_role("button", name="Run").click()
    result = section.locator("[data-exercise-result]")
    expect(result).to_have_attribute("data-state", "failed", timeout=20_000)
    follow(page, page.get_by_role("link", name="Contents").first)
    assert contents_view(page)["cards"][1] == "Read to the end; 0 of 1 exercise passed."  # a short page's foot is in view
    follow(page, page.get_by_role("link", name="Chapter 2 Second"))
    section = page.locator('[data-exercise="softmax"]')
    type_code(section, RIGHT)
    section.get_by_role("button", name="Run").click()
    expect(section.locator("[data-exercise-result]")).to_have_attribute("data-state", "passed", timeout=20_000)
    follow(page, page.get_by_role("link", name="Contents").first)
    assert contents_view(page)["cards"][1] == "Read to the end; 1 of 1 exercise passed."


def scroll_to_section_two(page) -> None:
    """Scroll as a reader does until "Section two" is the last heading passed, and wait until it is kept."""
    page.evaluate("() => scrollTo(0, document.getElementById('section-two').offsetTop - 50)")
    wait_kept(page, f"place:{FIRST}", "section-two")


def test_a_chapter_left_partway_offers_to_continue_at_its_heading(open_chapter, base_url):
    page = open_chapter(base_url + FIRST).page
    expect(page.locator(".continue-note")).to_have_count(0)  # nothing to continue yet
    scroll_to_section_two(page)
    page.goto(base_url + "index.html")
    assert contents_view(page)["next"] == ('Continue where you left off: '
                                           f'<a href="{FIRST}#section-two">Chapter 1, First</a>.')
    follow(page, page.locator("[data-progress-continue] a"))
    assert page.url == base_url + FIRST + "#section-two"
    expect(page.locator("#section-two")).to_be_in_viewport()
    expect(page.locator(".continue-note")).to_have_count(0)  # arrived at a place: nothing to offer
    page.goto(base_url + FIRST)  # back at the start of the chapter
    note = page.locator(".continue-note")
    link = note.get_by_role("link", name="Continue where you left off: Section two")
    expect(link).to_have_attribute("href", "#section-two")
    expect(page.locator("body")).to_be_focused()  # the note took no focus
    link.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#section-two")).to_be_in_viewport()
    page.goto(base_url + FIRST)
    dismiss = page.locator(".continue-note").get_by_role("button", name=re.compile("^Dismiss"))
    dismiss.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".continue-note")).to_have_count(0)
    expect(page.locator("main h1")).to_be_focused()


def test_save_forget_and_open_the_file_restore_the_same_view(new_context, base_url, tmp_path):
    """Under the pages' policy (the file is made in the page, as a blob, which it allows)."""
    page = new_context(bypass_csp=False, accept_downloads=True).new_page()
    page.goto(base_url + "index.html")
    keep(page, {f"read:{FIRST}": "yes", f"answer:{FIRST}:q-one": "a", f"first:{FIRST}:q-one": "right",
                f"passed:{SECOND}:softmax": "yes", f"code:{SECOND}:softmax": "def softmax(x):\n    return x < 0\n",
                f"place:{SECOND}": "x", "last": SECOND})
    page.reload()
    before, entries = contents_view(page), kept(page)
    assert before["cards"][0].startswith("Read to the end; 1 of 2 questions answered, 1 right")
    with page.expect_download() as download:
        page.get_by_role("button", name="Save my progress to a file").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    data = json.loads(saved.read_text())
    assert data["format"] == "attention-progress" and data["progress"] == entries
    expect(page.locator("[data-progress-note]")).to_contain_text("saved to a file")

    page.get_by_role("button", name="Forget my progress").click()
    page.get_by_role("button", name="Forget it").click()
    expect(page.locator("[data-progress-note]")).to_contain_text("Your progress is forgotten")
    assert kept(page) == {}
    assert contents_view(page) == {"cards": [None, None, None], "next": None}

    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Open a saved file").click()
    chooser.value.set_files(saved)
    expect(page.locator("[data-progress-note]")).to_contain_text("kept in this browser now")
    assert contents_view(page) == before
    assert kept(page) == entries


def progress_file(progress, **fields) -> str:
    return json.dumps({"format": "attention-progress", "version": 1, "progress": progress, **fields})


HOSTILE = {
    "not JSON": ("{'format':", "it is not JSON"),
    "a list": ("[1, 2]", "not a progress file saved here"),
    "another format": (json.dumps({"format": "other", "version": 1, "progress": {}}), "not a progress file saved here"),
    "a newer version": (json.dumps({"format": "attention-progress", "version": 2, "progress": {}}), "another version"),
    "a field of its own": (progress_file({}, script="<b>x</b>"), "holds “script”, which a progress file does not"),
    "a foreign key": (progress_file({f"read:{FIRST}": "yes", "theme": "dark"}), "holds “theme”, which this site does not keep"),
    "another site's page": (progress_file({"read:99-other.html": "yes"}), "holds “read:99-other.html”"),
    "an unknown quiz": (progress_file({f"answer:{FIRST}:q-nine": "a"}), "holds “answer:01-first.html:q-nine”"),
    "markup in a value": (progress_file({f"place:{FIRST}": '<img src=x onerror="document.title=1">'}),
                          "the value of “place:01-first.html” is not one this site writes"),
    "markup in an answer": (progress_file({f"answer:{FIRST}:q-one": "<b>a</b>"}), "the value of “answer:01-first.html:q-one”"),
    "a number for text": (progress_file({f"read:{FIRST}": 1}), "the value of “read:01-first.html”"),
    "a huge file": (progress_file({f"code:{SECOND}:softmax": "x" * 1_100_000}), "the file is 1101 KB"),
}


def test_a_hostile_file_is_refused_in_one_line_of_text_and_nothing_is_written(new_context, base_url):
    page = new_context().new_page()
    page.goto(base_url + "index.html")
    keep(page, {f"read:{FIRST}": "yes"})
    page.reload()
    view, entries = contents_view(page), kept(page)
    note = page.locator("[data-progress-note]")
    for what, (text, reason) in HOSTILE.items():
        page.locator("[data-progress-file]").set_input_files(
            files=[{"name": "progress.json", "mimeType": "application/json", "buffer": text.encode()}])
        expect(note).to_contain_text("Nothing was imported: ")
        expect(note).to_contain_text(reason)
        assert note.evaluate("n => n.children.length") == 0, what  # text, not markup
        assert "\n" not in note.text_content(), what
        assert kept(page) == entries, what
        assert contents_view(page) == view, what
        note.evaluate("n => { n.textContent = ''; }")  # the next refusal must say so anew
    assert page.title() == "Progress"  # no markup from a file ever ran


def test_two_sites_on_one_origin_keep_their_progress_apart(new_context, series, serve_folder, tmp_path):
    root = tmp_path / "origin"
    root.mkdir()
    for name in ("a", "b"):
        (root / name).symlink_to(series, target_is_directory=True)
    origin = serve_folder(root)
    page = new_context().new_page()
    page.goto(origin + "a/" + FIRST)
    page.locator('[data-quiz="q-one"] input[value="a"]').check()
    expect(page.locator('[data-quiz="q-one"]')).to_have_attribute("data-state", "right")
    page.locator(".chapter-nav").scroll_into_view_if_needed()
    wait_kept(page, f"read:{FIRST}", "yes")
    page.goto(origin + "b/index.html")
    assert contents_view(page) == {"cards": [None, None, None], "next": None}
    page.goto(origin + "b/" + FIRST)
    expect(page.locator('[data-quiz="q-one"] input[value="a"]')).not_to_be_checked()
    page.goto(origin + "a/index.html")
    assert contents_view(page)["cards"][0] == "Read to the end; 1 of 2 questions answered, 1 right at the first try."
    keys = page.evaluate("Object.keys(localStorage)")
    assert {k for k in keys if not k.startswith("attention:/a/:")} == {"attention:/b/:last"}, keys


def test_the_controls_work_by_keyboard_alone(new_context, base_url):
    page = new_context(accept_downloads=True).new_page()
    page.goto(base_url + "index.html")
    keep(page, {f"read:{FIRST}": "yes", "last": FIRST})
    page.reload()
    save = page.get_by_role("button", name="Save my progress to a file")
    save.focus()
    with page.expect_download():
        page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Open a saved file")).to_be_focused()
    page.keyboard.press("Tab")  # past the file box, which the button opens
    forget = page.get_by_role("button", name="Forget my progress")
    expect(forget).to_be_focused()
    page.keyboard.press("Enter")
    question = page.get_by_role("group", name=re.compile("^Forget everything this browser keeps"))
    expect(question).to_be_visible()
    expect(forget).to_have_attribute("aria-expanded", "true")
    expect(question.get_by_role("button", name="Keep it")).to_be_focused()  # the safe answer first
    page.keyboard.press("Escape")
    expect(question).to_be_hidden()
    expect(forget).to_be_focused()
    assert kept(page) != {}
    page.keyboard.press("Space")
    page.keyboard.press("Shift+Tab")
    expect(question.get_by_role("button", name="Forget it")).to_be_focused()
    page.keyboard.press("Enter")
    expect(forget).to_be_focused()
    expect(page.get_by_role("status").filter(has_text="forgotten")).to_be_visible()
    assert kept(page) == {}


@pytest.mark.parametrize("width", [375, 1200])
def test_fits_the_screen_with_no_serious_accessibility_violations(new_context, base_url, width):
    page = new_context(**(PHONE if width == 375 else {"viewport": {"width": width, "height": 800}})).new_page()
    page.goto(base_url + "index.html")
    keep(page, {f"read:{FIRST}": "yes", f"answer:{FIRST}:q-one": "b", f"first:{FIRST}:q-one": "wrong",
                f"place:{FIRST}": "section-three", "last": FIRST})
    page.reload()
    contents_view(page)
    page.get_by_role("button", name="Forget my progress").click()
    page.get_by_role("button", name="Keep it").focus()
    assert serious_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.goto(base_url + FIRST)
    expect(page.locator(".continue-note")).to_be_visible()
    assert serious_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_without_javascript_the_contents_page_shows_none_of_it(new_context, base_url):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(base_url + "index.html")
    expect(page.get_by_role("link", name="Chapter 1 First")).to_be_visible()
    for hidden in ("[data-progress]", "[data-progress-continue]", "[data-progress-status] >> nth=0"):
        expect(page.locator(hidden)).to_be_hidden()


# A browser whose storage is blocked: the getter throws, as Safari's and Chromium's do when it is off.
NO_STORAGE = """Object.defineProperty(window, "localStorage", { get() { throw new DOMException("blocked", "SecurityError"); } });"""


def test_with_storage_blocked_everything_reads_and_nothing_throws(open_chapter, base_url):
    chapter = open_chapter(base_url + FIRST, init_script=NO_STORAGE)
    page = chapter.page
    quiz = page.locator('[data-quiz="q-one"]')
    quiz.scroll_into_view_if_needed()
    quiz.locator('input[value="a"]').check()
    expect(quiz).to_have_attribute("data-state", "right")
    page.locator(".chapter-nav").scroll_into_view_if_needed()
    follow(page, page.locator(".chapter-nav").get_by_role("link", name="Contents"))
    expect(page.locator("[data-progress-note]")).to_contain_text("keeps nothing for this site")
    assert contents_view(page) == {"cards": [None, None, None], "next": None}
    page.get_by_role("button", name="Save my progress to a file").click()
    expect(page.locator("[data-progress-note]")).to_have_text("There is no progress to save yet.")


def test_answers_and_code_kept_before_keys_were_scoped_are_adopted(open_chapter, base_url):
    old = (f"localStorage.setItem('attention-quiz:{FIRST}:q-one', JSON.stringify(['b']));"
           f"localStorage.setItem('attention-exercise:{SECOND}:softmax', 'def softmax(x):\\n    return x * 3\\n');")
    page = open_chapter(base_url + "index.html", init_script=f"if (!sessionStorage.seeded) {{ {old} sessionStorage.seeded = 1; }}").page
    assert contents_view(page)["cards"][0] == "Not read to the end yet; 1 of 2 questions answered, 0 right at the first try."
    follow(page, page.get_by_role("link", name="Chapter 1 First"))
    quiz = page.locator('[data-quiz="q-one"]')
    quiz.scroll_into_view_if_needed()
    expect(quiz.locator('input[value="b"]')).to_be_checked()
    quiz.locator('input[value="a"]').check()  # no first try: the answer kept before was the first
    page.goto(base_url + SECOND, wait_until="load")
    expect(page.locator(".cm-content")).to_contain_text("return x * 3")
    page.goto(base_url + "index.html")
    assert contents_view(page)["cards"][0] == "Not read to the end yet; 1 of 2 questions answered, 0 right at the first try."
