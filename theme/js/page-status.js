// The runtime status line's first words, set while the page is parsed (right after the line).
// Classic, not a module: from file:// Chromium runs no module scripts, and this line must still
// say why. External, not inline: the pages' Content-Security-Policy allows no inline script.
(function (el) {
  if (!el) return;
  if (location.protocol === "file:") {
    el.dataset.state = "unavailable";
    el.dataset.stage = "failed";
    el.textContent = "Opened from a file: browsers will not run Python here. Serve the folder (python3 dev.py serve) for live figures; until then figures show precomputed results.";
  } else {
    el.textContent = "Figures show precomputed results; Python starts when you reach one.";
  }
})(document.querySelector("[data-runtime-status]"));
