// word-map: 16 words squeezed to two numbers each, and a probe that names the nearest words.
// The probe stops on the model's grid; every grid point's nearest words are in the data,
// so moving it (drag, tap, arrow keys) only looks answers up, and the key numbers are the model's
// text template filled for that grid cell. A move updates the map in place.
import { clampIndex, gridKeys } from "../js/keys.js";
import { linear } from "../js/scale.js";
import { drag, html, nearestIndex, onResize, set, svg } from "../js/svg.js";
import { fill, fillAll, scopeAt } from "../js/text.js";

const SHAPES = { animal: "circle", place: "square", describing: "triangle" };
const GROUP_NAMES = { animal: "animals", place: "places", describing: "describing words" };
const CHAR_W = 7.2; // rough width of one character of a 12px label, for placing labels
const MAX_H = 520;

function marker(kind, x, y, parent, cls) {
  if (kind === "circle") return svg("circle", { cx: x, cy: y, r: 4, class: cls }, parent);
  if (kind === "square") return svg("rect", { x: x - 3.5, y: y - 3.5, width: 7, height: 7, class: cls }, parent);
  return svg("path", { d: `M ${x} ${y - 5} L ${x + 4.5} ${y + 3.5} L ${x - 4.5} ${y + 3.5} Z`, class: cls }, parent);
}

/** Greedy label placement: the first spot near each point that overlaps no label or point.
 *  Crowded points choose first, so the isolated ones, with room to spare, go last. */
function placeLabels(words, pts, w, h) {
  const boxes = pts.map(([x, y]) => ({ x0: x - 5, x1: x + 5, y0: y - 5, y1: y + 5 }));
  const overlaps = (b) => boxes.some((o) => b.x0 < o.x1 && b.x1 > o.x0 && b.y0 < o.y1 && b.y1 > o.y0);
  const dirs = [[1, 0], [-1, 0], [0, -1], [0, 1], [1, -1], [1, 1], [-1, -1], [-1, 1]];
  const crowd = pts.map(([x, y]) => pts.filter(([u, v]) => Math.abs(u - x) < 40 && Math.abs(v - y) < 20).length);
  const order = words.map((_, i) => i).sort((i, j) => crowd[j] - crowd[i] || i - j);
  const placed = [];
  for (const i of order) {
    const [px, py] = pts[i];
    const tw = words[i].length * CHAR_W, th = 14;
    let best = null;
    for (const ring of [7, 18, 30, 44, 60]) {
      for (const [dx, dy] of dirs) {
        const cx = px + dx * (ring + (dx ? tw / 2 : 0)), cy = py + dy * (ring + (dy ? th / 2 : 0));
        const b = { x0: cx - tw / 2, x1: cx + tw / 2, y0: cy - th / 2, y1: cy + th / 2 };
        if (b.x0 < 0 || b.x1 > w || b.y0 < 0 || b.y1 > h) continue;
        if (!overlaps(b)) { best = { ...b, cx, cy, leader: ring > 7 }; break; }
      }
      if (best) break;
    }
    if (!best) best = { x0: px + 6, x1: px + 6 + tw, y0: py - th / 2, y1: py + th / 2, cx: px + 6 + tw / 2, cy: py, leader: false };
    boxes.push(best);
    placed[i] = best;
  }
  return placed;
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
    const labels = placeLabels(data.words, pts, w, h);
    const texts = data.words.map((word, i) => {
      const b = labels[i];
      if (b.leader) {
        svg("line", { x1: pts[i][0], y1: pts[i][1], x2: Math.max(b.x0, Math.min(b.x1, pts[i][0])),
          y2: Math.max(b.y0, Math.min(b.y1, pts[i][1])), class: "leader" }, g);
      }
      marker(SHAPES[data.groups[i]], pts[i][0], pts[i][1], g, "point");
      const t = svg("text", { x: b.cx, y: b.cy + 4, class: "map-word", "text-anchor": "middle" }, g);
      t.textContent = word;
      return t;
    });
    drag(hit, s, moveTo, undefined, { hold: false });
    map.replaceWith(g);
    map = g;
    view = { texts, pts, sx, sy };
    layout.classList.toggle("stacked", !panelBeside);
  }

  function update() {
    const { texts, pts, sx, sy } = view;
    const cell = iy * xs.length + ix;
    const values = scopeAt(data.text.scope, data, cell);
    const lines = fillAll(data.text.templates, values);
    const px = sx(xs[ix]), py = sy(ys[iy]);
    const near = nearest[cell];
    set(probe, { transform: `translate(${px} ${py})`, "aria-valuenow": ix, "aria-valuetext": lines[0] });
    near.forEach((j, k) => {
      set(links[k], { x1: px, y1: py, x2: pts[j][0], y2: pts[j][1] });
      items[k].textContent = fill(data.text.parts.near, { word: values.near[k], v: values.distance[k] });
    });
    texts.forEach((t, i) => t.classList.toggle("near", near.includes(i)));
    ctx.setText({ numbers: [...lines, ...data.text.fixed] }, cell);
  }

  return {};
}
