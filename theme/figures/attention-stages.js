// attention-stages: one head's raw scores QKᵀ, scaled scores QKᵀ/√d and softmax weights as n×n grids,
// at any of the trained model's saved checkpoints (engine/figures/attention_stages.py precomputes them
// all; the view only looks numbers up and fills the model's templates).
// Wide figure: the grid sticks beside the stage paragraphs (text.stages); scrolling them past the
// middle of the screen picks the stage (IntersectionObserver), and so does where a scroll ends (a
// jump may carry them past unseen), as do Back and Next. Narrow figure:
// all three stages stacked, each under its paragraph (as the static fallback draws them).
// A click or tap on a row (or Tab to its word, arrow keys to move) selects it; the training slider
// replays the checkpoints; the key numbers are the selected row's at the checkpoint shown.
import { gridKeys } from "../js/keys.js";
import { html, onResize, rangeControl, WIDE } from "../js/svg.js";
import { fill, fillAll, scopeAt } from "../js/text.js";


export function mount(root, ctx) {
  const data = ctx.data;
  const { words, stages: keys } = data;
  const n = words.length;
  const { stages, parts, templates } = data.text;
  const last = data.steps.length - 1;
  let { checkpoint, stage, row } = data.start;
  const opened = ctx.opening(checkpoint * n + row, data.steps.length * n); // state checkpoint * n + row; a link may name another
  [checkpoint, row] = [Math.floor(opened / n), opened % n];
  let wide = null;
  const id = ctx.figure.id;
  root.classList.add("as-root");

  // --- controls: the training slider, and Back/Next through the stages (wide only) ----------------
  const controls = html("div", { class: "figure-controls as-controls" });
  const { input: slider, output: stepOut } = rangeControl(controls, id + "-step", "Training ",
    { max: last, value: checkpoint, "data-key-control": "ArrowLeft" });
  const back = html("button", { type: "button", class: "as-stepper" }, controls, "Back");
  const next = html("button", { type: "button", class: "as-stepper" }, controls, "Next");
  const stageOut = html("output", { class: "as-stage-name as-stepper" }, controls);
  const summary = html("p", { class: "as-summary", "aria-live": "polite" });

  // --- wide: a sticky grid beside the paragraphs ---------------------------------------------------
  const scrolly = html("div", { class: "as-scrolly" }, root);
  const sticky = html("div", { class: "as-sticky" }, scrolly);
  const wideGrid = grid(sticky, null);
  const steps = html("ol", { class: "as-steps" }, scrolly);
  const stepItems = [];
  const stepParas = stages.map((s, i) => {
    const li = html("li", { class: "as-step" }, steps);
    stepItems.push(li);
    return paragraph(li, s, i);
  });

  // --- narrow: every stage stacked ----------------------------------------------------------------
  const stack = html("div", { class: "as-stack" }, root);
  const stackGrids = stages.map((s, i) => {
    const section = html("section", { class: "as-block" }, stack);
    paragraph(section, s, i);
    return grid(section, i);
  });
  html("p", { class: "figure-hint" }, root,
    "Click or tap a row, or Tab to its word (arrow keys move); the slider replays training.");

  function paragraph(parent, s, i) {
    const p = html("p", { class: "as-para" }, parent);
    html("strong", {}, p, `${i + 1}. ${s.title}. `);
    p.append(s.text);
    return p;
  }

  /** An n×n table for stage `fixedStage` (null: whichever stage is picked); updated in place. */
  function grid(parent, fixedStage) {
    const box = html("div", { class: "as-grid-box" }, parent);
    const table = html("table", { class: "as-grid" }, box);
    const caption = html("caption", {}, table);
    const hr = html("tr", {}, html("thead", {}, table));
    html("td", {}, hr);
    for (const w of words) html("th", { scope: "col" }, hr, w);
    const body = html("tbody", {}, table);
    const rows = [], buttons = [], cells = [];
    words.forEach((w, i) => {
      const tr = html("tr", {}, body);
      const th = html("th", { scope: "row" }, tr);
      const b = html("button", { type: "button", class: "as-word chip", "aria-pressed": "false",
        "aria-label": `row of ${w} (word ${i + 1})` }, th, w);
      b.addEventListener("click", () => select(i));
      gridKeys(b, (dx, dy) => { select((row + dx - dy + n) % n); buttons[row].focus(); });
      tr.addEventListener("click", (e) => { if (e.target.tagName === "TD") select(i); });
      rows.push(tr); buttons.push(b);
      cells.push(words.map(() => html("td", { class: "as-cell" }, tr)));
    });
    const readout = html("p", { class: "as-readout" }, box);
    return { fixedStage, caption, rows, buttons, cells, readout };
  }

  function drawGrid(gr, lines) {
    const s = gr.fixedStage ?? stage;
    const key = keys[s], values = data.grids[checkpoint][s], extent = data.extent[s];
    gr.caption.textContent = `${stages[s].title}, ${fill(parts.step, { v: data.steps[checkpoint] })}`;
    gr.rows.forEach((tr, i) => {
      tr.classList.toggle("as-selected", i === row);
      gr.buttons[i].setAttribute("aria-pressed", String(i === row));
      gr.cells[i].forEach((td, j) => {
        const v = values[i][j];
        td.textContent = fill(parts[key], { v });
        td.className = "as-cell " + (key === "weights" ? "as-weight" : v < 0 ? "as-neg" : "as-pos");
        td.style.setProperty("--s", String(Math.min(1, Math.abs(v) / extent)));
      });
    });
    gr.readout.textContent = lines[s + 1];
  }

  function draw() {
    const lines = fillAll(templates, scopeAt(data.text.scope, data, checkpoint * n + row));
    slider.value = String(checkpoint);
    const stepText = fill(parts.step, { v: data.steps[checkpoint] });
    stepOut.textContent = stepText;
    slider.setAttribute("aria-valuetext", stepText);
    stageOut.textContent = `${stage + 1} of ${stages.length}: ${stages[stage].title}`;
    back.disabled = stage === 0;
    next.disabled = stage === stages.length - 1;
    stepItems.forEach((li, i) => li.classList.toggle("as-active", i === stage));
    summary.textContent = lines[0];
    drawGrid(wideGrid, lines);
    stackGrids.forEach((g) => drawGrid(g, lines));
    ctx.setText({ numbers: lines }, checkpoint * n + row);
  }

  function select(i) {
    if (i === row) return;
    row = i;
    draw();
  }

  function setStage(s, scroll = false) {
    s = Math.max(0, Math.min(stages.length - 1, s));
    if (scroll && wide) stepItems[s].scrollIntoView({ block: "center", behavior: "instant" });
    if (s === stage) return;
    stage = s;
    draw();
  }

  slider.addEventListener("input", () => { checkpoint = Number(slider.value); draw(); });
  back.addEventListener("click", () => setStage(stage - 1, true));
  next.addEventListener("click", () => setStage(stage + 1, true));

  // A stage's paragraph crossing the middle line of the screen picks it (wide layout only): the
  // paragraph, not its taller step box, whose edge reaches the middle long before the words do.
  const observer = new IntersectionObserver((entries) => {
    if (!wide) return;
    for (const e of entries) if (e.isIntersecting) setStage(stepParas.indexOf(e.target));
  }, { rootMargin: "-50% 0px -50% 0px" });
  stepParas.forEach((p) => observer.observe(p));

  // A scroll can carry paragraphs over the middle line between two frames (a scrollbar drag,
  // PageDown, find-in-page, a jump to an anchor, scrollTo), where no crossing is seen: where it ends,
  // with the middle line among the steps, the stage is the one read there, the last paragraph whose
  // top has reached the line (the first if none has), as a crossing would have picked it.
  function settle() {
    if (!wide) return;
    const middle = innerHeight / 2;
    const { top, bottom } = steps.getBoundingClientRect();
    if (middle < top || middle > bottom) return;
    let s = 0;
    stepParas.forEach((p, i) => { if (p.getBoundingClientRect().top <= middle) s = i; });
    setStage(s);
  }
  // The end of a scroll: scrollend where the browser has it; elsewhere the first frame with no
  // scroll event since the frame before. Heard only while the figure is near the screen.
  const END = "onscrollend" in window ? "scrollend" : "scroll";
  let frame = 0, moved = false;
  const tick = () => {
    if (moved) { moved = false; frame = requestAnimationFrame(tick); }
    else { frame = 0; settle(); }
  };
  const onEnd = END === "scrollend" ? settle : () => { moved = true; frame ||= requestAnimationFrame(tick); };

  function layout(w) {
    const isWide = w >= WIDE;
    if (isWide === wide) return;
    wide = isWide;
    root.classList.toggle("as-wide", wide);
    for (const el of controls.querySelectorAll(".as-stepper")) el.hidden = !wide;
    if (wide) sticky.prepend(controls, summary);
    else root.prepend(controls, summary);
  }

  onResize(root, layout);
  draw();
  return {
    // A jump onto the figure may end before it is heard as near: where it landed counts too.
    onscreen() { addEventListener(END, onEnd, { passive: true }); settle(); },
    offscreen() { removeEventListener(END, onEnd); cancelAnimationFrame(frame); frame = 0; },
  };
}
