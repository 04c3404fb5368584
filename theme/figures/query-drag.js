// query-drag: drag a two-number query (orange) over the keys of the pronoun sentence (blue) and
// read every word's raw score q·k, its scaled score q·k/√d and its weight. The engine precomputed a grid of query positions (see
// engine/figures/query_drag.py for why), so the query snaps to the nearest grid point and the
// view only looks numbers up and fills the model's text templates. Arrow keys move the focused
// query handle one grid step.
// Every element is made once; a resize re-places them and a move updates them in place.
import { arrowHead } from "../js/arrows.js";
import { clampIndex, gridKeys } from "../js/keys.js";
import { linear } from "../js/scale.js";
import { weightBar } from "../js/weights.js";
import { fill, fillAll, scopeAt } from "../js/text.js";
import { drag, html, nearestIndex, onResize, set, svg } from "../js/svg.js";

const PAD = 22;

export function mount(root, ctx) {
  const data = ctx.data;
  const axis = data.axis;
  const G = axis.length;
  const lim = axis[G - 1];
  const opened = ctx.opening(data.start[1] * axis.length + data.start[0], axis.length ** 2); // state row * G + col
  let [col, row] = [opened % axis.length, Math.floor(opened / axis.length)];

  const layout = html("div", { class: "qd-layout" }, root);
  const plot = html("div", { class: "figure-plot qd-plane" }, layout);
  const side = html("div", { class: "qd-side" }, layout);
  const readout = html("p", { class: "qd-readout", "aria-live": "polite" }, side);
  const list = html("div", { class: "qd-list", role: "table", "aria-label": "Score and weight of every word" }, side);
  const head = html("div", { role: "row", class: "qd-row qd-row-head" }, list);
  const rootD = `√${data.keys[0].length}`; // the head divides by the square root of the key width
  for (const t of ["word", "raw q·k", `scaled ÷${rootD}`, "weight"]) html("span", { role: "columnheader" }, head, t);
  const rows = data.words.map((w, j) => {
    const r = html("div", { role: "row", class: "qd-row" + (data.long_keys[j] ? " qd-strong" : "") }, list);
    html("span", { role: "rowheader", class: "qd-word" }, r, w);
    const score = html("span", { role: "cell", class: "qd-score" }, r);
    const scaled = html("span", { role: "cell", class: "qd-score qd-scaled" }, r);
    const weight = weightBar(html("span", { role: "cell", class: "qd-weight" }, r));
    return { score, scaled, weight };
  });
  html("p", { class: "figure-hint" }, root,
    "Drag anywhere on the plane to move the query, or focus the orange handle and use the arrow keys.");

  // --- the plane, built once ----------------------------------------------------------------
  const s = svg("svg", { role: "group",
    "aria-label": "Keys of every word as blue arrows and the query as an orange arrow" }, plot);
  const keyHead = arrowHead(s, ctx.figure.id + "-k", "qd-key-head");
  const queryHead = arrowHead(s, ctx.figure.id + "-q", "qd-query-head");
  const whole = [];
  for (let v = -Math.floor(lim); v <= lim; v++) whole.push(v);
  const gridLines = whole.map((v) => [v, svg("line", { class: v === 0 ? "axis" : "grid" }, s),
    svg("line", { class: v === 0 ? "axis" : "grid" }, s)]);
  const keys = data.words.map((w, j) => {
    const long = data.long_keys[j];
    const line = svg("line", { class: "qd-key" + (long ? "" : " qd-key-short"), "marker-end": long ? keyHead : "" }, s);
    const label = long ? svg("text", { class: "key-text", "text-anchor": data.keys[j][0] > 0 ? "middle" : "start" }, s) : null;
    if (label) label.textContent = w;
    return { line, label, key: data.keys[j] };
  });
  const hit = svg("rect", { x: 0, y: 0, class: "hit" }, s);
  const arrow = svg("line", { class: "qd-query", "marker-end": queryHead }, s);
  const handle = svg("g", { class: "qd-handle", tabindex: 0, role: "slider", "aria-label": "query",
    "aria-valuemin": axis[0], "aria-valuemax": lim, "data-key-control": "ArrowUp" }, s);
  svg("circle", { r: 18, class: "hit" }, handle);
  svg("circle", { r: 8, class: "qd-handle-dot" }, handle);
  const label = svg("text", { class: "qd-query-text" }, s);
  label.textContent = "query";

  let X = null, Y = null;
  const moveTo = (p) => go(nearestIndex(axis, X.invert(p.x)), nearestIndex(axis, Y.invert(p.y)));
  drag(hit, s, moveTo, undefined, { hold: false });
  drag(handle, s, moveTo);
  gridKeys(handle, (dx, dy) => go(clampIndex(col + dx, G), clampIndex(row + dy, G)));
  handle.addEventListener("keydown", (e) => {
    if (e.key === "Home") { e.preventDefault(); go(...data.start); }
  });

  function go(c, r) {
    if (c === col && r === row) return;
    col = c; row = r;
    update();
  }

  onResize(layout, (w) => { place(Math.max(220, Math.min(340, w))); update(); });

  /** Put every element of the plane where it belongs at this size. */
  function place(size) {
    X = linear([-lim, lim], [PAD, size - PAD]);
    Y = linear([-lim, lim], [size - PAD, PAD]);
    set(s, { width: size, height: size, viewBox: `0 0 ${size} ${size}` });
    for (const [v, vertical, horizontal] of gridLines) {
      set(vertical, { x1: X(v), x2: X(v), y1: Y(-lim), y2: Y(lim) });
      set(horizontal, { x1: X(-lim), x2: X(lim), y1: Y(v), y2: Y(v) });
    }
    for (const { line, label: text, key: [kx, ky] } of keys) {
      set(line, { x1: X(0), y1: Y(0), x2: X(kx), y2: Y(ky) });
      if (text) set(text, { x: X(kx) + (kx > 0 ? 0 : 6), y: Y(ky) - 8 });
    }
    set(hit, { width: size, height: size });
    set(arrow, { x1: X(0), y1: Y(0) });
  }

  /** Show the query at (col, row): the model's text for that grid position, and its numbers. */
  function update() {
    const qx = axis[col], qy = axis[row];
    const i = row * G + col;
    const text = { numbers: fillAll(data.text.templates, scopeAt(data.text.scope, data, i)) };
    const scores = data.scores[i], scaled = data.scaled[i], weights = data.weights[i];
    const parts = data.text.parts;
    set(arrow, { x2: X(qx), y2: Y(qy) });
    arrow.style.display = qx === 0 && qy === 0 ? "none" : "";
    set(handle, { transform: `translate(${X(qx)},${Y(qy)})`, "aria-valuenow": qx,
      "aria-valuetext": text.numbers[0] });
    set(label, { x: X(qx), y: Y(qy) + (qy < -lim + 0.75 ? -14 : 26), // below the handle, clear of key labels
      "text-anchor": qx > lim - 0.75 ? "end" : qx < -lim + 0.75 ? "start" : "middle" });
    readout.textContent = text.numbers[0];
    rows.forEach((r, j) => {
      r.score.textContent = fill(parts.score, { v: scores[j] });
      r.scaled.textContent = fill(parts.scaled, { v: scaled[j] });
      r.weight(weights[j], fill(parts.weight, { v: weights[j] }));
    });
    ctx.setText(text, i);
  }

  return {};
}
