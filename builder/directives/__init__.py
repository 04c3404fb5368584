"""Markdown directives (`/// name | argument`), one module each, registered in one ordered list.

Each module has NAME, `validate(use, path)` for the line-aware pass (and optionally
`check_page(uses, path)` for rules across a page), and `Block`, the pymdownx.blocks class that
renders it.
"""
from . import exercise, figure, quiz

DIRECTIVES = (figure, quiz, exercise)
NAMES = tuple(d.NAME for d in DIRECTIVES)
