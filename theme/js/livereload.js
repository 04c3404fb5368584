// Dev server only (build.py serve): reload the page after each successful rebuild.
const source = new EventSource("/__reload");
source.onmessage = (e) => { if (e.data === "reload") location.reload(); };
