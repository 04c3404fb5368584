"""Fallback for word-map: the 16 words on the two-dimensional map, with the probe's nearest words."""
from __future__ import annotations

from . import COLOURS

MARKERS = {"animal": "o", "place": "s", "describing": "^"}


def _probe(data):
    """The probe's grid point and the words the model lists for it."""
    ix, iy = data["start"]
    xs, ys = data["grid"]["xs"], data["grid"]["ys"]
    cell = iy * len(xs) + ix
    found = [(data["words"][i], d) for i, d in zip(data["grid"]["nearest"][cell], data["grid"]["distance"][cell])]
    return (xs[ix], ys[iy]), found


def draw(fig, data):
    ax = fig.subplots()
    for group, marker in MARKERS.items():
        pts = [c for c, g in zip(data["coords"], data["groups"]) if g == group]
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], marker=marker, color=COLOURS["data"],
                   s=24, label={"animal": "animals", "place": "places", "describing": "describing words"}[group])
    for word, (x, y) in zip(data["words"], data["coords"]):
        ax.annotate(word, (x, y), xytext=(4, 3), textcoords="offset points", fontsize=8)
    (px, py), found = _probe(data)
    for word, _ in found:
        x, y = data["coords"][data["words"].index(word)]
        ax.plot([px, x], [py, y], color=COLOURS["muted"], lw=0.8, zorder=0)
    ax.scatter([px], [py], marker="+", s=90, color=COLOURS["prediction"], label="probe", zorder=3)
    ax.set_xlim(data["grid"]["xs"][0], data["grid"]["xs"][-1])
    ax.set_ylim(data["grid"]["ys"][0], data["grid"]["ys"][-1])
    ax.set_xlabel(f"first direction ({data['explained'][0]:.0%} of the spread)")
    ax.set_ylabel(f"second direction ({data['explained'][1]:.0%})")
    ax.legend(frameon=False, fontsize=8, loc="upper left")


def alt(data):
    groups = {g: [w for w, h in zip(data["words"], data["groups"]) if h == g] for g in MARKERS}
    (px, py), found = _probe(data)
    return (f"Scatter plot of {len(data['words'])} words squeezed from {data['facts']['vector_length']} numbers "
            f"to two. Animals ({', '.join(groups['animal'])}), places ({', '.join(groups['place'])}) and "
            f"describing words ({', '.join(groups['describing'])}) are marked with different shapes. "
            f"A probe at ({px:.2f}, {py:.2f}) is nearest to " + ", ".join(w for w, _ in found) + ".")


def probe_line(data, found, point):
    return (f"Probe at ({point[0]:.2f}, {point[1]:.2f}), nearest: "
            + ", ".join(f"{w} {d:.2f}" for w, d in found))


def numbers(data):
    point, found = _probe(data)
    return [
        probe_line(data, found, point),
        "Map positions: " + ", ".join(f"{w} ({x:.2f}, {y:.2f})" for w, (x, y) in zip(data["words"], data["coords"])),
    ]
