// Quizzes (builder/directives/quiz.py), loaded as they near the screen (parts.js): choosing an
// answer (a click, a tap, Space or Enter; not an arrow key, which only browses) shows why, in the
// quiz's live region, from the explanations the page already holds in its "Answers and why"
// disclosure. The answer is kept in the reader's browser (store.js) per page and quiz and restored
// on the next visit, and so is whether the first answer was right, once (the contents page counts
// it). Without JavaScript the question, the choices and every explanation are on the page.
import { entry, shownPage } from "./store.js";

const ARROWS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]);
const BROWSING = "Not answered yet: press Space or Enter to answer with this choice.";

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

  // A keyboard reader browses a radio group with the arrow keys, and each arrow checks the choice it
  // moves to (WAI-ARIA's radio group pattern; the no-JavaScript page is that same native group, so
  // arrows cannot be kept from checking). So a choice is answered only when made deliberately: a
  // click or tap (one, as without a Check button), Space, or Enter on a choice; one an arrow checked
  // is only browsed to, and nothing is kept for it. A Check button for one answer would cost touch
  // and mouse readers a second step. An arrow's choice reaches us as a click within its keydown.
  let arrowed = false;
  function browse() {
    delete quiz.dataset.state;
    for (const input of inputs) input.closest(".quiz-choice").classList.remove("quiz-right", "quiz-wrong");
    if (feedback.textContent !== BROWSING) feedback.textContent = BROWSING;
  }

  if (multiple) {
    check.hidden = false;
    check.addEventListener("click", answer);
  } else {
    const group = quiz.querySelector(".quiz-choices");
    group.addEventListener("keydown", (event) => {
      if (!inputs.includes(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
      // Enter, and Space on a choice already checked (by an arrow), which the browser does not click
      if (event.key === "Enter" || (event.key === " " && event.target.checked)) {
        event.preventDefault();
        event.target.checked = true;
        answer();
      } else if (ARROWS.has(event.key)) {
        arrowed = true;
        setTimeout(() => { arrowed = false; }); // after this key's own click, whether or not it made one
      }
    });
    for (const input of inputs) input.addEventListener("click", () => (arrowed ? browse() : answer()));
  }
  const saved = kept.get()?.split(",");
  if (saved?.every((c) => why.has(c))) { // choices of the page as built: an answer to an older quiz is not shown
    for (const input of inputs) input.checked = saved.includes(input.value);
    show(saved);
  } else if (!multiple) {
    // Chosen before this module had loaded: a click or tap answered; a key (its focus ring shows)
    // may have been an arrow, so the choice waits for Space or Enter.
    const chosen = inputs.find((i) => i.checked);
    if (chosen?.matches(":focus-visible")) browse();
    else if (chosen) answer();
  }
}
