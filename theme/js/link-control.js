// "Link to this view": the control under each figure that copies a link to the figure's state
// (figures.js makes the address and the history entry). Copied with the clipboard where the browser
// allows it; where it does not, the link is shown selected in a text box to copy by hand, so it is
// never lost. A status line says which, for every reader (role="status").
import { html } from "./svg.js";

const JOB = " It opens the figure as its page draws it: a model trained in the page is not part of a link.";

/** Add the control to figure element `el`; `link()` makes the link when pressed: { url, job }. */
export function linkControl(el, link) {
  const box = html("div", { class: "figure-link" });
  const button = html("button", { type: "button" }, box, "Link to this view");
  const status = html("span", { class: "figure-link-status", role: "status" }, box);
  const field = html("label", { class: "figure-link-field", hidden: "" }, box, "Link: ");
  const input = html("input", { type: "text", readonly: "" }, field);
  button.addEventListener("click", async () => {
    const { url, job } = link();
    input.value = url;
    let copied = false;
    try {
      await navigator.clipboard.writeText(url); // absent or refused: shown in the box instead
      copied = true;
    } catch {
      copied = false;
    }
    field.hidden = copied;
    status.textContent = (copied ? "Link copied." : "Copy the link from the box.") + (job ? JOB : "");
    if (!copied) {
      input.focus();
      input.select();
    }
  });
  el.querySelector(".figure-note").after(box);
  return box;
}
