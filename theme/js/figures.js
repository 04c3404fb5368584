// Figure lifecycle: hydrate a [data-figure] from its embedded data (state "prerendered") when it
// nears the viewport or focus moves into it, so a page fetches only the views of the figures on
// its first screen (and those just below it); start Python when a live figure
// ([data-live]: its view can ask the worker) nears the viewport or on the first interaction with
// one, and mark a figure "live" once it has drawn a result computed in the worker. A page without
// a live figure never starts Python. Views live in ../figures/<name>.js; until a figure's view has
// drawn, nothing shows where its drawing will be (site.css: the static fallback is for readers
// without scripts, for print, and for a view that could not start).
// Followed in place (nav.js), each page's figures are set up as it enters and taken down as it is
// left (page.js): their observers stopped, their views told they are off screen; the runtime, once
// loaded, stays. A figure's job goes on when the figure is scrolled away or its page is left in
// place (running.js shows it, with a way back): the figure is carried, its element drawn as the
// job leaves it, and goes back in place of its fresh copy when the reader comes back to its page.
// Closing the tab ends every job.
// A live figure is prepared in the worker before the reader's first change (prepare: its model
// imported, and computed once at the page's options if the model asks), as it nears and, for a page
// nav.js fetches ahead on the reader's intent to open it, before that page appears, its view
// loaded then too (onAhead).
// A figure's state is a link (links.js): each figure has a "Link to this view" control, and a page
// opened at such a link opens that figure in the linked state; back and forward move between the
// states the reader linked (the entries the control pushes), in place.
import { figureContext } from "./context.js";
import { linkControl } from "./link-control.js";
import { PARAM, linkTo, readLink, same } from "./links.js";
import { onAhead, pushHere } from "./nav.js";
import { whenNear } from "./near.js";
import { eachPage } from "./page.js";
import "./running.js";

let runtime = null; // runtime.js's, once a page with a live figure has loaded it
// figure element -> what the page keeps of it once it hydrates: { ctx, view (once mounted),
// tryWarm() (called when it nears or Python is ready) }
const hydrated = new Map();
const nearby = new Set(); // figures within the margin that starts Python (the observer's below)
let shownPage = null; // the page shown: { left, path, link: readLink of its address, raw: the link's text }
// figures whose job was running when their page was left in place: "path#id" -> { el, figure },
// the element and what `hydrated` kept of it, back in the page when the reader comes back to it
const carried = new Map();
const REFUSED = "The linked view could not be opened: ";
/** A linked view's refusal as the reader reads it: why, after REFUSED, as one sentence (the worker's
 *  reasons may end with their own full stop; ours do not). */
const refusal = (why) => REFUSED + why + (why.endsWith(".") ? "" : ".");

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

// The figures (name and options) the worker has prepared: it outlives pages shown in place.
const prepared = new Set();

/** Once Python is ready, have the worker prepare live figure `el` (an element of the page, or of a
 *  page fetched ahead) as it nears or its page is about to show: import its model and, if the model
 *  asks (PREPARE), compute its page's options once, so the reader's first change finds both done.
 *  Never starts Python. */
function prepare(el) {
  if (!el.hasAttribute("data-live") || runtime?.state !== "ready") return;
  let params;
  try {
    params = JSON.parse(el.querySelector(".figure-data").textContent).params;
  } catch {
    return; // its view says what is wrong with its data as it mounts
  }
  const key = el.dataset.figure + " " + JSON.stringify(params);
  if (prepared.has(key)) return;
  prepared.add(key);
  runtime.ask({ type: "prepare", name: el.dataset.figure, params }).result.catch(() => prepared.delete(key));
}

const NAME = /^[a-z0-9-]+$/; // a figure's name, as the builder writes it (and a view's file is named)

// A page about to be shown in place (nav.js: fetched ahead as the reader shows the intent to follow
// a link to it, or fetched for the move): its live figures' views load into the module map, so
// each draws at once as the page appears, and with Python ready (never started from here) the
// worker prepares them. A page the reader does not follow leaves only that behind: modules loaded
// and models prepared, as a visit would.
onAhead((doc) => {
  for (const el of doc.querySelectorAll("[data-figure][data-live]")) {
    if (!NAME.test(el.dataset.figure)) continue;
    import(`../figures/${el.dataset.figure}.js`).catch(() => {}); // a view that fails says so as its page shows it
    prepare(el);
  }
});

