// The model's text templates, filled in the browser the way engine/figures/fmt.py `fill` fills
// them at build time (keep the two byte-for-byte alike): "{name:d}" is the number to d decimals
// (never "-0.00"), "{name}" a string as is or a number as written (3.0 as "3", 0.6 as "0.6");
// "{name.i}" takes item i of the list `name`. Figures with too many states to ship a line per state send templates instead.

const MIN_PLAIN = 1e-4; // fmt.py MIN_PLAIN
const SLOT = /\{([a-z_][a-z_0-9]*)(?:\.(\d+))?(?::(\d))?\}/g;

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
  return template.replace(SLOT, (slot, name, index, digits) => {
    const v = value(values, name, index);
    if (digits !== undefined) {
      if (typeof v !== "number") throw new Error(`text template slot ${slot}: decimals need a number`);
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
