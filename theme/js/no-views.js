// Where no figure view can draw, show the fallback drawings that site.css hides for the views
// (it hides them where scripts run, so that they are not fetched ahead). Opened as a file, Chromium
// runs no module script, figures.js included; served, figures.js may fail to load. Classic, not a
// module, to run in both cases; deferred: it needs no more than the page and blocks nothing.
(function () {
  function show() { document.documentElement.dataset.noViews = ""; }
  if (location.protocol === "file:") show();
  var views = document.querySelector("script[data-figure-views]"); // figures.js, marked by the chapter template
  if (views) views.addEventListener("error", show);
})();
