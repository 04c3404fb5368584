// The runtime status line's first words (it stands only on pages with a live figure), set while the
// page is parsed (right after the line), and, opened from a file, why the exercises cannot run. Classic, not a module: from file://
// Chromium runs no module scripts, and the page must still say why. External, not inline: the
// pages' Content-Security-Policy allows no inline script.
(function (el) {
  var fromFile = location.protocol === "file:";
  if (el && fromFile) {
    el.dataset.state = "unavailable";
    el.dataset.stage = "failed";
    el.textContent = "Opened as a file, this page cannot start live figures (browsers only run them for pages from a web server); every figure shows its precomputed result.";
  } else if (el) {
    el.textContent = "Figures show precomputed results; live figures start when you reach one.";
  }
  if (fromFile) {
    document.addEventListener("DOMContentLoaded", function () {
      document.querySelectorAll("[data-exercise-result]").forEach(function (result) {
        result.dataset.state = "error";
        result.textContent = "Your code cannot run here: opened as a file, the browser will not start Python " +
          "(it only does for pages from a web server). The task, the hints and the solution stay readable.";
      });
    });
  }
})(document.querySelector("[data-runtime-status]"));
