// Links between the site's pages are followed in place: the new page is fetched and its <main>
// replaces this one's, so the document, and with it the Python workers (and a Python already
// booted), survives the move. What a full load would give is kept: the title, the URL and history
// (back and forward too, each page's scroll restored), the fragment, focus on the new page's heading
// (or the fragment's target) and its title announced. The new page's scripts: classic ones run again
// (each is written for one page); a module runs once per document, so the ones already here follow
// the page through page.js (leave, then enter), and the ones this document has not run yet are added.
// Anything else is an ordinary page load: a link outside the site or to a file that is no page, a
// fetch that fails, a page of another build than this one (its scripts and data would not match the
// modules already running) or with other stylesheets (the print edition). Without JavaScript, or
// opened as a file, links are plain links.
// A page is fetched ahead once the reader shows the intent to follow its link (the pointer resting
// on it, a touch, focus: "Fetched ahead" below), and the click uses that response; the modules that
// set up a page hear of it (onAhead: figures.js loads its live figures' views and prepares their
// models), so the next page's work starts before it appears; a page fetched by the click is told
// of too, before it is put in place.
import { enterPage, leavePage } from "./page.js";

const SITE = new URL("../../../", import.meta.url); // this file lies in assets/<digest>/js/, every page in the root
const PAGE = /^([^/]+\.html)?$/; // a page's path inside it (the root itself is the contents)
const announcer = document.querySelector("[data-page-announce]");
const scrolls = new Map(); // history entry's key -> where the reader was (position()), for back and forward
let shown = location.pathname; // the page on screen: a fragment or a query does not change it
let key = newKey(); // the shown history entry's
let moving = null; // the move under way: an AbortController

function newKey() {
  return Math.random().toString(36).slice(2);
}

const buildOf = (doc) => doc.querySelector('meta[name="attention-build"]')?.content;
const sheets = (doc) => [...doc.querySelectorAll('link[rel="stylesheet"]')].map((l) => l.getAttribute("href")).join(" ");

function ours(url) {
  return url.origin === SITE.origin && url.pathname.startsWith(SITE.pathname)
    && PAGE.test(url.pathname.slice(SITE.pathname.length));
}

/** Whether `doc` can replace this page in place: same build, same stylesheets, a <main>. */
function fits(doc) {
  const build = buildOf(document);
  return Boolean(build) && buildOf(doc) === build && sheets(doc) === sheets(document) && doc.querySelector("main") !== null;
}

/** A script as the parser would have made it: one made by DOMParser never runs. */
function fresh(script) {
  const s = document.createElement("script");
  for (const { name, value } of script.attributes) s.setAttribute(name, value);
  s.async = false; // classic ones in their order
  return s;
}

/** The page at `url`, parsed (inert: nothing runs or loads); throws on a failed fetch or what is no page. */
async function fetchPage(url, signal) {
  const response = await fetch(url, { signal });
  if (!response.ok || !/^text\/html/.test(response.headers.get("content-type") || "")) throw new Error(response.status);
  return new DOMParser().parseFromString(await response.text(), "text/html");
}

const loaded = (script) => new Promise((resolve) => { script.onload = script.onerror = resolve; });

