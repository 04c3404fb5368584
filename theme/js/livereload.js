// Dev server only (build.py serve; never copied into a production build). Follows the server's
// build state on /__reload: reloads after each good build (or a restarted server's first one),
// and shows a failed build's `path:line: message` over the page until the next good build.
// A build's print edition and search index are written seconds after its pages (`views`, the
// build they are of: builder/serve.py _Finisher): a page showing either reloads again then.
const source = new EventSource("/__reload");
let loadedWith = null; // "session:build" the page was loaded with
let viewsWith = null; // "session:views" likewise
let overlay = null;

let searched = false; // whether this page has fetched Pagefind's files (an observer sees every fetch)
new PerformanceObserver((list) => {
  searched ||= list.getEntries().some((entry) => entry.name.includes("/pagefind/"));
}).observe({ type: "resource", buffered: true });

/** Whether this page shows the print edition or has searched. */
function showsViews() {
  return searched || location.pathname.endsWith("/print.html");
}

source.addEventListener("state", (e) => {
  const state = JSON.parse(e.data);
  const key = state.session + ":" + state.build;
  const views = state.session + ":" + state.views;
  loadedWith ??= key;
  viewsWith ??= views;
  if (state.error) return showError(state.error);
  overlay?.remove();
  overlay = null;
  if (key !== loadedWith && state.build > 0) location.reload();
  else if (views !== viewsWith && showsViews()) location.reload();
});

function showError(message) {
  if (!overlay) {
    overlay = document.createElement("div");
    overlay.setAttribute("role", "alert");
    overlay.dataset.buildError = "";
    // Styles through the CSSOM: the pages' Content-Security-Policy forbids inline style attributes.
    overlay.style.cssText = "position: fixed; inset: auto 0 0 0; z-index: 1000; margin: 0; padding: 1rem;" +
      "background: #fff3f3; color: #600; border-top: 3px solid #c00; font: 14px/1.4 monospace; white-space: pre-wrap;";
    document.body.append(overlay);
  }
  overlay.textContent = "Build failed (the page shows the last good build):\n" + message;
}
