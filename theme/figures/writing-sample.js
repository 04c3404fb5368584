// writing-sample: chapter 14's model writes after the reader's prompt. The text is drawn a character
// per span (the prompt underlined); for the character picked (slider, arrow keys, or a tap on it),
// each head's weights over the characters that step read are drawn as a row per head: the last
// data.row_characters characters themselves, each tinted by its weight, after one cell for the
// weight on all those before; the head picked (its row is a button) tints the text itself; bars
// show the next characters it was drawn from; two bars compare the scores computed with the key-value cache and without it. The embedded default draws
// at once; Generate asks the worker for the reader's prompt and options, and the answer is written
// out a character at a time (Show all skips; none with reduced motion), then the figure is live.
// Where the reader has trained a model of their own (figure 14.1, kept in the browser), a choice
// says which model writes (data.text.models: the option `model`); choosing writes again with it.
import { kept, onChange } from "../js/reader-files.js";
import { askOnIntent, readerInput } from "../js/reader-input.js";
import { html, rangeControl } from "../js/svg.js";
import { fill, fillAll, scopeAt } from "../js/text.js";
import { weightBar } from "../js/weights.js";

const CHAR_MS = 30; // how fast an answer is written out, a character at a time

/** A character as the text shows it: a line break as ↵. */
const glyph = (c) => (c === "\n" ? "↵" : c);

