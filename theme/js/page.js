// The page's lifecycle. A module script runs once per document, but with links followed in place
// (nav.js) one document shows page after page, so a module that sets up what a page holds does it
// in eachPage(enter): enter() runs now for the page shown, again for every page shown in place
// after it, and what it returns (a function) runs when that page is left. A module first loaded on
// a page shown in place enters that page when it runs, as on a full load.
const modules = []; // { enter, leave }: leave is what enter returned for the page shown

function run(fn) {
  try {
    return fn() ?? null;
  } catch (err) {
    console.error(err); // one module's failure must not keep the others from the page
    return null;
  }
}

export function eachPage(enter) {
  modules.push({ enter, leave: run(enter) });
}

/** nav.js: the page shown is about to be replaced. */
export function leavePage() {
  for (const m of modules) {
    if (m.leave) run(m.leave);
    m.leave = null;
  }
}

/** nav.js: a new page is in place (its classic scripts have run). */
export function enterPage() {
  for (const m of modules) m.leave = run(m.enter);
}
