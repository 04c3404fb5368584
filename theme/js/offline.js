// Reading offline: registers the service worker (sw.js at the site's root), drives the "Save for
// offline" control in the footer (a progress bar and the size, then "available offline"), offers
// a new build once it is ready, and says on the offline status line when a page is read offline.
// Without service workers (file://, old browsers) the control stays hidden.
//
// The service worker (sw.js, 23 kB: the manifest of every file) registers only when the reader
// comes near the control it serves, the foot of the page (near.js), or when it is registered
// already (the reader came near it before, maybe saved the site: its update check must run on
// every visit, or a saved copy would never be offered the new build). Not on load, nor when the
// first screen is idle: either would fetch it on every first visit to a page, for a control the
// reader has not reached; what it would keep while reading, the browser's HTTP cache keeps too.
import { whenNear } from "./near.js";

const box = document.querySelector("[data-offline]");
const line = document.querySelector("[data-offline-status]");
const swURL = new URL("sw.js", document.baseURI).href; // every page lies at the site's root, beside sw.js

function mb(bytes) {
  return (bytes / 1e6).toFixed(1) + " MB";
}

function showOffline() {
  if (!line) return;
  line.hidden = navigator.onLine;
  line.textContent = navigator.onLine ? "" : "You are reading offline: this page comes from the copy saved on this device.";
}
addEventListener("online", showOffline);
addEventListener("offline", showOffline);
showOffline();

async function setUp() {
  let registration;
  try {
    registration = await navigator.serviceWorker.register(swURL);
  } catch (err) {
    console.warn("Offline reading is unavailable: the service worker did not register.", err);
    return;
  }
  const button = box.querySelector("[data-offline-save]");
  const bar = box.querySelector("progress");
  const note = box.querySelector("[data-offline-note]");
  const update = box.querySelector("[data-offline-update]");
  const sw = () => registration.active || registration.installing || registration.waiting;
  await navigator.serviceWorker.ready;
  navigator.serviceWorker.startMessages();

  navigator.serviceWorker.addEventListener("message", (e) => {
    const msg = e.data || {};
    if (msg.type === "status") {
      box.hidden = false;
      box.dataset.state = msg.saved ? "saved" : "idle";
      note.textContent = msg.saved ? `This site is available offline (${mb(msg.total)} saved on this device).`
                                   : `Save every chapter, figure and the Python runtime on this device: ${mb(msg.total)}.`;
      button.disabled = msg.saved;
    } else if (msg.type === "progress") {
      bar.hidden = false;
      bar.max = msg.total;
      bar.value = msg.done;
      note.textContent = `Saving for offline reading… ${mb(msg.done)} of ${mb(msg.total)}`;
    } else if (msg.type === "saved") {
      box.dataset.state = "saved";
      bar.value = bar.max;
      note.textContent = `This site is available offline (${mb(msg.total)} saved on this device).`;
    } else if (msg.type === "error") {
      box.dataset.state = "error";
      button.disabled = false;
      note.textContent = "Could not save for offline reading: " + msg.message;
    }
  });
  button.addEventListener("click", () => {
    button.disabled = true;
    box.dataset.state = "saving";
    registration.active.postMessage({ type: "save" });
  });

  // A new build is waiting: the reader decides when to switch (never a mix of old and new files).
  const offerUpdate = () => {
    if (!registration.waiting || !navigator.serviceWorker.controller) return;
    update.hidden = false;
    box.hidden = false;
  };
  registration.addEventListener("updatefound", () => {
    registration.installing?.addEventListener("statechange", offerUpdate);
  });
  offerUpdate();
  update.addEventListener("click", () => registration.waiting?.postMessage({ type: "skip-waiting" }));
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading || update.hidden) return;
    reloading = true;
    location.reload();
  });
  sw()?.postMessage({ type: "status" });
}

if (box && "serviceWorker" in navigator && location.protocol !== "file:") {
  navigator.serviceWorker.getRegistration(swURL)
    .then((existing) => (existing ? setUp() : whenNear(box.closest("footer") ?? box, setUp)), () => {});
}
