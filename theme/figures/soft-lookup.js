// soft-lookup: the query "cat" against a few dictionary keys, hard or soft. Both modes are in
// the embedded data; a mode button swaps them and the weight bars glide to the new widths
// (a CSS transition, so the view computes nothing). Hovering, tapping or focusing a key
// shows which letter pairs it shares with the query, and so its score.
import { fmt, html, setNumbers } from "../js/svg.js";

const MODES = { hard: "Hard lookup", soft: "Soft lookup" };

export function mount(root, ctx) {
  const data = ctx.data;
  const entries = data.entries;
  let mode = data.mode;
  let picked = -1;

  const controls = html("div", { class: "figure-controls", role: "group", "aria-label": "Kind of lookup" }, root);
  const buttons = {};
  for (const [m, label] of Object.entries(MODES)) {
    buttons[m] = html("button", { type: "button", class: "sl-mode" }, controls, label);
    buttons[m].addEventListener("click", () => setMode(m));
  }
  // The mode the figure does not open in: Enter on it switches and starts the transition.
  buttons[mode === "hard" ? "soft" : "hard"].setAttribute("data-key-control", "Enter");

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
    const key = html("button", { type: "button", class: "sl-key", "aria-describedby": detailId }, table);
    html("span", { class: "sl-key-word" }, key, e.key);
    const chips = html("span", { class: "sl-chips", "aria-hidden": "true" }, key);
    const shared = [...e.shared];
    for (const b of e.bigrams) {
      const at = shared.indexOf(b);
      if (at >= 0) shared.splice(at, 1);
      html("span", { class: "sl-chip" + (at >= 0 ? " sl-chip-shared" : "") }, chips, b);
    }
    for (const type of ["pointerenter", "focus", "click"]) key.addEventListener(type, () => pick(i));
    const bar = html("div", { class: "sl-bar" }, table);
    const fill = html("div", { class: "sl-fill" }, bar);
    const weight = html("span", { class: "sl-weight" }, bar);
    const value = html("div", { class: "sl-value" }, table, e.value);
    return { key, fill, weight, value };
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
    rows.forEach((r, i) => r.key.classList.toggle("sl-picked", i === picked));
    if (picked < 0) {
      detail.textContent = "Point at a key, tap it or Tab to it to read its score.";
      return;
    }
    const e = entries[picked];
    const pairs = e.shared.length ? " (" + e.shared.join(", ") + ")" : "";
    detail.textContent = `${e.key} shares ${e.score} of the ${data.query_bigrams.length} letter pairs of ` +
      `${data.query}${pairs}: score ${e.score}, weight ${fmt(e.soft)} in the soft lookup, ` +
      `${fmt(e.hard, 0)} in the hard one.`;
  }

  function draw() {
    for (const [m, b] of Object.entries(buttons)) b.setAttribute("aria-pressed", String(m === mode));
    ctx.figure.querySelector(".figure-view").dataset.mode = mode;
    rows.forEach((r, i) => {
      const w = entries[i][mode];
      r.fill.style.width = (100 * w).toFixed(1) + "%";
      r.weight.textContent = mode === "hard" ? fmt(w, 0) : fmt(w);
      r.value.classList.toggle("sl-value-off", w === 0);
    });
    if (mode === "hard") {
      const hit = entries.find((e) => e.hard === 1);
      output.textContent = hit
        ? `Result: the value of ${hit.key} and nothing else: “${hit.value}”.`
        : `Result: nothing, since no key is exactly ${data.query}.`;
    } else {
      const parts = [...entries].sort((a, b) => b.soft - a.soft).map((e) => `${fmt(e.soft)} of ${e.key}`);
      output.textContent = "Result: a blend of every value, " + parts.join(", ") + ".";
    }
    drawDetail();
    setNumbers(ctx.numbers, [
      `Scores (letter pairs shared with ${data.query}): ` + entries.map((e) => `${e.key} ${e.score}`).join(", "),
      "Hard lookup weights: " + entries.map((e) => `${e.key} ${fmt(e.hard, 0)}`).join(", "),
      "Soft lookup weights: " + entries.map((e) => `${e.key} ${fmt(e.soft)}`).join(", "),
    ]);
  }

  draw();
  return {};
}
