"""soft-lookup in the browser: both modes show the engine's numbers; keys answer hover, tap and focus."""
from __future__ import annotations

from builder.fallbacks import soft_lookup as fallback
from engine.figures import compute

from ..conftest import expect

PAGE = "03-queries-keys-values.html"


def _weights_shown(figure) -> list[str]:
    return [t.strip() for t in figure.locator(".sl-weight").all_text_contents()]


def test_modes_and_scores_match_the_engine(open_chapter, base_url):
    data = compute("soft-lookup")
    chapter = open_chapter(base_url + PAGE, has_touch=True, viewport={"width": 375, "height": 800})
    chapter.wait_prerendered()
    figure = chapter.figure("soft-lookup")
    # The key numbers list every score and both modes, as the static page does.
    assert chapter.numbers("soft-lookup") == fallback.numbers(data)
    hard = figure.get_by_role("button", name="Hard lookup")
    soft = figure.get_by_role("button", name="Soft lookup")
    expect(hard).to_have_attribute("aria-pressed", "true")
    assert _weights_shown(figure) == [f"{e['hard']:.0f}" for e in data["entries"]]

    soft.scroll_into_view_if_needed()
    soft.tap()  # touch
    expect(soft).to_have_attribute("aria-pressed", "true")
    expect(hard).to_have_attribute("aria-pressed", "false")
    assert _weights_shown(figure) == [f"{e['soft']:.2f}" for e in data["entries"]]
    # The bars glide to their new widths: after the transition each fill is its weight of the track.
    chapter.page.wait_for_timeout(900)
    fills = figure.locator(".sl-fill").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().width / e.parentElement.getBoundingClientRect().width)")
    for share, e in zip(fills, data["entries"]):
        assert abs(share - e["soft"]) < 0.01, (share, e)
    expect(figure.locator(".sl-output")).to_contain_text(f"{data['facts']['top_soft']:.2f} of cat")

    # Keyboard: Enter on the hard button goes back.
    hard.focus()
    hard.press("Enter")
    expect(hard).to_have_attribute("aria-pressed", "true")
    assert chapter.numbers("soft-lookup") == fallback.numbers(data)
    assert chapter.page_errors == []


def test_each_key_tells_its_score_on_hover_tap_and_focus(open_chapter, base_url):
    data = compute("soft-lookup")
    scores = data["facts"]["scores"]
    chapter = open_chapter(base_url + PAGE, has_touch=True)
    chapter.wait_prerendered()
    figure = chapter.figure("soft-lookup")
    detail = figure.locator(".sl-detail")
    keys = figure.locator("button.sl-key")
    assert keys.count() == len(scores)

    keys.nth(1).hover()
    expect(detail).to_contain_text(f"coat shares {scores['coat']} of the 4 letter pairs of cat (^c, at, t$)")
    keys.nth(4).tap()
    expect(detail).to_contain_text(f"hat shares {scores['hat']} ")
    expect(detail).to_contain_text(f"weight {data['facts']['soft']['hat']:.2f} in the soft lookup")
    keys.nth(3).focus()
    expect(detail).to_contain_text(f"dog shares {scores['dog']} ")
    expect(keys.nth(3)).to_have_class("sl-key sl-picked")
    assert chapter.page_errors == []
