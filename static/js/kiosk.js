// The kiosk (templates/cardroom/kiosk.html): after a player has put their name down, the
// confirmation goes back to a blank form by itself, so the next player never sees it.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var done = document.querySelector("[data-reset-after]");
    if (!done) { return; }
    var seconds = parseInt(done.dataset.resetAfter, 10) || 20;
    window.setTimeout(function () {
      window.location.replace(window.location.pathname);
    }, seconds * 1000);
  });
})();
