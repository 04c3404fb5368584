"""Shared steps for the per-figure browser tests."""
from __future__ import annotations


def touch_drag(page, start, end, steps=6):
    """Drag with one finger from start to end (page pixels); Playwright's touchscreen only taps."""
    session = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = start, end
    session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for k in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps
        session.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def mouse_drag(page, start, end, steps=6):
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=steps)
    page.mouse.up()


def centre(locator):
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
