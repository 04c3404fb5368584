// tiled-attention: step through the engine's tiles (data.steps) with Previous/Next or the slider.
// The grid shows tiles already worked on, the current tile with its scores, the masked cells and the
// tiles still to come; beside it, each row of the current tile with its running max and sum, which
// are the model's text lines for the state (state i = steps[i]).
import { html, onResize, rangeControl, set, svg } from "../js/svg.js";

export function mount(root, ctx) {
  const data = ctx.data;
  const steps = data.steps;
  const n = data.tokens.length;
  let index = ctx.opening(data.start);

  const controls = html("div", { class: "figure-controls" }, root);
  const prev = html("button", { type: "button" }, controls, "Previous tile");
  const next = html("button", { type: "button" }, controls, "Next tile");
  const { input: slider, output: readout } = rangeControl(controls, ctx.figure.id + "-tile", "Tile ",
    { max: steps.length - 1, value: index, "data-key-control": "ArrowRight" });
  prev.addEventListener("click", () => go(index - 1));
  next.addEventListener("click", () => go(index + 1));
  slider.addEventListener("input", () => go(Number(slider.value)));

  const body = html("div", { class: "ta-body" }, root);
  const plot = html("div", { class: "figure-plot ta-plot" }, body);
  const rowsBox = html("ul", { class: "ta-rows", "aria-live": "polite" }, body);
  const s = svg("svg", { role: "img" }, plot);
  let cells = [], labels = [], frame = null, size = 0;
  onResize(body, (w) => { layout(w); update(); }); // the grid's own box follows its content

  function go(i) {
    index = Math.max(0, Math.min(steps.length - 1, i));
    update();
  }

  function layout(width) {
    size = Math.max(18, Math.min(42, Math.floor((Math.min(width, 420) - 34) / n)));
    const w = 30 + n * size + 4, h = 22 + n * size + 4;
    set(s, { width: w, height: h, viewBox: `0 0 ${w} ${h}` });
    s.replaceChildren();
    const g = svg("g", { transform: "translate(30,22)" }, s);
    data.tokens.forEach((t, i) => {
      svg("text", { x: i * size + size / 2, y: -7, class: "tick", "text-anchor": "middle" }, g).textContent = t;
      svg("text", { x: -5, y: i * size + size / 2 + 4, class: "tick", "text-anchor": "end" }, g).textContent = t;
    });
    cells = [];
    labels = [];
    for (let i = 0; i < n; i++) {
      cells.push([]);
      labels.push([]);
      for (let j = 0; j < n; j++) {
        cells[i].push(svg("rect", { x: j * size, y: i * size, width: size - 1, height: size - 1 }, g));
        labels[i].push(svg("text", { x: j * size + size / 2, y: i * size + size / 2 + 3, class: "ta-score",
          "text-anchor": "middle" }, g));
      }
    }
    frame = svg("rect", { class: "ta-frame" }, g);
  }

  function update() {
    const cur = steps[index];
    const done = new Set();
    steps.slice(0, index).forEach((st) => {
      for (let i = st.rows[0]; i < st.rows[1]; i++) for (let j = st.cols[0]; j < st.cols[1]; j++) done.add(i * n + j);
    });
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const inTile = i >= cur.rows[0] && i < cur.rows[1] && j >= cur.cols[0] && j < cur.cols[1];
      const cls = data.masked[i][j] ? "ta-masked" : inTile ? "ta-current" : done.has(i * n + j) ? "ta-done" : "ta-todo";
      set(cells[i][j], { class: cls });
      labels[i][j].textContent = inTile && size >= 30 ? cur.scores[i - cur.rows[0]][j - cur.cols[0]] : "";
    }
    set(frame, { x: cur.cols[0] * size - 1, y: cur.rows[0] * size - 1, width: (cur.cols[1] - cur.cols[0]) * size + 1,
      height: (cur.rows[1] - cur.rows[0]) * size + 1 });
    const state = data.text.states[index];
    const last = index === steps.length - 1 ? data.text.fixed : []; // the check against plain attention, at the end
    rowsBox.replaceChildren(...state.numbers.slice(1).concat(last).map((line) => html("li", {}, null, line)));
    slider.value = String(index);
    slider.setAttribute("aria-valuetext", data.readouts[index]);
    readout.textContent = data.readouts[index];
    prev.disabled = index === 0;
    next.disabled = index === steps.length - 1;
    set(s, { "aria-label": state.label });
    ctx.setText(data.text, index);
  }

  return {};
}
