// word-map: 16 words squeezed to two numbers each, and a probe that names the nearest words.
// The probe stops on the model's grid; every grid point's nearest words are in the data,
// so moving it (drag, tap, arrow keys) only looks answers up, and the key numbers are the model's
// text template filled for that grid cell. A move updates the map in place, and a label the probe
// would cover steps aside (dodgeProbe).
import { clampIndex, gridKeys } from "../js/keys.js";
import { linear } from "../js/scale.js";
import { drag, html, nearestIndex, onResize, set, svg } from "../js/svg.js";
import { fill, fillAll, scopeAt } from "../js/text.js";

const SHAPES = { animal: "circle", place: "square", describing: "triangle" };
const GROUP_NAMES = { animal: "animals", place: "places", describing: "describing words" };
const MAX_H = 520;

function marker(kind, x, y, parent, cls) {
  if (kind === "circle") return svg("circle", { cx: x, cy: y, r: 4, class: cls }, parent);
  if (kind === "square") return svg("rect", { x: x - 3.5, y: y - 3.5, width: 7, height: 7, class: cls }, parent);
  return svg("path", { d: `M ${x} ${y - 5} L ${x + 4.5} ${y + 3.5} L ${x - 4.5} ${y + 3.5} Z`, class: cls }, parent);
}

const RINGS = [7, 18, 30, 44, 60]; // distances from a point to its label, nearest first
const DIRS = [[1, 0], [-1, 0], [0, -1], [0, 1], [1, -1], [1, 1], [-1, -1], [-1, 1]];
const PROBE_R = 16; // the probe's reach (its hit circle, drawn as its focus ring): no label is drawn under it
const hits = (a, b) => a.x0 < b.x1 && a.x1 > b.x0 && a.y0 < b.y1 && a.y1 > b.y0;
const pointBoxes = (pts) => pts.map(([x, y]) => ({ x0: x - 5, x1: x + 5, y0: y - 5, y1: y + 5 })); // the markers' room

/** The first spot near the point (px, py) for a label of size (tw, th) inside w x h where free(box)
 *  holds, nearest rings first; null if there is none. */
function spot([px, py], [tw, th], w, h, free) {
  for (const ring of RINGS) {
    for (const [dx, dy] of DIRS) {
      const cx = px + dx * (ring + (dx ? tw / 2 : 0)), cy = py + dy * (ring + (dy ? th / 2 : 0));
      const b = { x0: cx - tw / 2, x1: cx + tw / 2, y0: cy - th / 2, y1: cy + th / 2, cx, cy, leader: ring > 7 };
      if (b.x0 >= 0 && b.x1 <= w && b.y0 >= 0 && b.y1 <= h && free(b)) return b;
    }
  }
  return null;
}

/** Greedy label placement (sizes: each label's measured [width, height]): the first spot near each
 *  point that overlaps no label or point. Crowded points choose first, so the isolated ones, with
 *  room to spare, go last. */
function placeLabels(sizes, pts, w, h) {
  const boxes = pointBoxes(pts);
  const crowd = pts.map(([x, y]) => pts.filter(([u, v]) => Math.abs(u - x) < 40 && Math.abs(v - y) < 20).length);
  const order = sizes.map((_, i) => i).sort((i, j) => crowd[j] - crowd[i] || i - j);
  const placed = [];
  for (const i of order) {
    const [px, py] = pts[i], [tw, th] = sizes[i];
    const best = spot(pts[i], sizes[i], w, h, (b) => !boxes.some((o) => hits(b, o)))
      ?? { x0: px + 6, x1: px + 6 + tw, y0: py - th / 2, y1: py + th / 2, cx: px + 6 + tw / 2, cy: py, leader: false };
    boxes.push(best);
    placed[i] = best;
  }
  return placed;
}

/** The labels with the probe at (px, py): each where placeLabels put it, but one the probe would
 *  cover moves to the nearest spot clear of the probe, the points and the other labels as shown. */
function dodgeProbe(view, px, py) {
  const { home, sizes, pts, points, w, h } = view;
  const probe = { x0: px - PROBE_R, x1: px + PROBE_R, y0: py - PROBE_R, y1: py + PROBE_R };
  const shown = home.slice();
  home.forEach((b, i) => {
    if (!hits(b, probe)) return;
    const others = [probe, ...points, ...shown.filter((_, j) => j !== i)];
    shown[i] = spot(pts[i], sizes[i], w, h, (c) => !others.some((o) => hits(c, o))) ?? b;
  });
  return shown;
}

