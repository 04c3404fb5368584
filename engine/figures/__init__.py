"""Figure models: one module per figure, each a pure seeded function from parameters to JSON-able data.

Every module defines a frozen dataclass `Params` (defaults are the figure as printed) and
`compute(params) -> dict`. FIGURES is the one ordered registry the builder and the browser share.
"""
from __future__ import annotations

import importlib
import json

from .params import ParamError, to_json, validate

FIGURES = (  # in reading order
    "winograd-head",
    "word-map",
    "word-neighbours",
    "dot-product",
    "soft-lookup",
    "query-drag",
    "query-matrix",
    "colour-tokens",
    "worked-mixture",
    "softmax-bars",
    "softmax-temperature",
    "scaling-experiment",
)


def module(name: str):
    """The model module of figure `name` (KeyError for a name not in FIGURES)."""
    if name not in FIGURES:
        raise KeyError(name)
    return importlib.import_module(f"{__name__}.{name.replace('-', '_')}")


def compute(name: str, raw_params: dict | None = None) -> dict:
    """Validate raw options and run the figure model; the result carries the params it used."""
    mod = module(name)
    params = validate(mod.Params, raw_params)
    return {"figure": name, "params": to_json(params), **mod.compute(params)}


def compute_json(name: str, params_json: str) -> str:
    """The browser worker's entry point: JSON in, JSON out, so no proxies cross the boundary."""
    try:
        return json.dumps({"ok": True, "data": compute(name, json.loads(params_json))})
    except (ParamError, KeyError) as err:
        return json.dumps({"ok": False, "error": str(err)})


__all__ = ["FIGURES", "ParamError", "compute", "compute_json", "module"]
