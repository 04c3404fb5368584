// head-types: three hand-built heads (previous-word, same-word, induction) on one sentence.
// Choose a head with its radio buttons (arrow keys move between them); point at, tap or focus a
// token chip, or step with the arrow keys, to see where that token looks under the chosen head.
// Every (head, token) pair is precomputed: state h * T + i of data.text.states. Chips are built once
// and updated in place; bar heights go through the CSSOM (the pages' CSP forbids inline styles).
import { html, radioGroup } from "../js/svg.js";
import { clampIndex, lineKeys } from "../js/keys.js";
import { fill } from "../js/text.js";

export function mount(root, ctx) {
  const data = ctx.data;
  const t = data.tokens.length;
  const opened = ctx.opening(data.start.head * t + data.start.row); // state = head * t + row; a link may name another
  let head = Math.floor(opened / t);
  let row = opened % t;
  const id = ctx.figure.id;

  const radios = radioGroup(root, {
    name: id + "-head", legend: "Head", labels: data.text.heads, checked: head,
    className: "ht-heads", onChange: (h) => { head = h; update(); },
  });

  const list = html("ol", { class: "ht-chips", "aria-label": "Tokens; choose the one that looks" }, root);
  const space = data.text.space; // the model's mark for a leading space, and its name
  const chips = data.chips.map((chip, i) => {
    const li = html("li", {}, list);
    const b = html("button", { type: "button", class: "ht-chip chip", "data-index": String(i) }, li);
    const word = html("span", { class: "ht-word" }, b);
    // A leading space is shown as a mark of its own, so "The" and "·the" read as different tokens.
    const spaced = chip.startsWith(space.mark);
    if (spaced) html("span", { class: "ht-space", title: space.name }, word, space.mark);
    word.append(spaced ? chip.slice(space.mark.length) : chip);
    const bar = html("span", { class: "ht-bar", "aria-hidden": "true" }, b);
    const fillEl = html("span", { class: "ht-fill" }, bar);
    const num = html("span", { class: "ht-num" }, b);
    const wrote = html("span", { class: "ht-wrote" }, b, data.written_chip[i]);
    b.addEventListener("click", () => { row = i; update(); });
    b.addEventListener("pointerenter", (e) => { if (e.pointerType === "mouse") { row = i; update(); } });
    b.addEventListener("focus", () => { if (row !== i) { row = i; update(); } });
    lineKeys(b, (step) => {
      row = clampIndex(row + step, t);
      update();
      chips[row].b.focus();
    });
    return { b, fillEl, num, wrote };
  });
  const wroteNote = html("p", { class: "figure-hint ht-wrote-note" }, root,
    "Under each token, in grey: the token layer 1’s previous-word head wrote there, which the induction head’s keys read.");
  const verdict = html("p", { class: "ht-verdict", "aria-live": "polite" }, root);
  html("p", { class: "figure-hint" }, root,
    "Point at, tap or tab to a token (arrow keys step) to see where it looks; later tokens are masked.");

  function update() {
    const h = data.heads[head];
    const w = h.weights[row];
    const targets = new Set(h.targets[row]);
    radios.forEach((r, k) => { r.checked = k === head; });
    chips.forEach((c, j) => {
      const masked = j > row;
      c.b.classList.toggle("chip-target", targets.has(j));
      c.b.classList.toggle("chip-masked", masked);
      c.b.setAttribute("aria-pressed", String(j === row));
      c.fillEl.style.setProperty("--w", (100 * w[j]).toFixed(1) + "%");
      c.num.textContent = masked ? "" : fill(data.text.parts.weight, { v: w[j] });
      c.wrote.hidden = h.name !== "induction";
    });
    wroteNote.hidden = h.name !== "induction";
    const state = head * t + row;
    verdict.textContent = data.text.states[state].label;
    ctx.setText(data.text, state);
  }

  update();
  return {};
}
