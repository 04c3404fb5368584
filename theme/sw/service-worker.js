// The service worker (built as sw.js at the site's root, after `const MANIFEST = {...}`: every
// file of this build with its size and sha256, and the build's version, a hash of them all).
// One cache per version holds only this build's files, each checked against its hash, so a page
// never mixes files of two builds. "Save for offline" (assets/js/offline.js) asks it to fetch
// everything; files fetched while reading are kept too, so the runtime downloads once per visit.
// A new build installs beside the old one, carries the saved copy over (unchanged files from the
// old cache, each hashed again, the rest downloaded), waits until the reader updates, then drops
// the old caches. A file fetched on a cache miss reaches the page only if it is this build's (by
// hash); otherwise a checked copy from an older cache, or a note that offers the update.
/* global MANIFEST */

const PREFIX = "attention:" + self.registration.scope + ":";
const CACHE = PREFIX + MANIFEST.version;
const SAVED = "__saved__"; // a marker entry: everything was saved for offline reading
const files = MANIFEST.files; // dist-relative path -> [size, sha256]

function keyOf(url) {
  const u = new URL(url);
  if (u.origin !== location.origin || !u.href.startsWith(self.registration.scope)) return null;
  const path = decodeURIComponent(u.pathname.slice(new URL(self.registration.scope).pathname.length)) || "index.html";
  return path in files ? path : null;
}

const urlOf = (path) => new URL(path, self.registration.scope).href;

async function hex(buffer) {
  const digest = await crypto.subtle.digest("SHA-256", buffer);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** What the cache keeps: the checked bytes, their type and hash (not the transfer's encoding or length). */
function kept(body, response, path) {
  const headers = { "content-type": response.headers.get("content-type") || "application/octet-stream",
                    "x-sha256": files[path][1] };
  return new Response(body, { status: 200, headers });
}

/** Fetch `path` from the network, check it against the manifest and keep it; rejects on a mismatch. */
async function download(cache, path) {
  const response = await fetch(urlOf(path), { cache: "no-store" });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  const body = await response.arrayBuffer();
  if ((await hex(body)) !== files[path][1]) {
    throw new Error(`${path} on the server is not this version's (the site was updated: reload the page)`);
  }
  await cache.put(urlOf(path), kept(body, response, path));
  return body.byteLength;
}

/** A copy of `path` as this build has it from an older cache of this site, hashed again (a stored
 *  header is only a claim), or null. */
async function fromOlder(path) {
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const old = await (await caches.open(name)).match(urlOf(path));
    if (!old) continue;
    const body = await old.arrayBuffer();
    if ((await hex(body)) === files[path][1]) return kept(body, old, path);
  }
  return null;
}

/** The answer to a request whose file on the server is not this build's: the site was updated (or
 *  the file tampered with) since this page was loaded. Look for the new service worker, and say so. */
function notThisVersion(request) {
  self.registration.update().catch(() => {});
  const text = "This site was updated after this page was opened, so this part of it is not available "
    + "in the version you are reading. Choose \u201cA new version is ready: update\u201d at the foot of the "
    + "page, or close every tab of this site and open it again.";
  if (request.mode !== "navigate") return new Response(text, { status: 503, headers: { "content-type": "text/plain; charset=utf-8" } });
  const page = `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">`
    + `<title>Site updated</title><main><h1>Site updated</h1><p>${text}</p></main></html>`;
  return new Response(page, { status: 503, headers: { "content-type": "text/html; charset=utf-8",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'" } });
}

/** The paths not yet in this version's cache. */
async function missing(cache) {
  const have = new Set((await cache.keys()).map((r) => r.url));
  return Object.keys(files).filter((p) => !have.has(urlOf(p)));
}

/** Fill this version's cache: from an older cache where the hash matches, else from the network. */
async function saveAll(onProgress = () => {}) {
  const cache = await caches.open(CACHE);
  const todo = await missing(cache);
  const total = Object.values(files).reduce((n, f) => n + f[0], 0);
  let done = total - todo.reduce((n, p) => n + files[p][0], 0);
  onProgress(done, total);
  let next = 0;
  async function lane() {  // a few downloads at a time
    while (next < todo.length) {
      const path = todo[next++];
      const old = await fromOlder(path);
      if (old) await cache.put(urlOf(path), old);
      else await download(cache, path);
      done += files[path][0];
      onProgress(done, total);
    }
  }
  await Promise.all([lane(), lane(), lane(), lane()]);
  await cache.put(urlOf(SAVED), new Response(MANIFEST.version));
  return total;
}

async function wasSaved() {
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && await (await caches.open(name)).match(urlOf(SAVED))) return true;
  }
  return false;
}

self.addEventListener("install", (event) => {
  // A reader who saved the previous build gets this one saved before it can take over.
  event.waitUntil(wasSaved().then((saved) => (saved ? saveAll() : caches.open(CACHE))));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
  })());
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" && request.method !== "HEAD") return;
  const path = keyOf(request.url);
  if (!path) return; // not this build's: the network, as without a service worker
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(urlOf(path));
    if (hit) return request.method === "HEAD" ? new Response(null, { status: 200, headers: hit.headers }) : hit;
    const response = await fetch(request);
    if (!response.ok || request.method === "HEAD") return response;
    // Checked against the manifest before the page sees it: this build's file is kept and served;
    // another build's (or a tampered one) never reaches a page of this build.
    let body = await response.arrayBuffer();
    let fresh = response;
    if ((await hex(body)) !== files[path][1]) {
      // The browser's HTTP cache may have answered with an older copy: ask the server itself once.
      const again = await fetch(urlOf(path), { cache: "reload" }).catch(() => null);
      if (again?.ok) { fresh = again; body = await again.arrayBuffer(); }
    }
    if ((await hex(body)) === files[path][1]) {
      const mine = kept(body, fresh, path);
      event.waitUntil(cache.put(urlOf(path), mine.clone()).catch(() => {}));
      return mine;
    }
    const old = await fromOlder(path);
    if (old) {
      event.waitUntil(cache.put(urlOf(path), old.clone()).catch(() => {}));
      return old;
    }
    return notThisVersion(request);
  })());
});

self.addEventListener("message", (event) => {
  const reply = (msg) => event.source?.postMessage({ ...msg, version: MANIFEST.version });
  const msg = event.data || {};
  if (msg.type === "status") {
    event.waitUntil((async () => {
      const cache = await caches.open(CACHE);
      const saved = Boolean(await cache.match(urlOf(SAVED))) && (await missing(cache)).length === 0;
      const total = Object.values(files).reduce((n, f) => n + f[0], 0);
      reply({ type: "status", saved, total });
    })());
  } else if (msg.type === "save") {
    let last = 0;
    event.waitUntil(saveAll((done, total) => {
      const now = Date.now();
      if (now - last > 100 || done === total) { last = now; reply({ type: "progress", done, total }); }
    }).then((total) => reply({ type: "saved", total }),
      (err) => reply({ type: "error", message: String(err.message || err).slice(0, 200) })));
  } else if (msg.type === "skip-waiting") {
    self.skipWaiting();
  }
});
