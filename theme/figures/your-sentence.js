// your-sentence: the reader's own sentence through chapter 9's trained model. One menu per place
// of the grammar (or a typed sentence) chooses the words; both heads' weights are drawn as
// two-heads draws them, and a table says what both readouts name for every word. The embedded
// default draws before Python; a new sentence is asked of the worker (the newest answer wins), and
// one the grammar refuses gets the worker's one-line reason in the figure's note. Menus, text box
// and slider are built once, so the focus stays where the reader left it whatever is redrawn.
import { askOnIntent, readerInput } from "../js/reader-input.js";
import { html, rangeControl } from "../js/svg.js";
import { headTable } from "../js/weights.js";

export function mount(root, ctx) {
  let data = ctx.data;
  let k = ctx.opening(data.start); // the word looking
  const id = ctx.figure.id;

  const menuBox = html("div", { class: "ysn-menus", role: "group", "aria-label": "Your sentence, word by word" }, root);
  const selects = data.menus.map((m) => {
    const label = html("label", { class: "ysn-menu" }, menuBox);
    html("span", { class: "ysn-kind", "aria-hidden": "true" }, label, m.kind);
    const select = html("select", { "aria-label": m.label }, label);
    if (m.none !== null) html("option", { value: "-1" }, select, m.none);
    m.words.forEach((w, i) => html("option", { value: String(i) }, select, w));
    select.addEventListener("change", () => read(fromMenus()));
    return select;
  });

  const { input, status } = readerInput(root, {
    id: id + "-sentence", label: "Or type one ", value: data.sentence, hint: data.text.hint,
    attrs: { class: "ysn-text", autocapitalize: "none" }, onRead: (text) => read(text),
  });

  const controls = html("div", { class: "figure-controls" }, root);
  const slider = rangeControl(controls, id + "-word", "Word looking ",
    { max: String(data.words.length - 1), value: String(k), "data-key-control": "ArrowLeft" });
  const heads = html("div", { class: "th-heads" }, root);
  const readouts = html("table", { class: "ysn-readouts" }, root);
  html("p", { class: "figure-hint" }, root, `${data.text.legend} Tap a word to look from it.`);

  let grids = []; // per head, headTable's parts; rebuilt with the readouts' rows when the sentence changes
  let rows = [];
  function build() {
    heads.replaceChildren();
    grids = data.heads.map((_, h) => headTable(heads, data.words, data.targets, h));
    grids.forEach((g) => g.rowHeads.forEach((th, i) => {
      th.classList.add("ysn-pick");
      th.addEventListener("click", () => show(i)); // touch and mouse; the slider is the keyboard's way
    }));
    readouts.replaceChildren();
    const head = html("tr", {}, html("thead", {}, readouts));
    data.columns.forEach((c) => html("th", { scope: "col" }, head, c));
    const body = html("tbody", {}, readouts);
    rows = data.words.map((w, i) => {
      const tr = html("tr", { class: "ysn-pick" }, body);
      html("th", { scope: "row" }, tr, w);
      for (const t of ["attached", "previous"]) {
        html("td", { class: data.right[t][i] ? "" : "ysn-wrong" }, tr, data.text.cells[t][i]);
      }
      tr.addEventListener("click", () => show(i));
      return tr;
    });
    grids.forEach((g, h) => g.cells.forEach((row, i) => row.forEach((cell, j) => {
      cell.style.setProperty("--w", String(data.heads[h][i][j]));
    })));
    slider.input.max = String(data.words.length - 1);
  }

  function show(i) {
    k = Math.max(0, Math.min(data.words.length - 1, i));
    slider.input.value = String(k);
    slider.output.textContent = data.text.states[k].label;
    grids.forEach((g) => g.rowHeads.forEach((th, j) => th.classList.toggle("ysn-current", j === k)));
    rows.forEach((tr, j) => tr.classList.toggle("ysn-current", j === k));
    ctx.setText(data.text, k);
  }

  function setMenus() {
    selects.forEach((s, slot) => { s.value = String(data.chosen[slot]); });
  }

  function fromMenus() {
    return selects.map((s, slot) => (s.value === "-1" ? null : data.menus[slot].words[Number(s.value)]))
      .filter((w) => w !== null).join(" ");
  }

  slider.input.addEventListener("input", () => show(Number(slider.input.value)));

  askOnIntent(ctx, data.params, menuBox, input); // the first request trains the model: start it on intent

  let asked = 0; // the newest request; an older answer arriving after it is dropped
  async function read(sentence) {
    const mine = ++asked;
    status.textContent = data.text.reading;
    const out = await ctx.request({ ...data.params, sentence });
    if (mine !== asked) return;
    status.textContent = "";
    if (!out) { setMenus(); return; } // the note says why; the menus show the sentence drawn, the typed text stays
    const slot = data.slots[k]; // keep looking from the same place of the grammar
    data = out;
    input.value = data.sentence;
    setMenus();
    const same = data.slots.findIndex((s) => s >= slot);
    build();
    show(same < 0 ? data.words.length - 1 : same);
    ctx.markLive();
  }

  setMenus();
  build();
  show(k);
  return {};
}
