"""Fallback for word-map: the 16 words on the two-dimensional map, with the probe's nearest words."""
from __future__ import annotations

from engine.figures.word_map import probe, start_cell

from . import COLOURS

MARKERS = {"animal": "o", "place": "s", "describing": "^"}


def _label_offsets(fig, ax, data):
    """Offsets in points that keep labels off each other and off the points: crowded words choose first."""
    scale = 72 / fig.dpi  # display pixels to points
    pts = [tuple(p * scale for p in ax.transData.transform(c)) for c in data["coords"]]
    boxes = [(x - 4, x + 4, y - 4, y + 4) for x, y in pts]
    crowd = [sum(abs(u - x) < 30 and abs(v - y) < 15 for u, v in pts) for x, y in pts]
    dirs = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
    offsets = [(0.0, 0.0)] * len(pts)
    for i in sorted(range(len(pts)), key=lambda i: (-crowd[i], i)):
        (x, y), tw, th = pts[i], 4.8 * len(data["words"][i]), 9
        choice = None
        for ring in (5, 14, 24, 36):
            for dx, dy in dirs:
                cx = x + dx * (ring + (tw / 2 if dx else 0))
                cy = y + dy * (ring + (th / 2 if dy else 0))
                box = (cx - tw / 2, cx + tw / 2, cy - th / 2, cy + th / 2)
                if not any(box[0] < b[1] and box[1] > b[0] and box[2] < b[3] and box[3] > b[2] for b in boxes):
                    choice = (box, cx - x, cy - y)
                    break
            if choice:
                break
        if choice is None:
            choice = ((x + 4, x + 4 + tw, y - th / 2, y + th / 2), 4 + tw / 2, 0.0)
        boxes.append(choice[0])
        offsets[i] = (choice[1], choice[2])
    return offsets


def draw(fig, data):
    ax = fig.subplots()
    for group, marker in MARKERS.items():
        pts = [c for c, g in zip(data["coords"], data["groups"]) if g == group]
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], marker=marker, color=COLOURS["data"],
                   s=24, label={"animal": "animals", "place": "places", "describing": "describing words"}[group])
    ax.set_xlim(data["grid"]["xs"][0], data["grid"]["xs"][-1])
    ax.set_ylim(data["grid"]["ys"][0], data["grid"]["ys"][-1])
    for word, (x, y), (dx, dy) in zip(data["words"], data["coords"], _label_offsets(fig, ax, data)):
        leader = {"arrowstyle": "-", "color": COLOURS["axis"], "lw": 0.5} if abs(dx) + abs(dy) > 12 else None
        ax.annotate(word, (x, y), xytext=(dx, dy), textcoords="offset points", fontsize=8,
                    ha="center", va="center", arrowprops=leader)
    (px, py), found = probe(data, start_cell(data))
    for word, _ in found:
        x, y = data["coords"][data["words"].index(word)]
        ax.plot([px, x], [py, y], color=COLOURS["axis"], lw=0.8, zorder=0)
    ax.scatter([px], [py], marker="+", s=90, color=COLOURS["prediction"], label="probe", zorder=3)
    ax.set_xlabel(f"first direction ({data['explained'][0]:.0%} of the spread)")
    ax.set_ylabel(f"second direction ({data['explained'][1]:.0%})")
    ax.legend(frameon=False, fontsize=8, loc="lower right")  # the corner the map leaves empty

