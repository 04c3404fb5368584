// Score bars the reader drags (softmax-temperature, softmax-bars): a row of draggable score
// bars (pointer, touch, arrow keys) built once and updated in place, and the editing loop that
// snaps a new score, asks the worker, and falls back honestly. The range and the step come from
// the model's schema (data.schema.scores) and a score's text from the model's part (text.parts.score);
// nothing here computes or formats a model number.
import { lineKeys } from "./keys.js";
import { drag, set, svg } from "./svg.js";
import { latestOnly } from "./latest.js";
import { fill } from "./text.js";

/**
 * Scores the reader edits. set(i, v) snaps v to the schema's step within its range, redraws at
 * once, and after a pause asks the worker with params(scores); the answer goes to accept(data).
 * Without Python the scores go back to current() (what the figure can show honestly) and the
 * figure's note says why. `waiting` is true while an answer is due, from the edit on (the figure
 * carries data-waiting meanwhile: what tests wait on, as the pause is not yet a request and the
 * figure is not yet aria-busy). Only the latest answer is used.
 */
export function scoreEditor(ctx, { schema, scores, params, accept, current, draw, delay = 150 }) {
  const state = { scores: [...scores], waiting: false, set };
  let timer = null;
  const ask = latestOnly(ctx);
  const waiting = (on) => { state.waiting = on; ctx.figure.toggleAttribute("data-waiting", on); };

  function set(i, value) {
    const v = Math.max(schema.lo, Math.min(schema.hi, Math.round(value / schema.step) * schema.step)) + 0;
    if (v === state.scores[i]) return;
    state.scores[i] = v;
    waiting(true);
    draw();
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const answer = await ask(params([...state.scores]));
      if (!answer) return; // a newer request is on its way
      const { out } = answer;
      waiting(false);
      if (out) {
        accept(out);
      } else {
        state.scores = [...current()];
      }
      draw();
    }, delay);
  }

  return state;
}

/**
 * One draggable score bar per label, around a zero line, in parent (an SVG element). Each bar is
 * a focusable group with role=slider; arrow keys move it one schema step, pointer drags (mouse,
 * pen, touch) anywhere along its height; both call onChange(i, newScore). keyControl is put on
 * the first bar as data-key-control; part is the model's template ({v}) of a score's label and
 * valuetext. Returns update({scores, cx, band, barW, top, height, maxAbs}),
 * which places the bars (maxAbs is the score at the row's top edge) and returns the zero line's y.
 */
export function scoreBars(parent, { labels, schema, part, onChange, keyControl = null }) {
  let toScore = null; // pixel y -> score, for the row as last drawn
  let scores = [];
  const svgRoot = parent.ownerSVGElement ?? parent;
  const bars = labels.map((word, i) => {
    const attrs = { class: "score-bar", tabindex: 0, role: "slider", "aria-label": "score of " + word,
      "aria-valuemin": schema.lo, "aria-valuemax": schema.hi, "data-index": i };
    if (keyControl && i === 0) attrs["data-key-control"] = keyControl;
    const g = svg("g", attrs, parent);
    const hit = svg("rect", { class: "hit" }, g);
    const rect = svg("rect", { class: "data" }, g);
    const text = svg("text", { class: "value", "text-anchor": "middle" }, g);
    let map = null; // the scale at the drag's start: a row that rescales mid-drag does not run away
    drag(g, svgRoot, (p) => onChange(i, map(p.y)), undefined, { onStart: () => { map = toScore; g.focus(); } });
    lineKeys(g, (step) => onChange(i, scores[i] + step * schema.step));
    return { g, hit, rect, text };
  });

  return function update({ scores: now, cx, band, barW, top, height, maxAbs }) {
    scores = now;
    const zeroY = top + height / 2;
    const sy = (s) => zeroY - (s / maxAbs) * (height / 2);
    toScore = (y) => ((zeroY - y) / (height / 2)) * maxAbs;
    bars.forEach(({ g, hit, rect, text }, i) => {
      const s = scores[i], x = cx(i);
      const shown = fill(part, { v: s });
      set(g, { "aria-valuenow": s, "aria-valuetext": shown });
      set(hit, { x: x - band / 2, y: top, width: band, height });
      set(rect, { x: x - barW / 2, y: Math.min(sy(s), zeroY), width: barW, height: Math.max(1, Math.abs(sy(s) - zeroY)) });
      set(text, { x, y: s >= 0 ? sy(s) - 4 : sy(s) + 12 });
      text.textContent = shown;
    });
    return zeroY;
  };
}
