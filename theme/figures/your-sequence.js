// your-sequence: the reader's letters through chapter 13's trained model. For the position the
// reader looks from, each layer-2 head's weights over the sequence (outlined: the letters after
// earlier copies of the current letter, which an induction head should read) and the model's
// top guesses for the next letter. The embedded default draws before Python; Read asks the
// worker for the reader's own letters, and a sequence the model cannot read gets the worker's
// one-line reason in the figure's note.
import { askOnIntent, readerInput } from "../js/reader-input.js";
import { html, rangeControl } from "../js/svg.js";
import { weightBar } from "../js/weights.js";

export function mount(root, ctx) {
  let data = ctx.data;
  let k = ctx.opening(data.start); // the position looking
  const id = ctx.figure.id;

  const { input, status } = readerInput(root, {
    id: id + "-letters", label: "Your letters ", value: data.sequence, hint: data.text.hint, onRead: read,
    attrs: { class: "code", autocapitalize: "characters", size: String(data.max_letters) },
  });

  const controls = html("div", { class: "figure-controls" }, root);
  const slider = rangeControl(controls, id + "-position", "Looking from ",
    { max: String(data.tokens.length - 1), value: String(k), "data-key-control": "ArrowLeft" });

  const strips = html("div", { class: "ys-strips" }, root);
  const guessBox = html("div", { class: "ys-guesses" }, root);
  html("p", { class: "ys-title" }, guessBox, "The model's guesses for the next letter");
  const guessRows = [];

  let chips = null; // chips[h][j], one strip per layer-2 head, rebuilt when the sequence changes
  let looking = null; // chips of the sequence strip, which pick the position looking
  function build() {
    strips.replaceChildren();
    const seqBox = html("div", { class: "ys-strip" }, strips);
    html("p", { class: "ys-title" }, seqBox, "The sequence (pick the letter that looks)");
    const seqRow = html("div", { class: "ys-row" }, seqBox);
    looking = data.tokens.map((t, j) => {
      const chip = html("span", { class: "ys-chip ys-pick" }, seqRow, t);
      chip.addEventListener("click", () => show(j)); // touch and mouse; the slider is the keyboard's way
      return chip;
    });
    chips = data.heads.map((_, h) => {
      const box = html("div", { class: "ys-strip" }, strips);
      html("p", { class: "ys-title" }, box, data.text.heads[h]);
      const row = html("div", { class: "ys-row", "aria-hidden": "true" }, box);
      return data.tokens.map((t) => { // the letter, and below it a column as tall as its weight
        const chip = html("span", { class: "ys-chip ys-weight" }, row, t);
        html("span", { class: "ys-fill" }, html("span", { class: "ys-track" }, chip));
        return chip;
      });
    });
    slider.input.max = String(data.tokens.length - 1);
  }

  function draw() {
    slider.input.value = String(k);
    slider.output.textContent = data.text.states[k].label;
    const copies = new Set(data.copies[k]);
    looking.forEach((c, j) => c.classList.toggle("ys-current", j === k));
    chips.forEach((row, h) => row.forEach((c, j) => {
      c.style.setProperty("--w", String(j <= k ? data.heads[h][k][j] : 0));
      c.classList.toggle("ys-copy", copies.has(j));
      c.classList.toggle("ys-future", j > k); // the causal mask: later letters are not read
    }));
    const g = data.guesses[k];
    while (guessRows.length < g.length) {
      const li = html("div", { class: "ys-guess" }, guessBox);
      guessRows.push({ letter: html("span", { class: "ys-letter" }, li), bar: weightBar(li) });
    }
    guessRows.forEach((r, i) => {
      r.letter.textContent = g[i][0];
      r.bar(g[i][1], g[i][2]);
    });
  }

  function show(i) {
    k = Math.max(0, Math.min(data.tokens.length - 1, i));
    draw();
    ctx.setText(data.text, k);
  }

  slider.input.addEventListener("input", () => show(Number(slider.input.value)));

  askOnIntent(ctx, data.params, input); // the first request trains the model: start it on intent

  let busy = false;
  async function read(text) {
    if (busy) return; // one request at a time; Read stays focusable (a disabled button would drop the focus)
    busy = true;
    status.textContent = data.text.reading;
    const out = await ctx.request({ ...data.params, sequence: text });
    busy = false;
    status.textContent = "";
    if (!out) return; // the note says why (the worker's reason for a sequence it cannot read); the figure keeps what it shows
    data = out;
    input.value = data.sequence;
    build();
    show(data.start);
    ctx.markLive();
  }

  build();
  draw();
  ctx.setText(data.text, k);
  return {};
}
