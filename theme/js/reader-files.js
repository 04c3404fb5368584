// Files the reader makes in this browser, kept there so they survive a reload: chapter 14's model
// trained in the page (writing-training's model_file, in the shipped model's format), by name. They
// live in IndexedDB under the site's scope (store.js), never leave the browser, and reach the
// worker as a figure's files do (context.js), by an object URL, for the figures whose model reads
// them (data-reader-given: the model's READER_GIVEN). Storage refused or full: the file is kept in
// memory for this page, and keep() says so in one line. What the store holds is checked by the
// engine as it reads it (another site on the same origin could have written it).

import { SITE_SCOPE } from "./store.js";

const STORE = "files";
const CHANGED = "readerfiles"; // a document event: a file was kept or forgotten

const memory = new Map(); // name -> { bytes: Uint8Array, info } kept or loaded; the store's copy, or the only one
const urls = new Map(); // name -> an object URL of memory's bytes, made once per file

/** The database, or a rejection when the browser refuses it (private modes, storage off). */
function open() {
  return new Promise((resolve, reject) => {
    let request;
    try {
      request = indexedDB.open(SITE_SCOPE, 1);
    } catch (err) {
      reject(err);
      return;
    }
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error("blocked"));
  });
}

/** One request on the store, in its own transaction, resolved when the transaction has committed. */
async function each(mode, act) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = act(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = tx.onabort = () => reject(tx.error ?? new Error("aborted"));
    });
  } finally {
    db.close();
  }
}

const valid = (v) => v && v.bytes instanceof Uint8Array && typeof v.info === "object" && v.info !== null;

// What the store held, read once on the first ask (a page that never asks opens no database);
// from then on memory is the truth.
let loading = null;
function loaded() {
  loading ??= open().then((db) => new Promise((resolve) => {
    const tx = db.transaction(STORE, "readonly");
    const keys = tx.objectStore(STORE).getAllKeys();
    const values = tx.objectStore(STORE).getAll();
    tx.oncomplete = () => {
      keys.result.forEach((name, i) => {
        if (typeof name === "string" && valid(values.result[i]) && !memory.has(name)) memory.set(name, values.result[i]);
      });
      resolve();
    };
    tx.onerror = tx.onabort = () => resolve();
  }).finally(() => db.close()), () => {}); // nothing kept, or storage refused: nothing to read
  return loading;
}

function changed(name) {
  const url = urls.get(name);
  if (url) URL.revokeObjectURL(url);
  urls.delete(name);
  document.dispatchEvent(new CustomEvent(CHANGED, { detail: { name } }));
}

/** The file kept under `name`, { bytes, info }, or null. */
export async function kept(name) {
  await loaded();
  return memory.get(name) ?? null;
}

/** Keep `bytes` (a Uint8Array) under `name`, with `info` (a small object: what the page says of it).
 *  Resolves with "" once stored, or the reason it is kept in memory only, in a reader's words. */
export async function keep(name, bytes, info) {
  await loaded();
  memory.set(name, { bytes, info });
  changed(name);
  try {
    await each("readwrite", (s) => s.put({ bytes, info }, name));
    return "";
  } catch (err) {
    const full = err?.name === "QuotaExceededError";
    return full ? "This browser's storage is full, so your model is kept only until you leave or reload the page."
      : "This browser does not let the site store anything, so your model is kept only until you leave or reload the page.";
  }
}

/** Forget the file kept under `name`, in memory and in the store. */
export async function forget(name) {
  await loaded();
  memory.delete(name);
  changed(name);
  try { await each("readwrite", (s) => s.delete(name)); } catch { /* nothing was stored */ }
}

/** The files of `names` the reader has kept, as a figure's message carries them: name -> object URL. */
export async function readerFiles(names) {
  await loaded();
  const out = {};
  for (const name of names) {
    const file = memory.get(name);
    if (!file) continue;
    if (!urls.has(name)) urls.set(name, URL.createObjectURL(new Blob([file.bytes])));
    out[name] = urls.get(name);
  }
  return out;
}

/** Call fn(name) whenever a file is kept or forgotten; returns the way to stop. */
export function onChange(fn) {
  const listener = (event) => fn(event.detail.name);
  document.addEventListener(CHANGED, listener);
  return () => document.removeEventListener(CHANGED, listener);
}
