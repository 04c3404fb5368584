// The contents page says where the reader is, from what the chapters keep in their browser
// (store.js, written by reading.js, quiz.js and exercise.js): on each chapter's card, whether it
// was read to its end, its questions answered (and how many right at the first try) and its
// exercises passed, counted against the quizzes and exercises the card lists (the build's
// data-quizzes and data-exercises); and where to continue. Its "Your progress" section saves that
// progress to a file, opens such a file (checked whole before anything is written) and forgets it
// all. The file is made and read in the page: nothing is sent anywhere. Without JavaScript the
// contents page shows none of this.
import { eachPage } from "./page.js";
import * as store from "./store.js";

const FORMAT = "attention-progress"; // what a progress file says it is, with VERSION
const VERSION = 1;
const MAX_FILE = 1_000_000; // bytes: a series' worth of code and answers is far smaller
const MAX_SHOWN = 40; // characters of a file's key quoted in a refusal

eachPage(() => {
  const section = document.querySelector("main [data-progress]");
  if (!section) return null;
  const chapters = [...document.querySelectorAll("main .chapter-card[data-page]")].map((card) => ({
    card,
    page: card.dataset.page,
    quizzes: words(card.dataset.quizzes),
    exercises: words(card.dataset.exercises),
  }));
  const note = section.querySelector("[data-progress-note]");
  const say = (text) => { note.textContent = text; };
  const show = () => showProgress(chapters);
  show();
  section.hidden = false;
  if (!store.available()) say("This browser keeps nothing for this site (its storage is turned off), so there is no progress to show or save.");

  section.querySelector("[data-progress-export]").addEventListener("click", () => say(exportFile()));
  const file = section.querySelector("[data-progress-file]");
  section.querySelector("[data-progress-import]").addEventListener("click", () => file.click());
  file.addEventListener("change", async () => {
    const chosen = file.files[0];
    file.value = ""; // the same file can be chosen again
    if (!chosen) return;
    say(await importFile(chosen, chapters));
    show();
  });
  confirmForget(section, () => {
    store.forget();
    show();
    say("Your progress is forgotten: this browser keeps nothing of it now.");
  });
  addEventListener("storage", show); // another tab of the site kept something
  return () => removeEventListener("storage", show);
});

function words(text) {
  return (text ?? "").split(" ").filter(Boolean);
}

/** Each card's line, and where to continue. */
function showProgress(chapters) {
  for (const chapter of chapters) {
    const line = chapter.card.querySelector("[data-progress-status]");
    const text = cardLine(chapter);
    line.textContent = text ?? "";
    line.hidden = text === null;
  }
  const line = document.querySelector("main [data-progress-continue]");
  const next = continueAt(chapters);
  line.hidden = next === null;
  if (!next) return line.replaceChildren();
  const link = document.createElement("a");
  link.href = next.href;
  link.textContent = cardTitle(next.chapter.card);
  line.replaceChildren(next.text, link, ".");
}

