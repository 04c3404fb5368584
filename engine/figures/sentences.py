"""What the figures of chapter 9's toy grammar (engine/tasks/grammar.py) share: sentences as options, checked
once for every model; the trained run they draw; the words and legend of their head grids."""
from __future__ import annotations

from ..tasks import grammar
from .params import ParamError

SEED = 0  # the run chapter 9's figures share
TARGET_NAMES = {"attached": "the word it attaches to", "previous": "the previous word"}
LEGEND = ("Rows: the word looking; columns: the words it reads. Outlined: each word’s targets, solid for "
          f"{TARGET_NAMES['attached']}, dashed for {TARGET_NAMES['previous']}.")  # under the grids, view and fallback


def check_sentence(sentence: str, option: str = "sentence") -> int:
    """The sentence's number of words; a ParamError naming `option` unless it follows the model's grammar."""
    try:
        return int(grammar.parse(sentence).lengths[0])
    except ValueError:
        raise ParamError(option.split("[")[0], f"option '{option}' must follow the grammar det [adj] noun verb prep "
                                               f"det [adj] noun with the model's words, not {sentence[:60]!r}") from None
