// colour-tokens: self-attention over coloured tokens with identity projections, and every step
// of the arithmetic for one gathering token. The toggles (heads, mask, positions) and the offered
// sequences only look up precomputed cases; editing a token's colour asks the worker.
// A case (tokens, heads, mask, positions) is drawn once; picking another gathering token only
// redraws that token's arithmetic (with two heads, also their concatenation times the output
// projection W_O) and marks its row, so the buttons under the reader's finger or
// focus stay where they are. The key numbers are the model's text for the case.
import { columnRow } from "../js/weights.js";
import { html, onResize, svg, WIDE } from "../js/svg.js";
import { fill } from "../js/text.js";

const NB = "\u00a0"; // keeps a number on the same line as the operator before it

export function mount(root, ctx) {
  let data = ctx.data;
  /** Every number by the model's text.parts: a blocked score (null) as parts.blocked, others by parts.number. */
  const num = (x) => (x === null ? data.text.parts.blocked : fill(data.text.parts.number, { v: x }));
  const vec = (xs) => "[" + xs.map(num).join(", ") + "]";
  /** A vector that moves to the next line as a whole when it can, and wraps inside only when it must. */
  const vecSpan = (xs, cls = "") => html("span", { class: "ct-vecs" + (cls ? " " + cls : "") }, null, vec(xs));
  const start = data.start;
  // stateIndex() below, read back from the state a link may name (else the opening one)
  const opened = ctx.opening(((start.sequence * 2 + start.heads - 1) * 2 + (start.causal ? 1 : 0)) * 2 + (start.positions ? 1 : 0));
  let seq = Math.floor(opened / 8);
  let heads = Math.floor(opened / 4) % 2 + 1;
  let causal = Math.floor(opened / 2) % 2 === 1;
  let positions = opened % 2 === 1;
  let row = start.row;
  let waiting = false;
  const id = ctx.figure.id;

  // --- controls, built once ---------------------------------------------------------------
  const controls = html("div", { class: "figure-controls" }, root);
  const seqLabel = html("label", { for: id + "-seq" }, controls, "Tokens ");
  const seqSelect = html("select", { id: id + "-seq" }, seqLabel);
  const headsLabel = html("label", { for: id + "-heads" }, controls, "Heads ");
  const headsSelect = html("select", { id: id + "-heads" }, headsLabel);
  data.text.heads.forEach((text, h) => html("option", { value: String(h + 1) }, headsSelect, text)); // the model's widths
  const causalLabel = html("label", {}, controls);
  const causalBox = html("input", { type: "checkbox" }, causalLabel);
  causalLabel.append(" Block future tokens");
  const posLabel = html("label", {}, controls);
  const posBox = html("input", { type: "checkbox" }, posLabel);
  posLabel.append(" Add positional encoding");

  const edit = html("fieldset", { class: "figure-controls ct-edit" }, root);
  html("legend", {}, edit, "Change a token’s colour");

  // A chapter offers only the toggles it has explained (option `controls`); the keyboard test's
  // control is the first offered of these, or else the button of a token other than the first.
  const offered = new Set(start.controls);
  const hide = { tokens: [seqLabel, edit], heads: [headsLabel], causal: [causalLabel], positions: [posLabel] };
  for (const [name, els] of Object.entries(hide)) for (const el of els) el.hidden = !offered.has(name);
  if (!offered.size) controls.hidden = true;
  const keyed = [["causal", causalBox, " "], ["positions", posBox, " "], ["heads", headsSelect, start.heads === 1 ? "ArrowDown" : "ArrowUp"],
    ["tokens", seqSelect, "ArrowDown"]].find(([name]) => offered.has(name));
  if (keyed) keyed[1].setAttribute("data-key-control", keyed[2]);
  const editStatus = html("output", { class: "ct-status" });

  const view = html("div", { class: "ct-view" }, root);
  html("p", { class: "figure-hint" }, root,
    "Pick the token that gathers with its button (or a row of the table) to see its arithmetic.");

  seqSelect.addEventListener("change", () => { seq = Number(seqSelect.value); clampRow(); draw(); });
  const tokenSelects = []; // one per token of the sequence shown, rebuilt only when its length changes
  headsSelect.addEventListener("change", () => { heads = Number(headsSelect.value); draw(); });
  causalBox.addEventListener("change", () => { causal = causalBox.checked; draw(); });
  posBox.addEventListener("change", () => { positions = posBox.checked; draw(); });

  function tokens() { return data.sequences[seq].tokens; }
  function names() { return tokens().map((t, i) => `${t} (${i + 1})`); }
  function current() { return data.sequences[seq].cases[heads - 1][causal ? 1 : 0][positions ? 1 : 0]; }
  function clampRow() { row = Math.min(row, tokens().length - 1); }

  function same(a, b) { return a.length === b.length && a.every((x, i) => x === b[i]); }

  async function editToken(i, colour) {
    const wanted = [...tokens()];
    wanted[i] = colour;
    const found = data.sequences.findIndex((s) => same(s.tokens, wanted));
    if (found >= 0) { seq = found; draw(); return; }
    waiting = true;
    draw();
    const out = await ctx.request({ ...data.params, tokens: wanted, heads, causal, positions, row });
    waiting = false;
    if (out) {
      data = out;
      seq = out.start.sequence;
      ctx.markLive();
    }
    draw(); // on failure the selects return to the tokens the figure can show
  }

  let width = WIDE;
  let shown = null; // the case on screen and its parts that change with the gathering row
  onResize(view, (w) => { width = w; draw(); }); // only the share bars follow the width: redrawn with the arithmetic

  // --- drawing ----------------------------------------------------------------------------
  function swatch(colour, parent) {
    return html("span", { class: "ct-swatch", "data-colour": colour, "aria-hidden": "true" }, parent);
  }

  function tokenName(i, parent, role = "") {
    const span = html("span", { class: "ct-token" + (role ? " ct-" + role : "") }, parent);
    swatch(tokens()[i], span);
    span.append(names()[i]);
    return span;
  }

  /** One line of arithmetic: parts are strings or nodes; spaces between parts may wrap. */
  function line(parent, parts, cls = "") {
    const li = html("li", cls ? { class: cls } : {}, parent);
    for (const p of parts) li.append(p);
    return li;
  }

  function power(x) {
    const span = html("span", { class: "ct-pow" });
    span.append("e");
    html("sup", {}, span, num(x));
    return span;
  }

  function drawControls() {
    const options = data.sequences.map((s) => s.tokens.join(", "));
    if (options.join("|") !== [...seqSelect.options].map((o) => o.textContent).join("|")) {
      seqSelect.replaceChildren(...options.map((text, i) => html("option", { value: String(i) }, null, text)));
    }
    seqSelect.value = String(seq);
    headsSelect.value = String(heads);
    causalBox.checked = causal;
    posBox.checked = positions;
    if (tokenSelects.length !== tokens().length) {
      const colours = data.schema.tokens.choices;
      tokenSelects.length = 0;
      const items = tokens().map((_, i) => {
        const label = html("label", { for: `${id}-tok-${i}` }, null, `${i + 1} `);
        const select = html("select", { id: `${id}-tok-${i}` }, label);
        for (const c of colours) html("option", { value: c }, select, c);
        select.addEventListener("change", () => editToken(i, select.value));
        tokenSelects.push(select);
        return label;
      });
      edit.replaceChildren(edit.querySelector("legend"), ...items, editStatus);
    }
    tokenSelects.forEach((select, i) => {
      select.value = tokens()[i];
      select.disabled = waiting;
    });
    editStatus.textContent = waiting ? "Computing…" : "";
  }

  function drawInputs(case_, parent) {
    const box = html("section", { class: "ct-block" }, parent);
    html("p", { class: "ct-title" }, box, positions ? "Inputs: colour + position = X = Q = K = V" : "Inputs: X = Q = K = V");
    const list = html("ul", { class: "ct-tokens", "aria-label": "Tokens; choose the one that gathers" }, box);
    tokens().forEach((t, i) => {
      const li = html("li", {}, list);
      const b = html("button", { type: "button", class: "ct-pick chip chip-line" }, li);
      tokenName(i, b);
      const parts = positions
        ? [vecSpan(data.palette[t]), " + ", vecSpan(case_.positions[i]), " = ", vecSpan(case_.inputs[i])]
        : [vecSpan(case_.inputs[i])];
      html("span", { class: "ct-vec" }, b).append(...parts);
      b.addEventListener("click", () => { row = i; draw(); });
      shown.marks.push((r) => b.setAttribute("aria-pressed", String(i === r)));
    });
  }

  function drawTables(case_, parent) {
    const wrap = html("div", { class: "ct-tables" }, parent);
    case_.heads.forEach((head, h) => {
      const box = html("div", { class: "ct-table-box" }, wrap);
      const table = html("table", { class: "ct-table" }, box);
      html("caption", {}, table, case_.heads.length === 1
        ? "Shares (each row reads the columns)"
        : `Head ${h + 1} shares (coordinates ${head.coords[0] + 1}–${head.coords[1] + 1})`);
      const hr = html("tr", {}, html("thead", {}, table));
      html("td", {}, hr);
      tokens().forEach((t, j) => {
        const th = html("th", { scope: "col" }, hr);
        swatch(t, th);
        th.append(names()[j]);
      });
      const body = html("tbody", {}, table);
      head.shares.forEach((shares, i) => {
        const tr = html("tr", {}, body);
        const th = html("th", { scope: "row" }, tr);
        const b = html("button", { type: "button", class: "ct-row-pick chip chip-line" }, th);
        shown.marks.push((r) => { tr.classList.toggle("ct-row-on", i === r); b.setAttribute("aria-pressed", String(i === r)); });
        swatch(tokens()[i], b);
        b.append(names()[i]);
        b.addEventListener("click", () => { row = i; draw(); });
        if (!keyed && h === 0 && i === 1) b.setAttribute("data-key-control", "Enter");
        shares.forEach((s, j) => {
          const blocked = head.scaled[i][j] === null;
          const td = html("td", { class: blocked ? "ct-blocked" : "",
            style: blocked ? "" : `--share:${(s * 100).toFixed(1)}%` }, tr, num(s));
          if (blocked) td.setAttribute("title", "blocked: a future token");
        });
      });
    });
  }

  function shareBars(head, parent) {
    const n = tokens().length;
    const w = Math.min(width - 8, 72 * n + 8), h = 92, top = 16, base = 70;
    const band = (w - 8) / n;
    const label = "Shares of " + names()[row] + ": " + head.shares[row].map((s, j) => names()[j] + " " + num(s)).join(", ");
    const s = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": label,
      class: "ct-bars" }, parent);
    svg("line", { x1: 4, x2: w - 4, y1: base, y2: base, class: "axis" }, s);
    const cx = (j) => 4 + band * (j + 0.5);
    columnRow(s, n, "prediction")({ values: head.shares[row], labels: head.shares[row].map(num), cx,
      barW: band * 0.6, top, height: base - top, max: 1 });
    tokens().forEach((t, j) => {
      svg("text", { x: cx(j), y: h - 6, class: "tick", "text-anchor": "middle" }, s).textContent = `${t} ${j + 1}`;
    });
  }

  function drawHead(case_, h) {
    const head = case_.heads[h];
    const n = tokens().length;
    const [c0, c1] = head.coords;
    const slice = (xs) => xs.slice(c0, c1 + 1);
    const box = html("section", { class: "ct-block" });
    const who = names()[row];
    html("p", { class: "ct-title ct-who" }, box, case_.heads.length === 1
      ? `How ${who} gathers`
      : `Head ${h + 1}: how ${who} gathers from coordinates ${c0 + 1}–${c1 + 1}`);
    const steps = html("ol", { class: "ct-steps" }, box);

    // 1. compare: dot products of the query with every key
    const compare = html("li", {}, steps);
    html("span", { class: "ct-step" }, compare, "Compare: raw scores (dot products)");
    const cl = html("ul", { class: "ct-lines" }, compare);
    const q = slice(case_.inputs[row]);
    for (let j = 0; j < n; j++) {
      const k = slice(case_.inputs[j]);
      const terms = q.map((qi, d) => `(${num(qi)}${NB}×${NB}${num(k[d])})`).join(" + ");
      line(cl, [tokenName(row, null, "q"), `${NB}·${NB}`, tokenName(j, null, "k"), ` = ${terms} =${NB}${num(head.raw[row][j])}`]);
    }

    // 2. scale by the square root of the head width, blocking future tokens
    const scale = html("li", {}, steps);
    html("span", { class: "ct-step" }, scale,
      `Scaled scores: divide by √${head.d_k} = ${num(head.sqrt_d)}` + (causal ? ", block future tokens" : ""));
    const sl = html("ul", { class: "ct-lines" }, scale);
    for (let j = 0; j < n; j++) {
      const s = head.scaled[row][j];
      line(sl, s === null
        ? [tokenName(j, null, "k"), `: blocked, scaled score =${NB}${num(null)}`]
        : [tokenName(j, null, "k"), `: ${num(head.raw[row][j])} / ${num(head.sqrt_d)} =${NB}${num(s)}`]);
    }

    // 3. exponentiate and add up
    const exp = html("li", {}, steps);
    html("span", { class: "ct-step" }, exp, "Raise e to each scaled score and add them up");
    const el = html("ul", { class: "ct-lines" }, exp);
    for (let j = 0; j < n; j++) {
      line(el, [tokenName(j, null, "k"), ": ", power(head.scaled[row][j]), ` =${NB}${num(head.exps[row][j])}`]);
    }
    line(el, [`total = ${head.exps[row].map(num).join(" + ")} =${NB}${num(head.sums[row])}`], "ct-total");

    // 4. shares: each exponential over the total
    const share = html("li", {}, steps);
    html("span", { class: "ct-step" }, share, "Shares: each over the total");
    const shl = html("ul", { class: "ct-lines" }, share);
    for (let j = 0; j < n; j++) {
      const parts = [tokenName(j, null, "k"), `: ${num(head.shares[row][j])} = `, power(head.scaled[row][j]), " / ("];
      head.scaled[row].forEach((s, m) => { if (m) parts.push(" + "); parts.push(power(s)); });
      parts.push(`) = ${num(head.exps[row][j])} / ${num(head.sums[row])}`);
      line(shl, parts);
    }
    shareBars(head, share);

    // 5. combine the value vectors with those shares
    const mix = html("li", {}, steps);
    html("span", { class: "ct-step" }, mix, "Combine the values");
    const ml = html("ul", { class: "ct-lines" }, mix);
    const parts = [];
    for (let j = 0; j < n; j++) {
      if (j) parts.push(" + ");
      parts.push(`${num(head.shares[row][j])}${NB}×${NB}`, vecSpan(slice(case_.inputs[j]), "ct-v"));
    }
    parts.push(" = ", vecSpan(slice(case_.out[row])));
    line(ml, parts);
    return box;
  }

  /** Two heads: the gathering token's concatenated results times the output projection W_O,
   *  one output coordinate a line, with W_O as a small table. */
  function drawProjection(case_) {
    const box = html("section", { class: "ct-block ct-project" });
    const who = names()[row];
    html("p", { class: "ct-title ct-who-o" }, box, `Concatenate, then project: ${who}`);
    const steps = html("ol", { class: "ct-steps" }, box);
    const cat = html("li", {}, steps);
    html("span", { class: "ct-step" }, cat, "Put the heads’ results side by side");
    const parts = [];
    case_.heads.forEach((hd, h) => {
      if (h) parts.push(" ‖ ");
      parts.push(`head${NB}${h + 1} `, vecSpan(case_.out[row].slice(hd.coords[0], hd.coords[1] + 1)));
    });
    parts.push(" = ", vecSpan(case_.out[row]));
    line(html("ul", { class: "ct-lines" }, cat), parts);

    const proj = html("li", {}, steps);
    html("span", { class: "ct-step" }, proj, "Multiply by the output projection W_O");
    const wrap = html("div", { class: "ct-table-box" }, proj);
    const table = html("table", { class: "ct-table ct-wo" }, wrap);
    html("caption", {}, table, "W_O (rows: the concatenation’s coordinates; columns: the output’s)");
    const hr = html("tr", {}, html("thead", {}, table));
    html("td", {}, hr);
    case_.w_o[0].forEach((_, j) => html("th", { scope: "col" }, hr, `out ${j + 1}`));
    const body = html("tbody", {}, table);
    case_.w_o.forEach((wrow, i) => {
      const tr = html("tr", {}, body);
      html("th", { scope: "row" }, tr, `concat ${i + 1}`);
      wrow.forEach((w) => html("td", {}, tr, num(w)));
    });
    const pl = html("ul", { class: "ct-lines" }, proj);
    const c = case_.out[row];
    case_.w_o[0].forEach((_, j) => {
      const terms = c.map((ci, i) => `(${num(ci)}${NB}×${NB}${num(case_.w_o[i][j])})`).join(" + ");
      line(pl, [`out ${j + 1} = ${terms} =${NB}${num(case_.projected[row][j])}`]);
    });
    line(pl, ["result: ", vecSpan(case_.projected[row])], "ct-total");
    return box;
  }

  function drawResult(case_, parent) {
    const box = html("section", { class: "ct-block" }, parent);
    const two = case_.heads.length === 2;
    html("p", { class: "ct-title" }, box, two ? "Results (one row per token): concatenated, then after W_O"
      : "Results (one row per token)");
    const list = html("ul", { class: "ct-lines" }, box);
    tokens().forEach((t, i) => {
      const parts = [tokenName(i), ": ", vecSpan(case_.out[i])];
      if (two) parts.push(" → ", vecSpan(case_.projected[i]));
      const li = line(list, parts);
      shown.marks.push((r) => li.classList.toggle("ct-row-on", i === r));
    });
    return box;
  }

  /** The index of the case on screen in data.text.states (flattened like the cases). */
  function stateIndex() {
    return ((seq * 2 + heads - 1) * 2 + (causal ? 1 : 0)) * 2 + (positions ? 1 : 0);
  }

  function draw() {
    drawControls();
    const case_ = current();
    if (!shown || shown.case_ !== case_) {
      // A new case: draw it whole (the controls above, which hold focus, stay).
      shown = { case_, marks: [], heads: [] };
      const parts = html("div", { class: "ct-parts" });
      drawInputs(case_, parts);
      drawTables(case_, parts);
      shown.result = drawResult(case_, parts);
      view.replaceChildren(parts);
      ctx.setText(data.text, stateIndex());
    }
    // The gathering row: mark it, and redraw only its arithmetic (nothing in it takes focus).
    for (const mark of shown.marks) mark(row);
    for (const box of shown.heads) box.remove();
    shown.heads = case_.heads.map((_, h) => drawHead(case_, h));
    if (case_.projected) shown.heads.push(drawProjection(case_));
    shown.result.before(...shown.heads);
  }

  return {};
}