export function mount(root, ctx) {
  const data = ctx.data;
  const { xs, ys, nearest } = data.grid;
  const K = nearest[0].length; // words listed per probe position
  const opened = ctx.opening(data.start[1] * xs.length + data.start[0], xs.length * ys.length); // state iy * xs + ix
  let [ix, iy] = [opened % xs.length, Math.floor(opened / xs.length)];

  const layout = html("div", { class: "word-map-layout" }, root);
  const plot = html("div", { class: "figure-plot" }, layout);
  const panel = html("div", { class: "word-map-panel" }, layout);
  const readout = html("div", { class: "word-map-readout", "aria-live": "polite" }, panel);
  html("p", { class: "readout-title" }, readout, "Nearest to the probe");
  const list = html("ol", {}, readout);
  const items = Array.from({ length: K }, () => html("li", {}, list));
  const legend = html("ul", { class: "word-map-legend", "aria-label": "Shapes" }, panel);
  for (const [group, shape] of Object.entries(SHAPES)) {
    const li = html("li", {}, legend);
    const s = svg("svg", { width: 12, height: 12, viewBox: "0 0 12 12", "aria-hidden": "true" }, li);
    marker(shape, 6, 6.5, s, "point");
    li.append(" " + GROUP_NAMES[group]);
  }
  html("p", { class: "figure-hint" }, root,
    "Drag the probe, or tap anywhere on the map to move it there. Focus the probe and use the arrow keys to step it.");

  // The svg, the probe and its links are made once; the map under them (points, labels placed in
  // pixels, the tap area) is redrawn for a new width, so a focused probe keeps focus.
  const s = svg("svg", { role: "group", "aria-label": "Map of the words in two dimensions, with a movable probe" }, plot);
  let map = svg("g", {}, s);
  const links = Array.from({ length: K }, () => svg("line", { class: "link" }, s));
  const probe = svg("g", { class: "probe", tabindex: 0, role: "slider", "aria-label": "Probe",
    "aria-valuemin": 0, "aria-valuemax": xs.length - 1, "data-key-control": "ArrowRight" }, s);
  svg("circle", { r: 16, class: "probe-hit" }, probe);
  svg("circle", { r: 7, class: "probe-ring" }, probe);
  svg("path", { d: "M -11 0 H 11 M 0 -11 V 11", class: "probe-cross" }, probe);
  let view = null; // the scales, points and labels of the map as last drawn
  const moveTo = (p) => go(nearestIndex(xs, view.sx.invert(p.x)), nearestIndex(ys, view.sy.invert(p.y)));
  drag(probe, s, moveTo);
  gridKeys(probe, (dx, dy) => go(clampIndex(ix + dx, xs.length), clampIndex(iy + dy, ys.length)), { big: 4 });
  onResize(layout, (w) => { drawMap(w); update(); }); // the layout, not the plot: the plot shrinks to its map

  function go(jx, jy) {
    if (jx === ix && jy === iy) return;
    ix = jx; iy = jy;
    update();
  }

  /** Draw the map for this width, under the probe. */
  function drawMap(width) {
    const xr = xs[xs.length - 1] - xs[0], yr = ys[ys.length - 1] - ys[0];
    const panelBeside = width >= 520;
    const avail = panelBeside ? width - 180 : width;
    const scale = Math.min(avail / xr, MAX_H / yr); // one scale for both axes: distances look as they are
    const w = Math.round(xr * scale), h = Math.round(yr * scale);
    const sx = linear([xs[0], xs[xs.length - 1]], [0, xr * scale]);
    const sy = linear([ys[0], ys[ys.length - 1]], [h, h - yr * scale]);
    set(s, { width: w, height: h, viewBox: `0 0 ${w} ${h}` });
    const g = svg("g");
    const hit = svg("rect", { x: 0, y: 0, width: w, height: h, class: "map-bg" }, g);
    svg("line", { x1: sx(0), x2: sx(0), y1: 0, y2: h, class: "guide" }, g);
    svg("line", { x1: 0, x2: w, y1: sy(0), y2: sy(0), class: "guide" }, g);
    const pts = data.coords.map(([x, y]) => [sx(x), sy(y)]);
    const leaders = pts.map(() => svg("line", { class: "leader" }, g));
    pts.forEach(([x, y], i) => marker(SHAPES[data.groups[i]], x, y, g, "point"));
    const texts = data.words.map((word) => {
      const t = svg("text", { class: "map-word near", "text-anchor": "middle" }, g); // bold while measured: as wide as it gets
      t.textContent = word;
      return t;
    });
    drag(hit, s, moveTo, undefined, { hold: false });
    map.replaceWith(g);
    map = g;
    const boxes = texts.map((t) => t.getBBox()); // measured at (0, 0): the labels' true sizes
    const sizes = boxes.map((b) => [Math.ceil(b.width), Math.ceil(b.height)]);
    const lift = boxes.map((b) => -(b.y + b.height / 2)); // from a label's middle to its baseline
    view = { texts, leaders, pts, points: pointBoxes(pts), sizes, lift, home: placeLabels(sizes, pts, w, h), w, h, sx, sy };
    layout.classList.toggle("stacked", !panelBeside);
  }

  /** Draw each label in its box b (cx, cy its centre), with a leader to its point when set apart. */
  function putLabels(boxes) {
    const { texts, leaders, lift, pts } = view;
    boxes.forEach((b, i) => {
      set(texts[i], { x: b.cx, y: b.cy + lift[i] });
      leaders[i].style.display = b.leader ? "" : "none";
      if (b.leader) {
        set(leaders[i], { x1: pts[i][0], y1: pts[i][1], x2: Math.max(b.x0, Math.min(b.x1, pts[i][0])),
          y2: Math.max(b.y0, Math.min(b.y1, pts[i][1])) });
      }
    });
  }

  function update() {
    const { texts, pts, sx, sy } = view;
    const cell = iy * xs.length + ix;
    const values = scopeAt(data.text.scope, data, cell);
    const lines = fillAll(data.text.templates, values);
    const px = sx(xs[ix]), py = sy(ys[iy]);
    const near = nearest[cell];
    set(probe, { transform: `translate(${px} ${py})`, "aria-valuenow": ix, "aria-valuetext": lines[0] });
    putLabels(dodgeProbe(view, px, py));
    near.forEach((j, k) => {
      set(links[k], { x1: px, y1: py, x2: pts[j][0], y2: pts[j][1] });
      items[k].textContent = fill(data.text.parts.near, { word: values.near[k], v: values.distance[k] });
    });
    texts.forEach((t, i) => t.classList.toggle("near", near.includes(i)));
    ctx.setText({ numbers: [...lines, ...data.text.fixed] }, cell);
  }

  return {};
}
