// The kiosk (templates/cardroom/kiosk.html): a refusal puts the focus on the field in error;
// after a player has put their name down, the confirmation goes back to a blank form by
// itself, so the next player never sees it.
(function () {
  "use strict";
  // A refused name comes back with the focus on the first field in error (Django marks it
  // aria-invalid), else on what was refused, not at the top of the page.
  document.addEventListener("DOMContentLoaded", function () {
    var bad = document.querySelector('.kiosk-form [aria-invalid="true"]') ||
      document.querySelector(".kiosk-form .errorlist, .kiosk-message[role='alert']");
    if (!bad) { return; }
    if (!bad.matches("input, select, textarea, button")) { bad.setAttribute("tabindex", "-1"); }
    bad.focus();
  });
  document.addEventListener("DOMContentLoaded", function () {
    var done = document.querySelector("[data-reset-after]");
    if (!done) { return; }
    var seconds = parseInt(done.dataset.resetAfter, 10) || 20;
    window.setTimeout(function () {
      window.location.replace(window.location.pathname);
    }, seconds * 1000);
  });
})();
