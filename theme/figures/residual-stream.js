// residual-stream: a two-layer decoder's streams, stage by stage. Choose a stage with its radio
// buttons (arrow keys move between them) or Back / Next; click, tap or focus a word (arrow keys
// step) to see what each stage wrote into its stream and what the readout would predict from it.
// Every (stage, word) pair is precomputed: state s * T + i of data.text.states. The DOM is built
// once and updated in place; bar sizes go through the CSSOM (the pages' CSP forbids inline styles).
import { html, radioGroup } from "../js/svg.js";
import { clampIndex, lineKeys } from "../js/keys.js";
import { fill } from "../js/text.js";

export function mount(root, ctx) {
  const data = ctx.data;
  const t = data.tokens.length;
  const nStages = data.stages.length;
  const opened = ctx.opening(data.start.stage * t + data.start.word); // state = stage * t + word; a link may name another
  let stage = Math.floor(opened / t);
  let word = opened % t;
  const id = ctx.figure.id;

  const radios = radioGroup(root, {
    name: id + "-stage", legend: "Stream after", labels: data.text.stages, checked: stage,
    className: "rs-stages", labelClass: "rs-stage-", onChange: (s) => { stage = s; update(); },
  });
  const nav = html("div", { class: "figure-controls rs-nav" }, root);
  const back = html("button", { type: "button", class: "rs-back" }, nav, "◀ Back");
  const next = html("button", { type: "button", class: "rs-next" }, nav, "Next ▶");
  back.addEventListener("click", () => { stage = clampIndex(stage - 1, nStages); update(); });
  next.addEventListener("click", () => { stage = clampIndex(stage + 1, nStages); update(); });

  const list = html("ol", { class: "rs-words", "aria-label": "Words; choose one to see its stream" }, root);
  const cols = data.tokens.map((tok, i) => {
    const li = html("li", {}, list);
    const b = html("button", { type: "button", class: "rs-word chip", "data-index": String(i) }, li);
    const stack = html("span", { class: "rs-stack", "aria-hidden": "true" }, b);
    const segs = data.stages.map((_, s) => {
      const seg = html("span", { class: "rs-seg rs-stage-" + s }, stack);
      seg.style.setProperty("--h", (100 * data.norms[s][i] / data.bar_max).toFixed(2) + "%");
      return seg;
    });
    html("span", { class: "rs-token" }, b, tok);
    const prev = html("span", { class: "rs-slot rs-prev" }, b);
    const nxt = html("span", { class: "rs-slot rs-next-slot" }, b);
    b.addEventListener("click", () => { word = i; update(); });
    b.addEventListener("pointerenter", (e) => { if (e.pointerType === "mouse") { word = i; update(); } });
    b.addEventListener("focus", () => { if (word !== i) { word = i; update(); } });
    lineKeys(b, (step) => {
      word = clampIndex(word + step, t);
      update();
      cols[word].b.focus();
    });
    return { b, segs, prev, nxt };
  });
  html("p", { class: "figure-hint rs-slot-note" }, root,
    "Under each word: the word its “previous” slot holds (↤) and the guess its “next” slot holds (↦).");

  const detail = html("div", { class: "rs-detail" }, root);
  const added = html("p", { class: "rs-added", "aria-live": "polite" }, detail);
  html("p", { class: "rs-read-title" }, detail, "Readout at the chosen word, if the stream stopped here:");
  const readout = html("ul", { class: "rs-readout" }, detail);
  const rows = data.words.map((w) => {
    const li = html("li", {}, readout);
    html("span", { class: "rs-rw" }, li, w);
    const bar = html("span", { class: "rs-rbar", "aria-hidden": "true" }, li);
    const fillEl = html("span", { class: "rs-rfill prediction" }, bar);
    const num = html("span", { class: "rs-rnum" }, li);
    return { li, fillEl, num };
  });
  html("p", { class: "figure-hint" }, root,
    "Choose a stage (arrow keys, or Back and Next) and a word (click, tap or arrow keys).");

  function slotLabel(entries, slot) {
    const e = entries.find((x) => x.slot === slot);
    return e ? e.label : "";
  }

  function update() {
    radios.forEach((r, k) => { r.checked = k === stage; });
    back.disabled = stage === 0;
    next.disabled = stage === nStages - 1;
    cols.forEach((c, i) => {
      c.b.setAttribute("aria-pressed", String(i === word));
      c.segs.forEach((seg, s) => {
        seg.classList.toggle("rs-off", s > stage);
        seg.classList.toggle("rs-now", s === stage);
      });
      const entries = data.streams[stage][i];
      const p = slotLabel(entries, "previous");
      const n = slotLabel(entries, "next");
      c.prev.textContent = p ? "↤ " + p : "";
      c.nxt.textContent = n ? "↦ " + n : "";
    });
    const probs = data.probs[stage][word];
    const top = data.top[stage][word];
    const even = data.even[stage][word];
    rows.forEach((r, w) => {
      r.fillEl.style.setProperty("--p", (100 * probs[w]).toFixed(1) + "%");
      r.num.textContent = fill(data.text.parts.prob, { v: probs[w] });
      r.li.classList.toggle("rs-top", !even && w === top);
    });
    const state = stage * t + word;
    added.textContent = data.text.states[state].label;
    ctx.setText(data.text, state);
  }

  update();
  return {};
}