function startSoon() {
  // Never before first paint: wait for a frame, then for the main thread to be free.
  requestAnimationFrame(() => setTimeout(() => runtime.start(), 0));
}

async function hydrate(el, page) {
  if (page.left) return;
  const root = el.querySelector(".figure-view");
  // view: what mount returned; mod: the view's module; linked: it shows a linked state (opened
  // from a link, or its control pushed one); linking: the recompute a link asked for, if on its way
  const figure = { ...figureContext(el, root, runtime, () => nearby.has(el)), view: null, mod: null, linked: false, linking: null };
  hydrated.set(el, figure);
  try {
    figure.mod = await import(`../figures/${el.dataset.figure}.js`);
    if (page.left) return;
    show(el, figure, page.link?.id === el.id ? page.link : null, page);
    el.dataset.state = "prerendered";
    linkControl(el, () => linkHere(el, figure, page));
  } catch (err) {
    // Show the static fallback again (site.css hides it while a view can load) and say why the
    // interactive view is missing.
    el.dataset.state = "static";
    el.dataset.viewFailed = "";
    figure.ctx.note("This figure could not start its interactive view: " + err.message);
    console.error(err);
  }
}

/** (Re)mount figure's view on `data` at the state `index` asks for (null: its own opening state),
 *  keeping focus in the figure if it was there. Returns what became of the index (context.js). */
function mount(el, figure, data, index) {
  const root = el.querySelector(".figure-view");
  const focusables = () => [...root.querySelectorAll("a[href], button, input, select, textarea, [tabindex]")];
  const focused = focusables().indexOf(document.activeElement);
  figure.ctx.cancelJob();
  figure.view?.offscreen?.();
  figure.link.open(data, index);
  if (data === figure.link.embedded && el.dataset.state === "live") el.dataset.state = "prerendered";
  root.replaceChildren();
  figure.view = figure.mod.mount(root, figure.ctx);
  if (nearby.has(el)) figure.view?.onscreen?.();
  if (focused >= 0) (focusables()[focused] ?? root.querySelector("[data-key-control]"))?.focus({ preventScroll: true });
  return figure.link.outcome();
}

/**
 * Show figure `el` in the state `link` names (readLink's), or, with none, in its own opening state.
 * Options equal to the page's own draw from the embedded data; other options are the model's to
 * check, in the worker, and only a live figure asks it. Anything refused leaves the figure in its
 * opening state, its note saying why in one line (text only: nothing of an address is markup).
 */
function show(el, figure, link, page) {
  const { ctx } = figure;
  const embedded = figure.link.embedded;
  const refuse = (why) => ctx.note(refusal(why));
  figure.linking = null;
  figure.linked = Boolean(link);
  if (!link || link.refused) {
    mount(el, figure, embedded, null);
    if (link) refuse(link.refused);
    else if (ctx.figure.querySelector(".figure-note")?.textContent.startsWith(REFUSED)) ctx.note("");
    return;
  }
  const { p, i } = link.state;
  const params = { ...embedded.params, ...p };
  const stepRefused = () => refuse("its step is not one of this figure's");
  if (same(params, embedded.params)) {
    const outcome = mount(el, figure, embedded, i);
    if (outcome === "refused" || outcome === "unused") stepRefused();
    else ctx.note("");
    return;
  }
  mount(el, figure, embedded, null); // drawn at once, while the worker checks the link's options
  if (!el.hasAttribute("data-live")) {
    refuse("this figure shows only the options its page gives it");
    return;
  }
  const token = figure.linking = {};
  const root = el.querySelector(".figure-view");
  // A reader who changes the figure before the answer comes keeps their own change.
  const touched = (event) => {
    if (event.type === "keydown" && ["Tab", "Shift"].includes(event.key)) return;
    if (figure.linking === token) figure.linking = null;
  };
  const events = ["input", "pointerdown", "keydown"];
  for (const type of events) root.addEventListener(type, touched, { capture: true });
  figure.link.recompute(params, refusal).then((out) => {
    for (const type of events) root.removeEventListener(type, touched, { capture: true });
    if (figure.linking !== token || page.left) return;
    figure.linking = null;
    if (!out) return; // the note says why
    try {
      const outcome = mount(el, figure, out, i);
      if (outcome === "refused" || outcome === "unused") {
        mount(el, figure, embedded, null);
        stepRefused();
        return;
      }
      ctx.markLive();
    } catch (err) {
      console.error(err);
      mount(el, figure, embedded, null);
      refuse("this figure could not draw it");
    }
  });
}

