// A display formula that is still wider than the screen after the builder's line breaks (one with no
// relation or \quad outside braces to break at: builder/math_break.py) scrolls sideways. A scroll box
// must be reachable from the keyboard and say what it is: this makes exactly those boxes a focusable,
// labelled region, and undoes it when the screen grows wide enough, so formulas that fit add no tab stop.
import { eachPage } from "./page.js";

const LABEL = "Formula, wider than the screen: scroll sideways to read it";

function mark(box) {
  const scrolls = box.scrollWidth > box.clientWidth + 1;
  if (scrolls && !box.hasAttribute("tabindex")) {
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", LABEL);
  } else if (!scrolls && box.hasAttribute("tabindex")) {
    box.removeAttribute("tabindex");
    box.removeAttribute("role");
    box.removeAttribute("aria-label");
  }
}

const observer = new ResizeObserver((entries) => entries.forEach((e) => mark(e.target)));
eachPage(() => {
  const boxes = document.querySelectorAll(".math-display");
  boxes.forEach((box) => { mark(box); observer.observe(box); });
  document.fonts?.ready.then(() => boxes.forEach(mark)); // the math font changes every formula's width
  return () => observer.disconnect();
});
