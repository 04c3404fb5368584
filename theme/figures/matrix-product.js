// matrix-product: one bar per word, its softmax weight at the sharpness the slider sets. The slider steps
// through data.sharpnesses (keyboard, mouse and touch, as any range input); every stop is
// precomputed by the model: stop i is state i of data.text.states.
import { html, rangeControl, set, svg } from "../js/svg.js";
import { fill } from "../js/text.js";

const W = 300, H = 150, TOP = 18, BOTTOM = 20; // the drawing's viewBox: it scales to the column

export function mount(root, ctx) {
  const data = ctx.data;
  const n = data.labels.length;
  let stop = data.start;

  const controls = html("div", { class: "figure-controls" }, root);
  const { input: slider, output } = rangeControl(controls, ctx.figure.id + "-sharpness", "Sharpness ",
    { max: data.sharpnesses.length - 1, value: stop, "data-key-control": "ArrowRight" });
  slider.addEventListener("input", () => { stop = Number(slider.value); update(); });

  const plot = html("div", { class: "figure-plot" }, root);
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img" }, plot);
  const band = W / n;
  const bars = data.labels.map((label, j) => {
    const x = j * band + band / 2;
    const rect = svg("rect", { class: "prediction", x: x - band * 0.3, width: band * 0.6 }, s);
    const value = svg("text", { class: "value", x, "text-anchor": "middle" }, s);
    svg("text", { class: "tick", x, y: H - 5, "text-anchor": "middle" }, s).textContent = label;
    return { rect, value };
  });

  function update() {
    const weights = data.weights[stop];
    slider.value = String(stop);
    output.textContent = fill(data.text.parts.sharpness, { v: data.sharpnesses[stop] });
    bars.forEach((b, j) => {
      const h = weights[j] * (H - TOP - BOTTOM);
      set(b.rect, { y: H - BOTTOM - h, height: h });
      set(b.value, { y: H - BOTTOM - h - 4 });
      b.value.textContent = fill(data.text.parts.weight, { v: weights[j] });
    });
    s.setAttribute("aria-label", data.text.states[stop].numbers[0]);
    ctx.setText(data.text, stop);
  }

  update();
  return {};
}
