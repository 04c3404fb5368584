"""The graders on CPython: right solutions pass, and each attention-specific mistake is named."""
from __future__ import annotations

import json

import pytest

from engine.exercises import EXERCISES, grade, grade_json

STABLE = "    e = np.exp(x - x.max(axis=-1, keepdims=True))\n    return e / e.sum(axis=-1, keepdims=True)\n"
SOFTMAX = {
    "right": ("def softmax(x):\n" + STABLE, "passed", "All cases pass"),
    "unstable": ("def softmax(x):\n    e = np.exp(x)\n    return e / e.sum(axis=-1, keepdims=True)\n", "failed", "overflow"),
    "wrong axis": ("def softmax(x):\n" + STABLE.replace("axis=-1", "axis=0"), "failed", "wrong axis"),
    "whole array": ("def softmax(x):\n    e = np.exp(x - x.max())\n    return e / e.sum()\n", "failed", "whole array sums to 1"),
    "raises": ("def softmax(x):\n    y = x\n    return y / 0 + undefined\n", "error", "(line 3): NameError"),
    "syntax": ("def softmax(x)\n    return x\n", "error", "(line 1): SyntaxError"),
    "no function": ("soft = 1\n", "error", "Define a function named softmax"),
    "wrong shape": ("def softmax(x):\n    return x.sum(axis=-1)\n", "failed", "the result has shape"),
    "not an array": ("def softmax(x):\n    return 'weights'\n", "failed", "should be an array of numbers"),
}
MASK = "    if causal:\n        s = np.where(np.tril(np.ones(s.shape[-2:], bool)), s, -np.inf)\n"
SOFT = "    e = np.exp(s - s.max(axis=-1, keepdims=True))\n    w = e / e.sum(axis=-1, keepdims=True)\n"
HEAD = "def attention(q, k, v, causal=False):\n    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])\n"
ATTENTION = {
    "right": (HEAD + MASK + SOFT + "    return w @ v\n", "passed", "All cases pass"),
    "unscaled": (HEAD.replace(" / np.sqrt(q.shape[-1])", "") + MASK + SOFT + "    return w @ v\n", "failed", "not divided by √d_k"),
    "wrong axis": (HEAD + MASK + SOFT.replace("axis=-1", "axis=-2") + "    return w @ v\n", "failed", "over the queries"),
    "mask after softmax": (HEAD + SOFT + "    if causal:\n        w = np.where(np.tril(np.ones(w.shape[-2:], bool)), w, 0)\n"
                           "    return w @ v\n", "failed", "mask is applied after the softmax"),
    "mask ignored": (HEAD + SOFT + "    return w @ v\n", "failed", "must not read later positions"),
    "unstable": (HEAD + MASK + "    e = np.exp(s)\n    w = e / e.sum(axis=-1, keepdims=True)\n    return w @ v\n", "failed", "overflow"),
    "raises": (HEAD + "    return s @ q.T @ v\n", "error", "attention raised an error (line 3): ValueError"),
}
BACKWARD = {
    "right": ("def softmax_backward(dweights, weights):\n"
              "    return weights * (dweights - (dweights * weights).sum(axis=-1, keepdims=True))\n", "passed", "finite differences"),
    "no sum term": ("def softmax_backward(dweights, weights):\n    return weights * dweights\n", "failed", "Σ term is missing"),
    "whole-array sum": ("def softmax_backward(dweights, weights):\n    return weights * (dweights - (dweights * weights).sum())\n",
                        "failed", "whole array"),
    "diagonal only": ("def softmax_backward(dweights, weights):\n    return dweights * (weights - weights ** 2)\n",
                      "failed", "diagonal of the softmax Jacobian"),
}


@pytest.mark.parametrize("name, case", [(n, c) for n, cases in (("softmax", SOFTMAX), ("attention", ATTENTION),
                                                                ("softmax-backward", BACKWARD)) for c in cases])
def test_each_solution_gets_the_verdict_it_deserves(name, case):
    code, state, words = {"softmax": SOFTMAX, "attention": ATTENTION, "softmax-backward": BACKWARD}[name][case]
    out = grade(name, code)
    assert out["state"] == state and words in out["message"], out
    if state == "failed":
        assert out["case"]  # the first failing case is shown


def test_an_error_names_the_line_of_the_readers_code():
    out = grade("softmax", SOFTMAX["raises"][0])
    assert out["line"] == 3


def test_the_readers_code_does_not_leak_between_runs():
    grade("softmax", "import numpy\nnumpy.exp = None\ndef softmax(x):\n    return x\n")
    assert grade("softmax", SOFTMAX["right"][0])["state"] == "passed"  # numpy.exp is numpy's again


def test_json_entry_point():
    assert json.loads(grade_json("softmax", SOFTMAX["right"][0]))["data"]["state"] == "passed"
    assert json.loads(grade_json("nope", "")) == {"ok": False, "error": "no exercise named 'nope'"}
    assert set(EXERCISES) == {"softmax", "attention", "softmax-backward"}


WRONG = "def softmax(x):\n    return x\n"
PATCHES = {  # each with a wrong softmax: the patch must not make it pass, now or in the next run
    "np.allclose": "np.allclose = lambda *a, **k: True\nnp.isclose = lambda *a, **k: True\n",
    "the grader's functions": ("import engine.exercises as ex, engine.exercises.cases as c, engine.exercises.softmax as s\n"
                               "c.first_failure = lambda *a, **k: None\nc.judge = lambda *a, **k: None\n"
                               "s.verdict = lambda *a, **k: None\nc.close = lambda *a, **k: True\n"
                               "ex.judge = lambda *a, **k: {'state': 'passed'}\n"),
    "the code of the grader's functions": ("import engine.exercises.cases as c\n"
                                           "c.first_failure.__code__ = (lambda *a, **k: None).__code__\n"),
    "the engine's softmax": ("import engine.attention as a\n"
                             "a.softmax_forward = lambda x: (x, None)\n"),
    "a module in sys.modules": "import sys\nsys.modules['numpy'] = None\n",
    "an ndarray subclass": ("class Fake(np.ndarray):\n    def __eq__(self, o):\n        return True\n"
                            "def softmax(x):\n    return x.view(Fake)\n"),
}


@pytest.mark.parametrize("patch", PATCHES, ids=list(PATCHES))
def test_no_patch_makes_a_wrong_answer_pass_now_or_later(patch):
    code = PATCHES[patch] + ("" if "def softmax" in PATCHES[patch] else WRONG)
    assert grade("softmax", code)["state"] != "passed"
    assert grade("softmax", WRONG)["state"] == "failed"  # nothing persists into the next run
    assert grade("softmax", SOFTMAX["right"][0])["state"] == "passed"


def test_deleted_builtins_give_a_verdict_not_a_traceback():
    out = grade("softmax", "import builtins\ndel builtins.len\ndel builtins.isinstance\ndel builtins.str\n" + WRONG)
    assert out["state"] in ("failed", "error") and out["message"]
    assert grade("softmax", SOFTMAX["right"][0])["state"] == "passed"
    out = grade("softmax", "import builtins\ndef softmax(x):\n    del builtins.type\n    raise ValueError('x')\n")
    assert out == {"state": "error", "message": "softmax raised an error (line 4): ValueError: x", "line": 4, "case": None}
