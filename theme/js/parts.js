// Quizzes and exercises load their code as they near the screen (near.js, as figure views do):
// a chapter's first screen fetches neither quiz.js nor the exercise's editor and grader unless it
// shows one. Each module exports setUp(element).
import { whenNear } from "./near.js";

const PARTS = [["[data-quiz]", "./quiz.js"], ["[data-exercise]", "./exercise.js"]];

for (const [selector, module] of PARTS) {
  for (const el of document.querySelectorAll(selector)) {
    whenNear(el, async () => (await import(module)).setUp(el));
  }
}
