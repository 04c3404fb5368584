"""Golden Markdown -> HTML for the figure directive and inline expressions.

The embedded figure data is checked against the engine and then replaced by a placeholder,
so the golden files pin the markup, not the last bits of floating-point numbers.
Set UPDATE_GOLDEN=1 to rewrite the expected files after an intended change, then review the diff.
"""
import json
import os
import re
from pathlib import Path

import pytest

from builder.cache import BuildCache
from builder.build import gather_chapter
from builder.site_config import load_site_config
from engine.figures import compute, parse
from tests.builder.helpers import one_chapter_site

GOLDEN = Path(__file__).with_name("golden")

CASES = {
    "figure": """
        # A chapter

        Some *prose* before, quoting {= softmax-temperature{steps: 2}.facts.t_max :g =}.

        /// figure | softmax-temperature
            steps: 2
            scores: [1, 0]
            labels: [sure, unsure]

        A caption with **bold** text
        over two lines.
        ///

        ```
        /// figure | not-rendered
        ```
    """,
    "two-figures": """
        # Two

        /// figure | scaling-experiment
            widths: [2, 8]
            queries: 10

        First.
        ///

        /// figure | scaling-experiment
            widths: [4]
            queries: 10
            keys: 2

        Second, with `code` and {= scaling-experiment{widths: [4], queries: 10, keys: 2}.uniform :.2f =}.
        ///
    """,
}


@pytest.mark.parametrize("case", list(CASES))
def test_golden(case, tmp_path):
    content = one_chapter_site(tmp_path / "content", CASES[case], name="07-golden.md")
    chapter = gather_chapter(load_site_config(content).chapters[0], BuildCache())
    embedded = re.compile(r'(<script type="application/json" class="figure-data">)(.*?)(</script>)')
    uses = [u for u in chapter.source.directives if u.name == "figure"]
    found = embedded.findall(chapter.html)
    assert len(found) == len(uses) == len(chapter.figures)
    for (_, data, _), use in zip(found, uses):
        assert json.loads(data) == json.loads(json.dumps(compute(parse(use.argument, use.options))))
    html = embedded.sub(r"\1{...}\3", chapter.html)
    expected = GOLDEN / f"{case}.html"
    if os.environ.get("UPDATE_GOLDEN"):
        expected.write_text(html)
    assert html == expected.read_text()
    assert [f.label for f in chapter.figures] == [f"Figure 7.{i}" for i in range(1, len(chapter.figures) + 1)]
