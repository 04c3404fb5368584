"""Fine-tuning chapter 14's model in the page: on a text of the reader's own, or on the series' prose.

A fine-tuning run starts from a trained model's weights (the page's shipped model, or the reader's
own) with Adam afresh (the shipped model's optimiser state is not shipped) at a smaller step size
than training from scratch: a short warm-up, then a cosine decay. On the reader's text, the text's
end is held out (writing.Corpus.of with held_out_every 0: their text may be one paragraph), and the
text must be read with the model's own characters: a character it never learned has no embedding
to tune, so a text holding one is refused, naming it, rather than mapped to a guess (but for curly
quotes, long dashes and the like, read as the plain ones the model knows: EQUIVALENTS). On the series'
prose (Keep training the page's model), its own split holds: the paragraphs the model never trained on.
"""
from __future__ import annotations

import dataclasses

from engine.tasks import writing

MIN_CHARACTERS = 1_000  # a tenth held out must hold a few windows of the model's context
MAX_CHARACTERS = 20_000  # a few pages: seconds of the browser's numpy to measure, and a small kept file
# Typographic characters a pasted text is full of, read as the plain ones the series' prose uses where
# the model knows those and not these; any other character the model does not know is refused, named.
EQUIVALENTS = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2014": "\u2013", "\u00a0": " ",
               "\t": " "}
STEPS = (50, 600, 50)  # the steps a reader may choose: least, most, and the multiple they come in
CHECKPOINT_EVERY = STEPS[2]


def recipe(base: writing.WritingConfig, steps: int, own: bool) -> writing.WritingConfig:
    """How `base`'s model is fine-tuned for `steps`: its sizes, dropout and arithmetic, with small
    batches and a small step size; on the reader's text (`own`) the text's end is held out, on the
    series' prose the paragraphs `base` held out."""
    return dataclasses.replace(base, steps=steps, batch_size=4, lr=1e-3, warmup=20, lr_final=0.1, weight_decay=0.0,
                               held_out_every=0 if own else writing.SHIPPED.held_out_every,
                               checkpoint_every=CHECKPOINT_EVERY, eval_windows=16, eval_all_held_out=False)


def read_text(data: bytes, model: writing.Shipped) -> str:
    """The reader's text as the model will read it (line breaks as "\\n"), or a ValueError whose
    message is the one-line reason the reader is told."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("Your text could not be read as text.") from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    known = set(model.vocab.characters)
    text = text.translate({ord(c): plain for c, plain in EQUIVALENTS.items() if c not in known and plain in known})
    if len(text) < MIN_CHARACTERS:
        raise ValueError(f"Your text has {len(text):,} characters: fine-tuning needs at least {MIN_CHARACTERS:,}, "
                         f"so that its last tenth can be held out to measure the model on.")
    if len(text) > MAX_CHARACTERS:
        raise ValueError(f"Your text has {len(text):,} characters: the page fine-tunes on at most {MAX_CHARACTERS:,}.")
    refusal = model.vocab.refusal(text)
    if refusal:
        raise ValueError(refusal + " Replace or remove them, and try again.")
    return text


def tuning(model: writing.Shipped, text: str, own: bool, steps: int, seed: int):
    """`model` fine-tuned for `steps` on `text`: the reader's (`own`, as read_text gives it) or the
    series' prose, its batches drawn from `seed`, ready to step: (training, run) as
    writing.writing_training gives them, the run's config the recipe."""
    config = recipe(model.config, steps, own)
    params = {n: a.astype(config.dtype) for n, a in model.params.items()}
    return writing.writing_training(text, seed, config, params=params, vocab=model.vocab)


def tuned(config: writing.WritingConfig) -> bool:
    """Whether a run's recipe is a fine-tuning of the page's models (recipe's, of whatever length)."""
    return recipe(config, config.steps, not config.held_out_every) == config