/** The figure's "Link to this view": its state's address, made the page's as a new history entry
 *  (unless it is the address already). Returns { url, job }: job when a model trained in the page
 *  is shown, which no link holds (the address then opens the figure at its page's options). */
function linkHere(el, figure, page) {
  const state = figure.link.state();
  const url = linkTo(el, state ?? {});
  if (url !== location.href) pushHere(url);
  figure.linked = true;
  page.raw = new URLSearchParams(location.search).get(PARAM);
  page.link = readLink(location.search);
  return { url, job: state === null };
}

// Back or forward to another entry of the page shown: the figure its link names shows that state,
// and a figure that showed a linked state goes back to its own. Another page's entry is nav.js's
// move, and that page's figures read its link as they enter.
addEventListener("popstate", () => {
  const page = shownPage;
  if (!page || page.left || location.pathname !== page.path) return;
  const raw = new URLSearchParams(location.search).get(PARAM);
  if (raw === page.raw) return;
  page.raw = raw;
  page.link = readLink(location.search);
  for (const [el, figure] of hydrated) {
    if (!figure.mod || el.dataset.viewFailed !== undefined) continue;
    if (page.link?.id === el.id) {
      show(el, figure, page.link, page);
      // Where the browser does not restore this entry's scroll (nav.js's in-place pages), the
      // figure whose state changed is brought on screen.
      const { top, bottom } = el.getBoundingClientRect();
      if (bottom < 0 || top > innerHeight) el.scrollIntoView({ block: "start" });
    } else if (figure.linked) show(el, figure, null, page);
  }
  sayUnknown(page);
});

/** A link naming no figure of the page: one line at the top of the page, since no figure can say it. */
function sayUnknown(page) {
  document.querySelector("[data-link-note]")?.remove();
  const link = page.link;
  if (!link || (link.id && document.getElementById(link.id)?.matches("[data-figure]"))) return;
  const note = document.createElement("p");
  note.className = "figure-note";
  note.setAttribute("role", "status");
  note.dataset.linkNote = "";
  note.textContent = refusal(link.id === null ? link.refused : "this page has no figure of that name");
  (document.querySelector("main h1") ?? document.querySelector("main"))?.after(note);
}

// The page going away (closed, or into the back-forward cache) stops every job.
addEventListener("pagehide", () => {
  for (const { ctx } of [...hydrated.values(), ...[...carried.values()].map((c) => c.figure)]) ctx.cancelJob();
});
// Observes a figure once it has hydrated, so each entry's figure is in `hydrated`.
const observer = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    const figure = hydrated.get(entry.target);
    if (!figure) continue; // of a page already left
    const { view, tryWarm } = figure;
    if (entry.isIntersecting) {
      if (entry.target.hasAttribute("data-live")) startSoon();
      nearby.add(entry.target);
      tryWarm();
      view?.onscreen?.();
    } else {
      nearby.delete(entry.target);
      view?.offscreen?.(); // its job, if any, goes on: running.js shows it while it is out of sight
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
    if (hydrated.has(el)) { // carried back from an earlier visit (bringBack): hydrated and running already
      observer.observe(el);
      continue;
    }
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

/** The page is left: nothing of it is observed, every view hears offscreen, and a figure whose job
 *  runs is carried (its job goes on) until the reader comes back to the page. */
function leave(page) {
  page.left = true;
  document.querySelector("[data-link-note]")?.remove();
  for (const [el, figure] of hydrated) {
    figure.view?.offscreen?.();
    observer.unobserve(el);
    if (figure.ctx.running) carried.set(page.path + "#" + el.id, { el, figure });
  }
  hydrated.clear();
  nearby.clear();
}

/** A figure carried from an earlier visit to this page takes the place of its fresh copy `el`,
 *  drawn as its job (running or done) left it. Returns the element now in the page. */
function bringBack(el, path) {
  const key = path + "#" + el.id;
  const back = carried.get(key);
  if (!back) return el;
  carried.delete(key);
  el.replaceWith(back.el);
  hydrated.set(back.el, back.figure);
  return back.el;
}

eachPage(() => {
  const figures = [...document.querySelectorAll("[data-figure]")].map((el) => bringBack(el, location.pathname));
  if (!figures.length) return null;
  const raw = new URLSearchParams(location.search).get(PARAM);
  const page = { left: false, path: location.pathname, raw, link: readLink(location.search) };
  shownPage = page;
  sayUnknown(page);
  enter(figures, page);
  return () => leave(page);
});
