// softmax-gradient: the gradient through softmax by its formula and by finite differences, side
// by side. Two rows of draggable bars (the scores s, and G = dL/dA handed back to the weights)
// share one editor, so every change asks the worker once for both rows; until the answer comes the
// table is dimmed. The table's cells and the line under it are the model's text (data.text.cells,
// data.text.total); bar labels are filled from its part (data.text.parts.bar).
import { scoreBars, scoreEditor } from "../js/bars.js";
import { html, onResize, set, svg } from "../js/svg.js";

export function mount(root, ctx) {
  let data = ctx.data;
  const n = data.labels.length;
  const schema = data.schema.scores; // G has the same range and step

  const plot = html("div", { class: "figure-plot" }, root);
  const scroller = html("div", { class: "table-scroll", tabindex: 0, role: "region",
    "aria-label": "The weights and both gradients" }, root);
  const table = html("table", { class: "sg-table" }, scroller);
  const total = html("p", { class: "sg-total", "aria-live": "polite" }, root);
  html("p", { class: "figure-hint" }, root,
    "Drag a bar, or focus it (Tab) and use the arrow keys: the engine recomputes both gradients.");

  const edit = scoreEditor(ctx, {
    schema,
    scores: [...data.scores, ...data.upstream],
    params: (all) => ({ ...data.params, scores: all.slice(0, n), upstream: all.slice(n) }),
    accept: (out) => { data = out; },
    current: () => [...data.scores, ...data.upstream],
    draw: () => update(),
  });

  // top: where a row's bars start, below its title with room for a bar's value label (the faces' line
  // boxes are taller than their letters: 17 px at 12 px).
  const rowH = 90, gap = 44, top = 30;
  const h = 2 * rowH + 2 * gap + top - 4;
  const s = svg("svg", { height: h, role: "group", "aria-label": "Scores and the gradient G, as draggable bars" }, plot);
  const titles = ["Scores s", "G = dL/dA, handed back to the weights"].map((t, k) => {
    const el = svg("text", { x: 4, y: 14 + k * (rowH + gap), class: "axis-label" }, s);
    el.textContent = t;
    return el;
  });
  const axes = [0, 1].map(() => svg("line", { class: "axis" }, s));
  const rows = [0, 1].map((k) => scoreBars(s, {
    labels: data.labels, schema, part: data.text.parts.bar, keyControl: k === 0 ? "ArrowUp" : null,
    onChange: (i, v) => edit.set(k * n + i, v) }));
  // scoreBars names each bar "score of <word>": the G row's bars say so instead.
  s.querySelectorAll(".score-bar").forEach((g, i) => {
    if (i >= n) g.setAttribute("aria-label", "G of " + data.labels[i - n]);
  });
  const words = data.labels.map((w) => {
    const t = svg("text", { y: h - 4, class: "tick", "text-anchor": "middle" }, s);
    t.textContent = w;
    return t;
  });

  const head = html("tr", {}, html("thead", {}, table));
  html("td", {}, head);
  data.labels.forEach((w) => html("th", { scope: "col" }, head, w));
  const body = html("tbody", {}, table);
  const cellRows = [["weights", "Weights A"], ["formula", "dL/ds by A ⊙ (G − Σ G ⊙ A)"],
    ["numeric", "dL/ds by central differences"]].map(([key, name]) => {
    const tr = html("tr", {}, body);
    html("th", { scope: "row" }, tr, name);
    return { key, cells: data.labels.map(() => html("td", {}, tr)) };
  });

  let geo = null;
  onResize(plot, (w) => { layout(w); update(); });

  function layout(width) {
    const pad = 8, innerW = Math.max(120, width - 2 * pad), band = innerW / n;
    geo = { band, barW: Math.min(48, band * 0.55), cx: (i) => pad + band * (i + 0.5) };
    set(s, { width, viewBox: `0 0 ${width} ${h}` });
    axes.forEach((line, k) => {
      const y = top + k * (rowH + gap) + rowH / 2;
      set(line, { x1: pad, x2: pad + innerW, y1: y, y2: y });
    });
    words.forEach((t, i) => set(t, { x: geo.cx(i) }));
    titles.forEach((t) => set(t, { x: pad }));
  }

  function update() {
    if (!geo) return;
    const maxAbs = Math.max(schema.hi / 2, ...edit.scores.map(Math.abs));
    rows.forEach((bars, k) => bars({ scores: edit.scores.slice(k * n, (k + 1) * n), ...geo,
      top: top + k * (rowH + gap), height: rowH, maxAbs }));
    for (const { key, cells } of cellRows) cells.forEach((td, i) => { td.textContent = data.text.cells[key][i]; });
    table.classList.toggle("stale", edit.waiting);
    total.textContent = edit.waiting ? "Recomputing…" : data.text.total;
    ctx.setText(data.text);
  }

  return {};
}
