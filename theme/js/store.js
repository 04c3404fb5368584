// What the site keeps in the reader's browser (localStorage), and the one place its keys are made.
// A key is scoped to the site, its folder on the origin, so two sites on one origin
// (user.github.io/a/ and /b/) never read each other's. Within it an entry is named "kind:part:part";
// KINDS says what each kind's parts and value may be, and an imported file (progress.js) is held to
// the same. Storage off, blocked or full: a read gives nothing, a write keeps nothing, none throws.

const SITE = new URL("../../../", import.meta.url).pathname; // this file lies in <site>/assets/<digest>/js/
/** The site's name in the browser's stores: localStorage keys start with it, IndexedDB's database
 *  (reader-files.js) is named by it. */
export const SITE_SCOPE = `attention:${SITE}`;
const PREFIX = `${SITE_SCOPE}:`;

const PAGE = /^[\w.-]{1,120}\.html$/; // a chapter's file
const ID = /^[a-z0-9][a-z0-9-]{0,59}$/; // a quiz's id or an exercise's name (builder/directives)
const CHOICES = /^[a-z0-9]{1,8}(,[a-z0-9]{1,8}){0,7}$/; // a quiz's chosen choices, in page order
const HEADING = /^[\w-]{1,200}$/; // a heading's id as Python-Markdown makes it
export const MAX_CODE = 50_000; // characters of an exercise's code: ten times the longest starter allowed

/** Each kind: the grammar of its parts, in order, and of its value. */
const KINDS = {
  answer: { parts: [PAGE, ID], value: (v) => CHOICES.test(v) }, // a quiz's answer as last chosen
  first: { parts: [PAGE, ID], value: (v) => v === "right" || v === "wrong" }, // its first answer, once
  code: { parts: [PAGE, ID], value: (v) => v.length <= MAX_CODE }, // an exercise's code, shown only in its editor
  passed: { parts: [PAGE, ID], value: (v) => v === "yes" }, // an exercise passed, once
  read: { parts: [PAGE], value: (v) => v === "yes" }, // a chapter whose foot came into view
  place: { parts: [PAGE], value: (v) => HEADING.test(v) }, // the last heading passed in a chapter left partway
  last: { parts: [], value: (v) => PAGE.test(v) }, // the chapter shown last
};

/** The page shown, asked each time: links followed in place (nav.js) change it. */
export const shownPage = () => location.pathname.split("/").pop() || "index.html";

/** `name` ("kind:part:...") split into its kind and parts if it is one KINDS allows, else null. */
export function parse(name) {
  const [kind, ...parts] = String(name).split(":");
  const rule = Object.hasOwn(KINDS, kind) ? KINDS[kind] : null;
  if (!rule || parts.length !== rule.parts.length || !parts.every((p, i) => rule.parts[i].test(p))) return null;
  return { kind, parts };
}

/** Whether `value` is one this site writes under `name` (a name parse() accepts). */
export function fits(name, value) {
  return typeof value === "string" && KINDS[name.split(":")[0]].value(value);
}

function storage() {
  try {
    return window.localStorage; // the getter itself throws where the browser blocks storage
  } catch {
    return null;
  }
}

function read(name) {
  try {
    const value = storage()?.getItem(PREFIX + name) ?? null;
    return value !== null && fits(name, value) ? value : null; // a value this site never wrote counts as none
  } catch {
    return null;
  }
}

function write(name, value) {
  try {
    storage().setItem(PREFIX + name, value);
    return true;
  } catch {
    return false;
  }
}

/** Whether this browser keeps anything for the site at all (storage on, not full). */
export function available() {
  const kept = write("probe", "");
  drop("probe");
  return kept;
}

function drop(name) {
  try { storage()?.removeItem(PREFIX + name); } catch { /* storage off: nothing was kept */ }
}

/** One entry: get() its value or null, set(value) (false when nothing could be kept), remove().
 *  An entry whose parts break their grammar keeps nothing. */
export function entry(kind, ...parts) {
  const name = [kind, ...parts].join(":");
  const ok = parse(name) !== null;
  return {
    get: () => (ok ? read(name) : null),
    set: (value) => ok && fits(name, value) && write(name, value),
    remove: () => { if (ok) drop(name); },
  };
}

function keys() {
  try {
    const s = storage();
    if (!s) return [];
    return Array.from({ length: s.length }, (_, i) => s.key(i)).filter((k) => k !== null);
  } catch {
    return [];
  }
}

/** Every entry this site keeps, {name: value}: what the reader's progress file holds. */
export function all() {
  const kept = {};
  for (const key of keys()) {
    if (!key.startsWith(PREFIX)) continue;
    const name = key.slice(PREFIX.length);
    const value = parse(name) ? read(name) : null;
    if (value !== null) kept[name] = value;
  }
  return kept;
}

/** Writes `entries` ({name: value}, each already checked with parse and fits) over what is kept; if
 *  the browser refuses one, puts back what was there and returns false: all are kept or none. */
export function load(entries) {
  const before = Object.keys(entries).map((name) => [name, read(name)]);
  for (const [name, value] of Object.entries(entries)) {
    if (write(name, value)) continue;
    for (const [n, v] of before) { if (v === null) drop(n); else write(n, v); }
    return false;
  }
  return true;
}

/** Removes everything this site keeps (and the unscoped keys of before, see adopt). */
export function forget() {
  for (const key of keys()) {
    if (key.startsWith(PREFIX) || OLD.test(key)) {
      try { storage().removeItem(key); } catch { /* storage off: nothing was kept */ }
    }
  }
}

// Before keys were scoped, quiz.js kept "attention-quiz:<page>:<id>" (a JSON list) and exercise.js
// "attention-exercise:<page>:<name>" for the whole origin. Each is copied into this site's scope
// where the site has no entry of its own, so readers keep their answers and code. They stay where
// they are: an unscoped key cannot say which site on the origin wrote it, so another may need it
// too; "Forget my progress" removes them with the rest.
const OLD = /^attention-(quiz|exercise):([^:]+):([^:]+)$/;

function adopt() {
  for (const key of keys()) {
    const m = OLD.exec(key);
    if (!m) continue;
    const name = [m[1] === "quiz" ? "answer" : "code", m[2], m[3]].join(":");
    if (!parse(name) || read(name) !== null) continue;
    let value = null;
    try {
      value = storage().getItem(key);
      if (m[1] === "quiz") value = JSON.parse(value).join(",");
    } catch {
      continue; // not what quiz.js wrote: left alone
    }
    if (fits(name, value)) write(name, value);
  }
}

adopt();
