// Where the reader is in a chapter, kept in their browser (store.js) for the contents page
// (progress.js): that the chapter was read to its end, once its foot (the chapter links below the
// references) comes into view; until then the reader's place, the last section heading passed;
// and that it is the chapter shown last. Coming back without a fragment to a chapter left
// partway, a note under the title links to that heading; it can be dismissed, and it never takes
// focus. Links followed in place (nav.js) leave one chapter and enter the next here too.
import { eachPage } from "./page.js";
import { entry, shownPage } from "./store.js";

const PASSED = 0.25; // a heading in the top quarter of the screen is where the reader is

eachPage(() => {
  const article = document.querySelector("main article.chapter");
  const foot = document.querySelector("main .chapter-nav");
  if (!article || !foot) return null;
  const page = shownPage();
  const place = entry("place", page);
  const read = entry("read", page);
  entry("last").set(page);
  const headings = [...article.querySelectorAll(":scope > :is(h2, h3)[id]")];
  const left = place.get();
  // After the move: nav.js sets the fragment of a link followed in place once the page has entered.
  const offer = requestAnimationFrame(() => {
    const heading = headings.find((h) => h.id === left);
    if (heading && !location.hash) offerToContinue(article, heading);
  });

  let current = left;
  let frame = 0;
  const track = () => {
    frame = 0;
    const line = innerHeight * PASSED;
    let passed = null;
    for (const h of headings) {
      if (h.getBoundingClientRect().top > line) break;
      passed = h;
    }
    // Back above the first heading keeps the place: the reader may only be glancing at the start.
    if (passed && passed.id !== current) {
      current = passed.id;
      place.set(current);
    }
  };
  const onScroll = () => { frame ||= requestAnimationFrame(track); };
  const stop = () => {
    cancelAnimationFrame(frame);
    removeEventListener("scroll", onScroll);
    end.disconnect();
  };
  // Read to the end: nothing is left to continue, so no place is kept for the rest of the visit
  // (a glance back at a section is no place to come back to).
  const end = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    stop();
    read.set("yes");
    place.remove();
  });
  end.observe(foot);
  addEventListener("scroll", onScroll, { passive: true });
  return () => {
    cancelAnimationFrame(offer);
    stop();
  };
});

/** "Continue where you left off" under the title (and the status line): a link to `heading`. */
function offerToContinue(article, heading) {
  const note = document.createElement("p");
  note.className = "continue-note";
  const link = document.createElement("a");
  link.href = "#" + encodeURIComponent(heading.id);
  link.textContent = "Continue where you left off: " + heading.textContent.trim();
  const dismiss = document.createElement("button");
  dismiss.type = "button";
  dismiss.textContent = "Dismiss";
  dismiss.setAttribute("aria-label", "Dismiss the note on where you left off");
  dismiss.addEventListener("click", () => {
    const title = article.querySelector("h1");
    note.remove();
    if (title) { // focus stays where the note was, not on the page's body
      title.tabIndex = -1;
      title.focus();
    }
  });
  note.append(link, dismiss);
  const above = article.querySelector(".runtime-status") ?? article.querySelector("h1");
  if (above) above.after(note);
  else article.prepend(note);
}
