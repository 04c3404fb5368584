// sum-spread: a histogram of many sums of n random terms, with the measured standard deviation as a
// bracket either side of the mean and √n times one term's marked on the axis. The slider steps n through
// data.ns (every stop precomputed: state n - 1); the menu of terms and "Draw again" ask the worker for
// another kind of term or another seed. Bar k of n's histogram is centred at first[n - 1] + k * bin.
import { html, rangeControl, set, svg } from "../js/svg.js";
import { fill } from "../js/text.js";
import { linear } from "../js/scale.js";

const W = 320, H = 190, L = 10, R = 10, T = 34, B = 24; // the drawing's viewBox and margins

export function mount(root, ctx) {
  let data = ctx.data;
  let stop = ctx.opening(data.start);

  const controls = html("div", { class: "figure-controls" }, root);
  const { input: slider, output } = rangeControl(controls, ctx.figure.id + "-n", "Terms in each sum ",
    { max: data.ns.length - 1, value: stop, "data-key-control": "ArrowRight" });
  slider.addEventListener("input", () => { stop = Number(slider.value); update(); });
  const plot = html("div", { class: "figure-plot" }, root);
  const live = html("div", { class: "figure-controls" }, root);
  const termLabel = html("label", { for: ctx.figure.id + "-term", class: "ss-term" }, live, "One term: ");
  const term = html("select", { id: ctx.figure.id + "-term", class: "ss-choice" }, termLabel);
  for (const k of data.schema.term.choices) html("option", { value: k }, term, data.text.parts[k]);
  const again = html("button", { type: "button" }, live, "Draw again");
  html("p", { class: "figure-hint" }, root, data.text.legend);

  term.addEventListener("change", () => recompute({ term: term.value }));
  again.addEventListener("click", () => {
    const { lo, hi } = data.schema.seed;
    recompute({ seed: data.params.seed >= hi ? lo : data.params.seed + 1 });
  });

  async function recompute(change) {
    live.setAttribute("aria-busy", "true");
    again.disabled = true;
    const out = await ctx.request({ ...data.params, n: data.ns[stop], ...change });
    again.disabled = false;
    live.removeAttribute("aria-busy");
    if (out) {
      data = out;
      build();
      ctx.markLive();
    }
    update();
  }

  let view = null;
  build();
  update();

  /** The frame for this data: the x axis spans every sum of every n, so the bars widen as n grows. */
  function build() {
    const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img" });
    let reach = data.reach;
    data.counts.forEach((c, i) => { reach = Math.max(reach, Math.abs(data.first[i]) + data.bin, Math.abs(data.first[i] + (c.length) * data.bin)); });
    const sx = linear([-reach, reach], [L, W - R]);
    const base = H - B;
    svg("line", { x1: L, x2: W - R, y1: base, y2: base, class: "axis" }, s);
    const step = [1, 2, 5, 10, 20].find((t) => reach / t <= 4) || 50;
    for (let v = -Math.floor(reach / step) * step; v <= reach; v += step) {
      svg("line", { x1: sx(v), x2: sx(v), y1: base, y2: base + 4, class: "axis" }, s);
      svg("text", { x: sx(v), y: base + 16, class: "tick", "text-anchor": "middle" }, s).textContent = String(v);
    }
    const bars = svg("g", { class: "data ss-bars" }, s);
    const bracket = svg("g", { class: "ss-bracket" }, s);
    const line = svg("line", {}, bracket), ends = [svg("line", {}, bracket), svg("line", {}, bracket)];
    const label = svg("text", { y: 12, "text-anchor": "middle", class: "ss-label" }, s);
    const marks = [svg("path", { class: "ss-mark" }, s), svg("path", { class: "ss-mark" }, s)];
    plot.replaceChildren(s);
    view = { s, sx, base, bars, line, ends, label, marks };
  }

  function update() {
    const { s, sx, base, bars, line, ends, label, marks } = view;
    const counts = data.counts[stop], top = Math.max(...counts);
    const sy = linear([0, top], [base, T]);
    const bw = Math.max(1, sx(data.bin) - sx(0) - 1);
    const rects = [...bars.children];
    counts.forEach((c, k) => {
      const r = rects[k] || svg("rect", {}, bars);
      const x = data.first[stop] + k * data.bin;
      set(r, { x: sx(x) - bw / 2, width: bw, y: sy(c), height: base - sy(c) });
    });
    rects.slice(counts.length).forEach((r) => r.remove());
    const mean = data.mean[stop], std = data.std[stop], y = T - 10;
    set(line, { x1: sx(mean - std), x2: sx(mean + std), y1: y, y2: y });
    [mean - std, mean + std].forEach((x, k) => set(ends[k], { x1: sx(x), x2: sx(x), y1: y - 5, y2: y + 5 }));
    set(label, { x: sx(mean) });
    label.textContent = data.text.states[stop].label;
    const p = data.predicted[stop];
    [-p, p].forEach((x, k) => set(marks[k], { d: `M${sx(x)},${base} l-5,8 h10 z` }));
    slider.value = String(stop);
    term.value = data.term;
    output.textContent = fill(data.text.parts.n, { v: data.ns[stop] });
    slider.setAttribute("aria-valuetext", output.textContent);
    s.setAttribute("aria-label", data.text.states[stop].numbers[0]);
    ctx.setText(data.text, stop);
  }

  return {};
}
