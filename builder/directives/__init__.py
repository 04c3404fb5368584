"""The directives (`/// name | argument`): one module each, one line each in REGISTRY.

A directive is a builder.directives.base.Directive: the build calls its hooks for every use of
it on a page (parse, check_page, compute, element), and asks it what the page must load.
"""
from .exercise import Exercise
from .figure import Figure
from .quiz import Quiz

REGISTRY = {d.name: d for d in (Figure(), Quiz(), Exercise())}