async function go(url, { push, scroll = null }) {
  moving?.abort();
  stopRestoring();
  const mine = moving = new AbortController();
  const early = take(url); // the page fetched ahead as the reader showed the intent to follow the link
  if (early) mine.signal.addEventListener("abort", () => early.controller.abort());
  let doc;
  try {
    doc = await (early ? early.doc : fetchPage(url, mine.signal));
  } catch {
    if (!mine.signal.aborted) fullLoad(url, push, scroll);
    return;
  }
  if (mine !== moving) return;
  if (!fits(doc)) return fullLoad(url, push, scroll);
  if (!early?.told) tell(doc); // fetched by the click (or before, but not yet told): its work starts before the swap
  const hash = url.hash;
  if (push) {
    const here = position();
    history.replaceState({ ...history.state, key, scroll: here }, "");
    scrolls.set(key, here);
    key = newKey();
    url.hash = ""; // set below as a fragment navigation, which is what scrolls to it and updates :target
    history.pushState({ key }, "", url.href.replace(/#$/, ""));
    history.scrollRestoration = "manual"; // this entry's scroll is ours to restore (restoreScroll)
  }
  shown = url.pathname; // not location's: a back or forward may have changed it while this page came
  await swap(doc, mine);
  if (mine !== moving) return;
  moving = null;
  arrive(hash, push ? null : scroll);
}

/** A new history entry for the page shown, at `url` (the same page: a figure's linked view,
 *  figures.js). Its own key, so a move from it keeps its scroll apart from the entry before it;
 *  going back to that entry is a popstate of the page shown, which onPopState leaves to the page. */
export function pushHere(url) {
  const here = position();
  history.replaceState({ ...history.state, key, scroll: here }, "");
  scrolls.set(key, here);
  key = newKey();
  history.pushState({ key }, "", url);
}

function fullLoad(url, push, scroll = null) {
  if (push) return location.assign(url);
  // Back or forward: the address, and the history entry, are already the new page's, while the old
  // page is still on screen: the entry keeps the place to restore, not the old page's (pagehide).
  history.replaceState({ ...history.state, scroll }, "");
  reloading = true;
  location.reload();
}

let reloading = false; // fullLoad's reload is under way: the page on screen is not its entry's

/** The new page in place of the old: title, <main>, data and scripts; then its modules enter it. A
 *  preload in its head is left out: the page is already loaded, and its fonts load as they are used. */
async function swap(doc, mine) {
  leavePage();
  document.title = doc.title;
  const description = document.querySelector('meta[name="description"]');
  const next = doc.querySelector('meta[name="description"]');
  if (description && next) description.content = next.content;
  const main = document.adoptNode(doc.querySelector("main"));
  const classic = [];
  for (const old of main.querySelectorAll("script[src]:not([type=module])")) {
    const s = fresh(old);
    old.replaceWith(s);
    classic.push(s);
  }
  document.querySelector("main").replaceWith(main);
  for (const data of document.querySelectorAll('body > script[type="application/json"]')) data.remove();
  const ran = new Set([...document.querySelectorAll("script[type=module][src]")].map((s) => s.src));
  const modules = [];
  for (const script of doc.querySelectorAll("body > script")) {
    if (script.type === "application/json") document.body.append(document.adoptNode(script));
    else if (script.type !== "module" && script.src) classic.push(fresh(script));
    else if (script.type === "module" && !ran.has(new URL(script.getAttribute("src"), document.baseURI).href)) modules.push(fresh(script));
  }
  const running = classic.map(loaded);
  for (const s of classic) if (!s.isConnected) document.body.append(s);
  await Promise.all(running);
  if (mine !== moving) return;
  enterPage();
  for (const s of modules) document.body.append(s); // each enters the page as it runs (page.js)
}

/** Scroll (to `scroll`, the fragment or the top), focus the new page's heading, announce it. */
function arrive(hash, scroll) {
  let target = null;
  if (hash) {
    location.replace(hash); // a fragment navigation: scrolls to it, updates :target (popstate keeps the key)
    target = document.getElementById(decodeURIComponent(hash.slice(1)));
  }
  if (scroll !== null) restoreScroll(scroll);
  else if (!hash) scrollTo(0, 0);
  const focus = target ?? document.querySelector("main h1") ?? document.querySelector("main");
  if (!focus.matches("a[href], button, input, select, textarea, [tabindex]")) focus.tabIndex = -1;
  focus.focus({ preventScroll: true });
  if (announcer) {
    announcer.textContent = "";
    requestAnimationFrame(() => { announcer.textContent = document.title; });
  }
  performance.mark("attention:page-shown"); // benchmarks/navigation.py measures from here
}

/** Where the reader is: the element with an id whose top edge is nearest the top of the screen
 *  (the last one above it or the first one below) and how far from it, as well as the scroll. The
 *  figures above it may not be drawn yet when the page comes back (each draws as it nears the
 *  screen), so the page above is shorter than it was: the element finds the place where a number
 *  of pixels would not. The nearest one, as the page between it and the screen may have changed
 *  too (an exercise's editor loaded, a figure's note gone). */
function position() {
  let anchor = null;
  let top = 0;
  for (const el of document.querySelectorAll("main [id]")) {
    const box = el.getBoundingClientRect();
    if (!box.height) continue; // not laid out (hidden): no place of its own
    if (box.top > 0 && anchor && box.top > -top) break; // the one above is nearer
    anchor = el;
    top = box.top;
    if (top > 0) break;
  }
  return { y: scrollY, anchor: anchor?.id ?? null, offset: anchor ? -top : 0 };
}

/** Back at `pos` (position()'s), and again as the page grows (its figures draw as they near the
 *  screen), until the reader scrolls or RESTORING_MS pass, as browsers do on a load. */
function restoreScroll(pos) {
  stopRestoring();
  const place = () => {
    const el = pos.anchor && document.getElementById(pos.anchor);
    scrollTo(0, el ? el.getBoundingClientRect().top + scrollY + pos.offset : pos.y);
  };
  place();
  const stop = () => {
    growing.disconnect();
    clearTimeout(timer);
    for (const type of READER_SCROLLS) removeEventListener(type, stop);
    if (stopRestoring === stop) stopRestoring = () => {};
  };
  const growing = new ResizeObserver(place);
  growing.observe(document.body);
  const timer = setTimeout(stop, RESTORING_MS);
  for (const type of READER_SCROLLS) addEventListener(type, stop, { passive: true });
  stopRestoring = stop;
}

// Ends the restoring under way, if any: a page that leaves (or a newer restore) takes its place; the
// old page's place would otherwise be applied to the new page as it grows.
let stopRestoring = () => {};

// How long a restored place is kept while the page grows: a figure's view loads as it nears the
// screen, which a loaded phone (or a loaded 2-core test machine, where 3 s probably fell short)
// can take seconds to do; any scroll of the reader's ends it sooner.
const RESTORING_MS = 10_000;
const READER_SCROLLS = ["wheel", "touchstart", "keydown", "pointerdown"];

/** The link `target` is in, if nav.js would follow it in place: a link to another page of the
 *  site, opened in this tab (a link to another site, or to a part of this page, is the browser's). */
function followable(target) {
  const a = target?.closest?.("a[href]");
  if (!(a instanceof HTMLAnchorElement) || (a.target && a.target !== "_self") || a.hasAttribute("download")) return null;
  if (a.type && a.type !== "text/html") return null;
  const url = new URL(a.href);
  return ours(url) && url.pathname !== shown ? a : null;
}

function onClick(event) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const a = followable(event.target);
  if (!a) return;
  event.preventDefault();
  go(new URL(a.href), { push: true });
}

// --- Fetched ahead ----------------------------------------------------------------------------
// A reader's intent to follow a link (the pointer resting on it for INTENT_MS, a touch, keyboard
// focus resting on it) fetches and parses its page ahead, as instant.page and mkdocs-material do;
// the click then uses that response instead of fetching again, and the modules that set up a page
// (figures.js: its live figures' views and models) hear of it through onAhead, so the new page's
// work starts before it appears. One page ahead at a time, held by what shows the intent (the
// pointer, focus, a touch): it is forgotten (its fetch aborted) once none holds it any more (the
// pointer and focus both off the link, a touch that scrolls instead, or UNUSED_MS after a touch
// with no click). While focus rests on a link, a pointer passing over another does not take its
// place: the page scrolled to the focused link can move other links under a resting pointer, and
// Enter follows the focused one. Nothing is fetched ahead on a connection that asks to save data
// or is slow, or while a move is under way.
const INTENT_MS = 65; // instant.page's: a pointer passing over a link on its way elsewhere fetches nothing
const UNUSED_MS = 3000;
const listeners = [];
let ahead = null; // { href, a, by, controller, doc: a promise of the parsed page, timer, told: onAhead's heard of it }
let waiting = null; // { a, by, timer }: an intent not yet held for INTENT_MS; by: the Set of what holds it

/** fn(doc) hears of each page about to be shown in place (it fits), parsed and inert: fetched ahead
 *  on the reader's intent (it may then never be shown), or else fetched for the move, before the swap. */
export function onAhead(fn) {
  listeners.push(fn);
}

function tell(doc) {
  for (const fn of listeners) {
    try { fn(doc); } catch (err) { console.error(err); }
  }
}

const withoutHash = (url) => url.href.replace(/#.*$/, "");

function frugal() {
  const c = navigator.connection;
  return Boolean(c && (c.saveData || /(^|-)2g$/.test(c.effectiveType || "")));
}

/** The page ahead for `url`, taken (the move uses it), or null. Another page ahead is forgotten. */
function take(url) {
  const early = ahead?.href === withoutHash(url) ? ahead : null;
  if (early) { clearTimeout(early.timer); ahead = null; }
  else forget();
  return early;
}

function fetchAhead(a, by) {
  const href = withoutHash(new URL(a.href));
  if (ahead?.href === href) {
    ahead.a = a;
    for (const b of by) ahead.by.add(b);
    clearTimeout(ahead.timer);
    return;
  }
  forget();
  const controller = new AbortController();
  const doc = fetchPage(new URL(href), controller.signal);
  ahead = { href, a, by, controller, doc, timer: 0, told: false };
  const mine = ahead;
  doc.then((parsed) => {
    if (ahead !== mine || !fits(parsed)) return;
    mine.told = true;
    tell(parsed);
  }, () => { if (ahead === mine) ahead = null; });
}

/** Forget the page ahead (and an intent still waiting), if it is `a`'s (or whichever, with none). */
function forget(a = null) {
  if (waiting && (!a || waiting.a === a)) { clearTimeout(waiting.timer); waiting = null; }
  if (!ahead || (a && ahead.a !== a)) return;
  clearTimeout(ahead.timer);
  ahead.controller.abort();
  ahead = null;
}

/** The intent on link `a`, waiting or fetched ahead, if there is one. */
const intentOn = (a) => (waiting?.a === a ? waiting : ahead?.a === a ? ahead : null);

/** `by` ("pointer", "focus" or "touch") shows the intent to follow the link `target` is in. */
function intent(target, by) {
  const a = followable(target);
  if (!a || moving || frugal()) return;
  const held = intentOn(a);
  if (held) {
    held.by.add(by);
    if (held === ahead) clearTimeout(ahead.timer); // a touch's UNUSED_MS: held again
    return;
  }
  if (by === "pointer" && (waiting ?? ahead)?.by.has("focus")) return;
  if (waiting) forget(waiting.a);
  if (by === "touch") return fetchAhead(a, new Set([by]));
  const mine = waiting = { a, by: new Set([by]), timer: 0 };
  mine.timer = setTimeout(() => { waiting = null; fetchAhead(a, mine.by); }, INTENT_MS);
}

/** `by` no longer shows the intent to follow `a` (after `afterMs`, for a page already fetched). */
function intentEnds(a, by, afterMs = 0) {
  const held = intentOn(a);
  if (!held) return;
  if (afterMs && held === ahead) {
    clearTimeout(ahead.timer);
    ahead.timer = setTimeout(() => intentEnds(a, by), afterMs);
    return;
  }
  held.by.delete(by);
  if (!held.by.size) forget(a);
}

const pointer = (e) => (e.pointerType === "mouse" ? "pointer" : "touch");

function listenForIntent() {
  document.addEventListener("pointerover", (e) => intent(e.target, pointer(e)), { passive: true });
  document.addEventListener("pointerout", (e) => {
    const a = e.target.closest?.("a[href]");
    if (!a || a.contains(e.relatedTarget)) return; // still on the link
    if (e.pointerType === "mouse") intentEnds(a, "pointer");
    else intentEnds(a, "touch", UNUSED_MS); // a touch leaves the link as it lifts, before its click
  }, { passive: true });
  document.addEventListener("pointercancel", (e) => { const a = e.target.closest?.("a[href]"); if (a) intentEnds(a, "touch"); }, { passive: true });
  document.addEventListener("focusin", (e) => intent(e.target, "focus"));
  document.addEventListener("focusout", (e) => { const a = e.target.closest?.("a[href]"); if (a) intentEnds(a, "focus"); });
}

function onPopState(event) {
  scrolls.set(key, position());
  if (!event.state?.key) history.replaceState({ ...event.state, key: newKey() }, ""); // a fragment's entry
  key = history.state.key;
  // A fragment of the page shown: the browser scrolls to it. Back to the page shown while a move to
  // another is under way is a move too: it replaces that one, which would show the other page here.
  if (location.pathname === shown && !moving) return;
  go(new URL(location.href), { push: false, scroll: scrolls.get(key) ?? event.state?.scroll ?? { y: 0 } });
}

if (history.pushState && window.DOMParser) {
  // The scroll of a page shown in place is this module's to restore (its entry's scrollRestoration
  // is manual); a reload or a return from another site restores it here too, from the entry's state
  // written as the document goes. An entry of a full load keeps the browser's restoring: set to
  // manual there, Chromium never activated a waiting service worker for the page (the offline
  // update, test_offline.py).
  history.replaceState({ ...history.state, key }, "");
  const { type } = performance.getEntriesByType("navigation")[0] ?? {};
  const y = history.state.scroll;
  if (type !== "navigate" && y && history.scrollRestoration === "manual") restoreScroll(y);
  addEventListener("pagehide", () => { if (!reloading) history.replaceState({ ...history.state, scroll: position() }, ""); });
  addEventListener("pageshow", () => { reloading = false; }); // back from the browser's cache of pages
  document.addEventListener("click", onClick);
  addEventListener("popstate", onPopState);
  listenForIntent();
}
