// Keyboard stepping shared by the views: arrow keys move a handle one step on a grid (two
// axes) or a value one step along a line (one axis). Every view that moves something with the
// keyboard uses these, so the keys mean the same everywhere.

const GRID = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
const LINE = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1 };

/** Arrow keys on el call move(dx, dy, event) with one grid step (y up); Shift steps by `big`. */
export function gridKeys(el, move, { big = 1 } = {}) {
  el.addEventListener("keydown", (e) => {
    const step = GRID[e.key];
    if (!step) return;
    e.preventDefault();
    const by = e.shiftKey ? big : 1;
    move(step[0] * by, step[1] * by, e);
  });
}

/** Arrow keys on el call move(+1 or -1, event): up and right step up. */
export function lineKeys(el, move) {
  el.addEventListener("keydown", (e) => {
    const step = LINE[e.key];
    if (step === undefined) return;
    e.preventDefault();
    move(step, e);
  });
}

/** Clamp an index to 0..n-1. */
export const clampIndex = (i, n) => Math.max(0, Math.min(n - 1, i));
