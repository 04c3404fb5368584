"""Markdown directives (`/// name | argument`), one module each, registered in one ordered list.

Each module has NAME, `validate(use, path, ctx)` for the line-aware pass, and `Block`, the
pymdownx.blocks class that renders it.
"""
from . import figure

DIRECTIVES = (figure,)
NAMES = tuple(d.NAME for d in DIRECTIVES)
