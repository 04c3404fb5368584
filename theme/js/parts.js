// Quizzes and exercises load their code as they near the screen (near.js, as figure views do):
// a chapter's first screen fetches neither quiz.js nor the exercise's editor and grader unless it
// shows one. Each module exports setUp(element).
import { whenNear } from "./near.js";
import { eachPage } from "./page.js";

// A block names its module in data-part (the builder's directive name), so no list here needs
// to follow the directives; only a plain name is taken, so an attribute cannot import elsewhere.
// setUp may return a function that ends the block as the page is left in place (its editor, its
// observers), which a full load would have done.
eachPage(() => {
  const ends = [];
  let left = false;
  const started = (end) => { if (typeof end === "function") (left ? end() : ends.push(end)); };
  for (const el of document.querySelectorAll("[data-part]")) {
    const part = el.dataset.part;
    if (/^[a-z][a-z-]*$/.test(part)) whenNear(el, async () => started(await (await import(`./${part}.js`)).setUp(el)));
  }
  return () => {
    left = true;
    for (const end of ends.splice(0)) end();
  };
});
