"""Fallback for dot-product: the two arrows at their starting tips and both readouts."""
from __future__ import annotations

from . import COLOURS


def _state(data):
    i, j = data["start"]
    return {"a": data["points"][i], "b": data["points"][j], "la": data["length"][i], "lb": data["length"][j],
            "dot": data["dot"][i][j], "geometric": data["geometric"][i][j],
            "angle": data["angle"][i][j], "cos": data["cos"][i][j]}


def sum_line(s):
    (a1, a2), (b1, b2) = s["a"], s["b"]
    return f"Sum of products: ({a1})({b1}) + ({a2})({b2}) = {s['dot']}"


def cos_line(s):
    return (f"|a| |b| cos θ: {s['la']:.2f} × {s['lb']:.2f} × cos {s['angle']:.1f}° = "
            f"{s['la']:.2f} × {s['lb']:.2f} × {s['cos']:.3f} = {s['geometric']:.2f}")


def draw(fig, data):
    s = _state(data)
    e = data["extent"]
    ax = fig.add_axes([0.05, 0.05, 0.5, 0.9])
    ax.set_aspect("equal")
    ax.set_xlim(-e - 0.5, e + 0.5)
    ax.set_ylim(-e - 0.5, e + 0.5)
    ax.set_xticks(range(-e, e + 1))
    ax.set_yticks(range(-e, e + 1))
    ax.grid(color=COLOURS["grid"], lw=0.8)
    ax.axhline(0, color=COLOURS["axis"], lw=0.8)
    ax.axvline(0, color=COLOURS["axis"], lw=0.8)
    for name, colour in (("a", COLOURS["query"]), ("b", COLOURS["key"])):
        x, y = s[name]
        ax.annotate("", xy=(x, y), xytext=(0, 0), arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 2})
        ax.text(x * 1.08, y * 1.08 + 0.15, f"{name} = ({x}, {y})", color=colour, fontsize=9, ha="center")
    text = fig.add_axes([0.6, 0.05, 0.4, 0.9])
    text.axis("off")
    text.text(0, 0.6, sum_line(s).replace(": ", ":\n"), fontsize=9, va="center")
    text.text(0, 0.35, cos_line(s).replace(": ", ":\n", 1).replace(" = ", "\n= ", 1), fontsize=9, va="center")


def alt(data):
    s = _state(data)
    return (f"Two arrows from the origin, a = ({s['a'][0]}, {s['a'][1]}) and b = ({s['b'][0]}, {s['b'][1]}), "
            f"{s['angle']:.1f} degrees apart. Their dot product is {s['dot']} as a sum of products and "
            f"{s['geometric']:.2f} as |a| |b| cos θ.")


def numbers(data):
    s = _state(data)
    return [f"a = ({s['a'][0]}, {s['a'][1]}), b = ({s['b'][0]}, {s['b'][1]}), angle {s['angle']:.1f}°",
            sum_line(s), cos_line(s)]
