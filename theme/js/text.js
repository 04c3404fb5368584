// The model's text templates, filled in the browser the way engine/figures/fmt.py `fill` fills
// them at build time (keep the two byte-for-byte alike): "{name:d}" is the number to d decimals
// (never "-0.00"), "{name:~d}" alike unless it is whole (then as written), "{name}" a string as is
// or a number as written (3.0 as "3", 0.6 as "0.6");
// "{name.i}" takes item i of the list `name`. Figures with too many states to ship a line per state send templates instead.

const MIN_PLAIN = 1e-4; // fmt.py MIN_PLAIN
const SLOT = /\{([a-z_][a-z_0-9]*)(?:\.(\d+))?(?::(~)?(\d))?\}/g;

/** x with `digits` decimals, as fmt.py `fixed`: a negative number that rounds to zero reads as zero. */
export function fixed(x, digits) {
  const out = (Number(x) + 0).toFixed(digits);
  return /^-[0.]*$/.test(out) ? out.slice(1) : out;
}

function value(values, name, index) {
  if (!Object.hasOwn(values, name)) throw new Error(`text template slot {${name}} has no value`);
  const v = values[name];
  if (index === undefined) return v;
  if (!Array.isArray(v) || Number(index) >= v.length) throw new Error(`text template slot {${name}.${index}}: no such item`);
  return v[Number(index)];
}

/** Fill a template's slots from values (a slot with no value is an error: the model and view disagree). */
export function fill(template, values) {
  return template.replace(SLOT, (slot, name, index, whole, digits) => {
    const v = value(values, name, index);
    if (digits !== undefined) {
      if (typeof v !== "number") throw new Error(`text template slot ${slot}: decimals need a number`);
      if (whole && Number.isSafeInteger(v)) return String(v);
      return fixed(v, Number(digits));
    }
    if (typeof v === "string") return v;
    if (Number.isSafeInteger(v)) return String(v); // 3.0 prints "3", as in Python
    // Shortest digits that read back as v, as Python's repr, which turns to an exponent below 1e-4.
    if (Number.isFinite(v) && !Number.isInteger(v) && Math.abs(v) >= MIN_PLAIN) return String(v);
    throw new Error(`text template slot ${slot}: this number needs decimals`);
  });
}

/** Every template filled from the same values: a state's key numbers. */
export const fillAll = (templates, values) => templates.map((t) => fill(t, values));

// A scope (the model's text.scope) says where each slot's value lies in the data, read here by the
// rule of engine/figures/fmt.py `scope_at` (its comment gives the grammar; keep the two alike):
// state i split over the index arrays (last fastest), then `let` steps, then each slot's value.
const TOKEN = /\s*(?:(\d+)|([a-z_][a-z_0-9]*)|(\S))/g;

function tokens(expr) {
  return [...expr.matchAll(TOKEN)].filter((m) => m[1] || m[2] || m[3]).map((m) => (m[1] ? Number(m[1]) : m[2] || m[3]));
}

const isMapping = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

function item(v, key, expr) {
  if (Array.isArray(key)) return key.map((k) => item(v, k, expr));
  if (isMapping(v) && typeof key === "string" && Object.hasOwn(v, key)) return v[key];
  if (Array.isArray(v) && Number.isInteger(key) && -v.length <= key && key < v.length) return v[key < 0 ? key + v.length : key];
  throw new Error(`text scope '${expr}': no item ${JSON.stringify(key)}`);
}

function whole(v, expr) {
  if (!Number.isInteger(v)) throw new Error(`text scope '${expr}': arithmetic needs whole numbers, not ${JSON.stringify(v)}`);
  return v;
}

function evaluate(expr, names, data) {
  const toks = tokens(expr);
  let at = 0;
  const peek = () => toks[at];
  const take = (want) => {
    const tok = toks[at];
    if (tok === undefined || (want !== undefined && tok !== want)) throw new Error(`text scope '${expr}': expected ${want ?? "more"}`);
    at += 1;
    return tok;
  };
  function atom() {
    const tok = take();
    if (tok === "-") return -whole(atom(), expr);
    if (typeof tok === "number") return tok;
    if (!/^[a-z_]/.test(tok)) throw new Error(`text scope '${expr}': unexpected ${tok}`);
    let v;
    if (Object.hasOwn(names, tok)) v = names[tok];
    else if (Object.hasOwn(data, tok)) v = data[tok];
    else throw new Error(`text scope '${expr}': no value named ${tok}`);
    while (peek() === "." || peek() === "[") {
      if (take() === ".") v = item(v, take(), expr);
      else { v = item(v, total(), expr); take("]"); }
    }
    return v;
  }
  function product() {
    let v = atom();
    while (peek() === "*") { take(); v = whole(v, expr) * whole(atom(), expr); }
    return v;
  }
  function total() {
    let v = product();
    while (peek() === "+" || peek() === "-") {
      const sign = take();
      const w = whole(product(), expr);
      v = whole(v, expr) + (sign === "+" ? w : -w);
    }
    return v;
  }
  const v = total();
  if (at < toks.length) throw new Error(`text scope '${expr}': unexpected ${toks[at]}`);
  return v;
}

const lengths = (scope, data) => scope.index.map(([, path]) => evaluate(path, {}, data).length);

/** The values a scope's slots read at state i; `given` holds a caller's own value for a `let` (a live run). */
export function scopeAt(scope, data, i, given = {}) {
  const names = { i, ...given };
  const sizes = lengths(scope, data);
  if (!(Number.isInteger(i) && i >= 0 && i < sizes.reduce((a, b) => a * b, 1))) throw new Error(`text scope: no state ${i}`);
  let rest = i;
  for (let k = sizes.length - 1; k >= 0; k--) {
    names[scope.index[k][0]] = rest % sizes[k];
    rest = Math.floor(rest / sizes[k]);
  }
  for (const [name, expr] of Object.entries(scope.let ?? {})) if (!Object.hasOwn(names, name)) names[name] = evaluate(expr, names, data);
  const values = {};
  for (const [name, expr] of Object.entries(scope.values)) values[name] = names[name] = evaluate(expr, names, data);
  return values;
}
