"""Sentences of the toy grammar (engine/tasks/grammar.py) as figure options: one check for every model."""
from __future__ import annotations

from ..tasks import grammar
from .params import ParamError


def check_sentence(sentence: str, option: str = "sentence") -> int:
    """The sentence's number of words; a ParamError naming `option` unless it follows the model's grammar."""
    try:
        return int(grammar.parse(sentence).lengths[0])
    except ValueError:
        raise ParamError(option.split("[")[0], f"option '{option}' must follow the grammar det [adj] noun verb prep "
                                               f"det [adj] noun with the model's words, not {sentence[:60]!r}") from None
