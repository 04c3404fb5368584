// Search across chapters with Pagefind (the index is built with the site: builder/search.py).
// Pagefind's own script searches in its worker (WebAssembly there, so the page's policy stays
// strict) and fetches only the site's files, so search works offline too. This module is the
// interface: a labelled field, a status line that says how many chapters match, and a list of
// links with the matching passage, built from text nodes (the excerpt is never set as HTML).
import { eachPage } from "./page.js";

let input = null; // the search page's field, status line and list while it is shown (page.js)
let status = null;
let list = null;
const MAX_RESULTS = 20;
const SITE = new URL("../../../", import.meta.url); // the site's root (this file lies in assets/<digest>/js/), under any base path
let pagefind = null; // a promise of Pagefind's module, once asked for

/** The excerpt's words with Pagefind's <mark> kept as <mark> and everything else as text. */
function excerpt(html) {
  const p = document.createElement("p");
  p.className = "search-excerpt";
  const doc = new DOMParser().parseFromString(html, "text/html"); // inert: no script runs, nothing loads
  for (const node of doc.body.childNodes) {
    if (node.nodeName === "MARK") {
      const mark = document.createElement("mark");
      mark.textContent = node.textContent;
      p.append(mark);
    } else {
      p.append(node.textContent);
    }
  }
  return p;
}

/** A result's URL, given by Pagefind from the site's root ("/page.html#part"), made relative to it. */
function link(url) {
  return new URL(url.replace(/^\/+/, ""), SITE).href;
}

function item(data) {
  const li = document.createElement("li");
  const best = data.sub_results?.[0];
  const a = document.createElement("a");
  a.href = link(best?.url || data.url);
  a.textContent = best && best.title !== data.meta.title ? `${data.meta.title}: ${best.title}` : data.meta.title;
  const title = document.createElement("h2");
  title.className = "search-result-title";
  title.append(a);
  li.append(title, excerpt(best?.excerpt || data.excerpt));
  return li;
}

async function run(term) {
  const query = term.trim();
  const url = new URL(location.href);
  if (query) url.searchParams.set("q", query); else url.searchParams.delete("q");
  history.replaceState(history.state, "", url); // the state is nav.js's: the scroll to restore
  if (!query) {
    list.replaceChildren();
    status.textContent = "Type a word to search every chapter.";
    return;
  }
  const found = await (await pagefind).debouncedSearch(query, {}, 200);
  if (found === null) return; // a newer query superseded this one
  const results = await Promise.all(found.results.slice(0, MAX_RESULTS).map((r) => r.data()));
  if (input.value.trim() !== query) return;
  list.replaceChildren(...results.map(item));
  const n = found.results.length;
  status.textContent = n === 0 ? `No chapter mentions “${query}”.`
    : `${n} ${n === 1 ? "chapter mentions" : "chapters mention"} “${query}”` +
      (n > MAX_RESULTS ? `; the first ${MAX_RESULTS} are listed.` : ".");
}

/** Pagefind's script, imported on first use: a page that only shows the field loads nothing more. */
function engine() {
  pagefind ??= import("../../../pagefind/pagefind.js").then(async (module) => {
    await module.options({ baseUrl: "/" }); // result URLs from the site's root: link() resolves them
    await module.init();
    return module;
  });
  return pagefind;
}

async function search(term) {
  try {
    await engine();
  } catch (err) {
    status.textContent = `Search could not load (${err.message}); the contents list every chapter.`;
    return;
  }
  await run(term);
}

eachPage(() => {
  const form = document.querySelector("[data-search]");
  if (!form) return;
  const button = form.querySelector("button");
  input = form.querySelector("input");
  status = document.querySelector("[data-search-status]");
  list = document.querySelector("[data-search-results]");
  input.disabled = button.disabled = false;
  form.addEventListener("submit", (event) => { event.preventDefault(); search(input.value); });
  input.addEventListener("input", () => search(input.value));
  input.value = new URL(location.href).searchParams.get("q") || "";
  if (input.value) search(input.value); else status.textContent = "Type a word to search every chapter.";
  input.focus();
});
