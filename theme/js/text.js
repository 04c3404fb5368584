// The model's text templates, filled in the browser the way engine/figures/fmt.py `fill` fills
// them at build time: "{name}" is the value as is, "{name:d}" the value to d decimals (never
// "-0.00"). Figures with too many states to ship a line per state send templates instead.

const SLOT = /\{([a-z_0-9]+)(?::(\d))?\}/g;

/** x with `digits` decimals, as fmt.py `fixed`: a negative number that rounds to zero reads as zero. */
export function fixed(x, digits) {
  const out = (Number(x) + 0).toFixed(digits);
  return /^-[0.]*$/.test(out) ? out.slice(1) : out;
}

/** Fill a template's slots from values (a slot with no value is an error: the model and view disagree). */
export function fill(template, values) {
  return template.replace(SLOT, (_, name, digits) => {
    if (!(name in values)) throw new Error(`text template slot {${name}} has no value`);
    const v = values[name];
    return digits === undefined ? String(v) : fixed(v, Number(digits));
  });
}
