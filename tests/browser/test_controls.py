"""One set of controls (theme/css/site.css): no view's stylesheet styles a control of its own, neither a
control element nor the classes its view gives its buttons (a data button is site.css's .chip). That
every control on every chapter is a touch target with the focus ring is checked on the pages
(test_every_page.py)."""
from __future__ import annotations

import re

from tests.conftest import ROOT


def test_no_view_styles_a_control_element_of_its_own():
    """Views (theme/figures/*.css) lay controls out; how a button, select, slider, radio or disclosure
    looks is site.css's alone."""
    element = re.compile(r"(?:^|[\s>+~,(])(button|select|input|summary|details|textarea)\b(?![-\w])")
    found = []
    for css in sorted((ROOT / "theme" / "figures").glob("*.css")):
        text = re.sub(r"/\*.*?\*/", "", css.read_text(encoding="utf-8"), flags=re.S)
        for selector in re.findall(r"([^{}]+)\{", text):
            if element.search(selector.strip()) and "[hidden]" not in selector:
                found.append(f"{css.name}: {selector.strip()}")
    assert found == []


# A view may place its controls (in a row, a cell, a column); how they look is site.css's.
LAYOUT = re.compile(r"^(?:margin(?:-\w+)*|width|min-width|max-width|flex(?:-\w+)*|align-self|justify-self|order|grid-(?:row|column|area)"
                    r"|white-space)$")
CONTROL_CLASSES = re.compile(r'html\("(?:button|select|input|summary|textarea)",\s*\{[^}]*?\bclass:\s*"([^"]+)"')


def test_no_view_styles_the_buttons_it_makes():
    """A rule of a view's stylesheet whose subject is one of the view's buttons (by a class its view
    gives it) only lays it out."""
    found, every_class = [], set()
    for css in sorted((ROOT / "theme" / "figures").glob("*.css")):
        view = css.with_suffix(".js").read_text(encoding="utf-8")
        classes = {c for group in CONTROL_CLASSES.findall(view) for c in group.split()}
        every_class |= classes
        text = re.sub(r"/\*.*?\*/", "", css.read_text(encoding="utf-8"), flags=re.S)
        for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", text):
            for selector in selectors.split(","):
                subject = re.split(r"[\s>+~]+", selector.strip())[-1]
                if not classes & set(re.findall(r"\.([\w-]+)", subject)):
                    continue
                looks = [d.split(":")[0].strip() for d in body.split(";") if ":" in d]
                found += [f"{css.name}: {selector.strip()} {{ {p} }}" for p in looks if not LAYOUT.match(p)]
    assert every_class, "no view's button found: the pattern that finds them is out of date"
    assert found == []
