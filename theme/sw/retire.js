// sw.js when offline reading is turned off ([site] offline = false in site.toml): a reader's
// browser keeps running the worker it registered for as long as sw.js answers, and keeps it even
// if sw.js is deleted, so the file stays and becomes this worker. As soon as it installs it deletes
// this site's caches and unregisters, so the reader's next page comes from the network; if it gets
// to take over the open pages, it reloads them at once (the documented way to remove a service
// worker: w3c/ServiceWorker#614). It does not wait for activation, which a browser may hold back
// while the old worker still serves the open page.

const PREFIX = "attention:" + self.registration.scope + ":"; // this site's caches (service-worker.js), no other's

async function retire() {
  self.registration.unregister(); // not awaited: it settles only as the pages it serves let it
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX)) await caches.delete(name);
  }
}

self.addEventListener("install", (event) => {
  self.skipWaiting();
  event.waitUntil(retire());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(retire().then(async () => {
    for (const client of await self.clients.matchAll({ type: "window" })) client.navigate(client.url);
  }));
});
