// soft-lookup: the query "cat" against a few dictionary keys, hard or soft. Both modes are in
// the embedded data; a mode button swaps them and the weight bars glide to the new widths
// (a CSS transition, so the view computes nothing). Hovering, tapping or focusing a key
// shows which letter pairs it shares with the query, and so its score. Every sentence with a
// number is the model's: data.text.states (indexed like modes) for the result, text.details
// (indexed like entries) for a key's line, text.fixed for the key numbers, text.parts[mode] for
// a weight's label.
import { weightBar } from "../js/weights.js";
import { html } from "../js/svg.js";
import { fill } from "../js/text.js";

export function mount(root, ctx) {
  const data = ctx.data;
  const entries = data.entries;
  let mode = data.modes[ctx.opening(data.modes.indexOf(data.mode))]; // a link may name the other
  let picked = -1;

  const controls = html("div", { class: "figure-controls", role: "group", "aria-label": "Kind of lookup" }, root);
  const buttons = {};
  for (const m of data.modes) { // the model's modes: "hard", "soft"
    buttons[m] = html("button", { type: "button", class: "sl-mode" }, controls, m[0].toUpperCase() + m.slice(1) + " lookup");
    buttons[m].addEventListener("click", () => setMode(m));
  }
  // The mode the figure does not open in: Enter on it switches and starts the transition.
  buttons[data.modes.find((m) => m !== mode)].setAttribute("data-key-control", "Enter");

  const query = html("p", { class: "sl-query" }, root);
  query.append("Query ");
  html("strong", { class: "sl-query-word" }, query, data.query);
  query.append(": letter pairs ");
  for (const b of data.query_bigrams) html("span", { class: "sl-chip sl-chip-query" }, query, b);

  const table = html("div", { class: "sl-table" }, root);
  for (const h of ["key", "weight", "value"]) html("div", { class: "sl-head", "aria-hidden": "true" }, table, h);
  const detailId = ctx.figure.id + "-detail";
  const rows = entries.map((e, i) => {
    // Named by its word; focusing it fills the detail line, which describes it (score, shared pairs).
    const key = html("button", { type: "button", class: "sl-key chip chip-line", "aria-describedby": detailId }, table);
    html("span", { class: "sl-key-word" }, key, e.key);
    const chips = html("span", { class: "sl-chips", "aria-hidden": "true" }, key);
    const shared = [...e.shared];
    for (const b of e.bigrams) {
      const at = shared.indexOf(b);
      if (at >= 0) shared.splice(at, 1);
      html("span", { class: "sl-chip" + (at >= 0 ? " sl-chip-shared" : "") }, chips, b);
    }
    for (const type of ["pointerenter", "focus", "click"]) key.addEventListener(type, () => pick(i));
    const weight = weightBar(html("div", { class: "sl-bar" }, table), { inside: true });
    const value = html("div", { class: "sl-value" }, table, e.value);
    return { key, weight, value };
  });
  const detail = html("p", { class: "sl-detail", id: detailId, "aria-live": "polite" }, root);
  const output = html("p", { class: "sl-output", "aria-live": "polite" }, root);

  function setMode(m) {
    if (m === mode) return;
    mode = m;
    draw();
  }

  function pick(i) {
    if (i === picked) return;
    picked = i;
    drawDetail();
  }

  function drawDetail() {
    rows.forEach((r, i) => r.key.setAttribute("aria-pressed", String(i === picked)));
    detail.textContent = picked < 0 ? "Point at a key, tap it or Tab to it to read its score."
      : data.text.details[picked];
  }

  function draw() {
    for (const [m, b] of Object.entries(buttons)) b.setAttribute("aria-pressed", String(m === mode));
    ctx.figure.querySelector(".figure-view").dataset.mode = mode;
    rows.forEach((r, i) => {
      const w = entries[i][mode];
      r.weight(w, fill(data.text.parts[mode], { v: w })); // the mode's decimals, from the model
      r.value.classList.toggle("sl-value-off", w === 0);
    });
    const state = data.modes.indexOf(mode);
    output.textContent = data.text.states[state].label;
    drawDetail();
    ctx.setText(data.text, state);
  }

  draw();
  return {};
}
