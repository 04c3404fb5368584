// A line the reader types for a live figure to read (your-sequence, your-sentence, writing-sample): a
// labelled text box and a button (Read, or the figure's own word) in one form, a hint under it and a polite status line, built once so the
// focus stays in the box whatever the figure redraws; and the figure's first request, sent on intent.
import { html } from "./svg.js";

/**
 * The form in parent, its hint and status line: returns { form, input, status }. onRead(text) gets
 * the box's text on Enter or the button (`button`: its name); attrs are more attributes of the box.
 */
export function readerInput(parent, { id, label, value, hint, attrs = {}, button = "Read", onRead }) {
  const form = html("form", { class: "reader-input" }, parent);
  const text = html("label", { for: id }, form, label);
  const input = html("input", {
    id, type: "text", value, autocomplete: "off", spellcheck: "false", "aria-describedby": id + "-hint", ...attrs,
  }, text);
  html("button", { type: "submit" }, form, button);
  html("p", { class: "figure-hint", id: id + "-hint" }, parent, hint);
  const status = html("output", { class: "reader-status", "aria-live": "polite" }, parent);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    onRead(input.value);
  });
  return { form, input, status };
}

/**
 * Ask the worker once, with the figure's own options, when the reader first focuses one of `els`:
 * a model the worker trains on its first request (seconds) then trains while the reader types. Its
 * answer is the embedded data again, so the view draws nothing from it.
 */
export function askOnIntent(ctx, params, ...els) {
  let asked = false;
  const ask = () => { if (!asked) { asked = true; ctx.request(params); } };
  els.forEach((el) => el.addEventListener("focusin", ask));
}
