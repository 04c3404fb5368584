"""What the series' figures are given beyond their options (engine/given.py): the chapters' prose, and
the files made from it that a figure on some page reads (chapter 14's trained model). Made once per
prose and code, through the figure cache and its store, and handed to every model explicitly."""
from __future__ import annotations

from typing import Iterable

from engine import figures as models
from engine import given as inputs
from engine.given import SERIES, Given
from .corpus import corpus_of


def series_prose(sources: Iterable) -> bytes:
    """The chapters' prose as the series (builder/corpus.py), from chapters read (build.Source)."""
    return corpus_of((source.entry.path.stem, source.scanned) for source in sources).text.encode()


def needed(sources: Iterable) -> set[str]:
    """The names the figures of these chapters read (their models' GIVEN), in blocks or expressions."""
    names = set()
    for source in sources:
        scanned = source.scanned
        for params in [use.params for use in scanned.directives if use.name == "figure"] + \
                      [use.expression.params for use in scanned.expressions]:
            names.update(models.given_names(params))
    return names


def given_for(sources: list, figures, drafting: bool = False, names: set[str] | None = None) -> Given:
    """The series' Given: its prose, and each made file that a figure of these chapters reads (or
    each of `names`), from `figures` (a FigureCache) where it was made before. `drafting` (serve): a
    file made from earlier prose stays in use while the author edits it."""
    return given_of(series_prose(sources), figures, needed(sources) if names is None else names, drafting)


def given_of(prose: bytes, figures, names: set[str], drafting: bool = False) -> Given:
    """The Given of the series' prose `prose` (series_prose's), with each made file of `names`."""
    series = Given({SERIES: prose})
    for name in sorted(names & inputs.MADE.keys()):
        series = series.with_file(name, figures.made(name, series, drafting))
    return series
