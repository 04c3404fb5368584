// query-drag: drag a two-number query (orange) over the keys of the pronoun sentence (blue) and
// read every word's score and weight. The engine precomputed a grid of query positions (see
// engine/figures/query_drag.py for why), so the query snaps to the nearest grid point and the
// view only looks numbers up. Arrow keys move the focused query handle one grid step.
import { drag, fmt, html, nearestIndex, onResize, setNumbers, svg } from "../js/svg.js";

export function mount(root, ctx) {
  const data = ctx.data;
  const axis = data.axis;
  const G = axis.length;
  const lim = axis[G - 1];
  let [col, row] = data.start;

  const layout = html("div", { class: "qd-layout" }, root);
  const plot = html("div", { class: "figure-plot qd-plane" }, layout);
  const side = html("div", { class: "qd-side" }, layout);
  const readout = html("p", { class: "qd-readout", "aria-live": "polite" }, side);
  const list = html("div", { class: "qd-list", role: "table", "aria-label": "Score and weight of every word" }, side);
  const head = html("div", { role: "row", class: "qd-row qd-row-head" }, list);
  for (const t of ["word", "score q·k", "weight"]) html("span", { role: "columnheader" }, head, t);
  const rows = data.words.map((w, j) => {
    const r = html("div", { role: "row", class: "qd-row" + (data.long_keys[j] ? " qd-strong" : "") }, list);
    html("span", { role: "rowheader", class: "qd-word" }, r, w);
    const score = html("span", { role: "cell", class: "qd-score" }, r);
    const cell = html("span", { role: "cell", class: "qd-weight" }, r);
    const bar = html("span", { class: "qd-bar", "aria-hidden": "true" }, cell);
    const fill = html("span", { class: "qd-fill" }, bar);
    const num = html("span", { class: "qd-num" }, cell);
    return { score, fill, num };
  });
  html("p", { class: "figure-hint" }, root,
    "Drag anywhere on the plane to move the query, or focus the orange handle and use the arrow keys.");

  let size = 320, els = null;

  onResize(layout, (w) => {
    size = Math.max(220, Math.min(340, w));
    build();
    update();
  });

  function build() {
    const pad = 22;
    const s = (size - 2 * pad) / (2 * lim);
    const X = (x) => pad + (x + lim) * s;
    const Y = (y) => pad + (lim - y) * s;
    const focused = document.activeElement?.classList?.contains("qd-handle");
    const root_ = svg("svg", { width: size, height: size, viewBox: `0 0 ${size} ${size}`, role: "group",
      "aria-label": "Keys of every word as blue arrows and the query as an orange arrow" });
    for (let v = -Math.floor(lim); v <= lim; v++) {
      svg("line", { x1: X(v), x2: X(v), y1: Y(-lim), y2: Y(lim), class: v === 0 ? "axis" : "qd-grid" }, root_);
      svg("line", { x1: X(-lim), x2: X(lim), y1: Y(v), y2: Y(v), class: v === 0 ? "axis" : "qd-grid" }, root_);
    }
    const defs = svg("defs", {}, root_);
    for (const [id, cls] of [["k", "qd-key-head"], ["q", "qd-query-head"]]) {
      const m = svg("marker", { id: `${ctx.figure.id}-${id}`, viewBox: "0 0 10 10", refX: 8, refY: 5,
        markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" }, defs);
      svg("path", { d: "M0,0 L10,5 L0,10 z", class: cls }, m);
    }
    data.words.forEach((w, j) => {
      const [kx, ky] = data.keys[j];
      const long = data.long_keys[j];
      svg("line", { x1: X(0), y1: Y(0), x2: X(kx), y2: Y(ky), class: "qd-key" + (long ? "" : " qd-key-short"),
        "marker-end": long ? `url(#${ctx.figure.id}-k)` : "" }, root_);
      if (long) {
        const t = svg("text", { x: X(kx) + (kx > 0 ? 0 : 6), y: Y(ky) - 8, class: "key-text",
          "text-anchor": kx > 0 ? "middle" : "start" }, root_);
        t.textContent = w;
      }
    });
    const hit = svg("rect", { x: 0, y: 0, width: size, height: size, class: "hit" }, root_);
    const arrow = svg("line", { x1: X(0), y1: Y(0), class: "qd-query", "marker-end": `url(#${ctx.figure.id}-q)` }, root_);
    const handle = svg("g", { class: "qd-handle", tabindex: 0, role: "slider", "aria-label": "query",
      "aria-valuemin": axis[0], "aria-valuemax": lim, "data-key-control": "ArrowUp" }, root_);
    svg("circle", { r: 18, class: "hit" }, handle);
    svg("circle", { r: 8, class: "qd-handle-dot" }, handle);
    const label = svg("text", { class: "qd-query-text" }, root_);
    label.textContent = "query";

    const moveTo = (p) => {
      const c = nearestIndex(axis, (p.x - pad) / s - lim);
      const r = nearestIndex(axis, lim - (p.y - pad) / s);
      if (c !== col || r !== row) { col = c; row = r; update(); }
    };
    drag(hit, root_, moveTo, undefined, { hold: false });
    drag(handle, root_, moveTo);
    handle.addEventListener("keydown", (e) => {
      const step = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
      if (e.key === "Home") { e.preventDefault(); [col, row] = data.start; update(); return; }
      if (!step) return;
      e.preventDefault();
      const c = Math.max(0, Math.min(G - 1, col + step[0]));
      const r = Math.max(0, Math.min(G - 1, row + step[1]));
      if (c !== col || r !== row) { col = c; row = r; update(); }
    });
    plot.replaceChildren(root_);
    els = { X, Y, arrow, handle, label };
    if (focused) handle.focus();
  }

  function update() {
    const { X, Y, arrow, handle, label } = els;
    const qx = axis[col], qy = axis[row];
    const i = row * G + col;
    const scores = data.scores[i], weights = data.weights[i];
    arrow.setAttribute("x2", X(qx));
    arrow.setAttribute("y2", Y(qy));
    arrow.style.display = qx === 0 && qy === 0 ? "none" : "";
    handle.setAttribute("transform", `translate(${X(qx)},${Y(qy)})`);
    const q = `(${fmt(qx)}, ${fmt(qy)})`;
    handle.setAttribute("aria-valuenow", qx);
    handle.setAttribute("aria-valuetext", "query " + q);
    label.setAttribute("x", X(qx));
    label.setAttribute("y", Y(qy) + (qy < -lim + 0.75 ? -14 : 26)); // below the handle, clear of key labels
    label.setAttribute("text-anchor", qx > lim - 0.75 ? "end" : qx < -lim + 0.75 ? "start" : "middle");
    readout.textContent = "Query " + q;
    rows.forEach((r, j) => {
      r.score.textContent = fmt(scores[j]);
      r.fill.style.width = (100 * weights[j]).toFixed(1) + "%";
      r.num.textContent = fmt(weights[j]);
    });
    setNumbers(ctx.numbers, [
      "Query " + q,
      "Scores q·k: " + data.words.map((w, j) => `${w} ${fmt(scores[j])}`).join(", "),
      "Weights: " + data.words.map((w, j) => `${w} ${fmt(weights[j])}`).join(", "),
    ]);
  }

  return {};
}
