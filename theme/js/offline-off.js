// Pages of a site whose offline reading is turned off ([site] offline = false). sw.js then retires
// the worker a reader registered before (theme/sw/retire.js), but the old worker, while it still
// served the page the reader had open, may have opened this site's cache again: this page, the
// first from the network, removes what is left of this site's, and never another site's on the
// same origin (the names carry the scope, as service-worker.js writes them).
const scope = new URL("./", document.baseURI).href; // every page lies at the site's root, beside sw.js

if ("serviceWorker" in navigator) {
  for (const registration of await navigator.serviceWorker.getRegistrations()) {
    if (registration.scope === scope) await registration.unregister();
  }
}
if ("caches" in self) {
  for (const name of await caches.keys()) {
    if (name.startsWith("attention:" + scope + ":")) await caches.delete(name);
  }
}
