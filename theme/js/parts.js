// Quizzes and exercises load their code as they near the screen (near.js, as figure views do):
// a chapter's first screen fetches neither quiz.js nor the exercise's editor and grader unless it
// shows one. Each module exports setUp(element).
import { whenNear } from "./near.js";
import { eachPage } from "./page.js";

// A block names its module in data-part (the builder's directive name), so no list here needs
// to follow the directives; only a plain name is taken, so an attribute cannot import elsewhere.
eachPage(() => {
  for (const el of document.querySelectorAll("[data-part]")) {
    const part = el.dataset.part;
    if (/^[a-z][a-z-]*$/.test(part)) whenNear(el, async () => (await import(`./${part}.js`)).setUp(el));
  }
});
