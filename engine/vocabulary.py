"""Characters as tokens: the characters a text uses often enough to learn, and one placeholder
that stands for all the rarer ones.

A character seen once or twice in the training text cannot be learned, and one that happens to
fall only in the held-out part would never have been trained at all; pooled into one placeholder,
they are a token the model sees often enough to give a sensible probability.
"""
from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass

import numpy as np

PLACEHOLDER = "\ufffd"  # Unicode's replacement character: "a character not shown here"


@dataclass(frozen=True)
class Vocabulary:
    """Token ids are places in `characters`: the placeholder first when there is one, then the
    kept characters in code-point order."""
    characters: str

    def __len__(self) -> int:
        return len(self.characters)

    @property
    def placeholder(self) -> int | None:
        return 0 if self.characters[:1] == PLACEHOLDER else None

    def unknown(self, text: str) -> str:
        """The distinct characters of text outside the vocabulary, in order of first appearance
        (what a prompt box names when it refuses a text)."""
        kept = set(self.characters) - {PLACEHOLDER}
        return "".join(dict.fromkeys(c for c in text if c not in kept))

    def encode(self, text: str) -> np.ndarray:
        """The text's token ids; a character outside the vocabulary becomes the placeholder, and is
        an error when there is none."""
        index = {c: i for i, c in enumerate(self.characters)}
        fallback = self.placeholder
        missing = self.unknown(text) if fallback is None else ""
        if missing:
            raise ValueError(f"not in the vocabulary: {' '.join(repr(c) for c in missing)}")
        return np.array([index.get(c, fallback) for c in text], dtype=np.int64)

    def refusal(self, text: str, named: int = 5) -> str:
        """Why text cannot be read, naming (up to `named` of) the characters outside the vocabulary,
        in a reader's words; "" when it can."""
        unknown = self.unknown(text)
        if not unknown:
            return ""
        shown = [quoted(c) for c in unknown[:named]]
        more = f" and {len(unknown) - named} more" if len(unknown) > named else ""
        listed = ", ".join(shown) if more or len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
        return (f"The model does not know {listed}{more}: it learned only the {len(self)} characters "
                f"the series' text uses.")

    def decode(self, ids) -> str:
        return "".join(self.characters[int(i)] for i in ids)


def quoted(c: str) -> str:
    """A character as a reason names it: in quotes if it prints, else by its code and name."""
    if c.isprintable() and not c.isspace():
        return f"“{c}”"
    called = unicodedata.name(c, "")  # control characters have none
    return f"U+{ord(c):04X}" + (f" ({called.lower()})" if called else "")


def vocabulary(text: str, min_count: int = 1) -> Vocabulary:
    """Every character text holds at least min_count times; the placeholder comes first only when
    some character was rarer."""
    counts = Counter(text)
    kept = sorted(c for c, n in counts.items() if n >= min_count and c != PLACEHOLDER)
    rare = len(kept) < len(counts)
    return Vocabulary((PLACEHOLDER if rare else "") + "".join(kept))
