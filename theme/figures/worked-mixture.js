// worked-mixture: one head's whole calculation at one position, printed step by step from the
// engine's numbers (dot products term by term, exponentials, total, weights, weighted sum of
// values), beside a plot of the values and the mixture. A radio pair switches between two heads.
// Both heads are in the embedded data, so switching needs no Python: both are drawn once and
// the radios show one or the other. The plot's label and the key numbers are the model's text.
import { linear, ticks } from "../js/scale.js";
import { fmt, html, svg } from "../js/svg.js";

const DIGITS = 4;
// Given numbers (query, keys, values) print as written when whole; computed ones with 4 decimals.
const given = (x) => (Number.isInteger(x) ? String(x) : fmt(x, DIGITS));
const num = (x) => fmt(x, DIGITS);
const vec = (v, f = given) => "(" + v.map(f).join(", ") + ")";

export function mount(root, ctx) {
  const data = ctx.data;
  const labels = data.labels;
  let shown = data.start;

  const controls = html("fieldset", { class: "figure-controls worked-mixture-heads" }, root);
  html("legend", {}, controls, "Show");
  const radios = data.heads.map((head, h) => {
    const label = html("label", {}, controls);
    const input = html("input", { type: "radio", name: ctx.figure.id + "-head", value: h }, label);
    label.append(` head ${h + 1}`);
    input.checked = h === shown;
    input.addEventListener("change", () => { if (input.checked) { shown = h; draw(); } });
    return input;
  });
  // The checked radio answers ArrowRight (or ArrowDown) by selecting and showing the other head.
  radios[shown].setAttribute("data-key-control", "ArrowRight");

  const layout = html("div", { class: "worked-mixture-layout" }, root);
  const steps = html("div", { class: "worked-mixture-steps" }, layout);
  const plot = html("div", { class: "figure-plot worked-mixture-plot" }, layout);

  // A line of text made of pieces: a string, or [string, class] for a coloured piece.
  function line(parent, tag, pieces, attrs = {}) {
    const el = html(tag, attrs, parent);
    for (const p of pieces) {
      if (Array.isArray(p)) html("span", { class: p[1] }, el, p[0]);
      else el.append(p);
    }
    return el;
  }

  function drawSteps(head, h) {
    const n = labels.length;
    const frag = html("div", {}, steps);
    line(frag, "p", [`Head ${h + 1}, at `, [labels[n - 1], "wm-word"], ": query ", [vec(head.query), "wm-q"],
      `, d = ${head.d}.`], { class: "wm-lead" });
    const given_ = html("ul", { class: "wm-given" }, frag);
    labels.forEach((w, j) => line(given_, "li", [[w, "wm-word"], ": key ", [vec(head.keys[j]), "wm-k"],
      ", value ", [vec(head.values[j]), "wm-v"]]));

    const ol = html("ol", { class: "wm-list" }, frag);
    // 1. Scores: each dot product term by term, then divided by √d.
    const s1 = line(ol, "li", [`Scores: query · key, term by term, then ÷ √${head.d} = ${num(head.root_d)}`]);
    const u1 = html("ul", {}, s1);
    labels.forEach((w, j) => {
      const terms = head.query.map((q, t) => [[given(q), "wm-q"], " × ", [given(head.keys[j][t]), "wm-k"]]);
      const pieces = [[w, "wm-word"], ": "];
      terms.forEach((t, i) => { if (i) pieces.push(" + "); pieces.push(...t); });
      pieces.push(" = " + head.products[j].map(num).join(" + ") + " = " + num(head.dots[j]));
      pieces.push("; ÷ " + num(head.root_d) + " = ", [num(head.scores[j]), "wm-s"]);
      line(u1, "li", pieces);
    });
    // 2. Exponentials and their total.
    const s2 = line(ol, "li", ["Exponentials, e to the power of each score"]);
    const u2 = html("ul", {}, s2);
    labels.forEach((w, j) => {
      const li = line(u2, "li", [[w, "wm-word"], ": e"]);
      html("sup", {}, li, num(head.scores[j]));
      li.append(" = " + num(head.exps[j]));
    });
    line(u2, "li", ["total: " + head.exps.map(num).join(" + ") + " = ", [num(head.exp_sum), "wm-s"]]);
    // 3. Weights.
    const s3 = line(ol, "li", ["Weights, each exponential ÷ the total"]);
    const u3 = html("ul", {}, s3);
    labels.forEach((w, j) => line(u3, "li", [[w, "wm-word"], `: ${num(head.exps[j])} ÷ ${num(head.exp_sum)} = `,
      [num(head.weights[j]), "wm-w"]]));
    // 4. The weighted sum of values, one dimension at a time.
    const s4 = line(ol, "li", ["Output, the weighted sum of the values, one number at a time"]);
    const u4 = html("ul", {}, s4);
    head.output.forEach((o, t) => {
      const pieces = [`number ${t + 1}: `];
      labels.forEach((_, j) => {
        if (j) pieces.push(" + ");
        pieces.push([num(head.weights[j]), "wm-w"], " × ", [given(head.values[j][t]), "wm-v"]);
      });
      pieces.push(" = " + head.weighted.map((row) => num(row[t])).join(" + ") + " = ", [num(o), "wm-w"]);
      line(u4, "li", pieces);
    });
    line(frag, "p", ["Output of head " + (h + 1) + ": ", [vec(head.output, num), "wm-w"],
      ". Every sum uses the unrounded numbers."], { class: "wm-result" });
    return frag;
  }

  function drawPlane(head, h) {
    const values = head.values;
    const other = data.heads[1 - h];
    if (values[0].length !== 2) return null;
    const size = 240, pad = 28;
    const all = [...values, head.output, other.output].flat();
    const lo = Math.min(0, ...all) - 0.25, hi = Math.max(...all) + 0.45;
    const sx = linear([lo, hi], [pad, size - pad]), sy = linear([lo, hi], [size - pad, pad]);
    const s = svg("svg", { width: size, height: size, viewBox: `0 0 ${size} ${size}`, role: "img",
      "aria-label": data.text.states[h].label }, plot);
    svg("line", { x1: sx(lo), x2: sx(hi), y1: sy(0), y2: sy(0), class: "axis" }, s);
    svg("line", { x1: sx(0), x2: sx(0), y1: sy(lo), y2: sy(hi), class: "axis" }, s);
    const whole = [0, 1, 2].filter((t) => t >= lo && t <= hi);
    ticks(s, { xs: whole, ys: whole.filter((t) => t), sx, sy });
    // Lines from the output to each value, as thick as the weight that value gets.
    values.forEach((v, j) => {
      svg("line", { x1: sx(head.output[0]), y1: sy(head.output[1]), x2: sx(v[0]), y2: sy(v[1]),
        class: "wm-pull", "stroke-width": 0.5 + 6 * head.weights[j] }, s);
    });
    values.forEach((v, j) => {
      svg("circle", { cx: sx(v[0]), cy: sy(v[1]), r: 5, class: "wm-value" }, s);
      const right = sx(v[0]) < size - 90;
      svg("text", { x: sx(v[0]) + (right ? 8 : -8), y: sy(v[1]) - 7, class: "wm-value-text",
        "text-anchor": right ? "start" : "end" }, s).textContent = `${labels[j]} ${fmt(head.weights[j])}`;
    });
    svg("circle", { cx: sx(other.output[0]), cy: sy(other.output[1]), r: 4, class: "wm-other" }, s);
    svg("text", { x: sx(other.output[0]) + 7, y: sy(other.output[1]) + 14, class: "tick" }, s)
      .textContent = `head ${2 - h}`;
    svg("rect", { x: sx(head.output[0]) - 5, y: sy(head.output[1]) - 5, width: 10, height: 10, class: "prediction" }, s);
    svg("text", { x: sx(head.output[0]) + 8, y: sy(head.output[1]) + 14, class: "prediction-text" }, s)
      .textContent = "output";
    return s;
  }

  // Both heads, drawn once; showing one hides the other.
  const drawn = data.heads.map((head, h) => [drawSteps(head, h), drawPlane(head, h)]);

  function draw() {
    radios.forEach((r, h) => { r.checked = h === shown; });
    drawn.forEach((parts, h) => parts.forEach((el) => { if (el) el.style.display = h === shown ? "" : "none"; }));
    plot.hidden = !drawn[shown][1];
  }

  draw();
  // Both heads, always: the list matches the static fallback and does not depend on the choice.
  ctx.setText(data.text, shown);
  return {};
}
