// Figure lifecycle: hydrate a [data-figure] from its embedded data (state "prerendered") when it
// nears the viewport or focus moves into it, so a page fetches only the views of the figures on
// its first screen (and those just below it); start Python when a live figure
// ([data-live]: its view can ask the worker) nears the viewport or on the first interaction with
// one, and mark a figure "live" once it has drawn a result computed in the worker. A page without
// a live figure never starts Python. Views live in ../figures/<name>.js; until a figure's view has
// drawn, nothing shows where its drawing will be (site.css: the static fallback is for readers
// without scripts, for print, and for a view that could not start).
// Only a page with a live figure loads the runtime's module: the others never use Python.
import { figureContext } from "./context.js";
import { whenNear } from "./near.js";

const { runtime } = document.querySelector("[data-figure][data-live]")
  ? await import("../runtime/runtime.js")
  : { runtime: null };

const figures = [...document.querySelectorAll("[data-figure]")];
// figure element -> what the page keeps of it once it hydrates: { ctx, view (once mounted),
// tryWarm() (called when it nears or Python is ready) }
const hydrated = new Map();
const nearby = new Set(); // figures within the margin that starts Python (the observer's below)
runtime?.subscribe((state) => { if (state === "ready") for (const { tryWarm } of hydrated.values()) tryWarm(); });

function startSoon() {
  // Never before first paint: wait for a frame, then for the main thread to be free.
  requestAnimationFrame(() => setTimeout(() => runtime.start(), 0));
}

async function hydrate(el) {
  const root = el.querySelector(".figure-view");
  const figure = { ...figureContext(el, root, runtime, () => nearby.has(el)), view: null };
  hydrated.set(el, figure);
  try {
    const mod = await import(`../figures/${el.dataset.figure}.js`);
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
    const { ctx, view, tryWarm } = hydrated.get(entry.target);
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

// A view's module loads when its figure nears the screen (near.js): early enough that a reader
// scrolling meets it drawn, and no page fetches the views of figures further down before the
// reader scrolls.
for (const el of figures) {
  whenNear(el, () => hydrate(el).then(() => observer.observe(el)));
  if (!el.hasAttribute("data-live")) continue;
  for (const type of ["pointerdown", "keydown", "focusin"]) {
    el.addEventListener(type, () => runtime.start(), { once: true, passive: true });
  }
}
