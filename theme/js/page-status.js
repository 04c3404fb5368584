// The runtime status line's first words on a page that uses Python, set while the page is parsed (right after the line),
// and, opened from a file, why the exercises cannot run. Classic, not a module: from file://
// Chromium runs no module scripts, and the page must still say why. External, not inline: the
// pages' Content-Security-Policy allows no inline script.
(function (el) {
  if (el && !el.hasAttribute("data-python")) el = null; // no live figure: the line says Python is not needed
  var fromFile = location.protocol === "file:";
  if (el && fromFile) {
    el.dataset.state = "unavailable";
    el.dataset.stage = "failed";
    el.textContent = "Opened from a file: browsers will not run Python here. Serve the folder (python3 dev.py serve) for live figures; until then figures show precomputed results.";
  } else if (el) {
    el.textContent = "Figures show precomputed results; Python starts when you reach one.";
  }
  if (fromFile) {
    document.addEventListener("DOMContentLoaded", function () {
      document.querySelectorAll("[data-exercise-result]").forEach(function (result) {
        result.dataset.state = "error";
        result.textContent = "Your code cannot run here: opened from a file, the browser will not start Python. " +
          "Serve the folder (python3 dev.py serve) to run it; the task, the hints and the solution stay readable.";
      });
    });
  }
})(document.querySelector("[data-runtime-status]"));
