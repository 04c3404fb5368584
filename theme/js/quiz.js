// Quizzes (builder/directives/quiz.py), loaded as they near the screen (parts.js): choosing an
// answer shows why, in the quiz's live region, from the explanations the page already holds in its
// "Answers and why" disclosure. The answer is kept in the reader's browser (store.js) per page and
// quiz and restored on the next visit, and so is whether the first answer was right, once (the
// contents page counts it). Without JavaScript the question, the choices and every explanation are
// on the page.
import { entry, shownPage } from "./store.js";

/** Called as the quiz nears the screen or focus enters it (parts.js). */
export function setUp(quiz) {
  const id = quiz.dataset.quiz;
  const inputs = [...quiz.querySelectorAll(".quiz-choice input")];
  const multiple = inputs[0]?.type === "checkbox";
  const feedback = quiz.querySelector(".quiz-feedback");
  const check = quiz.querySelector(".quiz-check");
  const why = new Map([...quiz.querySelectorAll(".quiz-answers li")].map((li) => [li.dataset.choice, li]));
  const right = new Set([...why].filter(([, li]) => li.dataset.right === "true").map(([c]) => c));
  const kept = entry("answer", shownPage(), id);
  const first = entry("first", shownPage(), id);
  const isRight = (chosen) => chosen.length === right.size && chosen.every((c) => right.has(c));

  function show(chosen) {
    const correct = isRight(chosen);
    quiz.dataset.state = correct ? "right" : "wrong";
    const parts = [];
    if (multiple) {
      const verdict = document.createElement("strong");
      verdict.textContent = correct ? "Right. " : "Not yet: " + right.size + (right.size === 1 ? " choice is" : " choices are") + " right. ";
      parts.push(verdict);
    }
    for (const c of chosen) {
      const li = why.get(c);
      const line = document.createElement("span");
      line.className = "quiz-said";
      const verdict = document.createElement("strong");
      verdict.textContent = li.querySelector(".quiz-verdict").textContent + " ";
      line.append(verdict, ...[...li.querySelector(".quiz-why").childNodes].map((n) => n.cloneNode(true)), " ");
      parts.push(line);
    }
    feedback.replaceChildren(...parts);
    for (const input of inputs) {
      const li = input.closest(".quiz-choice");
      li.classList.toggle("quiz-right", chosen.includes(input.value) && right.has(input.value));
      li.classList.toggle("quiz-wrong", chosen.includes(input.value) && !right.has(input.value));
    }
  }

  function answer() {
    const chosen = inputs.filter((i) => i.checked).map((i) => i.value);
    if (!chosen.length) {
      feedback.textContent = "Choose an answer first.";
      return;
    }
    // The first try is the first answer this browser keeps for the quiz: one kept before the first
    // try was recorded (by an earlier version of the site) is no first try.
    if (first.get() === null && kept.get() === null) first.set(isRight(chosen) ? "right" : "wrong");
    kept.set(chosen.join(","));
    show(chosen);
  }

  if (multiple) {
    check.hidden = false;
    check.addEventListener("click", answer);
  } else {
    for (const input of inputs) input.addEventListener("change", answer);
  }
  const saved = kept.get()?.split(",");
  if (saved?.every((c) => why.has(c))) { // choices of the page as built: an answer to an older quiz is not shown
    for (const input of inputs) input.checked = saved.includes(input.value);
    show(saved);
  } else if (!multiple && inputs.some((i) => i.checked)) {
    answer(); // chosen by the key that brought focus here, before this module had loaded
  }
}
