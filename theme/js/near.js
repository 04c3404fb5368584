// What loads as it nears the screen: whenNear(el, fn) calls fn(el) once, when el comes within a
// screen's height of the viewport (early enough that a reader scrolling meets it ready) or focus
// enters it (Tab can reach an element before the scroll it causes is observed). Figure views,
// quizzes and exercises load through it, so no page fetches code for what is further down before
// the reader scrolls; the offline control registers its service worker through it too.
// A page left in place (page.js) takes its elements with it: those no longer in the document are dropped.
import { eachPage } from "./page.js";

const waiting = new Map(); // element -> the callbacks still to call

function arrive(el) {
  const fns = waiting.get(el);
  if (!fns) return;
  waiting.delete(el);
  observer.unobserve(el);
  for (const fn of fns) fn(el);
}

const observer = new IntersectionObserver((entries) => {
  for (const entry of entries) if (entry.isIntersecting) arrive(entry.target);
}, { rootMargin: "100% 0px" });

export function whenNear(el, fn) {
  if (!waiting.has(el)) {
    waiting.set(el, []);
    observer.observe(el);
    el.addEventListener("focusin", () => arrive(el), { once: true });
  }
  waiting.get(el).push(fn);
}

eachPage(() => {
  for (const el of waiting.keys()) {
    if (!el.isConnected) { waiting.delete(el); observer.unobserve(el); }
  }
});
