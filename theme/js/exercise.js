// Exercises (builder/directives/exercise.py), loaded as they near the screen (parts.js): the reader
// writes NumPy in a CodeMirror editor and Run grades it in a Python worker of its own
// (../runtime/grader.js) against the engine. The result element's data-state is idle, running,
// passed, failed, error or timeout. The code is kept in the reader's browser (store.js) per page and
// exercise, and so is a pass (the contents page counts it); Reset restores the starter; the solution
// shows once the reader has run their code; hints come one at a time.
import { grade, TIME_LIMIT_MS, warm } from "../runtime/grader.js";
import { unsupportedReason } from "../runtime/runtime.js";
import { entry, MAX_CODE, shownPage } from "./store.js";

/** Called as the exercise nears the screen or focus enters it (parts.js); what it returns ends the
 *  exercise as the page is left in place: the editor's observers and listeners go with it. */
export function setUp(section) {
  const name = section.dataset.exercise;
  const starter = section.querySelector(".exercise-starter").textContent;
  const result = section.querySelector("[data-exercise-result]");
  const actions = section.querySelector(".exercise-actions");
  const run = actions.querySelector('[data-action="run"]');
  const reset = actions.querySelector('[data-action="reset"]');
  const hintButton = actions.querySelector('[data-action="hint"]');
  const hintsBox = section.querySelector(".exercise-hints");
  const hints = [...hintsBox.querySelectorAll("li")];
  const solution = section.querySelector(".exercise-solution");
  const holder = section.querySelector(".exercise-editor");
  const code = entry("code", shownPage(), name);
  const passed = entry("passed", shownPage(), name);
  const keep = (text) => { if (text.length <= MAX_CODE) code.set(text); }; // longer lives in the editor only

  const why = unsupportedReason();
  if (why) {
    result.dataset.state = "error";
    result.textContent = "Your code cannot run here: " + why + " The task, the hints and the solution stay readable.";
    return;
  }
  let editor = null;
  let left = false;
  // This module loads as the exercise nears the screen (parts.js), so the editor (a large bundle)
  // mounts now; the grader's Python boots when the reader shows intent: the exercise in view, or
  // focus in it (maybe the focus that brought this module here).
  loadEditor();
  const inView = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) { inView.disconnect(); warm(); }
  });
  inView.observe(section);
  if (section.contains(document.activeElement)) warm();
  else section.addEventListener("focusin", () => warm(), { once: true });

  async function loadEditor() {
    try {
      const { createEditor } = await import("./editor.js");
      if (left) return;
      const box = document.createElement("div");
      box.className = "exercise-code";
      const focused = holder.contains(document.activeElement); // Tab reached the starter as this loaded
      holder.replaceChildren(box);
      editor = createEditor(box, code.get() ?? starter, {
        label: `Your code for ${section.querySelector(".exercise-label").textContent}. Tab indents; Escape, then Tab, moves on.`,
        onChange: (text) => { keep(text); warm(); },
      });
      if (focused) editor.view.focus(); // focus moves from the starter it replaces to the editor
      const keys = document.createElement("p");
      keys.className = "exercise-keys";
      keys.setAttribute("aria-hidden", "true"); // the editor's own label says it to screen readers
      keys.textContent = "In the editor, Tab indents; press Escape, then Tab, to move on (Escape twice if a list of completions is open).";
      holder.append(keys);
    } catch (err) {
      result.textContent = "The editor could not load (" + err.message + "); the starter code is shown as text.";
      return;
    }
    actions.hidden = false;
    solution.hidden = true; // revealed after a first run
    hintsBox.hidden = true; // revealed one at a time
    hints.forEach((li) => { li.hidden = true; });
  }

  function show(state, text) {
    result.dataset.state = state;
    result.textContent = text;
  }

  run.addEventListener("click", async () => {
    run.disabled = true;
    show("running", "Running your code against the tests…");
    const out = await grade(name, editor.text, (status) => show("running", status));
    run.disabled = false;
    solution.hidden = false;
    if (out.state === "timeout") {
      show("timeout", `Stopped after ${TIME_LIMIT_MS / 1000} seconds: your code ran too long (a loop that never ends, or a very large array?). Python is restarting in the background; press Run again after a change.`);
    } else if (out.state === "unavailable") {
      show("error", "Your code cannot run here: " + out.message);
    } else if (out.state === "failed") {
      show("failed", out.message + (out.case ? " First failing case: " + out.case + "." : ""));
    } else {
      show(out.state, out.message);
      if (out.state === "passed") passed.set("yes");
    }
  });
  reset.addEventListener("click", () => {
    editor.text = starter;
    keep(starter);
    show("idle", "Back to the starter code.");
  });
  hintButton.addEventListener("click", () => {
    const next = hints.find((li) => li.hidden);
    if (!next) return;
    hintsBox.hidden = false;
    hintsBox.open = true;
    next.hidden = false;
    if (!hints.some((li) => li.hidden)) hintButton.disabled = true;
  });
  return () => {
    left = true;
    inView.disconnect();
    editor?.view.destroy();
  };
}