function count(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** What a chapter's card says of the reader's progress, or null for a chapter not begun. */
function cardLine({ page, quizzes, exercises }) {
  const read = store.entry("read", page).get() === "yes";
  const answered = quizzes.filter((q) => store.entry("answer", page, q).get() !== null).length;
  const right = quizzes.filter((q) => store.entry("first", page, q).get() === "right").length;
  const passed = exercises.filter((e) => store.entry("passed", page, e).get() === "yes").length;
  const begun = read || answered || passed || store.entry("place", page).get() !== null
    || store.entry("last").get() === page;
  if (!begun) return null;
  const parts = [read ? "Read to the end" : "Not read to the end yet"];
  if (quizzes.length) {
    parts.push(`${answered} of ${count(quizzes.length, "question")} answered` + (answered ? `, ${right} right at the first try` : ""));
  }
  if (exercises.length) parts.push(`${passed} of ${count(exercises.length, "exercise")} passed`);
  return parts.join("; ") + ".";
}

/** "Chapter 5, What gets passed along": the card's own number and title. */
function cardTitle(card) {
  const link = card.querySelector(".chapter-card-title a");
  const number = link.querySelector(".chapter-card-number");
  const title = [...link.childNodes].filter((n) => n !== number).map((n) => n.textContent).join("").trim();
  return `${number.textContent}, ${title}`;
}

/** Where to continue: the chapter shown last, at the place the reader left it; the next chapter
 *  once that one was read to its end; null before any chapter or after the last. */
function continueAt(chapters) {
  const last = store.entry("last").get();
  const i = chapters.findIndex((c) => c.page === last);
  if (i < 0) return null;
  const place = store.entry("place", last).get();
  if (place) return { text: "Continue where you left off: ", chapter: chapters[i], href: `${last}#${encodeURIComponent(place)}` };
  if (store.entry("read", last).get() !== "yes") return { text: "Continue where you left off: ", chapter: chapters[i], href: last };
  const next = chapters[i + 1];
  return next ? { text: "Continue with the next chapter: ", chapter: next, href: next.page } : null;
}

/** Saves every entry kept to a JSON file, made in the page; returns what to tell the reader. */
function exportFile() {
  const progress = store.all();
  if (!Object.keys(progress).length) return "There is no progress to save yet.";
  const saved = new Date().toISOString();
  const blob = new Blob([JSON.stringify({ format: FORMAT, version: VERSION, saved, progress }, null, 1)],
                        { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `reading-progress-${saved.slice(0, 10)}.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000); // the download has long started
  return `Your progress is saved to a file among your downloads: ${a.download}.`;
}

/** Reads a progress file and keeps what it holds, or refuses it whole: returns one line for the reader. */
async function importFile(file, chapters) {
  const no = (why) => "Nothing was imported: " + why;
  if (file.size > MAX_FILE) {
    return no(`the file is ${Math.ceil(file.size / 1000)} KB, more than saved progress ever is (at most ${MAX_FILE / 1000} KB).`);
  }
  let data;
  try {
    data = JSON.parse(await file.text());
  } catch {
    return no("the file is not a progress file saved here (it is not JSON).");
  }
  const entries = checkFile(data, chapters);
  if (typeof entries === "string") return no(entries);
  if (!store.load(entries)) return no("this browser would not keep it (its storage is full or turned off).");
  return "Your progress from the file is kept in this browser now: the chapters above show it.";
}

const shown = (name) => "“" + (name.length > MAX_SHOWN ? name.slice(0, MAX_SHOWN) + "…" : name) + "”";

/** The file's entries if it is a progress file of this site, else why not (a string). Every key
 *  must be one this site writes, for a chapter, quiz or exercise its contents page lists. */
function checkFile(data, chapters) {
  const plain = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
  if (!plain(data) || data.format !== FORMAT || !plain(data.progress)) return "the file is not a progress file saved here.";
  if (data.version !== VERSION) return "the file was saved by another version of this site.";
  const extra = Object.keys(data).find((k) => !["format", "version", "saved", "progress"].includes(k));
  if (extra !== undefined) return `the file holds ${shown(extra)}, which a progress file does not.`;
  const known = new Map(chapters.map((c) => [c.page, { quiz: new Set(c.quizzes), exercise: new Set(c.exercises) }]));
  const entries = {};
  for (const [name, value] of Object.entries(data.progress)) {
    const key = store.parse(name);
    const [page, id] = key?.parts ?? [];
    const chapter = known.get(page);
    const of = { answer: "quiz", first: "quiz", code: "exercise", passed: "exercise" }[key?.kind];
    const ours = key && (key.kind === "last" || (chapter && (!of || chapter[of].has(id))));
    if (!ours) return `the file holds ${shown(name)}, which this site does not keep.`;
    if (!store.fits(name, value) || (key.kind === "last" && !known.has(value))) {
      return `the value of ${shown(name)} is not one this site writes.`;
    }
    entries[name] = value;
  }
  return entries;
}

/** "Forget my progress" asks first, in the page: the question and two buttons appear below it, focus
 *  moves to "Keep it", and Escape or "Keep it" takes focus back to the button that asked. */
function confirmForget(section, forget) {
  const ask = section.querySelector("[data-progress-forget]");
  const box = section.querySelector(".progress-confirm");
  const yes = box.querySelector("[data-progress-forget-yes]");
  const no = box.querySelector("[data-progress-forget-no]");
  const close = () => {
    box.hidden = true;
    ask.setAttribute("aria-expanded", "false");
    ask.focus();
  };
  ask.addEventListener("click", () => {
    box.hidden = false;
    ask.setAttribute("aria-expanded", "true");
    no.focus();
  });
  no.addEventListener("click", close);
  yes.addEventListener("click", () => {
    forget();
    close();
  });
  box.addEventListener("keydown", (e) => {
    if (e.key === "Escape") close();
  });
}