export function mount(root, ctx) {
  let data = ctx.data;
  let k = ctx.opening(data.start, data.starts.length); // the character picked (a link may name another)
  let head = 0; // the head whose weights tint the text
  const id = ctx.figure.id;
  const parts = () => data.text.parts;

  const { input, status } = readerInput(root, {
    id: id + "-prompt", label: "Your prompt ", value: data.prompt, hint: data.text.hint, button: "Generate",
    attrs: { class: "code ws-prompt-box", maxlength: String(data.max_prompt), autocapitalize: "none" },
    onRead: (text) => generate(text),
  });

  const settings = html("div", { class: "figure-controls ws-settings" }, root);
  const setting = () => html("div", { class: "ws-setting" }, settings); // a control and its readout stay together
  const temperature = rangeControl(setting(), id + "-temperature", "Temperature ", {
    min: String(data.schema.temperature.lo), max: String(data.schema.temperature.hi),
    step: String(data.schema.temperature.step), value: String(data.params.temperature),
  });
  const topK = rangeControl(setting(), id + "-top-k", "Choose among ", {
    min: String(data.schema.top_k.lo), max: String(data.schema.top_k.hi),
    step: String(data.schema.top_k.step), value: String(data.params.top_k),
  });
  const number = (name, text) => {
    const label = html("label", { for: `${id}-${name}` }, setting(), text);
    const s = data.schema[name];
    return html("input", { id: `${id}-${name}`, type: "number", class: "ws-number", min: String(s.lo), max: String(s.hi),
                            step: String(s.step), value: String(data.params[name]), inputmode: "numeric" }, label);
  };
  const seed = number("seed", "Seed ");
  const length = number("length", "Characters ");

  // who writes: shown only while the reader keeps a model of their own
  const writer = html("fieldset", { class: "figure-controls ws-writer", hidden: "" }, root);
  html("legend", {}, writer, "Written by");
  const writers = Object.entries(data.text.models).map(([value, words]) => {
    const label = html("label", {}, writer);
    const radio = html("input", { type: "radio", name: id + "-writer", value }, label);
    radio.checked = value === data.params.model;
    label.append(" " + words);
    radio.addEventListener("change", () => generate(input.value));
    return radio;
  });
  const chosen = () => writers.find((r) => r.checked)?.value ?? "page";
  const showWriter = (file) => {
    writer.hidden = !file;
    if (file || chosen() === "page") return;
    writers.forEach((r) => { r.checked = r.value === "page"; }); // the reader forgot their model:
    generate(input.value); // what it wrote gives way to the page's model
  };
  const watch = onChange((name) => {
    if (!writer.isConnected) { watch(); return; } // this view was replaced (or its page left): its successor watches
    if (name === "reader-model") kept(name).then(showWriter);
  });
  kept("reader-model").then(showWriter);
  const showSettings = () => {
    temperature.output.textContent = fill(parts().temperature, { v: Number(temperature.input.value) });
    const kk = Number(topK.input.value);
    topK.output.textContent = kk === 0 ? parts().all : fill(parts().top_k, { v: kk });
  };
  temperature.input.addEventListener("input", showSettings);
  topK.input.addEventListener("input", showSettings);

  const textBox = html("p", { class: "ws-text" }, root);
  const controls = html("div", { class: "figure-controls" }, root);
  const slider = rangeControl(controls, id + "-character", "Character ",
    { max: String(data.starts.length - 1), value: String(k), "data-key-control": "ArrowLeft" });
  const skip = html("button", { type: "button", hidden: "" }, controls, "Show all");

  const heads = html("div", { class: "ws-heads", role: "group", "aria-label": "Heads: pick one to tint the text" }, root);
  let headButtons = []; // a row per head of the model that wrote (the reader's may have fewer than the page's)
  function buildHeads() {
    if (headButtons.length === data.text.heads.length) return;
    heads.replaceChildren();
    head = Math.min(head, data.text.heads.length - 1);
    headButtons = data.text.heads.map((label, h) => {
      const b = html("button", { type: "button", class: "ws-head", "aria-pressed": String(h === head) }, heads);
      const inside = html("span", { class: "ws-head-inside" }, b); // the button looks as site.css has it; this lays out its content
      html("span", { class: "ws-head-label" }, inside, label);
      const strip = html("span", { class: "ws-strip", "aria-hidden": "true" }, inside);
      const earlier = html("span", { class: "ws-cell ws-earlier" }, strip, "…"); // the weight on all it read before the row's
      b.addEventListener("click", () => { head = h; draw(); });
      return { button: b, strip, earlier };
    });
  }

  const next = html("div", { class: "ws-next" }, root);
  const nextRows = [];
  const cache = html("div", { class: "ws-cache" }, root);
  // with the cache, without it, and without it but skipping the masked scores: bars against the second
  const cacheRows = data.text.details.map(() => {
    const line = html("p", { class: "ws-cache-line" }, cache);
    return { line, bar: weightBar(html("div", { class: "ws-cache-bar" }, cache)) };
  });
  html("p", { class: "figure-hint" }, root, data.text.legend + " Tap a character to pick it.");

  let spans = []; // one per character of the text: the prompt's, then the written ones
  let chars = []; // the text's characters
  let shown = 0; // written characters on screen (all but while an answer is written out)
  function build() {
    buildHeads();
    chars = [...data.prompt, ...data.written];
    textBox.replaceChildren();
    spans = chars.map((c, j) => {
      const span = html("span", { class: j < data.prompt_length ? "ws-char ws-prompt" : "ws-char ws-written" },
                        textBox, glyph(c));
      if (c === "\n") span.append(document.createElement("br")); // inside the span: hidden with it while written out
      const i = j - data.prompt_length; // the state that wrote it
      // a mouse click; a touch picks as it lands (touchPick); the slider is the keyboard's way
      if (i >= 0) span.addEventListener("click", (e) => { if (e.pointerType === "mouse" || !e.pointerType) pick(i); });
      return span;
    });
    slider.input.max = String(data.starts.length - 1);
    const counts = [data.cached_scores, data.recomputed_scores, data.recomputed_allowed];
    cacheRows.forEach((row, r) => {
      row.line.textContent = data.text.details[r];
      row.bar(counts[r] / data.recomputed_scores, "");
    });
  }

  /** State i's weights, decoded from one character each: (layers * heads) rows of the window. */
  function weights(i) {
    const row = data.attention[i];
    const w = row.length / (data.layers * data.heads);
    return Array.from({ length: data.layers * data.heads }, (_, h) =>
      Array.from(row.slice(h * w, (h + 1) * w), (c) => data.alphabet.indexOf(c) / data.levels));
  }

  function draw() {
    const from = data.starts[k];
    const at = data.prompt_length + k; // the character written; the window is from..at-1
    const w = weights(k);
    spans.forEach((span, j) => {
      span.hidden = j >= data.prompt_length + shown;
      span.classList.toggle("ws-current", j === at);
      span.classList.toggle("ws-unread", j < from || j > at);
      span.style.setProperty("--w", String(j >= from && j < at ? w[head][j - from] : 0));
    });
    const read = chars.slice(from, at); // what this step read, oldest first: w[h][j] is on read[j]
    const first = Math.max(0, read.length - data.row_characters); // the row shows read[first..]
    headButtons.forEach(({ button, strip, earlier }, h) => {
      button.setAttribute("aria-pressed", String(h === head));
      while (strip.children.length - 1 < read.length - first) html("span", { class: "ws-cell" }, strip);
      while (strip.children.length - 1 > read.length - first) strip.lastChild.remove();
      earlier.hidden = first === 0;
      earlier.style.setProperty("--w", String(Math.min(1, w[h].slice(0, first).reduce((a, b) => a + b, 0))));
      [...strip.children].slice(1).forEach((cell, j) => {
        cell.textContent = glyph(read[first + j]);
        cell.style.setProperty("--w", String(w[h][first + j]));
      });
    });
    const top = data.top[k];
    while (nextRows.length < top.length) {
      const row = html("div", { class: "ws-next-row" }, next);
      nextRows.push({ row, name: html("span", { class: "ws-next-name" }, row), bar: weightBar(row),
                      drawn: html("span", { class: "ws-drawn-mark" }, row) });
    }
    const token = data.tokens[at];
    nextRows.forEach((r, j) => {
      r.row.hidden = j >= top.length;
      if (j >= top.length) return;
      r.name.textContent = data.names[top[j][0]];
      r.bar(top[j][1], fill(parts().bar, { v: top[j][1] }));
      r.row.classList.toggle("ws-drawn", top[j][0] === token);
      r.drawn.textContent = top[j][0] === token ? parts().drawn : "";
    });
    slider.input.value = String(k);
    slider.output.textContent = fill(parts().state, { v: k + 1 });
    ctx.setText({ numbers: [...fillAll(data.text.templates, scopeAt(data.text.scope, data, k)), ...data.text.fixed] }, k);
  }

  function show(i) {
    k = Math.max(0, Math.min(shown - 1, i));
    draw();
  }

  /** The reader picks character i: an answer being written out is shown whole first. */
  function pick(i) {
    if (writing !== null) finish();
    show(i);
  }

  slider.input.addEventListener("input", () => pick(Number(slider.input.value)));

  // A character is narrower than a finger: a touch picks the written character nearest to it (on a
  // touch screen each line is a 44 px band, writing-sample.css) as the finger lifts, and follows a
  // finger that slides along the text (touch-action: pan-y leaves that slide to us), so the finger
  // need not land on it exactly. A finger that scrolls the page instead picks nothing.
  let touch = null; // the finger on the text: its id, where it landed, whether it slides along
  textBox.addEventListener("pointerdown", (e) => {
    if (e.pointerType === "mouse") return; // a mouse clicks the character itself (build)
    textBox.setPointerCapture(e.pointerId);
    touch = { id: e.pointerId, x: e.clientX, sliding: false };
  });
  textBox.addEventListener("pointermove", (e) => {
    if (touch?.id !== e.pointerId) return;
    touch.sliding ||= Math.abs(e.clientX - touch.x) > 8; // past a tap's wobble
    if (touch.sliding) touchPick(e);
  });
  textBox.addEventListener("pointerup", (e) => { if (touch?.id === e.pointerId) touchPick(e); touch = null; });
  textBox.addEventListener("pointercancel", () => { touch = null; }); // the page scrolled

  /** Pick the written character nearest the pointer: on the nearest line, the nearest along it
   *  (a prompt character nearest: nothing, as a tap on the prompt does nothing). */
  function touchPick(e) {
    let best = null;
    for (const [j, span] of spans.entries()) {
      const r = span.getClientRects()[0];
      if (!r) continue; // hidden while an answer is written out
      const dy = Math.abs(r.top + r.height / 2 - e.clientY), dx = Math.abs(r.left + r.width / 2 - e.clientX);
      if (!best || dy < best.dy - 1 || (Math.abs(dy - best.dy) <= 1 && dx < best.dx)) best = { j, dy, dx };
    }
    const i = best ? best.j - data.prompt_length : -1;
    if (i >= 0 && i !== k) pick(i);
  }

  let writing = null; // the timer writing out an answer
  let done = null; // what to do once it is written out
  function finish() {
    clearInterval(writing);
    writing = null;
    skip.hidden = true;
    shown = data.starts.length;
    show(data.start);
    done?.();
    done = null;
  }
  skip.addEventListener("click", () => { if (writing !== null) { finish(); slider.input.focus(); } });

  function writeOut(then) {
    if (writing !== null) { clearInterval(writing); writing = null; }
    done = then;
    if (matchMedia("(prefers-reduced-motion: reduce)").matches) { finish(); return; }
    shown = 1;
    skip.hidden = false;
    show(0);
    writing = setInterval(() => {
      if (shown >= data.starts.length) { finish(); return; }
      shown++;
      show(shown - 1);
    }, CHAR_MS);
  }

  const options = () => {
    const clamp = (el, s) => {
      const v = Math.round(Number(el.value));
      el.value = String(Number.isFinite(v) && el.value !== "" ? Math.max(s.lo, Math.min(s.hi, v)) : s.default);
      return Number(el.value);
    };
    return { temperature: Number(temperature.input.value), top_k: Number(topK.input.value),
             seed: clamp(seed, data.schema.seed), length: clamp(length, data.schema.length), model: chosen() };
  };

  askOnIntent(ctx, data.params, input); // Python and the model load while the reader types

  let asked = 0; // the newest request; an older answer arriving after it is dropped
  async function generate(prompt) {
    const mine = ++asked;
    status.textContent = data.text.reading;
    const out = await ctx.request({ ...data.params, ...options(), prompt });
    if (mine !== asked) return;
    status.textContent = "";
    if (!out) return; // the note says why (the worker's reason for a prompt it cannot read); the figure keeps what it shows
    data = out;
    build();
    showSettings();
    writeOut(() => ctx.markLive());
  }

  build();
  showSettings();
  shown = data.starts.length;
  draw();
  return {};
}
