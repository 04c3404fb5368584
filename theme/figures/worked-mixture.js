// worked-mixture: one head's whole calculation at one position, printed step by step from the
// engine's numbers (dot products term by term, exponentials, total, weights, weighted sum of
// values), above a plot of the values and the mixture. A radio pair switches between two heads.
// Both heads are in the embedded data, so switching needs no Python: both are drawn once and
// the radios show one or the other. The arithmetic, the plot's labels and the key numbers are the
// model's text: the view formats no number.
import { linear, ticks } from "../js/scale.js";
import { html, radioGroup, set, svg } from "../js/svg.js";

export function mount(root, ctx) {
  const data = ctx.data;
  let shown = ctx.opening(data.start);

  const radios = radioGroup(root, { name: ctx.figure.id + "-head", legend: "Show", className: "worked-mixture-heads",
    labels: data.heads.map((_, h) => `head ${h + 1}`), checked: shown, onChange: (h) => { shown = h; draw(); } });

  const layout = html("div", { class: "worked-mixture-layout" }, root);
  const steps = html("div", { class: "worked-mixture-steps" }, layout);
  const plot = html("div", { class: "figure-plot worked-mixture-plot" }, layout);

  // A line of text made of the model's pieces: a string, or [string, class] for a coloured piece
  // ([string, "sup"] is an exponent).
  function line(parent, tag, pieces, attrs = {}) {
    const el = html(tag, attrs, parent);
    for (const p of pieces) {
      if (!Array.isArray(p)) el.append(p);
      else if (p[1] === "sup") html("sup", {}, el, p[0]);
      else html("span", { class: p[1] }, el, p[0]);
    }
    return el;
  }

  /** Head h's arithmetic as the model wrote it (data.text.worked[h]): the view places the lines. */
  function drawSteps(h) {
    const worked = data.text.worked[h];
    const frag = html("div", {}, steps);
    line(frag, "p", worked.lead, { class: "wm-lead" });
    const given = html("ul", { class: "wm-given" }, frag);
    worked.given.forEach((pieces) => line(given, "li", pieces));
    const ol = html("ol", { class: "wm-list" }, frag);
    for (const step of worked.steps) {
      const list = html("ul", {}, line(ol, "li", step.title));
      step.lines.forEach((pieces) => line(list, "li", pieces));
    }
    line(frag, "p", worked.result, { class: "wm-result" });
    return frag;
  }

  function drawPlane(head, h) {
    const values = head.values;
    const other = data.heads[1 - h];
    if (values[0].length !== 2) return null;
    const size = 300, pad = 30;
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
    values.forEach((v) => svg("circle", { cx: sx(v[0]), cy: sy(v[1]), r: 5, class: "wm-value" }, s));
    svg("circle", { cx: sx(other.output[0]), cy: sy(other.output[1]), r: 4, class: "wm-other" }, s);
    svg("rect", { x: sx(head.output[0]) - 5, y: sy(head.output[1]) - 5, width: 10, height: 10, class: "prediction" }, s);
    // Labels beside their marks, each at the first of four corners where it overlaps no label placed
    // before it and stays inside the plot (the points can sit close: figure 5.1's two heads).
    const placed = [];
    const label = (x, y, text, cls) => {
      const el = svg("text", { class: cls }, s);
      el.textContent = text;
      const corners = [[8, -8, "start"], [-8, -8, "end"], [8, 16, "start"], [-8, 16, "end"]];
      for (const [dx, dy, anchor] of corners) {
        set(el, { x: x + dx, y: y + dy, "text-anchor": anchor });
        const b = el.getBBox();
        const inside = b.width === 0 || (b.x >= 0 && b.x + b.width <= size && b.y >= 0 && b.y + b.height <= size);
        if (inside && !placed.some((o) => b.x < o.x + o.width && o.x < b.x + b.width && b.y < o.y + o.height && o.y < b.y + b.height)) break;
      }
      placed.push(el.getBBox());
    };
    values.forEach((v, j) => label(sx(v[0]), sy(v[1]), data.text.worked[h].points[j], "wm-value-text"));
    label(sx(other.output[0]), sy(other.output[1]), `head ${2 - h}`, "tick");
    label(sx(head.output[0]), sy(head.output[1]), "output", "prediction-text");
    return s;
  }

  // Both heads, drawn once; showing one hides the other.
  const drawn = data.heads.map((head, h) => [drawSteps(h), drawPlane(head, h)]);

  function draw() {
    radios.forEach((r, h) => { r.checked = h === shown; });
    drawn.forEach((parts, h) => parts.forEach((el) => { if (el) el.style.display = h === shown ? "" : "none"; }));
    plot.hidden = !drawn[shown][1];
    // Both heads' lines, always (text.fixed): the list matches the static fallback whichever is
    // shown; the state says which head is, for a link to this view.
    ctx.setText(data.text, shown);
  }

  draw();
  return {};
}
