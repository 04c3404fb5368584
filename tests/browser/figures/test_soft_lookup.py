"""soft-lookup in the browser: both modes show the engine's numbers and the model's sentences; keys
answer hover, tap and focus."""
from __future__ import annotations

from engine.figures.fmt import fill

from ..conftest import expect
from .helpers import PhoneVisit, expect_same_node_focused, press_in_place

PAGE = "03-queries-keys-values.html"


FILLS_ARE = """([fig, want]) => {
  const fills = [...fig.querySelectorAll('.sl-bar .weight-fill')];
  return fills.length === want.length && fills.every((e, i) =>
    Math.abs(e.getBoundingClientRect().width / e.parentElement.getBoundingClientRect().width - want[i]) < 0.01);
}"""


def _weights_shown(figure) -> list[str]:
    return [t.strip() for t in figure.locator(".sl-bar .weight-num").all_text_contents()]


def test_modes_and_scores_match_the_engine(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, "soft-lookup")
    data, figure = visit.data, visit.figure
    # The key numbers list every score and both modes, as the static page does.
    hard_state, soft_state = data["modes"].index("hard"), data["modes"].index("soft")
    visit.opens_at(hard_state)
    expect(figure.locator(".sl-output")).to_have_text(data["text"]["states"][hard_state]["label"])
    hard = figure.get_by_role("button", name="Hard lookup")
    soft = figure.get_by_role("button", name="Soft lookup")
    expect(hard).to_have_attribute("aria-pressed", "true")
    assert _weights_shown(figure) == [fill(data["text"]["parts"]["hard"], {"v": e["hard"]}) for e in data["entries"]]
    assert _weights_shown(figure) == [f"{e['hard']:.0f}" for e in data["entries"]]

    visit.taps(soft, soft_state)
    expect(soft).to_have_attribute("aria-pressed", "true")
    expect(hard).to_have_attribute("aria-pressed", "false")
    assert _weights_shown(figure) == [fill(data["text"]["parts"]["soft"], {"v": e["soft"]}) for e in data["entries"]]
    assert _weights_shown(figure) == [f"{e['soft']:.2f}" for e in data["entries"]]
    # The bars glide to their new widths: once the transition ends each fill is its weight of the track
    # (waited for, not timed: a loaded machine may start the transition late).
    want = [e["soft"] for e in data["entries"]]
    visit.page.wait_for_function(FILLS_ARE, arg=[figure.element_handle(), want], timeout=10_000)
    top = max(e["soft"] for e in data["entries"])
    expect(figure.locator(".sl-output")).to_contain_text(f"{top:.2f} of cat")
    expect(figure.locator(".sl-output")).to_have_text(data["text"]["states"][soft_state]["label"])

    # Keyboard: Enter on the hard button goes back; focus stays on that very button.
    press_in_place(hard, "Enter")
    expect(hard).to_have_attribute("aria-pressed", "true")
    expect_same_node_focused(visit.page)
    visit.shows(hard_state)
    visit.fits()


def test_each_key_tells_its_score_on_hover_tap_and_focus(open_chapter, base_url):
    chapter = open_chapter(base_url + PAGE, has_touch=True)
    chapter.wait_prerendered()
    data = chapter.data("soft-lookup")
    scores = {e["key"]: e["score"] for e in data["entries"]}
    soft = {e["key"]: e["soft"] for e in data["entries"]}
    figure = chapter.figure("soft-lookup")
    detail = figure.locator(".sl-detail")
    keys = figure.locator("button.sl-key")
    assert keys.count() == len(scores)

    keys.nth(1).hover()
    expect(detail).to_contain_text(f"coat shares {scores['coat']} of the 4 letter pairs of cat (^c, at, t$)")
    keys.nth(4).tap()
    expect(detail).to_contain_text(f"hat shares {scores['hat']} ")
    expect(detail).to_contain_text(f"weight {soft['hat']:.2f} in the soft lookup")
    expect(detail).to_have_text(data["text"]["details"][4])
    keys.nth(3).focus()
    expect(detail).to_contain_text(f"dog shares {scores['dog']} ")
    expect(keys.nth(3)).to_have_attribute("aria-pressed", "true")
    expect(keys.nth(4)).to_have_attribute("aria-pressed", "false")
