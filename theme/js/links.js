// A figure's state as a link. The state is what the figure's model and view need to show it again:
// the options its data was computed with (data.params, which the model owns and its `parse`
// checks) and the index of the precomputed state the view shows (ctx.setText's). A link carries
// them in one query parameter, `?view=<figure id>.<state>`, where <state> is the JSON
// {"p": the options that differ from the page's own, "i": the index} in URL-safe base64 (shorter
// than percent-encoded JSON, and never read as markup), and a fragment naming the figure, so the
// page scrolls to it with or without scripts. Only the differing options travel: a link to a figure
// at its own options is a few characters, and stays a link to it when other options change.
// Everything read here is hostile until checked: its length, its id's shape, its base64, its JSON,
// its shape; the options themselves are the model's to refuse (figures.js asks the worker).

export const PARAM = "view";
export const MAX_LENGTH = 2048; // characters of the parameter: a page's options are far fewer
const ID = /^[a-z][a-z0-9-]{0,59}$/; // a figure element's id as the builder makes it (figure-4-2)
const STATE = /^[A-Za-z0-9_-]*$/; // URL-safe base64 without padding

/** Why a link's view is refused, said to the reader in the figure's note (one line). */
export class Refused extends Error {}

const isPlain = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

function toBase64Url(text) {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/")); // throws on a bad length or letter
  return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** Whether two JSON values are equal (objects by their keys, in any order). */
export function same(a, b) {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => same(v, b[i]));
  if (isPlain(a)) {
    if (!isPlain(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return a === b;
}

/** The options of `params` that differ from `base` (both data.params). */
export function changed(params, base) {
  return Object.fromEntries(Object.entries(params).filter(([k, v]) => !Object.hasOwn(base, k) || !same(v, base[k])));
}

/** The address of figure element `el` shown with `state` ({ p, i }), on the page shown. */
export function linkTo(el, state) {
  const url = new URL(location.href);
  url.search = "";
  url.searchParams.set(PARAM, `${el.id}.${toBase64Url(JSON.stringify(state))}`);
  url.hash = el.id;
  return url.href;
}

/**
 * The link in `search` (a location's query): null if it names no figure's view, else
 * { id, state: { p, i } }, or { id, refused } saying why it cannot be read (id is null if even
 * the figure's name is unreadable).
 */
export function readLink(search) {
  const raw = new URLSearchParams(search).get(PARAM);
  if (raw === null) return null;
  const dot = raw.indexOf(".");
  const id = dot > 0 && ID.test(raw.slice(0, dot)) ? raw.slice(0, dot) : null;
  try {
    if (raw.length > MAX_LENGTH) throw new Refused(`it is longer than the ${MAX_LENGTH} characters a view's link may have`);
    if (id === null) throw new Refused("it does not name a figure");
    const body = raw.slice(dot + 1);
    if (!STATE.test(body)) throw new Refused("it is not written as this site writes links");
    let state;
    try {
      state = JSON.parse(fromBase64Url(body));
    } catch {
      throw new Refused("it is not written as this site writes links");
    }
    return { id, state: checked(state) };
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    return { id, refused: err.message };
  }
}

/** A link's state as read: an object with at most the options `p` (an object) and the index `i`. */
function checked(state) {
  if (!isPlain(state)) throw new Refused("its state is not a figure's state");
  for (const key of Object.keys(state)) {
    if (key !== "p" && key !== "i") throw new Refused("its state holds more than a figure's options and step");
  }
  if (Object.hasOwn(state, "p") && !isPlain(state.p)) throw new Refused("its options are not a figure's options");
  if (Object.hasOwn(state, "i") && !(Number.isInteger(state.i) && state.i >= 0)) throw new Refused("its step is not a step of the figure");
  return { p: state.p ?? {}, i: state.i ?? null };
}
