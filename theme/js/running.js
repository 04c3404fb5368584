// Training goes on while the reader reads on: a figure's job is not stopped when the figure leaves
// the screen (figures.js), so a bar at the foot of the window names each figure whose job runs out
// of sight, with its progress line and a way back to it. A figure tells of its job with "figurejob"
// events (context.js: detail.phase "start", "progress" or "end"); its progress line is the text of
// its view's element marked data-job-status, in the model's own words. The bar is outside <main>,
// so it stays as pages change in place; a page left ends its jobs, and so their lines.
import { eachPage } from "./page.js";

const jobs = new Map(); // figure element -> its line in the bar, while its job runs
const away = new Set(); // figures with a running job that are out of sight
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

/** Back to the figure: scrolled into view, the keyboard on its first control that can be used. */
function back(event, figure) {
  event.preventDefault();
  figure.scrollIntoView({ block: "center" });
  const control = [...figure.querySelectorAll(".figure-view button, .figure-view input")]
    .find((c) => !c.disabled && !c.hidden && c.getClientRects().length);
  control?.focus({ preventScroll: true });
}

function line(figure) {
  const li = document.createElement("li");
  const link = document.createElement("a");
  link.href = "#" + figure.id;
  link.textContent = "Back to " + label(figure).toLowerCase().replace(/^a /, "the ");
  link.addEventListener("click", (event) => back(event, figure));
  const status = document.createElement("span");
  li.append(link, " ", status);
  return { li, status };
}

function draw() {
  const list = theBar().firstChild;
  const shown = [...jobs].filter(([figure]) => away.has(figure));
  for (const [figure, item] of shown) {
    item.status.textContent = figure.querySelector("[data-job-status]")?.textContent || "Training…";
    if (item.li.parentNode !== list) list.append(item.li);
  }
  for (const [figure, item] of jobs) if (!away.has(figure)) item.li.remove();
  bar.hidden = shown.length === 0;
}

document.addEventListener("figurejob", (event) => {
  const figure = event.target;
  const { phase } = event.detail;
  if (phase === "end") {
    jobs.get(figure)?.li.remove();
    jobs.delete(figure);
    away.delete(figure);
    observer.unobserve(figure);
  } else if (!jobs.has(figure)) {
    jobs.set(figure, line(figure));
    observer.observe(figure); // its first report says whether it is in sight
  }
  draw();
});

// A page left in place: its figures are gone, and so is whatever the bar said of them.
eachPage(() => () => {
  for (const figure of jobs.keys()) observer.unobserve(figure);
  jobs.clear();
  away.clear();
  if (bar) draw();
});
