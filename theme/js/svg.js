// Small DOM helpers shared by the figure views (no framework needed for a few SVG elements).
const NS = "http://www.w3.org/2000/svg";

// A `style` attribute set with setAttribute is inline style, which the pages' Content-Security-
// Policy refuses (style-src 'self'); the same declarations through the CSSOM are allowed.
function setAttributes(el, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "style") el.style.cssText = v;
    else el.setAttribute(k, v);
  }
}

/** Create an SVG element with attributes, appended to parent when given. */
export function svg(tag, attrs = {}, parent = null) {
  const el = document.createElementNS(NS, tag);
  setAttributes(el, attrs);
  parent?.append(el);
  return el;
}

/** Set attributes of an existing element: how views update what they built once. */
export function set(el, attrs) {
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

/** Create an HTML element with attributes and optional text. */
export function html(tag, attrs = {}, parent = null, text = null) {
  const el = document.createElement(tag);
  setAttributes(el, attrs);
  if (text !== null) el.textContent = text;
  parent?.append(el);
  return el;
}

/**
 * A labelled range input stepping through indices 0..max, with an <output> after it for the
 * readout: the control every slider of the figures uses. Returns { input, output }.
 */
export function rangeControl(parent, id, text, attrs = {}) {
  const label = html("label", { for: id }, parent, text);
  const input = html("input", { type: "range", id, min: 0, step: 1, ...attrs }, label);
  const output = html("output", { for: id }, parent);
  return { input, output };
}

/** Index of the entry of values closest to x. */
export function nearestIndex(values, x) {
  let best = 0;
  values.forEach((v, i) => { if (Math.abs(v - x) < Math.abs(values[best] - x)) best = i; });
  return best;
}

/** The figure width (px) from which views set their parts side by side (narrower, they stack), and
 *  the width a view draws for before it is laid out. */
export const WIDE = 560;

/** Call draw(width) now and whenever the element's width changes. A change is drawn in the next
 *  frame, not in the observer's callback: a drawing that changes the page's height there can bring
 *  in a scrollbar, which resizes other observed elements in the same frame, and the browser then
 *  reports "ResizeObserver loop completed with undelivered notifications" (WebKitGTK did). */
export function onResize(el, draw) {
  let last = -1;
  let frame = 0;
  const ro = new ResizeObserver(() => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      const w = Math.round(el.clientWidth);
      if (w > 0 && w !== last) { last = w; draw(w); }
    });
  });
  ro.observe(el);
  draw(Math.round(el.clientWidth) || WIDE);
}

/**
 * Touches that start on el drag it rather than scroll the page. CSS touch-action would be the
 * tool, but Chromium ignores it on SVG shapes; cancelling touchstart works everywhere, and the
 * rest of the figure (and the page) still scrolls under a finger.
 */
function holdTouch(el, where = () => true) {
  el.setAttribute("data-handle", ""); // what the tests find as a handle (tests/browser/test_handles.py)
  el.addEventListener("touchstart", (e) => { if (where(e)) e.preventDefault(); }, { passive: false });
}

/**
 * Pointer drag (mouse, pen, touch) on el; onMove gets the pointer's position in el's SVG.
 * hold: false for large areas (a whole plane) where a finger should still scroll the page;
 * a tap there still moves things. onStart runs at pointerdown, before the first move.
 */
export function drag(el, svgRoot, onMove, onEnd = () => {}, { hold = true, onStart = () => {} } = {}) {
  if (hold) holdTouch(el);
  el.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    el.setPointerCapture(e.pointerId);
    onStart(e);
    const move = (ev) => onMove(point(svgRoot, ev));
    const up = () => {
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", up);
      onEnd();
    };
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
    move(e);
  });
}

/** The pointer's position in svgRoot's own coordinates (its viewBox). */
export function point(svgRoot, e) {
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(svgRoot.getScreenCTM().inverse());
  return { x: p.x, y: p.y };
}

/**
 * A fieldset of radio buttons, one per label, with `checked` selected; onChange(i) runs when the
 * reader picks another (arrow keys move between them natively). `labelClass` + i, if given, classes
 * each label (for a swatch). The checked one is the figure's key control: its arrow key picks a
 * neighbour (ArrowLeft from the last). Returns the inputs.
 */
export function radioGroup(parent, { name, legend, labels, checked, className, labelClass, onChange }) {
  const group = html("fieldset", { class: `figure-controls ${className}` }, parent);
  html("legend", {}, group, legend);
  const inputs = labels.map((text, i) => {
    const label = html("label", labelClass ? { class: labelClass + i } : {}, group);
    const input = html("input", { type: "radio", name, value: String(i) }, label);
    label.append(" " + text);
    input.checked = i === checked;
    input.addEventListener("change", () => { if (input.checked) onChange(i); });
    return input;
  });
  inputs[checked].setAttribute("data-key-control", checked === inputs.length - 1 ? "ArrowLeft" : "ArrowRight");
  return inputs;
}
