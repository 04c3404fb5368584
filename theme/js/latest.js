// A figure's requests to the worker where only the newest answer counts: a reader who drags on
// while Python computes makes several, and an older answer arriving last must not be drawn.

/** ask(params) resolves to { out } for the newest request (out undefined without Python), or to
 * null when a newer request was made while this one was on its way. An answer from Python marks the
 * figure live: the caller draws it in the same turn. */
export function latestOnly(ctx) {
  let asked = 0;
  return async (params) => {
    const mine = ++asked;
    const out = await ctx.request(params);
    if (mine !== asked) return null;
    if (out) ctx.markLive();
    return { out };
  };
}
