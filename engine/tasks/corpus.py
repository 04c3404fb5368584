"""A tiny corpus and the word vectors counted from it (chapter 2).

Each target word gets one count per (side, neighbour): how often each word appears just
before it and just after it, with "." marking a sentence's start and end. The counts are
weighted by pointwise mutual information (Church & Hanks 1990), negatives set to 0, and
compared by cosine; PCA of the rows scaled to length 1 squeezes them to two dimensions for the
map, so the map, like cosine, ignores how long each vector is.
"""
from dataclasses import dataclass

import numpy as np

# Our own sentences, about animals, places and the words that describe them.
CORPUS = (
    "the cat slept by the warm fire all night",
    "the dog slept under the old tree",
    "the horse slept in the field",
    "the cat ate fresh fish in the kitchen",
    "the dog ate some bread after dinner",
    "the horse ate sweet grass near the river",
    "the bird sang softly on the roof at dawn",
    "the cat was tired and sleepy",
    "the dog was sleepy and tired",
    "the horse was hungry and cold",
    "the bird was small and bright",
    "the street was wide and busy",
    "the road was busy and wide",
    "the river was wide and deep",
    "the park was quiet and green",
    "a very tired cat lay down to rest",
    "a very sleepy dog lay down",
    "a hungry horse waited by the farm gate",
    "a wide street ran past the park",
    "a busy road ran past the river",
    "the river ran past the little town",
    "the street ran beside the park",
    "the quiet field lay beyond the road",
    "the animal crossed the street",
    "the horse crossed the road",
    "the dog crossed the river",
    "the animal did not cross the street because it was too tired",
)

# The 16 words that get vectors, with the group each belongs to (for colour and map orientation).
TARGETS = (
    ("cat", "animal"), ("dog", "animal"), ("horse", "animal"), ("bird", "animal"), ("animal", "animal"),
    ("street", "place"), ("road", "place"), ("river", "place"), ("park", "place"), ("field", "place"),
    ("tired", "describing"), ("sleepy", "describing"), ("hungry", "describing"),
    ("wide", "describing"), ("busy", "describing"), ("quiet", "describing"),
)
BOUNDARY = "."


def tokenize(sentence):
    """Lower-case words with the boundary mark at both ends."""
    return [BOUNDARY] + sentence.lower().split() + [BOUNDARY]


def context_counts(sentences, targets):
    """Counts (n_targets, 2 * n_vocab): columns are "before: w" for every word w, then "after: w"."""
    tokenized = [tokenize(s) for s in sentences]
    vocab = sorted({t for sent in tokenized for t in sent})
    index = {w: i for i, w in enumerate(vocab)}
    row = {w: i for i, w in enumerate(targets)}
    counts = np.zeros((len(targets), 2 * len(vocab)))  # (W, 2V)
    for sent in tokenized:
        for i in range(1, len(sent) - 1):
            r = row.get(sent[i])
            if r is not None:
                counts[r, index[sent[i - 1]]] += 1
                counts[r, len(vocab) + index[sent[i + 1]]] += 1
    features = [f"before:{w}" for w in vocab] + [f"after:{w}" for w in vocab]
    return counts, features


def ppmi(counts):
    """log(P(word, context) / (P(word) P(context))), with negative values and zero counts set to 0."""
    total = counts.sum()
    p_word = counts.sum(axis=1, keepdims=True) / total  # (W, 1)
    p_ctx = counts.sum(axis=0, keepdims=True) / total  # (1, F)
    with np.errstate(divide="ignore", invalid="ignore"):
        pmi = np.log((counts / total) / (p_word * p_ctx))  # (W, F), -inf where the count is 0
    return np.where(counts > 0, np.maximum(pmi, 0.0), 0.0)  # (W, F)


def unit_rows(vectors):
    """Every row divided by its length: what cosine compares, and what the map squeezes."""
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)  # (W, F)


def cosine_matrix(vectors):
    """Cosine similarity of every pair of rows."""
    unit = unit_rows(vectors)  # (W, F)
    return unit @ unit.T  # (W, W)


def pca_2d(vectors, groups):
    """Project centred rows onto the two directions of largest variance.

    The sign of a principal direction is arbitrary, so each axis is flipped if needed to
    put the animals' mean at negative values: the map comes out the same on every machine.
    """
    centred = vectors - vectors.mean(axis=0)  # (W, F)
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    coords = centred @ vt[:2].T  # (W, 2)
    animals = np.asarray(groups) == "animal"  # (W,)
    coords *= np.where(coords[animals].mean(axis=0) > 0, -1.0, 1.0)  # (W, 2)
    explained = s[:2] ** 2 / (s ** 2).sum()  # (2,)
    return coords, explained


@dataclass(frozen=True)
class WordSpace:
    words: tuple          # the 16 target words
    groups: tuple         # animal / place / describing, per word
    features: tuple       # names of the 2V context columns
    vectors: np.ndarray   # (W, 2V) PPMI vectors
    counts: np.ndarray    # (W, 2V) the raw context counts they were weighted from
    coords: np.ndarray    # (W, 2) PCA map of unit_rows(vectors)
    explained: np.ndarray  # (2,) share of variance on each map axis

    def neighbours(self, word, k=3):
        """The k most similar other words by cosine of the full vectors, best first."""
        i = self.words.index(word)
        sims = cosine_matrix(self.vectors)[i]  # (W,)
        order = [j for j in np.argsort(-sims, kind="stable") if j != i][:k]
        return [(self.words[j], float(sims[j])) for j in order]

    def nearest_on_map(self, point, k=3):
        """The k words closest to a point of the 2-D map (the draggable probe)."""
        d = np.linalg.norm(self.coords - np.asarray(point, dtype=np.float64), axis=1)  # (W,)
        return [(self.words[j], float(d[j])) for j in np.argsort(d, kind="stable")[:k]]

    def to_json(self):
        return {
            "words": list(self.words), "groups": list(self.groups), "features": list(self.features),
            "vectors": self.vectors.tolist(), "coords": self.coords.tolist(),
            "explained": self.explained.tolist(), "cosine": cosine_matrix(self.vectors).tolist(),
            "sentences": list(CORPUS),
        }


def word_space(sentences=CORPUS, targets=TARGETS):
    """Counts, PPMI, PCA: everything the word-map and word-neighbours figures need."""
    words = tuple(w for w, _ in targets)
    groups = tuple(g for _, g in targets)
    counts, features = context_counts(sentences, words)
    vectors = ppmi(counts)
    coords, explained = pca_2d(unit_rows(vectors), groups)
    return WordSpace(words, groups, tuple(features), vectors, counts, coords, explained)
