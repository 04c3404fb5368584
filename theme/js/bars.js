// Bar rows shared by the views that let readers drag scores (softmax-temperature, softmax-bars):
// a row of draggable score bars (pointer, touch, arrow keys), a row of plain value bars, and
// the editing loop that snaps a new score, asks the worker, and falls back honestly.
// Nothing here computes a model number: bar heights are the data, scaled to pixels.
import { fmt, holdTouch, point, svg } from "./svg.js";

export const SCORE_MAX = 10; // the engine accepts scores in [-10, 10]
export const SCORE_STEP = 0.5; // one arrow key press; drags snap to the same grid

const KEY_STEPS = { ArrowUp: SCORE_STEP, ArrowRight: SCORE_STEP, ArrowDown: -SCORE_STEP, ArrowLeft: -SCORE_STEP };

/**
 * Scores the reader edits. set(i, v) snaps v to the grid, redraws at once, and after a pause
 * asks the worker with params(scores); the answer goes to accept(data). Without Python the
 * scores go back to current() (what the figure can show honestly) and the figure's note says why.
 * `waiting` is true while an answer is due. Only the latest request's answer is used.
 */
export function scoreEditor(ctx, { scores, params, accept, current, draw, delay = 150 }) {
  const state = { scores: [...scores], waiting: false, set };
  let timer = null;
  let asked = 0;

  function set(i, value) {
    const v = Math.max(-SCORE_MAX, Math.min(SCORE_MAX, Math.round(value / SCORE_STEP) * SCORE_STEP)) + 0;
    if (v === state.scores[i]) return;
    state.scores[i] = v;
    state.waiting = true;
    draw();
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const mine = ++asked;
      const out = await ctx.request(params([...state.scores]));
      if (mine !== asked) return; // a newer request is on its way
      state.waiting = false;
      if (out) {
        accept(out);
        ctx.markLive();
      } else {
        state.scores = [...current()];
      }
      draw();
    }, delay);
  }

  return state;
}

/**
 * Draggable score bars, one per word, around a zero line, in a plot that is redrawn often.
 * Create once per view: scoreBars(plot, onChange). Each draw then calls bars.draw(root, {...})
 * on the fresh svg root. Every bar is a focusable group with role=slider; arrow keys and
 * pointer drags (mouse, pen, touch) call onChange(i, newScore). The drag is tracked on the
 * plot, which outlives every redraw, so it keeps going while the svg under it is replaced.
 */
export function scoreBars(plot, onChange) {
  let toScore = null; // pixel y -> score, for the row as last drawn

  plot.addEventListener("pointerdown", (e) => {
    const bar = e.target.closest?.(".score-bar");
    if (!bar || !toScore) return;
    const i = Number(bar.dataset.index);
    const map = toScore; // the scale at the start: a row that rescales mid-drag does not run away
    e.preventDefault();
    bar.focus();
    plot.setPointerCapture(e.pointerId);
    const move = (ev) => {
      const root = plot.querySelector("svg");
      if (root) onChange(i, map(point(root, ev).y));
    };
    const up = (ev) => {
      if (ev.pointerId !== e.pointerId) return;
      plot.removeEventListener("pointermove", move);
      plot.removeEventListener("pointerup", up);
      plot.removeEventListener("pointercancel", up);
    };
    plot.addEventListener("pointermove", move);
    plot.addEventListener("pointerup", up);
    plot.addEventListener("pointercancel", up);
    move(e);
  });

  /**
   * Draw the row into root. Options: labels, scores, cx(i) centre of bar i, band (width of its
   * hit area), barW, top and height of the row, maxAbs (the score at the row's top edge),
   * keyControl (the data-key-control value to put on the first bar, if any).
   * Returns the y of the zero line.
   */
  function draw(root, { labels, scores, cx, band, barW, top, height, maxAbs, keyControl = null }) {
    const zeroY = top + height / 2;
    const sy = (s) => zeroY - (s / maxAbs) * (height / 2);
    toScore = (y) => ((zeroY - y) / (height / 2)) * maxAbs;
    labels.forEach((word, i) => {
      const s = scores[i];
      const x = cx(i);
      const attrs = { class: "score-bar", tabindex: 0, role: "slider", "aria-label": "score of " + word,
        "aria-valuemin": -SCORE_MAX, "aria-valuemax": SCORE_MAX, "aria-valuenow": s, "aria-valuetext": fmt(s, 1),
        "data-index": i };
      if (keyControl && i === 0) attrs["data-key-control"] = keyControl;
      const bar = svg("g", attrs, root);
      holdTouch(bar); // on the bar itself: a redraw at pointerdown detaches it before touchstart
      svg("rect", { x: x - band / 2, y: top, width: band, height, class: "hit" }, bar);
      svg("rect", { x: x - barW / 2, y: Math.min(sy(s), zeroY), width: barW,
        height: Math.max(1, Math.abs(sy(s) - zeroY)), class: "data" }, bar);
      svg("text", { x, y: s >= 0 ? sy(s) - 4 : sy(s) + 12, class: "value", "text-anchor": "middle" }, bar)
        .textContent = fmt(s, 1);
      bar.addEventListener("keydown", (e) => {
        const step = KEY_STEPS[e.key];
        if (step === undefined) return;
        e.preventDefault();
        onChange(i, scores[i] + step);
      });
    });
    return zeroY;
  }

  return { draw };
}

/**
 * Non-negative bars standing on a baseline, each labelled with its value above.
 * Options: values, cx(i), barW, top, height, max (the value at the row's top edge),
 * cls (fill class), label(v) (the text above a bar). Returns the baseline's y.
 */
export function valueRow(root, { values, cx, barW, top, height, max, cls, label = (v) => fmt(v) }) {
  const base = top + height;
  values.forEach((v, i) => {
    const h = max > 0 ? height * (v / max) : 0;
    svg("rect", { x: cx(i) - barW / 2, y: base - h, width: barW, height: Math.max(0.5, h), class: cls }, root);
    svg("text", { x: cx(i), y: base - h - 4, class: "value", "text-anchor": "middle" }, root).textContent = label(v);
  });
  return base;
}

/** Put a freshly drawn svg into plot, keeping keyboard focus on the same score bar. */
export function replaceKeepingFocus(plot, svgRoot) {
  const focused = [...plot.querySelectorAll(".score-bar")].indexOf(document.activeElement);
  plot.replaceChildren(svgRoot);
  if (focused >= 0) plot.querySelectorAll(".score-bar")[focused]?.focus();
}
