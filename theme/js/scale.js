// Scales and axes shared by the views: a linear map from data to pixels (with its inverse, for
// pointers), whole-number grids of a plane, and tick labels. Pixel scaling only: no model math.
import { svg } from "./svg.js";

/** The linear map taking d0..d1 to r0..r1; .invert maps pixels back to data. */
export function linear([d0, d1], [r0, r1]) {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const f = (x) => (k === 0 ? (r0 + r1) / 2 : r0 + (x - d0) * k);
  f.invert = (y) => (k === 0 ? d0 : d0 + (y - r0) / k);
  return f;
}

/**
 * Grid lines of a plane at the whole numbers of lo..hi (the lines through 0 drawn as axes),
 * spanning from..to on the other axis. sx, sy map data to pixels.
 */
export function planeGrid(parent, sx, sy, { lo, hi, from = lo, to = hi, cls = "grid" }) {
  for (let v = Math.ceil(lo); v <= hi; v++) {
    const c = v === 0 ? "axis" : cls;
    svg("line", { x1: sx(v), x2: sx(v), y1: sy(from), y2: sy(to), class: c }, parent);
    svg("line", { x1: sx(from), x2: sx(to), y1: sy(v), y2: sy(v), class: c }, parent);
  }
}

/** Tick labels along x (under y0) and/or along y (left of x0), skipping 0 where both meet. */
export function ticks(parent, { xs = [], ys = [], sx, sy, x0 = 0, y0 = 0, format = String }) {
  for (const v of xs) {
    svg("text", { x: sx(v), y: sy(y0) + 13, class: "tick", "text-anchor": "middle" }, parent).textContent = format(v);
  }
  for (const v of ys) {
    svg("text", { x: sx(x0) - 5, y: sy(v) + 4, class: "tick", "text-anchor": "end" }, parent).textContent = format(v);
  }
}
