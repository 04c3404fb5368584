// sw.js when offline reading is turned off ([site] offline = false in site.toml): a reader's
// browser keeps running the worker it registered for as long as sw.js answers, and keeps it even
// if sw.js is deleted, so the file stays and becomes this worker, which removes itself (the
// documented way to remove a service worker: w3c/ServiceWorker#614).
// It acts as it installs: it deletes this site's caches and unregisters, so the reader's next page
// comes from the network, without waiting for an activation the browser may hold back while the
// old worker serves the open page. That old worker opens its cache again on each fetch until the
// page goes; the next page (theme/js/offline-off.js) removes what it left. If this worker does get
// to take over the open pages, it reloads them at once.

const PREFIX = "attention:" + self.registration.scope + ":"; // this site's caches (service-worker.js), no other's

async function dropCaches() {
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX)) await caches.delete(name);
  }
}

self.addEventListener("install", (event) => {
  self.skipWaiting();
  self.registration.unregister(); // not awaited: it settles only as the pages it serves let it
  event.waitUntil(dropCaches());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(dropCaches().then(async () => {
    for (const client of await self.clients.matchAll({ type: "window" })) client.navigate(client.url);
  }));
});
