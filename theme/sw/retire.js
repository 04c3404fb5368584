// sw.js when offline reading is turned off ([site] offline = false in site.toml): a reader's
// browser keeps running the worker it registered for as long as sw.js answers, and keeps it even
// if sw.js is deleted, so the file stays and becomes this worker, which takes over at once,
// deletes this site's caches, unregisters itself and reloads the pages it controlled, which then
// come from the network (the documented way to remove a service worker: w3c/ServiceWorker#614).

const PREFIX = "attention:" + self.registration.scope + ":"; // this site's caches (service-worker.js), no other's

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX)) await caches.delete(name);
    }
    await self.registration.unregister();
    for (const client of await self.clients.matchAll({ type: "window" })) client.navigate(client.url);
  })());
});
