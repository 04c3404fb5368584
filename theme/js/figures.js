// Figure lifecycle: hydrate a [data-figure] from its embedded data (state "prerendered") when it
// nears the viewport or focus moves into it, so a page fetches only the views of the figures on
// its first screen (and those just below it); start Python when a live figure
// ([data-live]: its view can ask the worker) nears the viewport or on the first interaction with
// one, and mark a figure "live" once it has drawn a result computed in the worker. A page without
// a live figure never starts Python. Views live in ../figures/<name>.js; until a figure's view has
// drawn, nothing shows where its drawing will be (site.css: the static fallback is for readers
// without scripts, for print, and for a view that could not start).
// Followed in place (nav.js), each page's figures are set up as it enters and taken down as it is
// left (page.js): their jobs cancelled, their observers stopped; the runtime, once loaded, stays.
import { figureContext } from "./context.js";
import { whenNear } from "./near.js";
import { eachPage } from "./page.js";

let runtime = null; // runtime.js's, once a page with a live figure has loaded it
// figure element -> what the page keeps of it once it hydrates: { ctx, view (once mounted),
// tryWarm() (called when it nears or Python is ready) }
const hydrated = new Map();
const nearby = new Set(); // figures within the margin that starts Python (the observer's below)

async function loadRuntime() {
  if (runtime) return;
  ({ runtime } = await import("../runtime/runtime.js"));
  runtime.subscribe((state) => {
    if (state !== "ready") return;
    for (const { tryWarm } of hydrated.values()) tryWarm();
    // A warm-up (it imports its model first thing) goes before any import the worker would do first.
    if ([...hydrated.keys()].some((el) => el.dataset.warm === "running")) return;
    for (const el of hydrated.keys()) prepare(el);
  });
}

const prepared = new Set(); // figure names whose model the worker has imported (it outlives pages shown in place)

/** Once Python is ready, have the worker import a live figure's model as the figure nears (its view
 *  loads meanwhile), so the reader's first change waits only on the compute. Never starts Python. */
function prepare(el) {
  const name = el.dataset.figure;
  if (!el.hasAttribute("data-live") || prepared.has(name) || runtime?.state !== "ready") return;
  prepared.add(name);
  runtime.ask({ type: "prepare", name }).result.catch(() => prepared.delete(name));
}

function startSoon() {
  // Never before first paint: wait for a frame, then for the main thread to be free.
  requestAnimationFrame(() => setTimeout(() => runtime.start(), 0));
}

async function hydrate(el, page) {
  if (page.left) return;
  const root = el.querySelector(".figure-view");
  const figure = { ...figureContext(el, root, runtime, () => nearby.has(el)), view: null };
  hydrated.set(el, figure);
  try {
    const mod = await import(`../figures/${el.dataset.figure}.js`);
    if (page.left) return;
    figure.view = mod.mount(root, figure.ctx);
    el.dataset.state = "prerendered";
  } catch (err) {
    // Show the static fallback again (site.css hides it while a view can load) and say why the
    // interactive view is missing.
    el.dataset.state = "static";
    el.dataset.viewFailed = "";
    figure.ctx.note("This figure could not start its interactive view: " + err.message);
    console.error(err);
  }
}

// The page going away (closed, or into the back-forward cache) stops every job.
addEventListener("pagehide", () => { for (const { ctx } of hydrated.values()) ctx.cancelJob(); });
// Observes a figure once it has hydrated, so each entry's figure is in `hydrated`.
const observer = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    const figure = hydrated.get(entry.target);
    if (!figure) continue; // of a page already left
    const { ctx, view, tryWarm } = figure;
    if (entry.isIntersecting) {
      if (entry.target.hasAttribute("data-live")) startSoon();
      nearby.add(entry.target);
      tryWarm();
      view?.onscreen?.();
    } else {
      nearby.delete(entry.target);
      ctx.cancelJob(); // a figure scrolled away stops its job
      view?.offscreen?.();
    }
  }
}, { rootMargin: "200px 0px" });

async function enter(figures, page) {
  // Only a page with a live figure loads the runtime's module: the others never use Python.
  if (figures.some((el) => el.hasAttribute("data-live"))) await loadRuntime();
  if (page.left) return;
  // A view's module loads when its figure nears the screen (near.js): early enough that a reader
  // scrolling meets it drawn, and no page fetches the views of figures further down before the
  // reader scrolls.
  for (const el of figures) {
    whenNear(el, () => {
      prepare(el); // the model imports in the worker while the view's module loads here
      hydrate(el, page).then(() => { if (!page.left) observer.observe(el); });
    });
    if (!el.hasAttribute("data-live")) continue;
    for (const type of ["pointerdown", "keydown", "focusin"]) {
      el.addEventListener(type, () => runtime.start(), { once: true, passive: true });
    }
  }
}

/** The page is left: every job ends (its view hears offscreen), and nothing of it is observed. */
function leave(page) {
  page.left = true;
  for (const [el, { ctx, view }] of hydrated) {
    ctx.cancelJob();
    view?.offscreen?.();
    observer.unobserve(el);
  }
  hydrated.clear();
  nearby.clear();
}

eachPage(() => {
  const figures = [...document.querySelectorAll("[data-figure]")];
  if (!figures.length) return null;
  const page = { left: false };
  enter(figures, page);
  return () => leave(page);
});
