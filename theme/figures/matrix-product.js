// matrix-product: QKᵀ laid out so each row of Q meets each column of Kᵀ at a cell of the product (Q on the
// left, Kᵀ above, the product where they cross). Pick a cell (tap or click it, or focus the grid and use
// the arrow keys): its row of Q and its column of Kᵀ light up and the readout writes the cell out as a sum
// of products (the model's text: state row * keys + col). "Transpose K" moves every number of K between
// its stored place (a row per key) and Kᵀ (a column per key); "New numbers" asks the worker for another
// draw. The grid's numbers and every line are the model's; the view only places them.
import { clampIndex, gridKeys } from "../js/keys.js";
import { html, set, svg } from "../js/svg.js";
import { fill } from "../js/text.js";

const C = 34, LABEL = 26, TOP = 18, GAP = 10; // a cell, the room for row labels and for the title, the gap between blocks

export function mount(root, ctx) {
  let data = ctx.data;
  const opened = ctx.opening(data.start.row * data.k.length + data.start.col); // state = row * keys + col; a link may name another
  let row = Math.floor(opened / data.k.length), col = opened % data.k.length, transposed = data.transposed;

  const controls = html("div", { class: "figure-controls" }, root);
  const flip = html("button", { type: "button", "aria-pressed": String(transposed) }, controls, "Transpose K");
  const fresh = html("button", { type: "button" }, controls, "New numbers");
  const grid = html("div", { class: "figure-plot mp-grid", tabindex: 0, role: "group",
    "aria-label": "The product QKᵀ: arrow keys pick a cell", "data-key-control": "ArrowRight" }, root);
  const readout = html("p", { class: "mp-readout", "aria-live": "polite" }, root);
  const note = html("p", { class: "figure-hint mp-note" }, root);
  html("p", { class: "figure-hint" }, root,
    `${data.text.legend} Tap or click a cell of the product, or focus the grid and use the arrow keys.`);

  flip.addEventListener("click", () => { transposed = !transposed; place(); });
  fresh.addEventListener("click", async () => {
    const { lo, hi } = data.schema.seed;
    controls.setAttribute("aria-busy", "true");
    fresh.disabled = true;
    const out = await ctx.request({ ...data.params, seed: data.params.seed >= hi ? lo : data.params.seed + 1,
      row, col, transposed });
    fresh.disabled = false;
    controls.removeAttribute("aria-busy");
    if (out) {
      data = out;
      build();
      ctx.markLive();
    }
    select(row, col);
  });
  gridKeys(grid, (dx, dy) => select(clampIndex(row - dy, data.q.length), clampIndex(col + dx, data.k.length)));

  let view = null;
  build();
  select(row, col);

  /** The drawing for this data (built again only when the worker sends new numbers). */
  function build() {
    const nq = data.q.length, nk = data.k.length, d = data.q[0].length;
    const xr = LABEL + d * C + GAP, base = TOP + Math.max(d, nk) * C, yp = base + GAP;
    const w = xr + Math.max(d, nk) * C + 4, h = yp + nq * C + 18;
    const s = svg("svg", { viewBox: `0 0 ${w} ${h}`, role: "img" });
    const cell = (parent, x, y, v, cls) => {
      const g = svg("g", { class: cls }, parent);
      svg("rect", { x, y, width: C, height: C, class: "mp-cell" }, g);
      svg("text", { x: x + C / 2, y: y + C / 2 + 4.5, class: "mp-num" }, g).textContent = String(v);
      return g;
    };
    const qBand = svg("rect", { x: LABEL, width: d * C, height: C, class: "mp-qband" }, s);
    const kBand = svg("rect", { class: "mp-kband" }, s);
    data.q.forEach((r, i) => {
      r.forEach((v, c) => cell(s, LABEL + c * C, yp + i * C, v, "mp-q"));
      svg("text", { x: LABEL - 4, y: yp + i * C + C / 2 + 4, "text-anchor": "end", class: "mp-qlabel" }, s)
        .textContent = `q${i + 1}`;
    });
    svg("text", { x: LABEL + d * C / 2, y: base - 4, class: "mp-name" }, s).textContent = "Q";
    const kName = svg("text", { y: 13, class: "mp-name" }, s);
    // One group per number of K, at (0, 0): place() moves it to its stored or transposed spot.
    const kCells = data.k.map((r) => r.map((v) => cell(s, 0, 0, v, "mp-k")));
    const kLabels = data.k.map((_, j) => Object.assign(svg("text", { class: "mp-klabel" }, s), { textContent: `k${j + 1}` }));
    const hits = data.scores.map((r, i) => r.map((v, j) => {
      const g = cell(s, xr + j * C, yp + i * C, v, "mp-p");
      g.addEventListener("click", () => { grid.focus({ preventScroll: true }); select(i, j); });
      return g;
    }));
    svg("text", { x: xr + nk * C / 2, y: h - 4, class: "mp-name" }, s).textContent = "QKᵀ";
    const outline = svg("rect", { width: C, height: C, class: "mp-selected" }, s);
    grid.replaceChildren(s);
    view = { s, d, nk, xr, base, yp, qBand, kBand, kName, kCells, kLabels, hits, outline };
    place();
  }

  /** K's numbers, labels and band where the toggle puts them: Kᵀ (key j in column j) or K (key j in row j). */
  function place() {
    const { d, nk, xr, base, kBand, kName, kCells, kLabels } = view;
    const top = base - (transposed ? d : nk) * C;
    kCells.forEach((r, j) => r.forEach((g, c) => {
      const [x, y] = transposed ? [xr + j * C, top + c * C] : [xr + c * C, top + j * C];
      g.style.transform = `translate(${x}px, ${y}px)`;
    }));
    kLabels.forEach((t, j) => set(t, transposed
      ? { x: xr + j * C + C / 2, y: top - 4, "text-anchor": "middle" }
      : { x: xr - 4, y: top + j * C + C / 2 + 4, "text-anchor": "end" }));
    set(kName, { x: xr + (transposed ? nk : d) * C / 2 });
    kName.textContent = transposed ? "Kᵀ" : "K";
    set(kBand, transposed ? { x: xr + col * C, y: top, width: C, height: d * C }
      : { x: xr, y: top + col * C, width: d * C, height: C });
    flip.setAttribute("aria-pressed", String(transposed));
    note.textContent = fill(data.text.parts[transposed ? "transposed" : "stored"], { v: col + 1 });
    view.s.classList.toggle("mp-stored", !transposed);
  }

  function select(i, j) {
    row = i; col = j;
    const nk = data.k.length, state = i * nk + j;
    set(view.qBand, { y: view.yp + i * C });
    set(view.outline, { x: view.xr + j * C, y: view.yp + i * C });
    view.hits.forEach((r, a) => r.forEach((g, b) => g.classList.toggle("mp-on", a === i && b === j)));
    view.kLabels.forEach((t, k) => t.classList.toggle("mp-on", k === j));
    place();
    readout.textContent = data.text.states[state].numbers[0];
    set(view.s, { "aria-label": data.text.states[state].label });
    ctx.setText(data.text, state);
  }

  return {};
}
