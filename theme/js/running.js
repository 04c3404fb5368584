// Training goes on while the reader reads on: a figure's job is not stopped when the figure leaves
// the screen or its page is left in place (figures.js), so a bar at the foot of the window names
// each figure whose job runs out of sight, with its progress line and a way back to it; a job that
// ends on another page keeps its line (its figure's last status: how the run ended) until the
// reader goes back to it. A figure tells of its job with "figurejob" events on the document
// (context.js: detail.figure, and detail.phase "start", "progress" or "end"); its progress line is the text of its view's element
// marked data-job-status, in the model's own words. The bar is outside <main>, so it stays as
// pages change in place.
import { eachPage } from "./page.js";

// figure element -> its line in the bar ({ li, status, done }), while its job runs, or once it has
// ended on a page the reader has left, until they come back to it
const jobs = new Map();
const away = new Set(); // figures with a line that are on their page but out of sight
let bar = null;

const observer = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    if (entry.isIntersecting) away.delete(entry.target);
    else away.add(entry.target);
  }
  draw();
});

function theBar() {
  if (bar?.isConnected) return bar;
  bar = document.createElement("aside");
  bar.className = "jobs-away";
  bar.setAttribute("aria-label", "Training under way");
  bar.hidden = true;
  bar.append(document.createElement("ul"));
  document.body.append(bar);
  return bar;
}

/** The figure's number as its caption gives it ("Figure 14.1"), else a plain word. */
function label(figure) {
  return figure.querySelector(".figure-label")?.textContent.trim() || "A figure";
}

/** Back to the figure: on its page, scrolled into view with the keyboard on its first control that
 *  can be used; on another page, the link is followed (in place: nav.js, and figures.js puts the
 *  figure back as the job left it). */
function back(event, figure) {
  if (!figure.isConnected) return;
  event.preventDefault();
  figure.scrollIntoView({ block: "center" });
  const control = [...figure.querySelectorAll(".figure-view button, .figure-view input")]
    .find((c) => !c.disabled && !c.hidden && c.getClientRects().length);
  control?.focus({ preventScroll: true });
}

function line(figure) {
  const li = document.createElement("li");
  const link = document.createElement("a");
  const here = new URL(location.href);
  here.hash = figure.id;
  link.href = here.href; // the figure's page, wherever the reader is when they follow it
  link.textContent = "Back to " + label(figure).toLowerCase().replace(/^a /, "the ");
  link.addEventListener("click", (event) => back(event, figure));
  const status = document.createElement("span");
  li.append(link, " ", status);
  return { li, status, done: false };
}

/** Forget a figure's line. */
function drop(figure) {
  jobs.get(figure)?.li.remove();
  jobs.delete(figure);
  away.delete(figure);
  observer.unobserve(figure);
}

function draw() {
  const list = theBar().firstChild;
  for (const [figure, item] of jobs) if (item.done && figure.isConnected) drop(figure); // back on its page
  const shown = [...jobs].filter(([figure]) => !figure.isConnected || away.has(figure));
  for (const [figure, item] of shown) {
    item.status.textContent = figure.querySelector("[data-job-status]")?.textContent || "Training…";
    if (item.li.parentNode !== list) list.append(item.li);
  }
  for (const [figure, item] of jobs) if (figure.isConnected && !away.has(figure)) item.li.remove();
  bar.hidden = shown.length === 0;
}

document.addEventListener("figurejob", (event) => {
  const { figure, phase } = event.detail;
  if (phase === "end") {
    if (figure.isConnected) drop(figure);
    else if (jobs.has(figure)) jobs.get(figure).done = true; // ended on a page the reader left: kept till they return
  } else if (!jobs.has(figure)) {
    jobs.set(figure, line(figure));
    observer.observe(figure); // its first report says whether it is in sight
  }
  draw();
});

// Another page shown in place: once every module has entered it (figures.js puts back a figure
// carried from an earlier visit), the bar says again what is out of sight.
eachPage(() => { queueMicrotask(() => { if (bar) draw(); }); });
